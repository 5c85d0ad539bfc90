// `report` and `check --html`: the page's options and the viewer this build bundled.
#include "report_options.h"

#include "cli_common.h"

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

}  // namespace rigscope::cli
