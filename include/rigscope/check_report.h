// What `check` reports (the text on stdout and the JUnit XML) from each welded vertex's lowest
// and highest T over the frames, and those extremes as a chunk records them so `merge` can
// report over all chunks exactly as one run would (docs/farm.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rigscope/chunk.h"
#include "rigscope/frames.h"

namespace rigscope {

struct CheckLimits {
    double max_stretch = 0, max_compress = 0;  // fail where T < max_stretch, T > max_compress
    bool has_stretch = false, has_compress = false;
    int worst = 10;
    std::string file;  // the input, the JUnit test cases' class name
};

// Per welded vertex of one mesh: its file vertex, lowest and highest T and the first frame
// each was reached in. Empty when no frame was evaluated.
struct CheckMeshExtremes {
    std::string name;
    std::vector<std::uint32_t> vertex;
    std::vector<float> lo_t, hi_t;
    std::vector<Frame> lo_frame, hi_frame;
};

struct CheckOutcome {
    std::string report;  // stdout
    std::string junit;
    bool failed = false;
};

CheckOutcome check_outcome(const CheckLimits& limits, const std::vector<CheckMeshExtremes>& meshes);

// Leaves a chunk's extremes as its record's "check" state.
void record_check_chunk(const CheckLimits& limits, const std::vector<CheckMeshExtremes>& meshes);

// The outcome of a check over all frames of `chunks` (records of check --chunk runs), from
// their states. Throws Error (exit 3) naming a chunk whose state is unreadable.
CheckOutcome merge_check_chunks(const std::vector<ChunkRecord>& chunks);

// A per-vertex limit of another command (diff), in check's JUnit form: one test case per limit,
// a failure listing the worst vertices when any passed it.
struct LimitCase {
    std::string classname, name;
    std::size_t failures = 0;          // vertices past the limit
    std::string message;               // the failure's message
    std::vector<std::string> worst;    // one line each, worst first
};
std::string limit_junit(const std::string& suite, const std::vector<LimitCase>& cases);

}  // namespace rigscope
