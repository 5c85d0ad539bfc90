#include "progress.h"

namespace rigscope_python {

namespace py = pybind11;

rigscope::FrameProgress python_progress(const py::object& callback) {
    return [&callback](std::size_t done, std::size_t total) {
        py::gil_scoped_acquire gil;
        if (PyErr_CheckSignals() != 0) throw py::error_already_set();
        if (!callback.is_none()) callback(done, total);
    };
}

}  // namespace rigscope_python
