// The steps every verb's command takes, written once so that no command spells them again or
// takes them in another order: the command's options kept until CLI11 picks it, a batch or the
// one file named, and a one-file run whose output format comes from -o.
#pragma once

#include <memory>
#include <string>

#include "batch_command.h"
#include "cli_common.h"
#include "commands.h"
#include "rigscope/run/clip_select.h"
#include "rigscope/run/output_formats.h"

namespace rigscope::cli {

// A verb that takes FILE...: its job's options and the batch's (FILE... and --jobs, --task,
// --summary).
template <typename JobOptions>
struct BatchCommand {
    JobOptions job;
    BatchOptions batch;
};

// When CLI11 picks the subcommand `cmd`, main's runner becomes run_command(*command, context):
// the options as parsed (a copy of them where run_command takes them by value).
template <typename Command, typename RunCommand>
void run_when_chosen(CLI::App* cmd, Runner& run, std::shared_ptr<Command> command, RunCommand run_command) {
    cmd->callback([&run, command, run_command] { run = [command, run_command](RunContext& ctx) { return run_command(*command, ctx); }; });
}

// -o as a batch's output pattern: "-" (stdout) is none, each file's text then printed.
inline std::string batch_output(const std::string& out) { return out == "-" ? "" : out; }

// FILE... (cmd.batch, with cmd.job: a BatchCommand or a verb's own): the batch when the command
// line asks for one (is_batch; cmd.batch's outputs set before), else the one file named as the
// job's input file (`input_file`, a member of cmd.job) and run_one(cmd.job)'s exit code.
template <typename Command, typename RunBatch, typename RunOne>
int batch_or_one(Command& cmd, std::string& input_file, RunBatch run_batch, RunOne run_one) {
    if (is_batch(cmd.batch)) return finish_batch(cmd.batch, run_batch(cmd.batch, cmd.job));
    input_file = cmd.batch.inputs.front();
    return run_one(cmd.job);
}

// A one-file run of a verb that writes several formats: the format from -o's extension unless
// --format named one, then the chunk's record begun (it records the format), then job() with
// the verb's progress line; its exit code.
template <typename JobOptions, typename Job>
int run_formatted(const char* verb, JobOptions& opt, RunContext& ctx, Job job) {
    opt.format = verb_output_format(verb, opt.format, opt.out);
    ctx.chunk(chunk_spec(opt));
    return job(terminal_progress(verb));
}

// --clip all: every clip through run_clips (an output each, {clip} in -o); else the one clip
// chosen, loaded and run. Each result handed to write(opt, input, result).
template <typename JobOptions, typename RunClips, typename LoadAndRun, typename Write>
void each_clip_written(const JobOptions& opt, const FrameProgress& progress, RunClips run_clips, LoadAndRun load_and_run, Write write) {
    if (opt.input.clip == kAllClips) {
        run_clips(opt, progress, write);
        return;
    }
    const auto loaded = load_and_run(opt, progress);
    write(opt, loaded.input, loaded.result);
}

}  // namespace rigscope::cli
