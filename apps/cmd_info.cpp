// `rigscope info`: what a file holds, as text or JSON (like `gltf-transform inspect`); the job is
// the run layer's (rigscope/run/info_job.h).
#include <memory>

#include "batch_command.h"
#include "cli_common.h"
#include "commands.h"
#include "option_table_cli.h"
#include "rigscope/core/error.h"
#include "rigscope/io/output.h"
#include "rigscope/run/info_job.h"

namespace rigscope::cli {

namespace {

struct InfoCommand {
    InfoJobOptions job;
    BatchOptions batch;  // FILE... and the batch's options
};

int run_info_command(InfoCommand& opt) {
    opt.batch.output = opt.job.out == "-" ? "" : opt.job.out;
    if (is_batch(opt.batch)) return finish_batch(opt.batch, run_info_batch(opt.batch, opt.job));
    opt.job.input.file = opt.batch.inputs.front();
    const InfoJobResult r = load_and_run_info(opt.job);
    OutputFile out(opt.job.out, r.paths);
    out.write(r.text);
    out.commit();
    return kExitOk;
}

}  // namespace

void add_info_command(CLI::App& app, Runner& run) {
    auto opt = std::make_shared<InfoCommand>();
    CLI::App* cmd = app.add_subcommand("info", "What a file holds: meshes, skins, clips, units, warnings");
    add_input_options(cmd, opt->job.input, false);
    add_batch_options(cmd, opt->batch);
    add_weld_option(cmd, opt->job.input);
    add_table_options(cmd, info_options(), opt->job);
    cmd->callback([&run, opt] { run = [opt](RunContext&) { return run_info_command(*opt); }; });
}

RIGSCOPE_REGISTER_COMMAND(0, add_info_command);

}  // namespace rigscope::cli
