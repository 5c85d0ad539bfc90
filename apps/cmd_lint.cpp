// `rigscope lint`: the skinning mistakes of a rig file in its bind pose (run/lint_job.h), as
// text, JSON or JUnit; exit 1 when an error is found (with --strict, a warning too).

#include "rigscope/core/error.h"
#include "rigscope/io/output.h"
#include "rigscope/run/lint_job.h"
#include "verb_command.h"

namespace rigscope::cli {

namespace {

struct LintCommand {
    LintJobOptions job;  // job.format: text|json, default from -o's extension, else text
    std::string junit;
    BatchOptions batch;  // FILE... and the batch's options
};

int run_lint_command(LintCommand& cmd, RunContext&) {
    cmd.batch.junit = cmd.junit;
    cmd.batch.output = batch_output(cmd.job.out);
    return batch_or_one(cmd, cmd.job.input.file, run_lint_batch, [&cmd](const LintJobOptions& opt) {
        const LintJobResult r = load_and_run_lint(opt, terminal_progress("lint"));
        // Both paths are checked (not an input, folder writable) before anything is written.
        OutputSet files(r.paths);
        OutputFile* junit = files.open_if(cmd.junit);
        files.open(opt.out).write(r.output);
        if (junit) junit->write(r.junit);
        files.commit();
        return r.lint.failed() ? kExitCheckFailed : kExitOk;
    });
}

}  // namespace

void add_lint_command(CLI::App& app, Runner& run) {
    auto opt = std::make_shared<LintCommand>();
    CLI::App* cmd = app.add_subcommand("lint", "Skinning mistakes in the bind pose: weights, seams, symmetry, faces, skeleton");
    add_input_options(cmd, opt->job.input, false);
    add_batch_options(cmd, opt->batch);
    LintParams& p = opt->job.lint.params;
    cmd->add_option("--weight-tolerance", p.weight_tolerance, "weights_sum, seam_weights, mirror: largest weight difference (default 1e-3)");
    cmd->add_option("--max-influences", p.max_influences, "influences: most non-zero weights per vertex (default 4)");
    cmd->add_option("--min-weight", p.min_weight, "small_weight: smallest non-zero weight (default 1e-3)");
    cmd->add_option("--mirror", opt->job.lint.mirror, "mirror: the axis the rig is symmetric in, x|y|z (default: not checked)");
    cmd->add_option("--mirror-names", opt->job.lint.mirror_names, "mirror: joint name parts that swap sides, A=B (repeatable)");
    cmd->add_option("--mirror-tolerance", p.mirror_tolerance, "mirror: partner distance, relative to the mesh diagonal (default 1e-5)");
    cmd->add_option("--bind-tolerance", p.bind_tolerance, "bind_pose: largest distance, relative to the mesh diagonal (default 1e-4)");
    cmd->add_option("--scale-tolerance", p.scale_tolerance, "joint_scale: largest relative spread of a joint's scale (default 1e-3)");
    cmd->add_flag("--strict", opt->job.lint.strict, "Warnings fail too (exit 1)");
    cmd->add_option("--format", opt->job.format, "text or json (default: json when -o ends in .json, else text)")
        ->check(CLI::IsMember({"text", "json"}));
    cmd->add_option("-o,--output", opt->job.out, "Output file or - for stdout");
    cmd->add_option("--junit", opt->junit, "Also write a JUnit XML report here (one test case per check)");
    cmd->add_option("--list", opt->job.listed, "Findings listed per check in text and JUnit (default 20, 0: all; JSON has all)");
    run_when_chosen(cmd, run, opt, run_lint_command);
}

RIGSCOPE_REGISTER_COMMAND(9, add_lint_command);

}  // namespace rigscope::cli
