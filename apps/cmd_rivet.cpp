// `rigscope rivet`: constraint-only rivets fitted to chosen vertices, or baked per-frame rivets,
// as JSON, CSV or a glTF of the input with the rivet nodes added. docs/rivet.md has the fields.
#include <cstdio>
#include <spdlog/spdlog.h>

#include "option_table_cli.h"
#include "rigscope/io/output.h"
#include "rigscope/run/clip_select.h"
#include "rigscope/run/rivet_job.h"
#include "verb_command.h"

namespace rigscope::cli {

namespace {

// The writers of what the rivet job returns; nothing here fits, bakes or judges.
int write_rivet(const RivetJobOptions& opt, const Input& in, const RivetJobResult& r) {
    // Checked (not an input, folder writable) before anything is written (a bake has no --junit).
    OutputSet files(in.paths);
    OutputFile* junit = files.open_if(opt.junit);
    write_rivet_output(opt, in, r, files.open(opt.out));
    // Both written in full before either takes its name: no half of the output on failure.
    if (junit) junit->write(r.verdict.junit);
    files.commit();
    if (opt.bake) return kExitOk;
    // The verdict's text on stdout, as check's, unless the output took stdout. Without
    // --max-fit-error, a fit that poor is still said (the rivet drifts off its vertex so much).
    if (r.judged) {
        if (is_stdout_path(opt.out)) std::fputs(r.verdict.report.c_str(), stderr);
        else print_text(r.verdict.report);
    } else if (!r.verdict.warning.empty()) {
        spdlog::warn("{}: {} (--max-fit-error R makes this a failure)", opt.input.file, r.verdict.warning);
    }
    return r.judged && r.verdict.failed ? kExitCheckFailed : kExitOk;
}

int run_rivet_command(RivetJobOptions opt, RunContext& ctx) {
    return run_formatted("rivet", opt, ctx, [&opt](const FrameProgress& progress) -> int {
        if (opt.input.clip == kAllClips) {
            // An output per clip ({clip} in -o); the exit code is the worst clip's verdict.
            const bool failed = run_rivet_clips(opt, progress,
                                                [](const RivetJobOptions& one, const Input& in, const RivetJobResult& r) { write_rivet(one, in, r); });
            return failed ? kExitCheckFailed : kExitOk;
        }
        const RivetJobLoaded l = load_and_run_rivet(opt, progress);
        return write_rivet(opt, l.input, l.result);
    });
}

}  // namespace

void add_rivet_command(CLI::App& app, Runner& run) {
    auto opt = std::make_shared<RivetJobOptions>();
    opt->format.clear();  // from -o's extension unless --format names one
    CLI::App* cmd = app.add_subcommand("rivet", "Rivets on chosen vertices: fitted constraint-only pivots, or baked per-frame transforms");
    add_input_options(cmd, opt->input);
    add_weld_option(cmd, opt->input);
    add_skinning_option(cmd, opt->input);
    add_max_output_option(cmd, opt->input);
    add_table_options(cmd, rivet_options(), *opt);
    run_when_chosen(cmd, run, opt, run_rivet_command);
}

RIGSCOPE_REGISTER_COMMAND(4, add_rivet_command);

}  // namespace rigscope::cli
