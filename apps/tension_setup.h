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

// The run layer's loop with a progress line on the terminal named `what`.
inline void for_each_tension_frame(const Input& in, std::vector<MeshTension>& meshes, const char* what,
                                   const std::function<void(std::size_t)>& each) {
    rigscope::for_each_tension_frame(in, meshes, each, terminal_progress(what));
}

}  // namespace rigscope::cli
