// rigscope.batch(paths, VERB, **options), VERB check, lint, tension, report, info, deform or diff: the run layer's batch job
// (rigscope/run/batch.h) from Python, returning the summary's rows as dicts.
#pragma once

#include <pybind11/pybind11.h>

namespace rigscope_python {

void add_batch_calls(pybind11::module_& m);

}  // namespace rigscope_python
