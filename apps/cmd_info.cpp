// `rigscope info`: what a file holds, as text or JSON (like `gltf-transform inspect`); the job is
// the run layer's (rigscope/run/info_job.h).
#include <memory>

#include "option_table_cli.h"
#include "rigscope/core/error.h"
#include "rigscope/io/output.h"
#include "rigscope/run/info_job.h"
#include "verb_command.h"

namespace rigscope::cli {

namespace {

using InfoCommand = BatchCommand<InfoJobOptions>;

int run_info_command(InfoCommand& cmd, RunContext&) {
    cmd.batch.output = batch_output(cmd.job.out);
    return batch_or_one(cmd, cmd.job.input.file, run_info_batch, [](const InfoJobOptions& opt) {
        const InfoJobResult r = load_and_run_info(opt);
        OutputFile out(opt.out, r.paths);
        out.write(r.text);
        out.commit();
        return kExitOk;
    });
}

}  // namespace

void add_info_command(CLI::App& app, Runner& run) {
    auto opt = std::make_shared<InfoCommand>();
    CLI::App* cmd = app.add_subcommand("info", "What a file holds: meshes, skins, clips, units, warnings");
    add_input_options(cmd, opt->job.input, false);
    add_batch_options(cmd, opt->batch);
    add_weld_option(cmd, opt->job.input);
    add_table_options(cmd, info_options(), opt->job);
    run_when_chosen(cmd, run, opt, run_info_command);
}

RIGSCOPE_REGISTER_COMMAND(0, add_info_command);

}  // namespace rigscope::cli
