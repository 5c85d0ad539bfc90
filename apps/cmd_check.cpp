// `rigscope check`: tension limits for rig CI. Exit 1 when any vertex passes a limit, listing the
// worst vertices and frames; --junit writes a report CI servers read. The job is the run
// layer's (rigscope/run/check_job.h).
#include <utility>

#include "option_table_cli.h"
#include "rigscope/core/error.h"
#include "rigscope/io/output.h"
#include "rigscope/run/check_job.h"
#include "report_options.h"
#include "tension_setup.h"
#include "verb_command.h"

namespace rigscope::cli {

namespace {

using CheckCommand = BatchCommand<CheckJobOptions>;  // job.junit, job.json: --junit, --json

// One file's check: its verdict's text printed, its reports written.
int check_one(const CheckJobOptions& opt, RunContext& ctx) {
    ctx.chunk(chunk_spec(opt));
    const CheckJobResult r = load_and_run_check(opt, terminal_progress("check"));
    // A chunk sees only its frames: its extremes go to the chunk record, and `merge` reports
    // over all chunks as one run would.
    const bool chunk = !opt.tension.input.chunk.empty();
    if (chunk)
        for (auto& state : r.chunk_state()) ctx.chunk_state.push_back(std::move(state));
    // The report files are checked (not an input, folder writable) and written in full before
    // the text is printed and before either takes its name.
    OutputSet files(r.paths);
    if (!opt.junit.empty()) files.add(opt.junit, r.outcome.junit);
    if (!opt.json.empty()) files.add(opt.json, r.outcome.json);
    print_text(r.outcome.report);
    files.commit();
    // A chunk's verdict is partial (merge gives the run's); failing it would stop the farm's merge.
    return r.outcome.failed && !chunk ? kExitCheckFailed : kExitOk;
}

int run_check_command(CheckCommand& cmd, RunContext& ctx) {
    cmd.job.html.viewer = report_viewer_path();
    cmd.batch.junit = cmd.job.junit;
    cmd.batch.json = cmd.job.json;
    cmd.batch.html = cmd.job.html.out;
    return batch_or_one(cmd, cmd.job.tension.input.file, run_check_batch, [&ctx](const CheckJobOptions& opt) { return check_one(opt, ctx); });
}

}  // namespace

void add_check_command(CLI::App& app, Runner& run) {
    auto opt = std::make_shared<CheckCommand>();
    CheckJobOptions& job = opt->job;
    CLI::App* cmd = app.add_subcommand("check", "Rig CI: exit 1 when any vertex's T passes a limit");
    add_tension_options(cmd, job.tension);
    add_batch_options(cmd, opt->batch);
    add_table_options(cmd, check_options(), job);
    run_when_chosen(cmd, run, opt, run_check_command);
}

RIGSCOPE_REGISTER_COMMAND(3, add_check_command);

}  // namespace rigscope::cli
