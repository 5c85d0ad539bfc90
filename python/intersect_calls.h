// Session.intersect(): the intersect job (run/intersect_job.h) on a loaded session, returning the
// face pairs as numpy arrays, the rows of `rigscope intersect --format csv` column by column.
#pragma once

#include <pybind11/pybind11.h>

namespace rigscope_python {

// Adds intersect() to the module's Session class (registered before this is called).
void add_intersect_calls(pybind11::module_& m);

}  // namespace rigscope_python
