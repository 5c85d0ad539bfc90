// What a `check --chunk` run records beside its report (its extremes, ROM frames and timing), and
// the check over all chunks that `merge` reports from those records (docs/farm.md).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "rigscope/core/intersection_verdict.h"
#include "rigscope/farm/chunk.h"
#include "rigscope/io/check_report.h"

namespace rigscope {

// A chunk's extremes (and its ROM frames, with --max-volume-loss its volume ratios per frame, with
// --max-intersections its frames' verdict) as its record's "check" state, and its run info as its "run" state: (kind, JSON) pairs for the
// chunk record.
std::vector<std::pair<std::string, std::string>> check_chunk_state(const CheckLimits& limits, const CheckRunInfo& run,
                                                                   const std::vector<CheckMeshExtremes>& meshes,
                                                                   const CheckRom* rom = nullptr,
                                                                   const std::vector<std::string>& not_judged = {},
                                                                   const VolumeLossVerdict* volume = nullptr,
                                                                   const IntersectionVerdict* intersections = nullptr);

// The outcome of a check over all frames of `chunks` (records of check --chunk runs), from
// their states. Throws Error (exit 3) naming a chunk whose state is unreadable.
CheckOutcome merge_check_chunks(const std::vector<ChunkRecord>& chunks);

// `run` as a chunk record's "run" state (JSON).
std::string run_info_state(const CheckRunInfo& run);

// The merged run's info from the chunks' "run" states: the earliest start, the sum of the
// chunks' times, chunk 0's host (the Ant schema has room for one). Throws Error (exit 3) naming a
// record whose state is missing or unreadable.
CheckRunInfo merged_run_info(const std::vector<ChunkRecord>& chunks);

}  // namespace rigscope
