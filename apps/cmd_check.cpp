// `rigscope check`: tension limits for rig CI. Exit 1 when any vertex passes a limit, listing the
// worst vertices and frames; --junit writes a report CI servers read. The job is the run
// layer's (rigscope/run/check_job.h).
#include <utility>

#include "batch_command.h"
#include "commands.h"
#include "option_table_cli.h"
#include "rigscope/core/error.h"
#include "rigscope/io/output.h"
#include "rigscope/run/check_job.h"
#include "report_options.h"
#include "tension_setup.h"

namespace rigscope::cli {

namespace {

struct CheckCommand {
    CheckJobOptions job;  // job.junit, job.json: --junit, --json
    BatchOptions batch;  // FILE... and the batch's options
};

int run_check_command(CheckCommand& opt, RunContext& ctx) {
    opt.job.html.viewer = report_viewer_path();
    opt.batch.junit = opt.job.junit;
    opt.batch.json = opt.job.json;
    opt.batch.html = opt.job.html.out;
    if (is_batch(opt.batch)) return finish_batch(opt.batch, run_check_batch(opt.batch, opt.job));
    opt.job.tension.input.file = opt.batch.inputs.front();
    ctx.chunk(chunk_spec(opt.job));
    const CheckJobResult r = load_and_run_check(opt.job, terminal_progress("check"));
    // A chunk sees only its frames: its extremes go to the chunk record, and `merge` reports
    // over all chunks as one run would.
    const bool chunk = !opt.job.tension.input.chunk.empty();
    if (chunk)
        for (auto& state : r.chunk_state()) ctx.chunk_state.push_back(std::move(state));
    // The report files are checked (not an input, folder writable) and written in full before
    // the text is printed and before either takes its name.
    OutputSet files(r.paths);
    if (!opt.job.junit.empty()) files.add(opt.job.junit, r.outcome.junit);
    if (!opt.job.json.empty()) files.add(opt.job.json, r.outcome.json);
    print_text(r.outcome.report);
    files.commit();
    // A chunk's verdict is partial (merge gives the run's); failing it would stop the farm's merge.
    return r.outcome.failed && !chunk ? kExitCheckFailed : kExitOk;
}

}  // namespace

void add_check_command(CLI::App& app, Runner& run) {
    auto opt = std::make_shared<CheckCommand>();
    CheckJobOptions& job = opt->job;
    CLI::App* cmd = app.add_subcommand("check", "Rig CI: exit 1 when any vertex's T passes a limit");
    add_tension_options(cmd, job.tension);
    add_batch_options(cmd, opt->batch);
    add_table_options(cmd, check_options(), job);
    cmd->callback([&run, opt] { run = [opt](RunContext& ctx) { return run_check_command(*opt, ctx); }; });
}

RIGSCOPE_REGISTER_COMMAND(3, add_check_command);

}  // namespace rigscope::cli
