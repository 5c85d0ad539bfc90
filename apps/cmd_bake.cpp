// `rigscope bake`: a tension map baked into each mesh's UV space, a 16-bit PNG or half EXR per
// frame and mesh. The job (run/bake_job.h) rasterises, writes and refuses; this parses options.
#include <memory>
#include <spdlog/spdlog.h>

#include "option_table_cli.h"
#include "rigscope/io/output.h"
#include "rigscope/run/bake_job.h"
#include "tension_setup.h"
#include "verb_command.h"

namespace rigscope::cli {

namespace {

using BakeCommand = BatchCommand<BakeJobOptions>;

int run_bake_command(BakeCommand cmd, RunContext&) {
    cmd.batch.output = cmd.job.out;
    return batch_or_one(cmd, cmd.job.tension.input.file, run_bake_batch, [](const BakeJobOptions& opt) {
        const BakeJobResult r = load_and_run_bake(opt, terminal_progress("bake"));
        for (const BakeMeshInfo& m : r.meshes)
            spdlog::info("{}: UV set {}: {} texels covered, {} padded", m.name, m.uv_set, m.covered, m.padded);
        spdlog::info("bake: {} images written", r.images.size());
        return kExitOk;
    });
}

}  // namespace

void add_bake_command(CLI::App& app, Runner& run) {
    auto command = std::make_shared<BakeCommand>();
    BakeJobOptions* opt = &command->job;
    CLI::App* cmd = app.add_subcommand("bake", "Tension maps baked into UV space: a 16-bit PNG or half EXR per frame and mesh");
    add_tension_options(cmd, opt->tension);
    add_batch_options(cmd, command->batch);
    add_table_options(cmd, bake_options(), *opt);
    run_when_chosen(cmd, run, command, run_bake_command);
}

RIGSCOPE_REGISTER_COMMAND(5, add_bake_command);

}  // namespace rigscope::cli
