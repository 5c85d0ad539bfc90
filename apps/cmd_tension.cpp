// `rigscope tension`: the tension map per vertex and frame, as CSV, JSON or vertex-coloured glTF.
#include <memory>

#include "option_table_cli.h"
#include "rigscope/io/output.h"
#include "rigscope/run/tension_job.h"
#include "tension_setup.h"
#include "verb_command.h"

namespace rigscope::cli {

namespace {

using TensionCommand = BatchCommand<TensionJobOptions>;

int run_tension_command(TensionCommand cmd, RunContext& ctx) {
    cmd.batch.output = batch_output(cmd.job.out);
    return batch_or_one(cmd, cmd.job.tension.input.file, run_tension_batch, [&ctx](TensionJobOptions& opt) {
        return run_formatted("tension", opt, ctx, [&](const FrameProgress& progress) {
            // A line of its own for --auto-range's first pass, before the written one.
            TensionJobResult r = load_and_run_tension(opt, progress, terminal_progress("tension (range)"));
            for (auto& s : r.chunk_state) ctx.chunk_state.push_back(std::move(s));
            return kExitOk;
        });
    });
}

}  // namespace

void add_tension_command(CLI::App& app, Runner& run) {
    auto command = std::make_shared<TensionCommand>();
    TensionJobOptions* opt = &command->job;
    opt->format.clear();  // from -o's extension unless --format names one
    CLI::App* cmd = app.add_subcommand("tension", "Tension map per vertex and frame: T, compress, stretch (CSV, JSON, glTF, USD, Alembic)");
    add_tension_options(cmd, opt->tension);
    add_max_output_option(cmd, opt->tension.input);
    add_batch_options(cmd, command->batch);
    add_table_options(cmd, tension_job_options(), *opt);
    run_when_chosen(cmd, run, command, run_tension_command);
}

RIGSCOPE_REGISTER_COMMAND(2, add_tension_command);

}  // namespace rigscope::cli
