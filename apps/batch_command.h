// Several inputs on the command line (check, lint, tension, report, info, deform, diff, volume): FILE... takes files, folders and @lists,
// with --jobs, --task and --summary; the batch itself is the run layer's (rigscope/run/batch.h).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "rigscope/run/batch.h"

namespace rigscope::cli {

// Turns the command's FILE (added by add_input_options) into FILE... bound to opt.inputs, and
// adds --jobs, --task and --summary; sets opt's streaming (each file's text on stdout and a
// progress line on stderr as it is done) and signal handling.
void add_batch_options(CLI::App* cmd, BatchOptions& opt);

// True when the command line asks for a batch: more than one input, a folder, an @list, a
// placeholder in an output name or a batch option. One file named alone runs as it always has.
bool is_batch(const BatchOptions& opt);

// Writes the outputs, says the counts on stderr and returns the worst file's exit code (each
// file's text was printed as it was done).
int finish_batch(const BatchOptions& opt, const BatchResult& r);

}  // namespace rigscope::cli
