// Every options table (rigscope/run/option_table.h) as Python sees it, so that the tests can hold
// the bindings, the stub and the docs to the rows (tests/python/test_option_keywords.py).
#pragma once

#include <pybind11/pybind11.h>

namespace rigscope_python {

// {table name: ((option, keyword or None, why no keyword or None, default text, on the command
// line), ...)}: "input" and "rom_input" the input options', "tension_reference" and
// "tension_maps" the shared tension options', the rest each verb's own.
pybind11::dict option_tables();

}  // namespace rigscope_python
