// `rigscope report`: one self-contained HTML page with the animated tension map, the worst
// vertices and their T over time (docs/rig_ci.md, "report"). The job is the run
// layer's (rigscope/run/report_job.h).
#include <memory>

#include "option_table_cli.h"
#include "rigscope/core/error.h"
#include "report_options.h"
#include "tension_setup.h"
#include "verb_command.h"

namespace rigscope::cli {

namespace {

using ReportCommand = BatchCommand<ReportJobOptions>;

int run_report_command(ReportCommand& cmd, RunContext&) {
    cmd.job.report.viewer = report_viewer_path();
    cmd.batch.output = cmd.job.report.out;
    return batch_or_one(cmd, cmd.job.tension.input.file, run_report_batch, [](const ReportJobOptions& opt) {
        load_and_run_report(opt, terminal_progress("report"));
        return kExitOk;
    });
}

}  // namespace

void add_report_command(CLI::App& app, Runner& run) {
    auto command = std::make_shared<ReportCommand>();
    ReportJobOptions* opt = &command->job;
    CLI::App* cmd = app.add_subcommand("report", "Self-contained HTML page: animated tension map, worst vertices, T over time");
    add_tension_options(cmd, opt->tension);
    add_batch_options(cmd, command->batch);
    // The page covers a whole run (the report job refuses a chunk): --help lists only what it takes.
    cmd->remove_option(cmd->get_option("--chunk"));
    add_report_options(cmd, opt->report, true);
    add_table_option(cmd, table_row(report_page_options(), "-o,--output"), opt->report);
    run_when_chosen(cmd, run, command, run_report_command);
}

RIGSCOPE_REGISTER_COMMAND(7, add_report_command);

}  // namespace rigscope::cli
