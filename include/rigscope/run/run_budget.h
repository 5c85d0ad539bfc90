// --max-memory over the whole run, not only the load: a small file can declare meshes whose
// prepared topology and per-vertex arrays need many times what the file itself loads (a glTF
// accessor without a buffer view is count zeros). Checked once the scene is loaded and before
// any of it is prepared, so a run over the budget is refused before it grows.
#pragma once

#include <cstdint>
#include <string>

#include "rigscope/run/tension_run.h"

namespace rigscope {

// An upper estimate of what prepare_tension will hold for in's selected meshes with opt's
// measure, in bytes.
std::uint64_t prepared_tension_bytes(const Input& in, const TensionOptions& opt);

// Throws Error (exit 3, naming the file and --max-memory) when the loaded scene, the prepared
// meshes and `per_run_bytes` more (a job's per-frame arrays) need more than opt's --max-memory.
// `what` names the job in the message.
void check_run_budget(const Input& in, const TensionOptions& opt, std::uint64_t per_run_bytes, const char* what);

// Throws Error (exit 3, naming the file and --max-memory) when the loaded scene and `job_bytes`
// more (what the job `what` keeps: a rivet fit's samples, a sweep's keys) need more than in's
// --max-memory; `hint` says how to need less.
void check_job_budget(const Input& in, double job_bytes, const std::string& what, const std::string& hint);

// --max-output (issue 57 item 5): throws Error (exit 4) before the first byte when an output's
// least size `bytes` (a lower bound: a refusal is certain to be right) is past `max_mb` (10^6
// bytes; InputOptions::max_output_mb), naming the estimate and how to allow it; after
// check_free_space (an output its disk cannot hold is named as that). `path` "-" or a descriptor is limited alike: a pipe fills a disk too.
void check_output_size(const std::string& path, double bytes, double max_mb);

}  // namespace rigscope
