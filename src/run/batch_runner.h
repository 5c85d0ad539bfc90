// Running a batch's files: the one engine every verb's batch (batch_run.cpp) hands its file job
// to. Private to the run layer; rigscope/run/batch.h is what callers see.
#pragma once

#include <functional>
#include <vector>

#include "rigscope/run/chunk_run.h"
#include "rigscope/run/batch.h"

namespace rigscope {

// What one file of the batch runs: its verb's job, filling the file's result (row, texts).
using BatchFileJob = std::function<void(BatchFileResult&, const BatchInput&)>;

// The batch's files (this task's slice), outputs checked, each file's options checked by
// `precheck` (if given: what the verb's job would refuse for that file's names, e.g. an
// extension that disagrees with the format), all before any work; then each file's job `one`
// run by `jobs` threads (input order, or largest first with several); results kept by index.
// `expand`, if given, is the verb's own reading of the arguments (diff's pairs). With --task the
// batch's identity (farm/batch_identity.h) is taken before any work: every file stamped, the
// verb's `options` (its job's chunk identity), and each of this task's files hashed just before
// its job reads it.
BatchResult run_batch(const BatchOptions& opt, const char* verb, ChunkOptions options, const BatchFileJob& one,
                      const std::function<void(const BatchInput&)>& precheck = {},
                      const std::function<std::vector<BatchInput>()>& expand = {});

}  // namespace rigscope
