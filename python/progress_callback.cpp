#include "progress_callback.h"

namespace rigscope_python {

namespace py = pybind11;

namespace {

// logging.getLogger("rigscope"), looked up once: loggers live as long as the interpreter.
py::handle rigscope_logger() {
    static py::handle logger = py::module_::import("logging").attr("getLogger")("rigscope").release();
    return logger;
}

}  // namespace

rigscope::FrameProgress python_progress(const py::object& callback) {
    return [&callback](std::size_t done, std::size_t total) {
        py::gil_scoped_acquire gil;
        if (PyErr_CheckSignals() != 0) throw py::error_already_set();
        if (!callback.is_none()) callback(done, total);
        const py::handle logger = rigscope_logger();
        if (logger.attr("isEnabledFor")(10).cast<bool>()) logger.attr("debug")("frame %d of %d", done, total);
    };
}

}  // namespace rigscope_python
