#include "cli_common.h"
#include "option_table_cli.h"
#include "rigscope/run/output_formats.h"
#include "rigscope/run/output_names.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <cstdio>
#include <sstream>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include "rigscope/core/error.h"
#include "rigscope/io/output.h"

namespace rigscope::cli {

namespace {


// A number the validator `ok` accepts, else "'s' is not <what>". Unlike CLI::PositiveNumber it
// refuses NaN (which compares false with everything, so it passed, and a NaN budget disabled
// the budget) and infinity, and its message writes numbers as people do ("0 to 1", not
// "0.000000 to 1.000000", nor DBL_MAX in 300 digits).
template <typename Ok>
CLI::Validator number_check(const std::string& what, Ok ok) {
    return CLI::Validator(
        [what, ok](std::string& s) -> std::string {
            double v = 0;
            std::size_t used = 0;
            try {
                v = std::stod(s, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used == 0 || used != s.size() || !std::isfinite(v) || !ok(v)) return "'" + s + "' is not " + what;
            return "";
        },
        "NUMBER");
}

}  // namespace

CLI::Validator number_in(double lo, double hi, const std::string& what) {
    return number_check(what + " from " + number_text(lo) + " to " + number_text(hi), [lo, hi](double v) { return v >= lo && v <= hi; });
}
CLI::Validator positive_number() { return number_check("a positive number", [](double v) { return v > 0; }); }
CLI::Validator non_negative_number() { return number_check("a number of 0 or more", [](double v) { return v >= 0; }); }

// The input options' rows (run/option_table.h's input_options()): --weld, --skinning,
// --threads and --max-output where a verb offers them.
void add_weld_option(CLI::App* cmd, InputOptions& opt) { add_table_option(cmd, table_row(input_options(), "--weld"), opt); }
void add_skinning_option(CLI::App* cmd, InputOptions& opt) { add_table_option(cmd, table_row(input_options(), "--skinning"), opt); }
void add_threads_option(CLI::App* cmd, InputOptions& opt) { add_table_option(cmd, table_row(input_options(), "--threads"), opt); }
void add_max_output_option(CLI::App* cmd, InputOptions& opt) { add_table_option(cmd, table_row(input_options(), "--max-output"), opt); }

void add_format_option(CLI::App* cmd, const char* verb, std::string& format) {
    const OptionRule r = format_rule(verb);
    cmd->add_option("--format", format, r.help)->check(validator_of(r));
}

void add_input_options(CLI::App* cmd, InputOptions& opt, bool per_frame) {
    // What every verb takes first (info and lint take no frames), then frame selection.
    for (const OptionSpec<InputOptions>& s : input_options())
        if (s.offered == OptionOffered::always) add_table_option(cmd, s, opt);
    if (!per_frame) return;
    for (const OptionSpec<InputOptions>& s : input_options())
        if (s.offered == OptionOffered::per_frame) add_table_option(cmd, s, opt);
}

namespace {

// The file-name part of a path.
std::string file_name_of(const std::string& path) {
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

void check_parsed_paths(const CLI::App& cmd) {
    // Options whose value names a file or lists something: an empty one is a slip, never "none".
    static const char* const kValued[] = {"output", "junit", "json", "html", "summary", "reference", "rig",
                                          "animation", "vertices", "cache", "joints", "mesh", "clip", "frames"};
    // The options that write a file.
    static const char* const kOutputs[] = {"output", "junit", "json", "html", "summary"};
    std::vector<std::pair<std::string, std::string>> outputs;
    for (const CLI::Option* o : cmd.get_options()) {
        if (o->count() == 0 || o->get_lnames().empty()) continue;
        const std::string& name = o->get_lnames().front();
        const std::string shown = name == "output" && !o->get_snames().empty() ? "-" + o->get_snames().front() : "--" + name;
        if (std::find(std::begin(kValued), std::end(kValued), name) != std::end(kValued))
            for (const std::string& v : o->results()) refuse_empty_path(shown, v);
        if (std::find(std::begin(kOutputs), std::end(kOutputs), name) == std::end(kOutputs)) continue;
        for (const std::string& v : o->results()) {
            outputs.emplace_back(shown, v);
            // '#' stands for the frame number where frames are written one file each: tension's
            // glTF (its run checks the format); anywhere else it would be a file named with hashes.
            if (file_name_of(v).find('#') != std::string::npos && !(name == "output" && cmd.get_name() == "tension"))
                throw Error(kExitUsage, shown + " " + v + ": '#' numbers one file per frame, which only tension's glTF output writes (-o out_####.glb)");
        }
    }
    check_output_paths(outputs);
    for (const auto& [option, path] : outputs) refuse_misnamed_output(option, path);  // --junit x.json, --json x.xml
}

void print_text(const std::string& text) {
    OutputFile out("-");
    out.write(text);
    out.commit();
}

Progress::Progress(std::size_t total, const char* what)
    : total_(total), what_(what), enabled_(spdlog::should_log(spdlog::level::info) && isatty(STDERR_FILENO)),
      timer_() {}

void Progress::step(std::size_t done) {
    if (!enabled_) return;
    const double elapsed = timer_.seconds();
    if (elapsed < 1.0 || elapsed - last_ < 0.2) return;
    last_ = elapsed;
    const double rate = done / elapsed;
    const double left = rate > 0 ? (total_ - done) / rate : 0;
    std::fprintf(stderr, "\r%s %zu/%zu frames, %.1f frames/s, %.0f s left   ", what_, done, total_, rate, std::ceil(left));
    std::fflush(stderr);
    shown_ = true;
}

void Progress::finish() {
    if (shown_) std::fprintf(stderr, "\r\033[K");
}

FrameProgress terminal_progress(const char* what) {
    auto shown = std::make_shared<std::unique_ptr<Progress>>();
    return [shown, what](std::size_t done, std::size_t total) {
        if (!*shown) *shown = std::make_unique<Progress>(total, what);
        (*shown)->step(done);
        if (done == total) (*shown)->finish();
    };
}

}  // namespace rigscope::cli
