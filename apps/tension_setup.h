// The tension options on the command line, shared by `tension`, `check` and `report`; the
// evaluation itself is the run layer's (rigscope/run/tension_run.h).
#pragma once

#include "cli_common.h"
#include "rigscope/run/tension_run.h"

namespace rigscope::cli {

void add_tension_options(CLI::App* cmd, TensionOptions& opt);

}  // namespace rigscope::cli
