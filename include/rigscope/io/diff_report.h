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

// One OLD mesh compared with its NEW counterpart. Per compared vertex (a welded vertex of OLD,
// listed once however many file vertices share it): the OLD file vertex that names it, the
// region it belongs to (its heaviest influence's joint in OLD), the largest displacement
// |p_new - p_old| (metres) and the change in T of largest magnitude (signed), and the first frame
// each was reached in.
struct DiffMesh {
    std::string name;
    double diagonal = 0;                 // OLD bind pose bounding box diagonal
    std::vector<std::uint32_t> vertex;   // per compared vertex, its first OLD file vertex (empty: the same)
    std::vector<std::string> regions;    // region names; a vertex without influences: "(unskinned)"
    std::vector<std::uint32_t> region;   // per compared vertex, index into regions
    std::vector<float> displacement, t_change;
    std::vector<Frame> displacement_frame, t_change_frame;
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
};

// The "summary" member of diff's JSON (an object, no trailing newline).
std::string diff_summary_json(const DiffLimits& limits, const std::vector<DiffMesh>& meshes, const std::vector<DiffFrame>& frames);

// The text on stdout (summary, then the limits' verdict) and the JUnit report, through check's
// writer (junit_report.h): suite named for NEW's stem in package rigscope.diff, one test case per
// limit given, classname rigscope.diff.<NEW stem>.
CheckOutcome diff_outcome(const DiffLimits& limits, const CheckRunInfo& run, const std::vector<DiffMesh>& meshes,
                          const std::vector<DiffFrame>& frames);

}  // namespace rigscope
