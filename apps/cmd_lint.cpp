// `rigscope lint`: the skinning mistakes of a rig file in its bind pose (run/lint_job.h), as
// text, JSON or JUnit; exit 1 when an error is found (with --strict, a warning too).

#include "batch_command.h"
#include "cli_common.h"
#include "commands.h"
#include "option_table_cli.h"
#include "verb_command.h"
#include "rigscope/core/error.h"
#include "rigscope/io/output.h"
#include "rigscope/run/lint_job.h"

namespace rigscope::cli {

namespace {

struct LintCommand {
    LintJobOptions job;  // job.format: text|json, default from -o's extension, else text
    BatchOptions batch;  // FILE... and the batch's options
};

int run_lint_command(LintCommand& cmd, RunContext&) {
    cmd.batch.junit = cmd.job.junit;
    cmd.batch.output = batch_output(cmd.job.out);
    return batch_or_one(cmd, cmd.job.input.file, run_lint_batch, [&cmd](const LintJobOptions& opt) {
        const LintJobResult r = load_and_run_lint(opt, terminal_progress("lint"));
        // Both paths are checked (not an input, folder writable) before anything is written.
        OutputSet files(r.paths);
        OutputFile* junit = files.open_if(opt.junit);
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
    add_table_options(cmd, lint_options(), opt->job);
    run_when_chosen(cmd, run, opt, run_lint_command);
}

RIGSCOPE_REGISTER_COMMAND(9, add_lint_command);

}  // namespace rigscope::cli
