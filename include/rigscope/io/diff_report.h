// What `diff` reports beyond its per-frame rows: per OLD vertex the largest displacement and
// change in T over the frames (and where), per frame the largest of each, and from these the
// summary (largest values, percentiles, worst vertices and frames, joint regions), the limit
// verdict with its JUnit report, and a chunk's record of them so `merge` reports over all chunks
// as one run would (docs/farm.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rigscope/io/check_report.h"
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

// The "summary" member of diff's JSON (an object, no trailing newline).
std::string diff_summary_json(const DiffLimits& limits, const std::vector<DiffMesh>& meshes, const std::vector<DiffFrame>& frames);

// The text on stdout (summary, then the limits' verdict) and the JUnit report, through check's
// writer (junit_report.h): suite named for NEW's stem in package rigscope.diff, one test case per
// limit given, classname rigscope.diff.<NEW stem>.
CheckOutcome diff_outcome(const DiffLimits& limits, const CheckRunInfo& run, const std::vector<DiffMesh>& meshes,
                          const std::vector<DiffFrame>& frames);

// One clip's part of a diff over several clips (run/diff_run.h): its limits (clip named), the
// per-mesh extremes and per-frame maxima.
struct DiffClipReport {
    const DiffLimits* limits = nullptr;
    const std::vector<DiffMesh>* meshes = nullptr;
    const std::vector<DiffFrame>* frames = nullptr;
};

// The verdict over several clips, each judged on its own: the text gives each clip's summary and
// verdict under "clip 'NAME':", a count and the file's verdict (the worst clip's); the JUnit
// report a suite with every clip's cases (class rigscope.diff.<path>.<clip>). One clip: exactly
// diff_outcome's.
CheckOutcome diff_clips_outcome(const std::vector<DiffClipReport>& clips, const CheckRunInfo& run);

}  // namespace rigscope
