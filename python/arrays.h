// What crosses from the engine's buffers to Python: float arrays that numpy takes over without a
// copy, frame labels and times, one value per mesh, and the budget a call's arrays must fit.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

#include "rigscope/core/frames.h"

namespace rigscope_python {

namespace py = pybind11;

// A float array that a run fills once and numpy then owns, not cleared first: every element is
// written before Python sees it. (Huge pages were tried twice: on the machine measured they made
// the whole tension() slower, 1.6-3.0 s against 1.1-1.4 s; docs/benchmarks.md.)
class FloatArray {
public:
    FloatArray() = default;
    explicit FloatArray(std::size_t n) : data_(new float[n]), size_(n) {}
    float* data() { return data_.get(); }
    std::size_t size() const { return size_; }
    float* release() { return data_.release(); }

private:
    std::unique_ptr<float[]> data_;
    std::size_t size_ = 0;
};

// numpy arrays over `data`, which the arrays then own: the values are not copied.
py::array_t<float> owned_array(FloatArray&& data, std::vector<py::ssize_t> shape);
py::array_t<float> owned_array(std::vector<float>&& data, std::vector<py::ssize_t> shape);
py::array_t<double> owned_array(std::vector<double>&& data, std::vector<py::ssize_t> shape);

// A frame's label: its number, or "bind" for the bind pose.
py::object frame_label(const rigscope::Frame& f);
py::list frame_labels(const std::vector<rigscope::Frame>& frames);
py::array_t<double> frame_times(const std::vector<rigscope::Frame>& frames);

// A types.SimpleNamespace of `fields`.
py::object namespace_of(py::dict fields);
// One value per selected mesh: the value itself when one mesh is selected, else a dict by name.
py::object per_mesh(const std::vector<std::string>& names, const std::vector<py::object>& values);

// A call's result arrays against the session's memory budget (load's max_memory, the CLI's
// --max-memory): a frame range or rate that needs more is refused before anything is allocated,
// instead of failing in the allocator or in the kernel's OOM killer. or_else: what else the
// message suggests (", or stream with iter_tension()").
void check_result_budget(const std::string& call, double bytes, std::size_t frames, double budget_mib, const char* or_else);

}  // namespace rigscope_python
