// `rigscope intersect`: every pair of faces that cross, per frame, within a mesh and between
// meshes, as CSV rows or a JSON summary per frame (docs/methods.md "Interpenetration").
#include <memory>

#include "option_table_cli.h"
#include "rigscope/io/output.h"
#include "rigscope/run/intersect_job.h"
#include "verb_command.h"

namespace rigscope::cli {

namespace {

// The writer of what the job returns; nothing here tests or judges.
void write_intersect(const IntersectJobOptions& opt, const Input& in, const IntersectJobResult& r) {
    OutputFile out(opt.out, in.paths);
    write_intersect_output(opt, in, r, out);
    out.commit();
}

using IntersectCommand = BatchCommand<IntersectJobOptions>;

int run_intersect_command(IntersectCommand cmd, RunContext& ctx) {
    cmd.batch.output = batch_output(cmd.job.out);
    return batch_or_one(cmd, cmd.job.input.file, run_intersect_batch, [&ctx](IntersectJobOptions& opt) {
        return run_formatted("intersect", opt, ctx, [&opt](const FrameProgress& progress) {
            each_clip_written(opt, progress, run_intersect_clips, load_and_run_intersect, write_intersect);
            return kExitOk;
        });
    });
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
    run_when_chosen(cmd, run, command, run_intersect_command);
}

RIGSCOPE_REGISTER_COMMAND(10, add_intersect_command);

}  // namespace rigscope::cli
