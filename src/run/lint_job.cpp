// The `lint` job (run/lint_job.h).
#include "rigscope/run/lint_job.h"
#include "rigscope/run/output_formats.h"

#include "rigscope/core/error.h"
#include "rigscope/io/output.h"

namespace rigscope {

void LintJobOptions::validate() const {
    if (!format.empty() && format != "text" && format != "json") throw Error(kExitUsage, "--format: '" + format + "' is not text or json");
    verb_output_format("lint", format, out);
    lint.validate();
}

Input load_lint_input(const LintJobOptions& opt) { return load_input(opt.input, false); }

LintJobResult run_lint(const LintJobOptions& opt, const Input& in, const FrameProgress& progress, const RunStart& start) {
    opt.validate();
    LintJobResult r;
    r.lint = lint_checks(opt.lint, in, progress);
    r.info = start.until_now();
    r.format = verb_output_format("lint", opt.format, opt.out);
    r.text = lint_text(r.lint, opt.listed);
    r.output = r.format == "json" ? lint_json(r.lint) : r.text;
    r.junit = lint_junit(r.lint, r.info, opt.listed, opt.relpath);
    r.meshes = in.meshes.size();
    for (int m : in.meshes) r.vertices += in.scene.meshes[m].vertex_count();
    r.paths = in.paths;
    return r;
}

LintJobResult load_and_run_lint(const LintJobOptions& opt, const FrameProgress& progress, const RunStart& start) {
    opt.validate();  // before the file is read: a bad value is the command line's fault
    return run_lint(opt, load_lint_input(opt), progress, start);
}

}  // namespace rigscope
