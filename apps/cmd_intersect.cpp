// `rigscope intersect`: every pair of faces that cross, per frame, within a mesh and between
// meshes, as CSV rows or a JSON summary per frame (docs/methods.md "Interpenetration").
#include <memory>

#include "batch_command.h"
#include "cli_common.h"
#include "commands.h"
#include "option_table_cli.h"
#include "rigscope/io/output.h"
#include "rigscope/run/clip_select.h"
#include "rigscope/run/intersect_job.h"
#include "rigscope/run/output_formats.h"

namespace rigscope::cli {

namespace {

// The writer of what the job returns; nothing here tests or judges.
void write_intersect(const IntersectJobOptions& opt, const Input& in, const IntersectJobResult& r) {
    OutputFile out(opt.out, in.paths);
    write_intersect_output(opt, in, r, out);
    out.commit();
}

struct IntersectCommand {
    IntersectJobOptions job;
    BatchOptions batch;  // FILE... and the batch's options
};

int run_intersect_command(IntersectCommand cmd, RunContext& ctx) {
    cmd.batch.output = cmd.job.out == "-" ? "" : cmd.job.out;
    if (is_batch(cmd.batch)) return finish_batch(cmd.batch, run_intersect_batch(cmd.batch, cmd.job));
    IntersectJobOptions& opt = cmd.job;
    opt.input.file = cmd.batch.inputs.front();
    opt.format = verb_output_format("intersect", opt.format, opt.out);
    ctx.chunk(chunk_spec(opt));
    if (opt.input.clip == kAllClips) {
        run_intersect_clips(opt, terminal_progress("intersect"), write_intersect);
        return kExitOk;
    }
    const IntersectJobLoaded l = load_and_run_intersect(opt, terminal_progress("intersect"));
    write_intersect(opt, l.input, l.result);
    return kExitOk;
}

}  // namespace

void add_intersect_command(CLI::App& app, Runner& run) {
    auto command = std::make_shared<IntersectCommand>();
    IntersectJobOptions* opt = &command->job;
    opt->format.clear();  // from -o's extension unless --format names one
    CLI::App* cmd = app.add_subcommand("intersect", "Faces that pass through each other, per frame: within a mesh and between meshes (CSV, JSON)");
    add_input_options(cmd, opt->input);
    add_batch_options(cmd, command->batch);
    add_weld_option(cmd, opt->input);
    add_skinning_option(cmd, opt->input);
    add_threads_option(cmd, opt->input);
    add_table_options(cmd, intersect_options(), *opt);
    cmd->callback([&run, command] { run = [command](RunContext& ctx) { return run_intersect_command(*command, ctx); }; });
}

RIGSCOPE_REGISTER_COMMAND(10, add_intersect_command);

}  // namespace rigscope::cli
