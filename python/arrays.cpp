#include "arrays.h"

#include <cmath>

#include "rigscope/core/error.h"

namespace rigscope_python {

using rigscope::Error;
using rigscope::Frame;
using rigscope::kExitUsage;

py::array_t<float> owned_array(FloatArray&& data, std::vector<py::ssize_t> shape) {
    float* held = data.release();
    py::capsule owner(held, [](void* p) { delete[] static_cast<float*>(p); });
    return py::array_t<float>(shape, held, owner);
}

py::array_t<float> owned_array(std::vector<float>&& data, std::vector<py::ssize_t> shape) {
    auto* held = new std::vector<float>(std::move(data));
    py::capsule owner(held, [](void* p) { delete static_cast<std::vector<float>*>(p); });
    return py::array_t<float>(shape, held->data(), owner);
}

py::array_t<double> owned_array(std::vector<double>&& data, std::vector<py::ssize_t> shape) {
    auto* held = new std::vector<double>(std::move(data));
    py::capsule owner(held, [](void* p) { delete static_cast<std::vector<double>*>(p); });
    return py::array_t<double>(shape, held->data(), owner);
}

py::object frame_label(const Frame& f) {
    if (f.bind) return py::str("bind");
    return py::int_(f.number);
}

py::list frame_labels(const std::vector<Frame>& frames) {
    py::list out;
    for (const Frame& f : frames) out.append(frame_label(f));
    return out;
}

py::array_t<double> frame_times(const std::vector<Frame>& frames) {
    std::vector<double> t;
    for (const Frame& f : frames) t.push_back(f.time);
    return owned_array(std::move(t), {static_cast<py::ssize_t>(t.size())});
}

void check_result_budget(const std::string& call, double bytes, std::size_t frames, double budget_mib, const char* or_else) {
    const double mib = bytes / (1024.0 * 1024.0);
    if (!(mib > budget_mib)) return;
    throw Error(kExitUsage, call + ": its arrays need " + std::to_string(static_cast<long long>(std::ceil(mib))) + " MiB for " +
                                std::to_string(frames) + " frames, more than max_memory (" +
                                std::to_string(static_cast<long long>(budget_mib)) + " MiB): select fewer frames (frames=), raise max_memory" +
                                or_else);
}

py::object namespace_of(py::dict fields) { return py::module_::import("types").attr("SimpleNamespace")(**fields); }

py::object per_mesh(const std::vector<std::string>& names, const std::vector<py::object>& values) {
    if (values.size() == 1) return values[0];
    py::dict d;
    for (std::size_t i = 0; i < names.size(); ++i) d[py::str(names[i])] = values[i];
    return d;
}

}  // namespace rigscope_python
