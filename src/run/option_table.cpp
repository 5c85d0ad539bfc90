// The options tables (run/option_table.h): each shared tension option written once.
#include "rigscope/run/option_table.h"

#include <algorithm>
#include <cmath>

#include "rigscope/core/error.h"
#include "rigscope/io/output.h"
#include "rigscope/run/output_formats.h"

namespace rigscope {

namespace {

#define RIGSCOPE_FIELD(member) RIGSCOPE_OPTION_FIELD(TensionOptions, member)

using Spec = OptionSpec<TensionOptions>;
constexpr auto row = option_row<TensionOptions>;

}  // namespace

const OptionTable<TensionOptions>& tension_reference_options() {
    static const OptionTable<TensionOptions> table = [] {
        OptionTable<TensionOptions> t;
        Spec s = row("--reference", RIGSCOPE_FIELD(reference),
                     "Rest mesh from this file (any format read: a neutral OBJ or PLY too; in a batch it may hold placeholders: "
                     "'{dir}/{stem}.obj'); default: FILE's bind pose");
        s.path = true, s.python = "reference", s.shown_default = "FILE's bind pose";
        t.push_back(s);
        s = row("--reference-match", RIGSCOPE_FIELD(reference_match),
                "Pair the reference's vertices by index (default: vertex i, or welded vertex i) or by position (at the bind pose)");
        s.check = OptionCheck::one_of, s.choices = {"index", "position"}, s.python = "reference_match", s.needs = "--reference";
        s.shown_default = "index";  // unset: index, and a suspect vertex order is refused (tension_run.h)
        t.push_back(s);
        s = row("--reference-scale", RIGSCOPE_FIELD(reference_scale), "Scale the reference's positions by S first (0.01: centimetres to metres)");
        s.check = OptionCheck::positive, s.python = "reference_scale", s.needs = "--reference", s.shown_default = "1";
        t.push_back(s);
        s = row("--reference-tolerance", RIGSCOPE_FIELD(reference_tolerance),
                "--reference-match position: pair within this fraction of the diagonal (default 1e-4)");
        s.check = OptionCheck::open_range, s.lo = 0, s.hi = 1, s.range_note = "a fraction of the diagonal", s.needs = "--reference";
        s.python = "reference_tolerance";
        t.push_back(s);
        s = row("--reference-frame", RIGSCOPE_FIELD(reference_frame), "Rest mesh from this frame of the animation");
        s.python = "reference_frame", s.excludes = {"--reference"};
        t.push_back(s);
        return t;
    }();
    return table;
}

const OptionTable<TensionOptions>& tension_map_options() {
    static const OptionTable<TensionOptions> table = [] {
        OptionTable<TensionOptions> t;
        // The node group's parameters: they shape the maps, which check does not judge.
        Spec s = row("--falloff", RIGSCOPE_FIELD(params.falloff), "Map falloff: map = ramp^(1/falloff) (default 1)");
        s.check = OptionCheck::positive, s.python = "falloff", s.page_only = true;
        t.push_back(s);
        s = row("--stretch-area", RIGSCOPE_FIELD(params.stretch_area), "Stretch Area: T at which stretch is full (default 0.75)");
        s.check = OptionCheck::range, s.lo = 0, s.hi = 1, s.python = "stretch_area", s.page_only = true;
        t.push_back(s);
        s = row("--compress-area", RIGSCOPE_FIELD(params.compress_area), "Compress Area: compress is full at T = 1/area (default 0.6)");
        s.check = OptionCheck::range, s.lo = 0, s.hi = 1, s.python = "compress_area", s.page_only = true;
        t.push_back(s);
        s = row("--weight-limit", RIGSCOPE_FIELD(params.weight_limit), "Scale of both maps (default 1)");
        s.check = OptionCheck::range, s.lo = 0, s.hi = 1, s.python = "weight_limit", s.page_only = true;
        t.push_back(s);
        s = row("--smooth-k", RIGSCOPE_FIELD(params.smooth_k), "Smoothing distance of the smooth min/max (default 0.1; 0: plain)");
        s.check = OptionCheck::non_negative, s.python = "smooth_k", s.page_only = true;
        t.push_back(s);
        // The measure: what T is, which check judges too.
        s = row("--measure", RIGSCOPE_FIELD(measure),
                "What T measures: edge (mean edge length, default), area (one-ring area), principal (principal stretches)");
        s.check = OptionCheck::one_of, s.choices = {"edge", "area", "principal"}, s.python = "measure";
        t.push_back(s);
        s = row("--smooth", RIGSCOPE_FIELD(smooth), "Iterations of one-ring averaging of the measure before the maps (default 0)");
        s.check = OptionCheck::range, s.lo = 0, s.hi = 10000, s.python = "smooth";
        t.push_back(s);
        s = row("--smooth-weights", RIGSCOPE_FIELD(smooth_weights), "Weights of --smooth: uniform (default) or cotan (rest cotangents)");
        s.check = OptionCheck::one_of, s.choices = {"uniform", "cotan"}, s.python = "smooth_weights";
        t.push_back(s);
        return t;
    }();
    return table;
}

#undef RIGSCOPE_FIELD

std::string option_value_text(double v) { return number_text(v); }
std::string option_value_text(long v) { return std::to_string(v); }
std::string option_value_text(bool v) { return v ? "true" : "false"; }
std::string option_value_text(const std::string& v) { return v; }
std::string option_value_text(const std::pair<double, double>& v) { return number_text(v.first) + "," + number_text(v.second); }
std::string option_value_text(const std::vector<std::string>& v) {
    std::string out;
    for (const std::string& item : v) out += (out.empty() ? "" : ",") + item;
    return out;
}

// The messages are those the checks said before the table (kept word for word): std::to_string's
// "0.500000" in a range's, for one.
void check_option_number(const OptionRule& s, double v) {
    const std::string name = s.name;
    switch (s.check) {
        case OptionCheck::positive:
            if (!(v > 0) || !std::isfinite(v)) throw Error(kExitUsage, name + ": must be a positive number");
            break;
        case OptionCheck::non_negative:
        case OptionCheck::count:
            if (!(v >= 0) || !std::isfinite(v)) throw Error(kExitUsage, name + ": must be 0 or more");
            break;
        case OptionCheck::range:
            if (!(v >= s.lo && v <= s.hi))
                throw Error(kExitUsage, name + ": " + std::to_string(v) + " is not from " + std::to_string(s.lo) + " to " + std::to_string(s.hi));
            break;
        case OptionCheck::open_range:
            if (!(v > s.lo) || !(v < s.hi))
                throw Error(kExitUsage, name + ": must be more than " + number_text(s.lo) + " and less than " + number_text(s.hi) + " (" +
                                            s.range_note + ")");
            break;
        default:
            break;
    }
}

void check_option_integer(const OptionRule& s, long v) {
    if (s.check == OptionCheck::range && (v < s.lo || v > s.hi))
        throw Error(kExitUsage, std::string(s.name) + ": " + std::to_string(v) + " is not from " + std::to_string(long(s.lo)) + " to " +
                                    std::to_string(long(s.hi)));
    if (s.check != OptionCheck::range && s.check != OptionCheck::none) check_option_number(s, double(v));
}

void check_option_text(const OptionRule& s, const std::string& v) {
    if (s.check == OptionCheck::one_of && std::find(s.choices.begin(), s.choices.end(), v) == s.choices.end())
        throw Error(kExitUsage, std::string(s.name) + ": '" + v + "' is not " + or_list(s.choices));
}

}  // namespace rigscope
