// `rigscope deform`: deformed positions per frame as CSV or JSON.
#include <memory>

#include "option_table_cli.h"
#include "rigscope/io/output.h"
#include "rigscope/run/deform_job.h"
#include "verb_command.h"

namespace rigscope::cli {

namespace {

using DeformCommand = BatchCommand<DeformJobOptions>;

int run_deform_command(DeformCommand cmd, RunContext& ctx) {
    cmd.batch.output = batch_output(cmd.job.out);
    return batch_or_one(cmd, cmd.job.input.file, run_deform_batch, [&ctx](DeformJobOptions& opt) {
        return run_formatted("deform", opt, ctx, [&opt](const FrameProgress& progress) {
            load_and_run_deform(opt, progress);
            return kExitOk;
        });
    });
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
    run_when_chosen(cmd, run, command, run_deform_command);
}

RIGSCOPE_REGISTER_COMMAND(1, add_deform_command);

}  // namespace rigscope::cli
