// The tension keywords, written once: every call that evaluates T (Session.tension,
// iter_tension, check and report) takes them in this order, with these defaults, read from the
// C++ structs. The table expands into each binding's parameter list (RIGSCOPE_TENSION_PARAMS),
// its py::arg list (RIGSCOPE_TENSION_PYARGS) and the TensionKeywords it fills
// (RIGSCOPE_TENSION_KEYWORDS_OF); the module exports it as _tension_keywords, which
// tests/python/test_keywords.py checks against python/rigscope/__init__.pyi.
#pragma once

#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <pybind11/pybind11.h>

#include "rigscope/core/error.h"
#include "rigscope/core/tension.h"
#include "rigscope/run/option_table.h"
#include "rigscope/run/tension_run.h"

namespace rigscope_python {

// X(C++ type, keyword, default): the default an expression of struct defaults (or py::none()).
#define RIGSCOPE_TENSION_KEYWORDS(X)                                                          \
    X(std::optional<std::string>, reference, pybind11::none())                                \
    X(std::optional<long>, reference_frame, pybind11::none())                                 \
    X(std::optional<std::string>, reference_match, pybind11::none())                          \
    X(std::optional<double>, reference_scale, pybind11::none())                               \
    X(std::optional<double>, reference_tolerance, pybind11::none())                           \
    X(double, falloff, rigscope::TensionParams{}.falloff)                                     \
    X(double, stretch_area, rigscope::TensionParams{}.stretch_area)                           \
    X(double, compress_area, rigscope::TensionParams{}.compress_area)                         \
    X(double, weight_limit, rigscope::TensionParams{}.weight_limit)                           \
    X(double, smooth_k, rigscope::TensionParams{}.smooth_k)                                   \
    X(std::optional<std::string>, measure, rigscope::TensionOptions{}.measure)                \
    X(int, smooth, rigscope::TensionOptions{}.smooth)                                         \
    X(std::optional<std::string>, smooth_weights, rigscope::TensionOptions{}.smooth_weights)

// The keywords' values as one call received them.
struct TensionKeywords {
#define RIGSCOPE_TENSION_FIELD(type, name, value) type name;
    RIGSCOPE_TENSION_KEYWORDS(RIGSCOPE_TENSION_FIELD)
#undef RIGSCOPE_TENSION_FIELD
};

// In a binding's lambda: `type name,` for each keyword (a parameter always follows the table).
#define RIGSCOPE_TENSION_PARAM(type, name, value) type name,
#define RIGSCOPE_TENSION_PARAMS RIGSCOPE_TENSION_KEYWORDS(RIGSCOPE_TENSION_PARAM)
// In its .def: `py::arg("name") = default,` for each keyword (an argument always follows).
#define RIGSCOPE_TENSION_PYARG(type, name, value) pybind11::arg(#name) = value,
#define RIGSCOPE_TENSION_PYARGS RIGSCOPE_TENSION_KEYWORDS(RIGSCOPE_TENSION_PYARG)
// The lambda's parameters gathered: TensionKeywords{RIGSCOPE_TENSION_KEYWORDS_OF}.
#define RIGSCOPE_TENSION_NAME(type, name, value) name,
#define RIGSCOPE_TENSION_KEYWORDS_OF RIGSCOPE_TENSION_KEYWORDS(RIGSCOPE_TENSION_NAME)

// The table as Python sees it: (keyword, default) pairs, in order.
inline pybind11::tuple tension_keyword_table() {
    std::vector<pybind11::object> rows;
#define RIGSCOPE_TENSION_ROW(type, name, value) rows.push_back(pybind11::make_tuple(#name, value));
    RIGSCOPE_TENSION_KEYWORDS(RIGSCOPE_TENSION_ROW)
#undef RIGSCOPE_TENSION_ROW
    pybind11::tuple t(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) t[i] = rows[i];
    return t;
}

// Sets the field of the maps' table row (rigscope/run/option_table.h) whose keyword is `name`
// from a call's value: the same type, or a text keyword given (None leaves the field's default).
// The reference keywords are not the maps' rows: Session::tension_options falls back to load()'s.
template <typename V>
void set_map_keyword(rigscope::TensionOptions& t, const char* name, const V& value) {
    for (const auto& row : rigscope::tension_map_options())
        if (row.python && std::string(row.python) == name)
            rigscope::visit_option(row, t, [&](auto& field) {
                using F = std::decay_t<decltype(field)>;
                if constexpr (std::is_same_v<F, V>) field = value;
                else if constexpr (std::is_same_v<V, std::optional<F>>) {
                    if (value) field = *value;
                } else {
                    throw rigscope::internal_error(std::string("keyword ") + name + ": its type is not its option's");
                }
            });
}
// In Session::tension_options: each keyword of a call `a` into TensionOptions `t` by the table.
#define RIGSCOPE_TENSION_SET(type, name, value) rigscope_python::set_map_keyword(t, #name, a.name);
#define RIGSCOPE_TENSION_SET_MAPS RIGSCOPE_TENSION_KEYWORDS(RIGSCOPE_TENSION_SET)

// The shared tension options' table (rigscope/run/option_table.h) as Python sees it: (option,
// keyword or None, default as --help and the docs say it) rows, the reference's then the maps'.
// The module exports it as _tension_options; tests/python/test_keywords.py checks that the
// keywords above are exactly the table's, with its defaults.
inline pybind11::tuple tension_option_rows() {
    std::vector<pybind11::object> rows;
    for (const auto* table : {&rigscope::tension_reference_options(), &rigscope::tension_map_options()})
        for (const auto& s : *table)
            rows.push_back(pybind11::make_tuple(s.name, s.python ? pybind11::object(pybind11::str(s.python)) : pybind11::none(),
                                                rigscope::option_default_text(s)));
    pybind11::tuple t(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) t[i] = rows[i];
    return t;
}

}  // namespace rigscope_python
