// Several inputs on the command line (check, lint, tension, report, info, deform, diff): FILE... takes files, folders and @lists,
// with --jobs, --task and --summary; the batch itself is the run layer's (rigscope/run/batch.h).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "rigscope/run/batch.h"

namespace rigscope::cli {

// Turns the command's FILE (added by add_input_options) into FILE... bound to opt.inputs, and
// adds --jobs, --task and --summary.
void add_batch_options(CLI::App* cmd, BatchOptions& opt);

// True when the command line asks for a batch: more than one input, a folder, an @list, a
// placeholder in an output name or a batch option. One file named alone runs as it always has.
bool is_batch(const BatchOptions& opt);

// Prints each file's text (unless -q), writes the outputs, says the counts on stderr and
// returns the worst file's exit code.
int finish_batch(const BatchOptions& opt, const BatchResult& r);

}  // namespace rigscope::cli
