// `rigscope intersect`: every pair of faces that cross, per frame, within a mesh and between
// meshes, as CSV rows or a JSON summary per frame (docs/methods.md "Interpenetration").
#include <memory>

#include "cli_common.h"
#include "commands.h"
#include "rigscope/io/output.h"
#include "rigscope/run/clip_select.h"
#include "rigscope/run/intersect_job.h"

namespace rigscope::cli {

namespace {

// The writer of what the job returns; nothing here tests or judges.
void write_intersect(const IntersectJobOptions& opt, const Input& in, const IntersectJobResult& r) {
    OutputFile out(opt.out, in.paths);
    write_intersect_output(opt, in, r, out);
    out.commit();
}

int run_intersect_command(IntersectJobOptions opt) {
    opt.format = output_format(opt.format, opt.out, "json");
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
    auto opt = std::make_shared<IntersectJobOptions>();
    opt->format.clear();  // from -o's extension unless --format names one
    CLI::App* cmd = app.add_subcommand("intersect", "Faces that pass through each other, per frame: within a mesh and between meshes (CSV, JSON)");
    add_input_options(cmd, opt->input);
    add_weld_option(cmd, opt->input);
    add_skinning_option(cmd, opt->input);
    add_threads_option(cmd, opt->input);
    cmd->add_option("-o,--output", opt->out, "Output file (.json, .csv) or - for stdout");
    cmd->add_option("--format", opt->format, "json or csv (default: from -o's extension, else json)")->check(CLI::IsMember({"json", "csv"}));
    cmd->callback([&run, opt] { run = [opt](RunContext&) { return run_intersect_command(*opt); }; });
}

RIGSCOPE_REGISTER_COMMAND(10, add_intersect_command);

}  // namespace rigscope::cli
