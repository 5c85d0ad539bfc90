// `rigscope report`: one self-contained HTML page with the animated tension map, the worst
// vertices and their T over time (docs: README, "The HTML report"). The job is the run
// layer's (rigscope/run/report_run.h).
#include <memory>

#include "commands.h"
#include "rigscope/core/error.h"
#include "tension_setup.h"

#ifndef RIGSCOPE_REPORT_VIEWER
#define RIGSCOPE_REPORT_VIEWER ""
#endif

namespace rigscope::cli {

std::string report_viewer_path() { return RIGSCOPE_REPORT_VIEWER; }

void add_report_options(CLI::App* cmd, ReportOptions& opt, bool with_worst) {
    if (with_worst)
        cmd->add_option("--worst", opt.worst, "Rows of the worst-vertex table: the vertices farthest from T = 1 (default 10)")
            ->check(positive_number());
    cmd->add_option("--max-size", opt.max_mb, "Page size budget in MB (10^6 bytes, default 40); beyond it frames are subsampled")
        ->check(number_in(0.5, 4096.0));
}

void add_report_command(CLI::App& app, Runner& run) {
    auto opt = std::make_shared<ReportJobOptions>();
    CLI::App* cmd = app.add_subcommand("report", "Self-contained HTML page: animated tension map, worst vertices, T over time");
    add_tension_options(cmd, opt->tension);
    // The page covers a whole run (the report job refuses a chunk): --help lists only what it takes.
    cmd->remove_option(cmd->get_option("--chunk"));
    add_report_options(cmd, opt->report, true);
    cmd->add_option("-o,--output", opt->report.out, "The page to write (.html)")->required();
    cmd->callback([&run, opt] {
        run = [opt](RunContext&) {
            opt->report.viewer = report_viewer_path();
            run_report(*opt, terminal_progress("report"));
            return kExitOk;
        };
    });
}

RIGSCOPE_REGISTER_COMMAND(7, add_report_command);

}  // namespace rigscope::cli
