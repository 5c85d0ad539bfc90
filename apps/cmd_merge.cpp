// `rigscope merge OUT CHUNK...`: joins the outputs of `--chunk I/N` runs into what one run
// would have written (docs/farm.md). The job is the run layer's (rigscope/run/merge_job.h).
#include <cstdio>
#include <memory>

#include "rigscope/core/error.h"
#include "rigscope/io/output.h"
#include "rigscope/run/merge_job.h"
#include "verb_command.h"

namespace rigscope::cli {

namespace {

int run_merge_command(const MergeJobOptions& opt, RunContext&) {
    const MergeJobResult r = load_and_run_merge(opt);
    if (r.batch) {
        std::fputs(r.report.c_str(), stderr);
        return r.exit_code;
    }
    if (r.report_on_stdout) {
        OutputFile report("-");
        report.write(r.report);
        report.commit();
    }
    // check and diff chunks: the exit code is the run's verdict.
    return r.verdict && r.failed ? kExitCheckFailed : kExitOk;
}

}  // namespace

void add_merge_command(CLI::App& app, Runner& run) {
    auto opt = std::make_shared<MergeJobOptions>();
    CLI::App* cmd = app.add_subcommand("merge", "Join the outputs of --chunk I/N runs into what one run would have written");
    cmd->add_option("OUT", opt->out, "Merged output (- for stdout); for per-frame glTF chunks, their out_####.glb pattern")->required();
    cmd->add_option("--junit", opt->junit, "diff chunks: also write the run's JUnit report here");
    cmd->add_option("CHUNK", opt->chunks, "Chunk outputs (or their .chunk.json records), one per chunk, any order")->required();
    run_when_chosen(cmd, run, opt, run_merge_command);
}

RIGSCOPE_REGISTER_COMMAND(6, add_merge_command);

}  // namespace rigscope::cli
