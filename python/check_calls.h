// Session.check(), Session.report(), Session.rom() and rigscope.merge(): the run layer's rig-CI
// jobs (rigscope/run/check_job.h, report_job.h, rom_job.h, merge_job.h) from Python, with the
// CLI's option names as keywords and the CLI's results.
#pragma once

#include <optional>
#include <string>

#include <pybind11/pybind11.h>

#include "rigscope/run/check_job.h"

namespace rigscope_python {

// Adds the calls to m's Session class (defined before) and rigscope.merge to m.
void add_check_calls(pybind11::module_& m);

// check()'s and batch()'s limit keywords into the job's options: each limit counts only when
// given (None leaves it off).
void set_check_limits(rigscope::CheckJobOptions& opt, const std::optional<double>& max_stretch, const std::optional<double>& max_compress,
                      const std::optional<double>& max_lambda, const std::optional<double>& min_lambda);

// The report page's viewer template as the installed package finds it (check_calls.cpp).
std::string package_viewer();

}  // namespace rigscope_python
