// `rigscope drive`: a rig's joystick controls evaluated per frame into morph weights, as CSV,
// JSON, or the input scene as glTF with the weights baked into its animation (drivers do not
// survive export; baked weights play in any glTF viewer).
#include <memory>

#include "cli_common.h"
#include "commands.h"
#include "option_table_cli.h"
#include "rigscope/io/output.h"
#include "rigscope/run/drive_job.h"
#include "rigscope/run/output_formats.h"

namespace rigscope::cli {

namespace {

int run_drive_command(DriveJobOptions opt, RunContext& ctx) {
    opt.format = verb_output_format("drive", opt.format, opt.out);
    ctx.chunk(chunk_spec(opt));
    load_and_run_drive(opt, terminal_progress("drive"));
    return kExitOk;
}

}  // namespace

void add_drive_command(CLI::App& app, Runner& run) {
    auto opt = std::make_shared<DriveJobOptions>();
    opt->format.clear();  // from -o's extension unless --format names one
    CLI::App* cmd = app.add_subcommand("drive", "Joystick controls (--rig) evaluated into morph weights: CSV, JSON or baked glTF");
    add_input_options(cmd, opt->input);
    add_table_options(cmd, drive_options(), *opt);
    cmd->callback([&run, opt] { run = [opt](RunContext& ctx) { return run_drive_command(*opt, ctx); }; });
}

RIGSCOPE_REGISTER_COMMAND(5, add_drive_command);

}  // namespace rigscope::cli
