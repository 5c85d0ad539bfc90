// What a `diff --chunk` run records beside its output, and the diff over all chunks that `merge`
// reports from those records (docs/farm.md).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "rigscope/farm/chunk.h"
#include "rigscope/io/diff_report.h"

namespace rigscope {

// A chunk's per-vertex extremes and frame maxima as its record's "diff" state, and its run info
// as its "run" state: (kind, JSON) pairs for the chunk record.
std::vector<std::pair<std::string, std::string>> diff_chunk_state(const DiffLimits& limits, const CheckRunInfo& run,
                                                                  const std::vector<DiffMesh>& meshes, const std::vector<DiffFrame>& frames);

// The extremes and frames of all of `chunks` (records of diff --chunk runs) combined as one
// run would have seen them (the run's timing: merged_run_info). Throws Error (exit 3) naming a
// chunk whose state is unreadable.
void merge_diff_chunks(const std::vector<ChunkRecord>& chunks, DiffLimits& limits, std::vector<DiffMesh>& meshes,
                       std::vector<DiffFrame>& frames);

}  // namespace rigscope
