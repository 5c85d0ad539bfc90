// `rigscope lint`: the skinning mistakes of a rig file in its bind pose (run/lint_run.h), as
// text, JSON or JUnit; exit 1 when an error is found (with --strict, a warning too).
#include <chrono>
#include <memory>

#include "batch_command.h"
#include "cli_common.h"
#include "commands.h"
#include "rigscope/core/error.h"
#include "rigscope/io/lint_report.h"
#include "rigscope/io/output.h"
#include "rigscope/run/lint_run.h"

namespace rigscope::cli {

namespace {

struct LintCommand {
    InputOptions input;
    LintOptions lint;
    std::string format;  // text|json; default from -o's extension, else text
    std::string out = "-";
    std::string junit;
    std::size_t listed = 20;
    BatchOptions batch;  // FILE... and the batch's options
};

int run_lint_command(LintCommand& opt) {
    lint_output_format(opt.format, opt.out);  // before the file is read
    opt.batch.junit = opt.junit;
    opt.batch.output = opt.out == "-" ? "" : opt.out;
    if (is_batch(opt.batch)) {
        LintBatchOptions lint{opt.input, opt.lint, opt.format, opt.listed};
        return finish_batch(opt.batch, run_lint_batch(opt.batch, lint));
    }
    opt.input.file = opt.batch.inputs.front();
    opt.lint.validate();  // before the file is read: a bad value is the command line's fault
    const auto started = std::chrono::steady_clock::now();
    CheckRunInfo info = start_run_info();
    const Input in = load_input(opt.input, false);
    const LintResult result = run_lint(opt.lint, in, terminal_progress("lint"));
    info.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const std::string format = lint_output_format(opt.format, opt.out);
    // Both paths are checked (not an input, folder writable) before anything is written.
    std::unique_ptr<OutputFile> junit = opt.junit.empty() ? nullptr : std::make_unique<OutputFile>(opt.junit, in.paths);
    OutputFile out(opt.out, in.paths);
    out.write(format == "json" ? lint_json(result) : lint_text(result, opt.listed));
    if (junit) {
        junit->write(lint_junit(result, info, opt.listed));
        junit->finish();
    }
    out.commit();
    if (junit) junit->commit();
    return result.failed() ? kExitCheckFailed : kExitOk;
}

}  // namespace

void add_lint_command(CLI::App& app, Runner& run) {
    auto opt = std::make_shared<LintCommand>();
    CLI::App* cmd = app.add_subcommand("lint", "Skinning mistakes in the bind pose: weights, seams, symmetry, faces, skeleton");
    add_input_options(cmd, opt->input, false);
    add_batch_options(cmd, opt->batch);
    LintParams& p = opt->lint.params;
    cmd->add_option("--weight-tolerance", p.weight_tolerance, "weights_sum, seam_weights, mirror: largest weight difference (default 1e-3)");
    cmd->add_option("--max-influences", p.max_influences, "influences: most non-zero weights per vertex (default 4)");
    cmd->add_option("--min-weight", p.min_weight, "small_weight: smallest non-zero weight (default 1e-3)");
    cmd->add_option("--mirror", opt->lint.mirror, "mirror: the axis the rig is symmetric in, x|y|z (default: not checked)");
    cmd->add_option("--mirror-names", opt->lint.mirror_names, "mirror: joint name parts that swap sides, A=B (repeatable)");
    cmd->add_option("--mirror-tolerance", p.mirror_tolerance, "mirror: partner distance, relative to the mesh diagonal (default 1e-5)");
    cmd->add_option("--bind-tolerance", p.bind_tolerance, "bind_pose: largest distance, relative to the mesh diagonal (default 1e-4)");
    cmd->add_option("--scale-tolerance", p.scale_tolerance, "joint_scale: largest relative spread of a joint's scale (default 1e-3)");
    cmd->add_flag("--strict", opt->lint.strict, "Warnings fail too (exit 1)");
    cmd->add_option("--format", opt->format, "text or json (default: json when -o ends in .json, else text)")
        ->check(CLI::IsMember({"text", "json"}));
    cmd->add_option("-o,--output", opt->out, "Output file or - for stdout");
    cmd->add_option("--junit", opt->junit, "Also write a JUnit XML report here (one test case per check)");
    cmd->add_option("--list", opt->listed, "Findings listed per check in text and JUnit (default 20, 0: all; JSON has all)");
    cmd->callback([&run, opt] { run = [opt](RunContext&) { return run_lint_command(*opt); }; });
}

RIGSCOPE_REGISTER_COMMAND(9, add_lint_command);

}  // namespace rigscope::cli
