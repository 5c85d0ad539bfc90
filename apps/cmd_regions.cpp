// `rigscope regions`: per frame and region, the weighted mean of a tension map (wrinkle-map
// curves), as CSV, JSON, a USD layer or a glTF morph-weight animation. The job (run/regions_job.h) computes; this parses options.
#include <memory>

#include "option_table_cli.h"
#include "rigscope/io/output.h"
#include "rigscope/run/chunk_run.h"
#include "rigscope/run/regions_job.h"
#include "tension_setup.h"
#include "verb_command.h"

namespace rigscope::cli {

namespace {

using RegionsCommand = BatchCommand<RegionsJobOptions>;

int run_regions_command(RegionsCommand cmd, RunContext& ctx) {
    cmd.batch.output = batch_output(cmd.job.out);
    return batch_or_one(cmd, cmd.job.tension.input.file, run_regions_batch, [&ctx](const RegionsJobOptions& opt) {
        ctx.chunk(chunk_spec(opt));
        load_and_run_regions(opt, terminal_progress("regions"));
        return kExitOk;
    });
}

}  // namespace

void add_regions_command(CLI::App& app, Runner& run) {
    auto command = std::make_shared<RegionsCommand>();
    RegionsJobOptions* opt = &command->job;
    CLI::App* cmd = app.add_subcommand("regions", "Per frame and region, the weighted mean of a tension map: curves that drive wrinkle maps");
    add_tension_options(cmd, opt->tension);
    add_batch_options(cmd, command->batch);
    add_table_options(cmd, regions_options(), *opt);
    run_when_chosen(cmd, run, command, run_regions_command);
}

RIGSCOPE_REGISTER_COMMAND(5, add_regions_command);

}  // namespace rigscope::cli
