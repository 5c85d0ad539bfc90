// The report page's command-line options and viewer, shared by `report` and `check --html`.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "rigscope/run/report_page.h"

namespace rigscope::cli {

// --max-size (and, with_worst, --worst: `check` has its own).
void add_report_options(CLI::App* cmd, ReportOptions& opt, bool with_worst);

// The viewer bundle this build made (RIGSCOPE_REPORT_BUNDLE overrides it at run time).
std::string report_viewer_path();

}  // namespace rigscope::cli
