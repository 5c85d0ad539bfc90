// `rigscope tension`: the tension map per vertex and frame, as CSV, JSON or vertex-coloured glTF.
#include <memory>

#include "batch_command.h"
#include "commands.h"
#include "option_table_cli.h"
#include "rigscope/io/output.h"
#include "rigscope/run/tension_job.h"
#include "rigscope/run/output_formats.h"
#include "tension_setup.h"

namespace rigscope::cli {

namespace {

struct TensionCommand {
    TensionJobOptions job;
    BatchOptions batch;  // FILE... and the batch's options
};

int run_tension_command(TensionCommand cmd, RunContext& ctx) {
    cmd.batch.output = cmd.job.out == "-" ? "" : cmd.job.out;
    if (is_batch(cmd.batch)) return finish_batch(cmd.batch, run_tension_batch(cmd.batch, cmd.job));
    TensionJobOptions& opt = cmd.job;
    opt.tension.input.file = cmd.batch.inputs.front();
    opt.format = verb_output_format("tension", opt.format, opt.out);
    ctx.chunk(chunk_spec(opt));
    TensionJobResult r = load_and_run_tension(opt, terminal_progress("tension"), terminal_progress("tension (range)"));
    for (auto& s : r.chunk_state) ctx.chunk_state.push_back(std::move(s));
    return kExitOk;
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
    cmd->callback([&run, command] { run = [command](RunContext& ctx) { return run_tension_command(*command, ctx); }; });
}

RIGSCOPE_REGISTER_COMMAND(2, add_tension_command);

}  // namespace rigscope::cli
