// The Python module `rigscope._rigscope`, which the package rigscope/ wraps: the run layer
// (rigscope/run) for pipeline scripts. Option names
// and defaults are the CLI's; errors carry the CLI's messages, one exception class per exit code;
// arrays are handed to numpy from the C++ buffers they were computed in (no per-vertex copy),
// and the GIL is released while frames are evaluated. docs/python.md has examples. This file
// holds the bindings; session.h the calls, tension_result.h tension()'s results, arrays.h what
// crosses to numpy, messages.h the engine's warnings. Inputs arrive as the CLI's strings:
// rigscope/_inputs.py converts Python's forms (frames as a range, paths as os.PathLike) for
// every binding, so a binding takes `std::optional<std::string> frames` and `std::string` paths.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <stdexcept>
#include <string>

#include "rigscope/core/error.h"
#include "rigscope/io/load.h"
#include "rigscope/core/tension.h"
#include "batch_calls.h"
#include "bake_calls.h"
#include "check_calls.h"
#include "messages.h"
#include "intersect_calls.h"
#include "lint_calls.h"
#include "option_rows.h"
#include "session.h"
#include "tension_result.h"

namespace py = pybind11;
using namespace rigscope;
using rigscope_python::Session;
using rigscope_python::TensionArgs;
using rigscope_python::TensionResult;
namespace rigscope_python { void add_diff_calls(py::module_& m); }

PYBIND11_MODULE(_rigscope, m) {
    m.doc() = "rigscope: tension maps, rivets and joystick drivers for skinned, animated meshes (glTF, FBX, Collada, USD, OBJ/PLY, point caches)";
    m.attr("__version__") = RIGSCOPE_VERSION;
    rigscope_python::install_message_sink();
    m.def("_take_messages", &rigscope_python::take_messages, "The engine's messages since the last call (rigscope/__init__.py reports them)");

    // One class per exit code of the CLI (docs/exit_codes.md), under one base.
    static py::exception<Error> base(m, "Error");
    static py::exception<Error> usage(m, "BadValueError", base.ptr());
    static py::exception<Error> bad_input_error(m, "BadInputError", base.ptr());
    static py::exception<Error> cannot_write(m, "CannotWriteError", base.ptr());
    static py::exception<Error> mismatch(m, "MismatchError", base.ptr());
    static py::exception<Error> internal(m, "InternalError", base.ptr());
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const Error& e) {
            // The engine's messages name the CLI's options; Python's name its keywords.
            const std::string what = rigscope_python::python_keywords(e.what());
            switch (e.code()) {
                case kExitUsage: usage(what.c_str()); return;
                case kExitBadInput: bad_input_error(name_memory_option(what, "max_memory=").c_str()); return;
                case kExitCannotWrite: cannot_write(what.c_str()); return;
                case kExitMismatch: mismatch(what.c_str()); return;
                case kExitInternal: internal(what.c_str()); return;
                default: base(what.c_str()); return;
            }
        } catch (const std::length_error& e) {
            bad_input_error(e.what());  // a size past what a container holds: a count in the input
        } catch (const std::logic_error& e) {
            internal((std::string("internal error: ") + e.what() + " (please report it)").c_str());
        }
    });

    py::class_<TensionResult>(m, "TensionResult", py::dynamic_attr(),
                              "tension()'s maps of one mesh: t, frames, times, mesh, t_s, t_c, the measure's arrays; "
                              "compress and stretch are worked out when first read")
        .def_property_readonly("compress", &TensionResult::compress, "float32 (frames, vertices), worked out when first read")
        .def_property_readonly("stretch", &TensionResult::stretch, "float32 (frames, vertices), worked out when first read");
    py::class_<Session::TensionFrames>(m, "TensionFrames")
        .def("__iter__", [](Session::TensionFrames& it) -> Session::TensionFrames& { return it; })
        .def("__next__", &Session::TensionFrames::next);

    // tension() and iter_tension(): frames, the tension keywords (tension_keywords.h), auto_range.
#define RIGSCOPE_TENSION_ARGS \
    py::kw_only(), py::arg("frames") = py::none(), RIGSCOPE_TENSION_PYARGS py::arg("auto_range") = py::none()
    m.attr("_tension_keywords") = rigscope_python::tension_keyword_table();
    m.attr("_tension_options") = rigscope_python::tension_option_rows();
    m.attr("_option_tables") = rigscope_python::option_tables();

    py::class_<Session, std::shared_ptr<Session>>(m, "Session")
        .def_property_readonly("file", &Session::file, "The file load() read")
        .def_property_readonly("warnings", &Session::warnings,
                               "The file's reader warnings as (kind, message): kind 'skipped', 'attribute_dropped', 'skin_weights', 'sampling', "
                               "'transform', 'naming' or 'replaced' (docs/formats.md, Warnings)")
        .def("info", &Session::info, "The same facts as `rigscope info --json`, as a dict")
        .def("deform", &Session::deform, py::kw_only(), py::arg("frames") = py::none(), py::arg("progress") = py::none(),
             "Deformed positions: float32 (frames, vertices, 3) per mesh")
        .def(
            "tension",
            [](Session& s, std::optional<std::string> frames, RIGSCOPE_TENSION_PARAMS std::optional<double> auto_range,
               std::optional<std::string> clip, const py::object& progress) {
                return s.for_clips(clip, [&] { return s.tension(TensionArgs{{RIGSCOPE_TENSION_KEYWORDS_OF}, frames, auto_range}, progress); });
            },
            RIGSCOPE_TENSION_ARGS, py::arg("clip") = py::none(), py::arg("progress") = py::none(),
            "The tension map per frame: t, compress, stretch as float32 (frames, vertices); clip='all': a dict of them by clip")
        .def(
            "iter_tension",
            [](std::shared_ptr<Session> s, std::optional<std::string> frames, RIGSCOPE_TENSION_PARAMS std::optional<double> auto_range) {
                return Session::TensionFrames(s, TensionArgs{{RIGSCOPE_TENSION_KEYWORDS_OF}, frames, auto_range});
            },
            RIGSCOPE_TENSION_ARGS, "Yields (frame, maps) one frame at a time, in constant memory")
        .def(
            "rivets",
            [](Session& s, const std::vector<std::uint32_t>& ids, const std::optional<std::string>& joint, const std::optional<std::string>& frames,
               bool bake, std::optional<std::string> clip, const py::object& progress) {
                return s.for_clips(clip, [&] { return s.rivets(ids, joint, frames, bake, progress); });
            },
            py::arg("vertices"), py::kw_only(), py::arg("joint") = py::none(), py::arg("frames") = py::none(), py::arg("bake") = false,
            py::arg("clip") = py::none(), py::arg("progress") = py::none(),
            "Rivet fits (list of dicts), or with bake=True per-frame transforms; clip='all': a dict of them by clip")
        .def("volume", &Session::volume, py::kw_only(), py::arg("frames") = py::none(), py::arg("progress") = py::none(),
             "Per frame each closed mesh's volume and each joint region's, with ratios to the bind mesh (float64 (frames, columns))")
        .def("drive", &Session::drive, py::arg("rig") = py::none(), py::kw_only(), py::arg("frames") = py::none(), py::arg("progress") = py::none(),
             "A rig's joystick controls evaluated into morph weights");
#undef RIGSCOPE_TENSION_ARGS
    rigscope_python::add_lint_calls(m);
    rigscope_python::add_intersect_calls(m);
    rigscope_python::add_bake_calls(m);

    rigscope_python::add_load_call(m);
    rigscope_python::add_check_calls(m);
    rigscope_python::add_diff_calls(m);
    rigscope_python::add_batch_calls(m);
}
