// `rigscope deform`: deformed positions per frame as CSV or JSON.
#include <memory>

#include "batch_command.h"
#include "cli_common.h"
#include "commands.h"
#include "option_table_cli.h"
#include "rigscope/io/output.h"
#include "rigscope/run/deform_job.h"
#include "rigscope/run/output_formats.h"

namespace rigscope::cli {

namespace {

struct DeformCommand {
    DeformJobOptions job;
    BatchOptions batch;  // FILE... and the batch's options
};

int run_deform_command(DeformCommand cmd, RunContext& ctx) {
    cmd.batch.output = cmd.job.out == "-" ? "" : cmd.job.out;
    if (is_batch(cmd.batch)) return finish_batch(cmd.batch, run_deform_batch(cmd.batch, cmd.job));
    DeformJobOptions& opt = cmd.job;
    opt.input.file = cmd.batch.inputs.front();
    opt.format = verb_output_format("deform", opt.format, opt.out);
    ctx.chunk(chunk_spec(opt));
    load_and_run_deform(opt, terminal_progress("deform"));
    return kExitOk;
}

}  // namespace

void add_deform_command(CLI::App& app, Runner& run) {
    auto command = std::make_shared<DeformCommand>();
    DeformJobOptions* opt = &command->job;
    opt->format.clear();  // from -o's extension unless --format names one
    CLI::App* cmd = app.add_subcommand("deform", "Deformed vertex positions per frame (CSV, JSON, USD or Alembic)");
    add_input_options(cmd, opt->input);
    add_batch_options(cmd, command->batch);
    add_skinning_option(cmd, opt->input);
    add_max_output_option(cmd, opt->input);
    add_table_options(cmd, deform_options(), *opt);
    cmd->callback([&run, command] { run = [command](RunContext& ctx) { return run_deform_command(*command, ctx); }; });
}

RIGSCOPE_REGISTER_COMMAND(1, add_deform_command);

}  // namespace rigscope::cli
