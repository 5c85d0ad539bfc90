// `rigscope volume`: per frame each closed mesh's volume and each joint region's, with their
// ratios to the bind mesh, as CSV or JSON (docs/methods.md "Volume"). The job measures; this
// parses, calls it and writes.
#include <memory>
#include <spdlog/spdlog.h>

#include "option_table_cli.h"
#include "rigscope/io/output.h"
#include "rigscope/run/volume_job.h"
#include "verb_command.h"

namespace rigscope::cli {

namespace {

void write_volume(const VolumeJobOptions& opt, const Input& in, const VolumeJobResult& r) {
    // Notes (an open mesh, skipped faces) on stderr: the output holds them too.
    for (const std::string& note : r.notes) spdlog::warn("{}: {}", opt.input.file, note);
    OutputFile out(opt.out, in.paths);
    write_volume_output(opt, in, r, out);
    out.commit();
}

using VolumeCommand = BatchCommand<VolumeJobOptions>;

int run_volume_command(VolumeCommand cmd, RunContext& ctx) {
    cmd.batch.output = batch_output(cmd.job.out);
    return batch_or_one(cmd, cmd.job.input.file, run_volume_batch, [&ctx](VolumeJobOptions& opt) {
        return run_formatted("volume", opt, ctx, [&opt](const FrameProgress& progress) {
            each_clip_written(opt, progress, run_volume_clips, load_and_run_volume, write_volume);
            return kExitOk;
        });
    });
}

}  // namespace

void add_volume_command(CLI::App& app, Runner& run) {
    auto command = std::make_shared<VolumeCommand>();
    VolumeJobOptions* opt = &command->job;
    opt->format.clear();  // from -o's extension unless --format names one
    CLI::App* cmd = app.add_subcommand("volume", "Volume per frame: each closed mesh's and each joint region's, with ratios to the bind mesh");
    add_input_options(cmd, opt->input);
    add_batch_options(cmd, command->batch);
    add_weld_option(cmd, opt->input);
    add_skinning_option(cmd, opt->input);
    add_threads_option(cmd, opt->input);
    add_table_options(cmd, volume_options(), *opt);
    run_when_chosen(cmd, run, command, run_volume_command);
}

RIGSCOPE_REGISTER_COMMAND(10, add_volume_command);

}  // namespace rigscope::cli
