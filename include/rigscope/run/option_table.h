// Each option once (issue 61 item 3): a verb's options as a table of OptionSpec, one row an
// option, from which the CLI registers them (apps/option_registration.cpp), validate() takes
// their ranges (check_option_values), chunk identity lists them (chunk_identity.cpp) and `check`
// names the ones that shape only its --html page; tests/run/test_option_table.cpp checks --help,
// docs/commands.md's tables and tests/python/test_keywords.py the Python keywords against it.
//
// Why a table of rows with accessors and not a struct per option or code generation: the options
// structs stay plain (Python, the batch and chunk records fill them field by field), the table
// lives beside them in the run layer where both front ends see it, and the CLI needs no more than
// the accessor's type to bind CLI11 to the field. A row's accessor is a function pointer (a
// capture-less lambda) to the field, so nested fields (params.stretch_area) need no member
// pointer chains; the variant's alternatives are the field types options use.
#pragma once

#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "rigscope/run/tension_run.h"

namespace rigscope {

// The rule a value follows, said the same way by the CLI's validator and by validate().
enum class OptionCheck {
    none,
    positive,      // > 0 and finite
    non_negative,  // >= 0 and finite
    range,         // from lo to hi, both included
    // More than lo and less than hi. The CLI's validator takes lo and hi themselves (its message
    // says "from lo to hi"), validate() refuses them, naming `range_note`.
    open_range,
    one_of,        // one of `choices`
};

template <typename Options>
using OptionField = std::variant<double& (*)(Options&), int& (*)(Options&), std::string& (*)(Options&),
                                 std::optional<std::string>& (*)(Options&), std::optional<double>& (*)(Options&),
                                 std::optional<long>& (*)(Options&)>;

template <typename Options>
struct OptionSpec {
    const char* name;            // on the command line: "--stretch-area"; in messages and chunk records too
    OptionField<Options> field;  // the value in the verb's options struct
    const char* help;            // --help's text
    OptionCheck check = OptionCheck::none;
    double lo = 0, hi = 0;               // range, open_range
    std::vector<std::string> choices{};  // one_of, in the order messages list them
    const char* range_note = "";         // open_range: what the value is, in validate()'s message
    // A text whose empty value means "none" (no reference file): chunk identity lists no value.
    bool path = false;
    const char* python = nullptr;        // the Python keyword (python/tension_keywords.h); nullptr: none
    bool identity = true;                // listed in the run's chunk identity (chunk_run.h)
    bool page_only = false;              // check: shapes only its --html page (check judges T itself)
    const char* needs = nullptr;         // taken only with this option (CLI11 needs)
    const char* excludes = nullptr;      // refused with this option (CLI11 excludes)
    // The default as --help and the docs say it, where the field's unset state stands for it
    // (--reference-match unset is index); nullptr: the default-constructed field's value.
    const char* shown_default = nullptr;
};

template <typename Options>
using OptionTable = std::vector<OptionSpec<Options>>;

// The shared tension options (tension, check, report, bake, regions and Python's calls that
// evaluate T), in the order --help lists them and chunk identity records them: the reference
// options, then the maps' (the node group's parameters and the measure).
const OptionTable<TensionOptions>& tension_reference_options();
const OptionTable<TensionOptions>& tension_map_options();

// Calls f(const T&) with the value a row names in `opt`.
template <typename Options, typename F>
void visit_option(const OptionSpec<Options>& spec, const Options& opt, F&& f) {
    std::visit(
        [&](auto get) {
            // The accessor only forms a reference into `opt`; nothing is written through it.
            const auto& value = get(const_cast<Options&>(opt));
            f(value);
        },
        spec.field);
}

// The same with a value that may be written (the CLI binds it).
template <typename Options, typename F>
void visit_option(const OptionSpec<Options>& spec, Options& opt, F&& f) {
    std::visit([&](auto get) { f(get(opt)); }, spec.field);
}

// The default as the docs and --help state it: shown_default, else the default-constructed
// field's value (numbers as number_text writes them; "" for an optional left unset).
std::string option_default_text(const OptionSpec<TensionOptions>& spec);

// Throws Error (usage) naming the first row whose value breaks its rule, in table order.
void check_option_values(const OptionTable<TensionOptions>& table, const TensionOptions& opt);

// True when `opt`'s value of this row differs from the default-constructed struct's.
bool option_given(const OptionSpec<TensionOptions>& spec, const TensionOptions& opt);

}  // namespace rigscope
