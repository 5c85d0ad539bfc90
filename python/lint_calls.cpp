#include "lint_calls.h"

#include <pybind11/stl.h>

#include "rigscope/run/lint_job.h"
#include "session.h"

namespace rigscope_python {

using namespace rigscope;

struct LintCalls {
    static py::object lint(Session& s, const LintOptions& lint) {
        std::lock_guard<std::recursive_mutex> lock(s.mutex_);
        LintJobOptions opt;
        opt.input = s.opt_;
        opt.lint = lint;
        opt.format = "json";
        std::string json;
        {
            py::gil_scoped_release release;
            json = run_lint(opt, s.in_).output;
        }
        // The CLI's JSON document itself, so both give the same findings by construction.
        return py::module_::import("json").attr("loads")(json);
    }
};

void add_lint_calls(py::module_& m) {
    py::object cls = m.attr("Session");
    const LintParams d;
    auto call = [](Session& s, double weight_tolerance, int max_influences, double min_weight, const std::optional<std::string>& mirror,
                   const std::vector<std::string>& mirror_names, double mirror_tolerance, double bind_tolerance, double scale_tolerance,
                   bool strict) {
        LintOptions opt;
        opt.params.weight_tolerance = weight_tolerance;
        opt.params.max_influences = max_influences;
        opt.params.min_weight = min_weight;
        opt.params.mirror_tolerance = mirror_tolerance;
        opt.params.bind_tolerance = bind_tolerance;
        opt.params.scale_tolerance = scale_tolerance;
        opt.mirror = mirror.value_or("");
        opt.mirror_names = mirror_names;
        opt.strict = strict;
        return LintCalls::lint(s, opt);
    };
    cls.attr("lint") = py::cpp_function(
        call, py::name("lint"), py::is_method(cls), py::sibling(py::getattr(cls, "lint", py::none())), py::kw_only(),
        py::arg("weight_tolerance") = d.weight_tolerance, py::arg("max_influences") = d.max_influences, py::arg("min_weight") = d.min_weight,
        py::arg("mirror") = py::none(), py::arg("mirror_names") = std::vector<std::string>{}, py::arg("mirror_tolerance") = d.mirror_tolerance,
        py::arg("bind_tolerance") = d.bind_tolerance, py::arg("scale_tolerance") = d.scale_tolerance, py::arg("strict") = false,
        "The rig lint of `rigscope lint` on the session's meshes in the bind pose: a dict as its --format json writes it "
        "(findings, counts, failed, checks, parameters)");
}

}  // namespace rigscope_python
