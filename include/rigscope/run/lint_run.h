// The lint job: every check of core/lint.h over the selected meshes of a loaded input, in the
// bind pose (no frames). `rigscope lint`, the Python module's Session.lint() and `check --lint`
// call it on an Input they loaded.
#pragma once

#include <string>
#include <vector>

#include "rigscope/core/lint.h"
#include "rigscope/io/lint_report.h"
#include "rigscope/run/input.h"
#include "rigscope/run/progress.h"

namespace rigscope {

struct LintOptions {
    LintParams params;                      // the tolerances (--weight-tolerance, ...)
    std::string mirror;                     // --mirror x|y|z; empty: mirror not checked
    std::vector<std::string> mirror_names;  // --mirror-names A=B, each one pair
    bool strict = false;                    // --strict: warnings fail too

    // Throws Error (bad value) naming the option whose value is out of range.
    void validate() const;
};

// Validates, then runs every check on in.meshes (loaded without frames: the lint reads the bind
// pose). progress counts the checks. LintResult (io/lint_report.h) is what every writer reads.
LintResult run_lint(const LintOptions& opt, const Input& in, const FrameProgress& progress = {});

// What lint writes to `out` ("text" or "json"): --format, else JSON for a .json name, else text.
// Throws Error (exit 2) when the name says otherwise than what would be written (text under
// .json, .csv or .glb, JSON under any other name): the CLI's -o and each file of a batch alike.
std::string lint_output_format(const std::string& format, const std::string& out);

}  // namespace rigscope
