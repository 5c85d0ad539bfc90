// `report` and `check --html`: the page's options and the viewer this build bundled.
#include "report_options.h"

#include "cli_common.h"
#include "option_table_cli.h"

#ifndef RIGSCOPE_REPORT_VIEWER
#define RIGSCOPE_REPORT_VIEWER ""
#endif

namespace rigscope::cli {

std::string report_viewer_path() { return RIGSCOPE_REPORT_VIEWER; }

void add_report_options(CLI::App* cmd, ReportOptions& opt, bool with_worst) {
    const OptionTable<ReportOptions>& rows = report_page_options();
    if (with_worst) add_table_option(cmd, table_row(rows, "--worst"), opt);
    add_table_option(cmd, table_row(rows, "--max-size"), opt);
}

}  // namespace rigscope::cli
