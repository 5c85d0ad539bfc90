// Session.check(), Session.report(), Session.rom() and rigscope.merge(): the run layer's rig-CI
// jobs (rigscope/run/check_run.h, report_run.h, rom_run.h, merge_run.h) from Python, with the
// CLI's option names as keywords and the CLI's results.
#pragma once

#include <pybind11/pybind11.h>

namespace rigscope_python {

// Adds the calls to m's Session class (defined before) and rigscope.merge to m.
void add_check_calls(pybind11::module_& m);

}  // namespace rigscope_python
