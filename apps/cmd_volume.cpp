// `rigscope volume`: per frame each closed mesh's volume and each joint region's, with their
// ratios to the bind mesh, as CSV or JSON (docs/methods.md "Volume"). The job measures; this
// parses, calls it and writes.
#include <memory>
#include <spdlog/spdlog.h>

#include "batch_command.h"
#include "cli_common.h"
#include "commands.h"
#include "option_table_cli.h"
#include "rigscope/io/output.h"
#include "rigscope/run/clip_select.h"
#include "rigscope/run/volume_job.h"
#include "rigscope/run/output_formats.h"

namespace rigscope::cli {

namespace {

void write_volume(const VolumeJobOptions& opt, const Input& in, const VolumeJobResult& r) {
    // Notes (an open mesh, skipped faces) on stderr: the output holds them too.
    for (const std::string& note : r.notes) spdlog::warn("{}: {}", opt.input.file, note);
    OutputFile out(opt.out, in.paths);
    write_volume_output(opt, in, r, out);
    out.commit();
}

struct VolumeCommand {
    VolumeJobOptions job;
    BatchOptions batch;  // FILE... and the batch's options
};

int run_volume_command(VolumeCommand cmd, RunContext& ctx) {
    cmd.batch.output = cmd.job.out == "-" ? "" : cmd.job.out;
    if (is_batch(cmd.batch)) return finish_batch(cmd.batch, run_volume_batch(cmd.batch, cmd.job));
    VolumeJobOptions& opt = cmd.job;
    opt.input.file = cmd.batch.inputs.front();
    opt.format = verb_output_format("volume", opt.format, opt.out);
    ctx.chunk(chunk_spec(opt));
    if (opt.input.clip == kAllClips) {
        run_volume_clips(opt, terminal_progress("volume"), write_volume);
        return kExitOk;
    }
    const VolumeJobLoaded l = load_and_run_volume(opt, terminal_progress("volume"));
    write_volume(opt, l.input, l.result);
    return kExitOk;
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
    cmd->callback([&run, command] { run = [command](RunContext& ctx) { return run_volume_command(*command, ctx); }; });
}

RIGSCOPE_REGISTER_COMMAND(10, add_volume_command);

}  // namespace rigscope::cli
