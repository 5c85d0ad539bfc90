// `rigscope check`: tension limits for rig CI. Exit 1 when any vertex passes a limit, listing the
// worst vertices and frames; --junit writes a report CI servers read. The job is the run
// layer's (rigscope/run/check_job.h).
#include <utility>

#include "batch_command.h"
#include "commands.h"
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
    cmd->add_option("--max-stretch", job.max_stretch, "Fail where T falls below this (e.g. 0.7)")->check(positive_number());
    cmd->add_option("--max-compress", job.max_compress, "Fail where T rises above this (e.g. 1.5)")->check(positive_number());
    cmd->add_option("--max-lambda", job.max_lambda, "With --measure principal: fail where lambda_max rises above this (e.g. 1.3)")->check(positive_number());
    cmd->add_option("--min-lambda", job.min_lambda, "With --measure principal: fail where lambda_min falls below this (e.g. 0.7)")->check(positive_number());
    cmd->add_option("--max-volume-loss", job.max_volume_loss,
                    "Fail where a closed mesh's or joint region's volume loses more than this share of its bind volume at any frame (e.g. 0.1; rigscope volume)")
        ->check(positive_number());
    cmd->add_option("--junit", job.junit, "Also write a JUnit XML report here (several inputs: one for the batch, or one per file with a placeholder, {stem}.xml)");
    cmd->add_option("--json", job.json, "Also write the verdict as JSON here: the limits, counts and worst vertices (several inputs: with a placeholder, {stem}.json)");
    cmd->add_option("--html", job.html.out, "Also write the HTML report (rigscope report) with the verdict and limits");
    add_report_options(cmd, job.html, false);
    cmd->add_flag("--lint", job.lint,
                  "Also run the rig lint (rigscope lint, its default tolerances) on the bind pose: its errors fail the check too");
    cmd->add_option("--max-intersections", job.max_intersections,
                    "Fail where a frame has more than N face pairs that pass through each other (rigscope intersect; 0: any)")
        ->check(CLI::Range(0L, 1000000000000L));
    cmd->add_option("--worst", job.worst, "How many of the worst vertices to list (default 10)")->check(positive_number());
    cmd->callback([&run, opt] { run = [opt](RunContext& ctx) { return run_check_command(*opt, ctx); }; });
}

RIGSCOPE_REGISTER_COMMAND(3, add_check_command);

}  // namespace rigscope::cli
