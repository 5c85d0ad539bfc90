// The `lint` job: the rig's skinning mistakes in its bind pose (run/lint_checks.h), chosen and
// formatted once for `rigscope lint`, each file of its batch and the Python module's
// Session.lint(): text or JSON by --format or -o's name, and the JUnit report.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "rigscope/io/lint_report.h"
#include "rigscope/run/input.h"
#include "rigscope/run/lint_checks.h"
#include "rigscope/run/progress.h"
#include "rigscope/run/run_start.h"

namespace rigscope {

struct LintJobOptions {
    InputOptions input;
    LintOptions lint;       // the checks' tolerances, --mirror, --strict
    std::string format;     // text|json; "" chooses by out's name (run/output_formats.h: verb_output_format)
    std::string out = "-";  // -o (a batch's, expanded per file; "-" or "" for none)
    std::string junit;      // --junit: where the caller writes LintJobResult::junit ("": not written)
    std::size_t listed = 20;  // --list: findings per check in text and JUnit (0: all)
    std::string relpath;    // the file's path relative to a batch's root, in the JUnit class names

    // Throws Error (exit 2) for a format that is not text or json, a name that says otherwise
    // than what would be written, or a tolerance out of range, before any file is read.
    void validate() const;
};

struct LintJobResult {
    LintResult lint;          // the findings (failed(): the verdict, exit 1)
    CheckRunInfo info;        // the run: loading and checks
    std::string format;       // "text" or "json": what output holds
    std::string output;       // what -o gets
    std::string text;         // the text report (a batch shows it when each file's -o is JSON)
    std::string junit;        // the JUnit report
    std::size_t meshes = 0, vertices = 0;  // the selected meshes, their file vertices
    std::vector<ReadFile> paths;  // every input file: no report may replace one
};

// What lint loads: opt.input's scene and meshes, without frames (the lint reads the bind pose).
Input load_lint_input(const LintJobOptions& opt);

// Validates, runs the checks on `in` (progress counts them) and formats the result; writes
// nothing. The run's time counts from `start`.
LintJobResult run_lint(const LintJobOptions& opt, const Input& in, const FrameProgress& progress = {}, const RunStart& start = {});

// Validates, loads (load_lint_input) and runs; the time counts the loading too: the CLI's and a
// batch's entry.
LintJobResult load_and_run_lint(const LintJobOptions& opt, const FrameProgress& progress = {}, const RunStart& start = {});

}  // namespace rigscope
