// `rigscope tension`: the tension map per vertex and frame, as CSV, JSON or vertex-coloured glTF.
#include <memory>

#include "batch_command.h"
#include "commands.h"
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
    cmd->add_option("--vertices", opt->vertices, "Vertex ids for CSV rows and JSON series: 12,40,100..110");
    cmd->add_option("--auto-range", opt->auto_range,
                    "Two passes: set t_s and t_c from the observed extremes (or this percentile of per-vertex extremes)")
        ->expected(0, 1)
        ->default_str("100")
        ->check(number_in(50.0, 100.0));
    cmd->add_flag("--bake-max", opt->bake_max, "glTF: one file of the rest mesh with each vertex's maximum maps over the frames (_TENSION: the T farthest from 1)");
    cmd->add_option("--color", opt->color,
                    "glTF COLOR_0, USD displayColor and Alembic Cd: maps (R = compress, G = stretch; default) or t (heat map of T: log2 T in [-1, 1], blue-white-red)")
        ->check(CLI::IsMember({"maps", "t"}));
    cmd->add_flag("--bake-points", opt->bake_points,
                  "USD output: the deformed points too, for viewers that do not skin (the SkelRoots above become Xforms)");
    add_format_option(cmd, "tension", opt->format);
    cmd->add_option("-o,--output", opt->out,
                    "Output file, - for stdout; glTF: out_####.glb writes one file per frame (several inputs: with a placeholder, out/{relpath}.csv)");
    cmd->callback([&run, command] { run = [command](RunContext& ctx) { return run_tension_command(*command, ctx); }; });
}

RIGSCOPE_REGISTER_COMMAND(2, add_tension_command);

}  // namespace rigscope::cli
