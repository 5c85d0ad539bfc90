// What `check` reports (the text on stdout and the JUnit XML) from each welded vertex's lowest
// and highest T over the frames, and those extremes as a chunk records them so `merge` can
// report over all chunks exactly as one run would (docs/farm.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rigscope/farm/chunk.h"
#include "rigscope/core/frames.h"

namespace rigscope {

struct CheckLimits {
    double max_stretch = 0, max_compress = 0;  // fail where T < max_stretch, T > max_compress
    bool has_stretch = false, has_compress = false;
    int worst = 10;
    std::string file;  // the input as named; its stem is part of the JUnit class names
};

// When and where the check ran, for the JUnit report's timestamp, time and hostname (the
// schemas CI servers validate against require them). Measured by the caller so that the
// report itself stays a pure function of its inputs.
struct CheckRunInfo {
    std::string timestamp;  // UTC start, YYYY-MM-DDThh:mm:ss (the Ant schema allows no zone)
    double seconds = 0;     // wall time of the run (for a merge: the sum of the chunks')
    std::string hostname = "localhost";
};

// Per welded vertex of one mesh: the file vertices it stands for, lowest and highest T and the
// first frame each was reached in. Empty when no frame was evaluated.
struct CheckMeshExtremes {
    std::string name;
    // Welded vertex w stands for file_ids[file_offsets[w]] .. file_ids[file_offsets[w + 1] - 1],
    // ascending, at least one (one flat list: a vector per vertex would cost a heap block each).
    std::vector<std::uint32_t> file_offsets, file_ids;
    std::vector<float> lo_t, hi_t;
    std::vector<Frame> lo_frame, hi_frame;
};

struct CheckOutcome {
    std::string report;  // stdout
    std::string junit;
    bool failed = false;
};

// Fills file_offsets / file_ids from a weld (file vertex -> welded vertex, welded < `welded`).
void set_file_ids(CheckMeshExtremes& mesh, const std::vector<std::uint32_t>& welded_of, std::size_t welded);

CheckOutcome check_outcome(const CheckLimits& limits, const CheckRunInfo& run, const std::vector<CheckMeshExtremes>& meshes);

// `rigscope.check.<file stem>.<mesh>`: dots and white space in the stem and the mesh name become
// '_' so that CI servers, which split class names on dots, group by input file and mesh.
std::string junit_class_name(const std::string& file, const std::string& mesh, std::size_t mesh_index);

// A chunk's extremes (and its run info): its record's "check" state.
std::string check_chunk_state(const CheckLimits& limits, const CheckRunInfo& run, const std::vector<CheckMeshExtremes>& meshes);

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
