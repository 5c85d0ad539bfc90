// The lint engine: every check of core/lint.h over the selected meshes of a loaded input, in the
// bind pose (no frames). The lint job (run/lint_job.h: `rigscope lint`, its batch, the Python
// module's Session.lint()) and `check --lint` run it on an Input they loaded.
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
LintResult lint_checks(const LintOptions& opt, const Input& in, const FrameProgress& progress = {});

}  // namespace rigscope
