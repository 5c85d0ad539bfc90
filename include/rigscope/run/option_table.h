// Each option once (issue 61 item 3): a verb's options as a table of OptionSpec, one row an
// option, from which the CLI registers them (apps/option_table_cli.h), validate() takes their
// ranges (check_option_values; the input options' and several verbs' say theirs in words of
// their own, which the tests hold to the rows), chunk identity lists them (chunk_identity.cpp)
// and `check` names the ones that shape only its --html page; tests/run/test_option_table.cpp
// checks --help, the docs (commands.md, rig_ci.md, lint.md) and chunk identity's order, and
// tests/python/test_keywords.py and test_option_keywords.py every verb's Python keywords and the
// .pyi, against the tables.
//
// Why a table of rows with accessors and not a struct per option or code generation: the options
// structs stay plain (Python, the batch and chunk records fill them field by field), the table
// lives beside them in the run layer where both front ends see it, and the CLI needs no more than
// the accessor's type to bind CLI11 to the field. A row's accessor is a function pointer (a
// capture-less lambda) to the field, so nested fields (params.stretch_area) need no member
// pointer chains; the variant's alternatives are the field types options use.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "rigscope/core/error.h"
#include "rigscope/run/input.h"
#include "rigscope/run/tension_run.h"

namespace rigscope {

// The rule a value follows, said the same way by the CLI's validator and by validate().
enum class OptionCheck {
    none,
    positive,      // > 0 and finite
    non_negative,  // >= 0 and finite
    range,         // from lo to hi, both included
    // A whole number from lo to hi: the CLI's validator is CLI11's Range over longs; validate()
    // says non_negative's message.
    count,
    // More than lo and less than hi. The CLI's validator takes lo and hi themselves (its message
    // says "from lo to hi"), validate() refuses them, naming `range_note`.
    open_range,
    one_of,        // one of `choices`
};

// Two numbers given as one value, "LO,HI" (bake's --range); unset: not given.
using OptionPair = std::optional<std::pair<double, double>>;

// A list (lint's --mirror-names) is given by repeating its option; each item follows the row's
// rule (one_of's choices, if any).
template <typename Options>
using OptionField = std::variant<double& (*)(Options&), int& (*)(Options&), std::string& (*)(Options&),
                                 std::optional<std::string>& (*)(Options&), std::optional<double>& (*)(Options&),
                                 std::optional<long>& (*)(Options&), bool& (*)(Options&), unsigned& (*)(Options&),
                                 std::size_t& (*)(Options&), OptionPair& (*)(Options&), std::vector<std::string>& (*)(Options&)>;

// Which verbs offer a row of the input options' table (input_options()): every verb (FILE,
// --mesh, ...), the verbs that evaluate frames (--frames, --clip, ...), or those that ask for it
// by name (add_weld_option: --weld, --skinning, --threads, --max-output). Other tables: always.
enum class OptionOffered { always, per_frame, on_request };

// A row without its field: what the CLI, validate(), chunk identity and the tests read of it.
struct OptionRule {
    // On the command line: "--stretch-area" (or "-o,--output"; "FILE": a positional); in
    // messages and chunk records too.
    const char* name = "";
    std::string help;  // --help's text
    OptionCheck check = OptionCheck::none;
    double lo = 0, hi = 0;               // range, open_range
    std::vector<std::string> choices{};  // one_of, in the order messages list them
    const char* range_note = "";         // open_range: what the value is, in validate()'s message
    // range: what the CLI's refusal calls the value ("'0' is not a frame rate from 1e-06 to 1e+06").
    const char* range_what = "a number";
    // A text whose empty value means "none" (no reference file): chunk identity lists no value.
    bool path = false;
    // A number whose 0 means "none" (--fps 0: the file's rate): chunk identity lists no value.
    bool zero_none = false;
    // The keyword of the verb's Python call (python/; Session.lint() for lint, load() for the input
    // options), and where there is none, why (no_python). tests/python/test_option_keywords.py
    // fails on a row with neither, a keyword its call lacks and a call's keyword without a row.
    const char* python = nullptr;
    const char* no_python = nullptr;
    // Registered on the command line. A row that is not (lint's area tolerance: a parameter the
    // lint reports and records with its default, which no option sets) still shapes chunk
    // identity and validate(), and is listed for the docs and Python checks.
    bool cli = true;
    bool identity = true;                // listed in the run's chunk identity (chunk_run.h)
    // Where chunk identity lists the row, where that is not its --help place (0: table order;
    // rows of a rank come before those of the next, ties in table order): records written
    // before the tables fixed the order, and merges compare them across versions.
    int identity_rank = 0;
    // A text recorded as this when empty (tension's --color: "" is maps).
    const char* identity_empty = nullptr;
    // An integer recorded as a number ("1e+12", number_text): as records before the table wrote it.
    bool identity_as_number = false;
    bool page_only = false;              // check: shapes only its --html page (check judges T itself)
    bool required = false;               // the command line must give it (FILE)
    // The value an option given alone takes (--auto-range: 100); nullptr: it needs a value.
    const char* implicit_value = nullptr;
    OptionOffered offered = OptionOffered::always;
    const char* needs = nullptr;         // taken only with this option (CLI11 needs)
    std::vector<const char*> excludes{}; // refused with these options (CLI11 excludes)
    // The default as --help and the docs say it, where the field's unset state stands for it
    // (--reference-match unset is index); nullptr: the default-constructed field's value.
    const char* shown_default = nullptr;
};

template <typename Options>
struct OptionSpec : OptionRule {
    OptionField<Options> field;  // the value in the verb's options struct
};

template <typename Options>
using OptionTable = std::vector<OptionSpec<Options>>;

// A row: its name, its field (RIGSCOPE_OPTION_FIELD) and its help; the rest is set after.
template <typename Options>
OptionSpec<Options> option_row(const char* name, OptionField<Options> field, const char* help) {
    OptionSpec<Options> s;
    s.name = name, s.help = help, s.field = field;
    return s;
}

// A row's accessor: `+` turns the capture-less lambda into the function pointer the variant holds.
#define RIGSCOPE_OPTION_FIELD(Options, member) +[](Options& o) -> decltype((o.member)) { return o.member; }

// The shared tension options (tension, check, report, bake, regions and Python's calls that
// evaluate T), in the order --help lists them and chunk identity records them: the reference
// options, then the maps' (the node group's parameters and the measure).
const OptionTable<TensionOptions>& tension_reference_options();
const OptionTable<TensionOptions>& tension_map_options();

// The input options (cli_common's add_input_options and the options it offers by name), in the
// order chunk identity records them: merges compare the records of runs made by other versions,
// so that order and each value's text never change. --help lists the `always` rows first, then
// the `per_frame` ones (what info and lint, which take no frames, offer comes first), each in
// table order. validate() says their rules in its own words (check_input_options, input.h).
const OptionTable<InputOptions>& input_options();
// `rom`'s input options: the same fields with rom's help and rules (--fps any positive rate,
// --rom-angle without --rom, which rom implies).
const OptionTable<InputOptions>& rom_input_options();

struct DeformJobOptions;
struct VolumeJobOptions;
struct IntersectJobOptions;
struct DriveJobOptions;
struct RivetJobOptions;
struct InfoJobOptions;
struct DiffJobOptions;
struct CheckJobOptions;
struct ReportOptions;
struct TensionJobOptions;
struct RegionsJobOptions;
struct BakeJobOptions;
struct LintJobOptions;
struct RomJobOptions;

// Each verb's own options, in the order its --help lists them after the input options
// (src/run/verb_option_tables.cpp); chunk identity records the identity rows in that order.
const OptionTable<DeformJobOptions>& deform_options();
const OptionTable<VolumeJobOptions>& volume_options();
const OptionTable<IntersectJobOptions>& intersect_options();
const OptionTable<DriveJobOptions>& drive_options();
const OptionTable<RivetJobOptions>& rivet_options();
const OptionTable<InfoJobOptions>& info_options();
// NEW first: cmd_diff.cpp registers --against (a batch's option) after it.
const OptionTable<DiffJobOptions>& diff_options();
const OptionTable<CheckJobOptions>& check_options();
const OptionTable<TensionJobOptions>& tension_job_options();
const OptionTable<RegionsJobOptions>& regions_options();
// bake: the tension options as tension has them, then these (--range a pair).
const OptionTable<BakeJobOptions>& bake_options();
// lint: the checks' parameters (--mirror-names a list; --area-tolerance a row with no option:
// recorded and reported at its default), then what is written where.
const OptionTable<LintJobOptions>& lint_options();
// rom: after its input options (rom_input_options()), the clip's file and the listing's format.
const OptionTable<RomJobOptions>& rom_options();
// The page's options (report, and check --html's --max-size): --worst, --max-size, then report's
// -o. Report's identity lists the first two.
const OptionTable<ReportOptions>& report_page_options();

// The row of a verb's --format (run/output_formats.h): its choices, and its help ("csv, json or
// gltf (default: from -o's extension, else csv)"), are the verb's row of the formats table.
OptionRule format_rule(const char* verb);
template <typename Options>
OptionSpec<Options> format_row(const char* verb, OptionField<Options> field) {
    OptionSpec<Options> s;
    static_cast<OptionRule&>(s) = format_rule(verb);
    s.field = field;
    return s;
}

// The row named `name` of `table`; throws internal_error for none.
template <typename Options>
const OptionSpec<Options>& table_row(const OptionTable<Options>& table, const char* name) {
    for (const OptionSpec<Options>& s : table)
        if (std::string(s.name) == name) return s;
    throw internal_error(std::string("no option ") + name + " in its table");
}

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

// A value as the docs and --help state defaults: numbers as number_text writes them.
std::string option_value_text(double v);
std::string option_value_text(long v);
std::string option_value_text(bool v);
std::string option_value_text(const std::string& v);
// A pair as it is typed, "LO,HI"; a list's items joined by commas.
std::string option_value_text(const std::pair<double, double>& v);
std::string option_value_text(const std::vector<std::string>& v);

// Throw Error (usage) when `v` breaks the row's rule, in the words the checks said before the
// tables (check_option_values).
void check_option_number(const OptionRule& rule, double v);
void check_option_integer(const OptionRule& rule, long v);
void check_option_text(const OptionRule& rule, const std::string& v);

namespace option_detail {
template <typename T>
struct is_optional : std::false_type {};
template <typename T>
struct is_optional<std::optional<T>> : std::true_type {};
}  // namespace option_detail

// The default as the docs and --help state it: shown_default, else the default-constructed
// field's value (numbers as number_text writes them; "" for an optional left unset).
template <typename Options>
std::string option_default_text(const OptionSpec<Options>& spec) {
    if (spec.shown_default) return spec.shown_default;
    std::string out;
    visit_option(spec, Options{}, [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (option_detail::is_optional<T>::value) {
            if (v) out = option_value_text(*v);
        } else if constexpr (std::is_same_v<T, int> || std::is_same_v<T, unsigned> || std::is_same_v<T, std::size_t>) {
            out = option_value_text(long(v));
        } else {
            out = option_value_text(v);
        }
    });
    return out;
}

// Throws Error (usage) naming the first row whose value breaks its rule, in table order.
template <typename Options>
void check_option_values(const OptionTable<Options>& table, const Options& opt) {
    for (const OptionSpec<Options>& s : table)
        visit_option(s, opt, [&](const auto& v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, double>) check_option_number(s, v);
            else if constexpr (std::is_same_v<T, int> || std::is_same_v<T, unsigned> || std::is_same_v<T, std::size_t>)
                check_option_integer(s, long(v));
            else if constexpr (std::is_same_v<T, std::string>) check_option_text(s, v);
            else if constexpr (std::is_same_v<T, bool>) return;
            else if constexpr (std::is_same_v<T, std::optional<double>>) {
                if (v) check_option_number(s, *v);
            } else if constexpr (std::is_same_v<T, std::optional<long>>) {
                if (v) check_option_integer(s, *v);
            } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
                for (const std::string& item : v) check_option_text(s, item);
            } else if constexpr (std::is_same_v<T, OptionPair>) {
                if (v) check_option_number(s, v->first), check_option_number(s, v->second);
            } else if (v) {
                check_option_text(s, *v);
            }
        });
}

// True when `opt`'s value of this row differs from the default-constructed struct's.
template <typename Options>
bool option_given(const OptionSpec<Options>& spec, const Options& opt) {
    bool differs = false;
    const Options defaults{};
    visit_option(spec, opt, [&](const auto& v) {
        visit_option(spec, defaults, [&](const auto& d) {
            if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::decay_t<decltype(d)>>) differs = v != d;
        });
    });
    return differs;
}

}  // namespace rigscope
