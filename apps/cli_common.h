// What every per-frame command shares: the input options on the command line, and progress.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "rigscope/core/error.h"
#include "rigscope/core/run_timer.h"
#include "rigscope/run/input.h"
#include "rigscope/run/progress.h"

namespace rigscope::cli {

// Validators for numeric options: finite numbers only, and messages that write numbers as people
// do: "'2' is not a number from 0 to 1" (`what`: "a frame rate from ...").
CLI::Validator number_in(double lo, double hi, const std::string& what = "a number");
CLI::Validator positive_number();
CLI::Validator non_negative_number();

// Adds FILE and the input options every verb takes to a subcommand; `per_frame` adds frame
// selection too (the rows of run/option_table.h's input_options()).
void add_input_options(CLI::App* cmd, InputOptions& opt, bool per_frame = true);

// --weld, for the commands whose result depends on the weld (tension and what builds on it,
// diff, rivet, info). deform, drive and lint do not offer it: deform and drive work on file
// vertices, and the lint joins vertices by position alone (its seam and face checks), which is
// what it checks.
void add_weld_option(CLI::App* cmd, InputOptions& opt);

// --skinning, for the commands that skin (all per-frame ones but drive, which evaluates only the
// rig's morph weights), and --threads, for those whose frames run on the thread pool (tension,
// check, report, diff): an option is offered only where it acts.
void add_skinning_option(CLI::App* cmd, InputOptions& opt);
void add_threads_option(CLI::App* cmd, InputOptions& opt);
// --max-output, for the commands whose output grows with frames and vertices (deform, tension).
void add_max_output_option(CLI::App* cmd, InputOptions& opt);

// --format, for the verbs that write several (run/output_formats.h): its choices, and its help
// ("csv, json or gltf (default: from -o's extension, else csv)"), are the verb's row.
void add_format_option(CLI::App* cmd, const char* verb, std::string& format);

// `text` on stdout, as every command prints its report (an OutputFile "-").
void print_text(const std::string& text);

// Progress on stderr for long runs: only when stderr is a terminal and not quiet (-q sets the
// log level to errors), and only once a run has taken more than a moment, so short runs print
// nothing.
class Progress {
public:
    Progress(std::size_t total, const char* what);
    void step(std::size_t done);
    void finish();

private:
    std::size_t total_;
    const char* what_;
    bool enabled_;
    bool shown_ = false;
    RunTimer timer_;
    double last_ = 0;  // the timer's seconds at the line last shown
};

// A FrameProgress showing a Progress line for `what`; the line is cleared after the last frame.
FrameProgress terminal_progress(const char* what);

// The rules every command's options share, applied once the command line is parsed and before
// any work: no option naming a file or a list is given an empty value, no two outputs name one
// file, and '#' frame patterns appear only where frames are written one file each. Throws Error
// (exit 2).
void check_parsed_paths(const CLI::App& cmd);

}  // namespace rigscope::cli
