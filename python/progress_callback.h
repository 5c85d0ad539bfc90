// Progress and Ctrl-C for a call that evaluates frames with the GIL released.
#pragma once

#include <pybind11/pybind11.h>

#include "rigscope/run/progress.h"

namespace rigscope_python {

// What runs after each frame of a call: a pending Ctrl-C (SIGINT) stops the run there with
// KeyboardInterrupt, `callback(done, total)` is called unless it is None, and the logger
// "rigscope" gets a DEBUG record "frame DONE of TOTAL" when it is enabled for DEBUG. The
// evaluation has released the GIL; all three need it. The callback is held by reference: copies
// of the std::function are made and dropped without the GIL, where a Python reference count must
// not change.
rigscope::FrameProgress python_progress(const pybind11::object& callback);

}  // namespace rigscope_python
