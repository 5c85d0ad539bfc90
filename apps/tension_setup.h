// The tension options on the command line, shared by `tension`, `check` and `report`; the
// evaluation itself is the run layer's (rigscope/run/tension_run.h).
#pragma once

#include "cli_common.h"
#include "rigscope/run/report_run.h"
#include "rigscope/run/tension_run.h"

namespace rigscope::cli {

void add_tension_options(CLI::App* cmd, TensionOptions& opt);

// The report page's options, `report` and `check --html`: --max-size (and, with_worst, --worst:
// `check` has its own).
void add_report_options(CLI::App* cmd, ReportOptions& opt, bool with_worst);

// The viewer bundle this build made (RIGSCOPE_REPORT_BUNDLE overrides it at run time).
std::string report_viewer_path();

}  // namespace rigscope::cli
