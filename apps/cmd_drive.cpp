// `rigscope drive`: a rig's joystick controls evaluated per frame into morph weights, as CSV,
// JSON, or the input scene as glTF with the weights baked into its animation (drivers do not
// survive export; baked weights play in any glTF viewer).
#include <memory>

#include "option_table_cli.h"
#include "rigscope/io/output.h"
#include "rigscope/run/drive_job.h"
#include "verb_command.h"

namespace rigscope::cli {

void add_drive_command(CLI::App& app, Runner& run) {
    auto opt = std::make_shared<DriveJobOptions>();
    opt->format.clear();  // from -o's extension unless --format names one
    CLI::App* cmd = app.add_subcommand("drive", "Joystick controls (--rig) evaluated into morph weights: CSV, JSON or baked glTF");
    add_input_options(cmd, opt->input);
    add_table_options(cmd, drive_options(), *opt);
    run_when_chosen(cmd, run, opt, [](DriveJobOptions job, RunContext& ctx) {
        return run_formatted("drive", job, ctx, [&job](const FrameProgress& progress) {
            load_and_run_drive(job, progress);
            return kExitOk;
        });
    });
}

RIGSCOPE_REGISTER_COMMAND(5, add_drive_command);

}  // namespace rigscope::cli
