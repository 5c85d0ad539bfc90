// diff's verdict, decided in one place (issue 61: never by a writer): which compared vertices
// and seams pass which limit. The text, JUnit and JSON of `diff`, Python's DiffResult and a merge
// of chunks all say the DiffVerdict judge_diff returns.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rigscope/core/frames.h"

namespace rigscope {

// One OLD mesh compared with its NEW counterpart. Per compared vertex (--match index: a file
// vertex; --match position: a welded vertex of OLD, listed once however many file vertices
// share it): the OLD file vertex that names it, the
// region it belongs to (its heaviest influence's joint in OLD), the largest displacement
// |p_new - p_old| (metres) and the change in T of largest magnitude (signed), and the first frame
// each was reached in.
// A seam NEW tears: OLD file vertices `vertex` and `other` are one welded vertex in OLD (so move
// as one), NEW keeps them apart and they part by `gap` metres at `frame` (its largest over the
// frames; OLD's own gap there is zero).
struct SeamTear {
    std::uint32_t vertex = 0, other = 0;
    float gap = 0;
    Frame frame;
};

// A gap below this share of the mesh diagonal is float rounding of two copies of one point
// skinned apart (about 1e-7 of the coordinates), not a tear: ten times that.
constexpr double kSeamGapRelative = 1e-6;

struct DiffMesh {
    std::string name;
    double diagonal = 0;                 // OLD bind pose bounding box diagonal
    std::vector<std::uint32_t> vertex;   // per compared vertex, its first OLD file vertex (empty: the same)
    std::vector<std::string> regions;    // region names; a vertex without influences: "(unskinned)"
    std::vector<std::uint32_t> region;   // per compared vertex, index into regions
    std::vector<float> displacement, t_change;
    std::vector<Frame> displacement_frame, t_change_frame;
    std::vector<SeamTear> seams;         // --match index: the seams NEW tears, by OLD file vertex
};

// Per evaluated frame: the largest displacement and |change in T| over all meshes, and where
// (vertex: the OLD file vertex naming the compared vertex).
struct DiffFrame {
    Frame frame;
    float displacement = 0, t_change = 0;
    std::uint32_t mesh = 0, vertex = 0;          // of the displacement
    std::uint32_t t_mesh = 0, t_vertex = 0;      // of the change in T
};

struct DiffLimits {
    double max_displacement = 0, max_t_change = 0;
    bool has_displacement = false, has_t_change = false;
    int worst = 10;
    std::string old_file, new_file;
    // --match index with the weld on: OLD's welded vertices were checked for seams NEW tears.
    // Without it there is no seam case (a pass would claim what was not checked).
    bool seams_checked = false;
    // The clip compared and OLD's path relative to a batch's root ("" for one pair: NEW's file
    // name stands): the JUnit class name rigscope.diff.<path>.<clip> (io/junit_report.h).
    std::string clip, relpath;
    std::vector<std::string> not_judged;  // OLD's clips --clip left out: said beside the verdict
};

// A compared vertex (or a torn seam) of one mesh: DiffMesh's index, and the vertex's index in its
// arrays (a seam's in DiffMesh::seams).
struct DiffVertexRef {
    std::uint32_t mesh = 0, vertex = 0;
};

// Every compared vertex of every mesh, the largest displacement (or |change in T|) first; ties
// keep mesh and vertex order. Every torn seam, the widest first, ties in mesh and seam order.
std::vector<DiffVertexRef> diff_ranked(const std::vector<DiffMesh>& meshes, bool t_change);
std::vector<DiffVertexRef> diff_ranked_seams(const std::vector<DiffMesh>& meshes);

enum class DiffCaseKind { nothing_compared, displacement, t_change, seam_torn };

// One judged case: a limit given (its bound and what passed it, worst first), or nothing compared.
struct DiffCaseVerdict {
    DiffCaseKind kind = DiffCaseKind::displacement;
    double bound = 0;
    std::vector<DiffVertexRef> failures;
    bool failed() const { return kind == DiffCaseKind::nothing_compared || !failures.empty(); }
};

struct DiffVerdict {
    // In the order every output lists them: nothing compared (no vertex of any mesh, or no
    // frame: never a pass, with a limit or without), --max-displacement, --max-t-change, and with
    // a limit given and seams checked, "seam torn" (a gap past --max-displacement, else any gap).
    std::vector<DiffCaseVerdict> cases;
    bool failed() const;
};

DiffVerdict judge_diff(const DiffLimits& limits, const std::vector<DiffMesh>& meshes, const std::vector<DiffFrame>& frames);

}  // namespace rigscope
