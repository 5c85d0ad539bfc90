// `rigscope bake`: a tension map baked into each mesh's UV space, a 16-bit PNG or half EXR per
// frame and mesh. The job (run/bake_job.h) rasterises, writes and refuses; this parses options.
#include <memory>
#include <spdlog/spdlog.h>

#include "batch_command.h"
#include "cli_common.h"
#include "commands.h"
#include "rigscope/core/uv_raster.h"
#include "rigscope/io/output.h"
#include "rigscope/run/bake_job.h"
#include "tension_setup.h"

namespace rigscope::cli {

namespace {

struct BakeCommand {
    BakeJobOptions job;
    std::vector<double> range;  // --range LO,HI as CLI11 reads it
    BatchOptions batch;         // FILE... and the batch's options
};

int run_bake_command(BakeCommand cmd, RunContext&) {
    BakeJobOptions& opt = cmd.job;
    if (!cmd.range.empty()) opt.range = std::make_pair(cmd.range[0], cmd.range[1]);
    cmd.batch.output = opt.out;
    if (is_batch(cmd.batch)) return finish_batch(cmd.batch, run_bake_batch(cmd.batch, opt));
    opt.tension.input.file = cmd.batch.inputs.front();
    const BakeJobResult r = load_and_run_bake(opt, terminal_progress("bake"));
    for (const BakeMeshInfo& m : r.meshes)
        spdlog::info("{}: UV set {}: {} texels covered, {} padded", m.name, m.uv_set, m.covered, m.padded);
    spdlog::info("bake: {} images written", r.images.size());
    return kExitOk;
}

}  // namespace

void add_bake_command(CLI::App& app, Runner& run) {
    auto command = std::make_shared<BakeCommand>();
    BakeJobOptions* opt = &command->job;
    CLI::App* cmd = app.add_subcommand("bake", "Tension maps baked into UV space: a 16-bit PNG or half EXR per frame and mesh");
    add_tension_options(cmd, opt->tension);
    add_batch_options(cmd, command->batch);
    cmd->add_option("--map", opt->map,
                    "compress (default), stretch, tension (T: needs --range for PNG), area (--measure area), lambda_max, lambda_min (--measure principal), "
                    "color (RGB: --color)")
        ->check(CLI::IsMember({"compress", "stretch", "tension", "area", "lambda_max", "lambda_min", "color"}));
    cmd->add_option("--color", opt->color, "With --map color: maps (R compress, G stretch; default) or t (stretch blue, T = 1 white, compression red)")
        ->check(CLI::IsMember({"maps", "t"}));
    cmd->add_option("--size", opt->size, "Image side in texels (default 1024, at most " + std::to_string(kMaxBakeSize) + ")");
    cmd->add_option("--padding", opt->padding, "Texels of dilation around the UV islands (8-neighbour passes; default 2)");
    cmd->add_option("--range", command->range, "LO,HI: write (value - LO) / (HI - LO) (T into 0..1: --range 0.5,2)")
        ->delimiter(',')
        ->expected(2);
    cmd->add_option("--uv", opt->uv, "UV set by name (default: the mesh's first: TEXCOORD_0, FBX's first layer, USD st)");
    cmd->add_flag("--udim", opt->udim, "An image per UDIM tile the UVs touch ({udim} in -o: 1001, 1002, ...)");
    add_format_option(cmd, "bake", opt->format);
    cmd->add_option("-o,--output", opt->out,
                    "Image files: 'maps/{mesh}.{frame}.png' ({mesh}, {frame}, {udim}; .png or .exr; several inputs: "
                    "'maps/{relpath}/{mesh}.{frame}.png')")
        ->required();
    cmd->callback([&run, command] { run = [command](RunContext& ctx) { return run_bake_command(*command, ctx); }; });
}

RIGSCOPE_REGISTER_COMMAND(5, add_bake_command);

}  // namespace rigscope::cli
