// What `rigscope lint` found, and its three outputs: text for a terminal, JSON for a script,
// JUnit (one test case per check) for a CI server. The run layer (run/lint_checks.h) fills the
// result; the writers are pure functions of it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "rigscope/core/lint.h"
#include "rigscope/io/junit_report.h"

namespace rigscope {

struct LintResult {
    std::string version;  // rigscope's
    std::string file;     // the input as named
    LintParams params;    // as run (mirror axis and names resolved)
    bool strict = false;  // warnings fail too
    std::vector<std::string> checks;       // the checks run, in report order
    // The checks that had nothing to run on, in report order, and why (one reason: no selected
    // mesh has a skin). Reported as such, never as a pass.
    std::vector<std::string> not_checked;
    std::string not_checked_reason;
    std::vector<std::string> mesh_names;   // the scene's, by mesh index
    std::vector<std::string> joint_names;  // the scene's node names, by node index
    std::vector<Finding> findings;         // in report order: by check, then as each check lists them

    std::size_t count(Severity s) const;
    // An error, or with strict a warning: what makes the command exit 1.
    bool counts(const Finding& f) const { return f.severity == Severity::Error || (strict && f.severity == Severity::Warning); }
    // A counted finding, or a check that could not run: a lint that skipped its skin checks has
    // not passed them.
    bool failed() const;
};

// "error weights_sum 'Cesium_Man' vertex 0: weights sum to 0.6854066, ..." per finding, at most
// `listed` per check (0: all), a "not checked" line, then the counts and PASS or FAIL.
std::string lint_text(const LintResult& r, std::size_t listed);

// {"rigscope", "command": "lint", "input", "parameters", "checks", "not_checked": [{"check",
//  "reason"}], "counts", "failed",
//  "findings": [{"check", "severity", "mesh", "vertex" or "joint" (both for a weight on a joint),
//  "face", "partner", "value" where they apply, "message"}]}: every finding.
std::string lint_json(const LintResult& r);

// One test case per check run (classname rigscope.lint.<path key>: the file's path relative to
// the batch root, else its name, as junit_path_key writes it, so that two rig.glb in two folders
// never share a key; name the check), failed when a finding of it counts; its text lists at most
// `listed` findings (0: all). A check not run is a failed case of type rigscope.lint.not_checked
// (a skipped case would let the suite pass).
std::string lint_junit(const LintResult& r, const CheckRunInfo& run, std::size_t listed, const std::string& relpath = "");

// The test cases of lint_junit (one per check), for a suite of another command (check --lint).
std::vector<JUnitCase> lint_junit_cases(const LintResult& r, std::size_t listed, const std::string& relpath = "");

}  // namespace rigscope
