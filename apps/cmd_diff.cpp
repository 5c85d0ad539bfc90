// `rigscope diff OLD NEW`: two versions of a rig on the same motion, compared vertex by vertex
// and frame by frame: how far each vertex moved, how its T changed, and under which joint. The
// job is rigscope/run/diff_job.h, which writes -o and --junit; this file holds the options, the
// report on stdout and the exit codes.
#include <memory>

#include "option_table_cli.h"
#include "rigscope/core/error.h"
#include "rigscope/io/output.h"
#include "rigscope/run/diff_job.h"
#include "tension_setup.h"
#include "verb_command.h"

namespace rigscope::cli {

namespace {

struct DiffCommand {
    DiffJobOptions diff;  // diff.out, diff.junit: -o, --junit; diff.format: --format, resolved from -o for one pair
    std::string against;  // --against DIR: every input is an OLD, its NEW the same relpath there
    BatchOptions batch;   // FILE... (OLD NEW, OLD... with --against, or @pairs.txt) and the batch's options
};

// OLD NEW as before, or a batch of pairs: --against, an @list, a placeholder or a batch option.
bool is_diff_batch(const DiffCommand& opt, const std::vector<std::string>& args) {
    if (!opt.against.empty() || args.size() != 2) return true;
    BatchOptions one = opt.batch;
    one.inputs = {args[0]};
    return is_batch(one) || args[1].empty() || args[1][0] == '@';
}

int run_diff_command(DiffCommand& opt, RunContext& ctx) {
    // CLI11 fills FILE... first: NEW holds a value only when it split them.
    std::vector<std::string> args = opt.batch.inputs;
    if (!opt.diff.new_file.empty()) args.push_back(opt.diff.new_file);
    if (is_diff_batch(opt, args)) {
        opt.batch.inputs = args;
        opt.batch.junit = opt.diff.junit;
        opt.batch.output = batch_output(opt.diff.out);
        return finish_batch(opt.batch, run_diff_batch(opt.batch, DiffBatchOptions{opt.diff, opt.against, opt.diff.format}));
    }
    opt.diff.input.file = args[0];
    opt.diff.new_file = args[1];
    return run_formatted("diff", opt.diff, ctx, [&](const FrameProgress& progress) {
        const bool chunked = !opt.diff.input.chunk.empty();
        // Validated, run, and the per-vertex file and the JUnit report written by the job.
        const DiffJobResult r = load_and_run_diff(opt.diff, progress);
        if (chunked) ctx.chunk_state = diff_chunk_state(r);
        // The report on stdout unless the per-vertex output took it.
        if (opt.diff.out.empty() || !is_stdout_path(opt.diff.out)) print_text(r.verdict.report);
        // A chunk's verdict is partial (merge gives the run's).
        return r.verdict.failed && !chunked ? kExitCheckFailed : kExitOk;
    });
}

}  // namespace

void add_diff_command(CLI::App& app, Runner& run) {
    auto opt = std::make_shared<DiffCommand>();
    CLI::App* cmd = app.add_subcommand("diff", "Rig CI: compare two versions of a rig (FILE is OLD, then NEW; or pairs: --against DIR OLD..., @pairs.txt) on the same frames");
    DiffJobOptions& d = opt->diff;
    add_input_options(cmd, d.input);
    add_batch_options(cmd, opt->batch);
    add_weld_option(cmd, d.input);
    add_skinning_option(cmd, d.input);
    add_threads_option(cmd, d.input);
    const OptionTable<DiffJobOptions>& rows = diff_options();
    add_table_option(cmd, rows.front(), d);  // NEW, the second positional
    cmd->add_option("--against", opt->against,
                    "Several pairs: every FILE (files, folders, @lists) is an OLD, its NEW the file of the same relative path under this folder");
    for (std::size_t i = 1; i < rows.size(); ++i) add_table_option(cmd, rows[i], d);
    run_when_chosen(cmd, run, opt, run_diff_command);
}

RIGSCOPE_REGISTER_COMMAND(8, add_diff_command);

}  // namespace rigscope::cli
