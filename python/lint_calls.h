// Session.lint(): the lint job (run/lint_job.h) on a loaded session, with the CLI's options as
// keywords, returning the findings as `rigscope lint --format json` writes them.
#pragma once

#include <pybind11/pybind11.h>

namespace rigscope_python {

// Adds lint() to the module's Session class (registered before this is called).
void add_lint_calls(pybind11::module_& m);

}  // namespace rigscope_python
