// Session.bake() and Session.regions() (issue 60): the bake and regions jobs on a session's input.
#pragma once

#include <pybind11/pybind11.h>

namespace rigscope_python {

void add_bake_calls(pybind11::module_& m);

}  // namespace rigscope_python
