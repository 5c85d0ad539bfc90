// The shared tension options' table (run/option_table.h) against what is produced or written
// from it elsewhere: each verb's --help (the CLI registers the rows), docs/commands.md's tension
// table (defaults), the help texts' "(default N)", validate() and chunk identity.
// tests/python/test_keywords.py checks the Python keywords and the .pyi against it.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <type_traits>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "corpus.h"
#include "rigscope/core/error.h"
#include "rigscope/io/output.h"
#include "rigscope/run/chunk_run.h"
#include "rigscope/run/option_table.h"
#include "rigscope/run/output_formats.h"
#include "rigscope/run/bake_job.h"
#include "rigscope/run/check_job.h"
#include "rigscope/run/deform_job.h"
#include "rigscope/run/drive_job.h"
#include "rigscope/run/info_job.h"
#include "rigscope/run/lint_job.h"
#include "rigscope/run/rivet_job.h"
#include "rigscope/run/report_page.h"
#include "rigscope/run/diff_job.h"
#include "rigscope/run/intersect_job.h"
#include "rigscope/run/regions_job.h"
#include "rigscope/run/report_job.h"
#include "rigscope/run/tension_job.h"
#include "rigscope/run/volume_job.h"

using namespace rigscope;

namespace {

std::vector<const OptionSpec<TensionOptions>*> all_rows() {
    std::vector<const OptionSpec<TensionOptions>*> rows;
    for (const auto* table : {&tension_reference_options(), &tension_map_options()})
        for (const auto& s : *table) rows.push_back(&s);
    return rows;
}

std::string squeeze(const std::string& text) {
    std::string out;
    for (char c : text)
        if (!std::isspace(static_cast<unsigned char>(c)) || (!out.empty() && out.back() != ' ')) out += std::isspace(static_cast<unsigned char>(c)) ? ' ' : c;
    return out;
}

std::string command_output(const std::string& command) {
    std::string out;
    FILE* p = popen(command.c_str(), "r");
    REQUIRE(p);
    char buf[4096];
    for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    pclose(p);
    return out;
}

std::string read_text(const std::string& path) {
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

// Two defaults agree when both are the same text, or numbers of one value ("1e-4" and "0.0001").
bool same_default(const std::string& a, const std::string& b) {
    if (a == b) return true;
    try {
        std::size_t ua = 0, ub = 0;
        const double x = std::stod(a, &ua), y = std::stod(b, &ub);
        return ua == a.size() && ub == b.size() && x == y;
    } catch (const std::exception&) {
        return false;
    }
}

// docs/commands.md's tension table: option -> default column (backticks dropped).
std::map<std::string, std::string> docs_tension_defaults() {
    const std::string doc = read_text(test::source_dir() + "/docs/commands.md");
    const auto start = doc.find("\n## tension\n");
    REQUIRE(start != std::string::npos);
    std::map<std::string, std::string> rows;
    std::istringstream lines(doc.substr(start + 1));
    std::string line;
    bool in_table = false;
    static const std::regex row(R"(^\| `(--[a-z][a-z0-9-]*)[^|]*\|([^|]*)\|)");
    while (std::getline(lines, line)) {
        if (line.rfind("|", 0) == 0) in_table = true;
        else if (in_table) break;
        std::smatch m;
        if (!std::regex_search(line, m, row)) continue;
        std::string d = m[2];
        d.erase(std::remove(d.begin(), d.end(), '`'), d.end());
        const auto b = d.find_first_not_of(' '), e = d.find_last_not_of(' ');
        rows[m[1]] = b == std::string::npos ? "" : d.substr(b, e - b + 1);
    }
    return rows;
}

}  // namespace

TEST_CASE("every verb that evaluates T lists each table row in --help with the table's help text", "[options]") {
    for (const char* verb : {"tension", "check", "report", "bake", "regions"}) {
        const std::string help = squeeze(command_output(test::rigscope_binary() + " " + verb + " --help"));
        for (const auto* s : all_rows()) {
            INFO(verb << " --help, " << s->name);
            CHECK(help.find(std::string(s->name) + " ") != std::string::npos);
            CHECK(help.find(squeeze(s->help)) != std::string::npos);
        }
    }
}

TEST_CASE("docs/commands.md's tension table has a row of each table option, with the table's default", "[options]") {
    const auto docs = docs_tension_defaults();
    REQUIRE(docs.size() >= 10);
    for (const auto* s : all_rows()) {
        INFO(s->name);
        REQUIRE(docs.count(s->name) == 1);
        CHECK(same_default(docs.at(s->name), option_default_text(*s)));
    }
}

TEST_CASE("a help text's '(default N)' is the table's default", "[options]") {
    static const std::regex said(R"(\(default:? ([-+0-9.e]+)[;)])");
    int checked = 0;
    for (const auto* s : all_rows()) {
        std::smatch m;
        const std::string help = s->help;
        if (!std::regex_search(help, m, said)) continue;
        INFO(s->name << ": " << help);
        CHECK(same_default(m[1], option_default_text(*s)));
        ++checked;
    }
    CHECK(checked >= 6);  // --reference-tolerance, --falloff, --stretch-area, ..., --smooth
}

TEST_CASE("validate refuses each row's value outside its rule, naming the option, and takes the default", "[options]") {
    REQUIRE_NOTHROW(check_tension_options(TensionOptions{}));
    for (const auto* s : all_rows()) {
        if (s->check == OptionCheck::none) continue;
        TensionOptions o;
        o.reference = "ref.obj";  // --reference-match and --reference-scale act only with one
        visit_option(*s, o, [&](auto& v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, std::optional<std::string>>) v = "none_of_them";
            else if constexpr (std::is_same_v<T, int>) v = static_cast<int>(s->hi) + 1;
            else if constexpr (std::is_same_v<T, OptionPair> || std::is_same_v<T, std::vector<std::string>>) FAIL(s->name << ": not a tension option's kind");
            else v = s->check == OptionCheck::range || s->check == OptionCheck::open_range ? s->hi + 1 : -1.0;
        });
        INFO(s->name);
        try {
            check_tension_options(o);
            FAIL("accepted");
        } catch (const Error& e) {
            CHECK(std::string(e.what()).rfind(std::string(s->name) + ":", 0) == 0);
        }
    }
}

TEST_CASE("chunk identity lists every identity row of the table, in table order, after the input options", "[options]") {
    const ChunkOptions id = chunk_identity(TensionJobOptions{});
    std::vector<std::string> names;
    for (const auto& [n, v] : id) names.push_back(n);
    std::vector<std::string> rows;
    for (const auto* s : all_rows())
        if (s->identity) rows.push_back(s->name);
    const auto first = std::find(names.begin(), names.end(), rows.front());
    REQUIRE(first != names.end());
    CHECK(std::vector<std::string>(first, first + std::min<std::ptrdiff_t>(rows.size(), names.end() - first)) == rows);
}

TEST_CASE("each verb's --format choices in --help are its row of the formats table", "[options]") {
    static const std::regex choices(R"(--format TEXT:\{([^}]*)\})");
    for (const char* verb : {"tension", "deform", "volume", "intersect", "rivet", "drive", "diff", "regions", "bake"}) {
        const std::string help = command_output(test::rigscope_binary() + " " + verb + " --help");
        std::smatch m;
        INFO(verb << " --help");
        REQUIRE(std::regex_search(help, m, choices));
        std::vector<std::string> listed;
        std::stringstream items(m[1]);
        for (std::string item; std::getline(items, item, ',');) listed.push_back(item);
        std::vector<std::string> table = verb_formats(verb).formats;
        std::sort(listed.begin(), listed.end());
        std::sort(table.begin(), table.end());
        CHECK(listed == table);
    }
}

TEST_CASE("verb_output_format: --format, else -o's extension, else the verb's fallback, and only the table's formats", "[options]") {
    // The fallbacks docs/commands.md states: CSV for tension, deform, volume, drive and diff's
    // -o; JSON for intersect and rivet.
    const std::vector<std::pair<const char*, const char*>> fallback = {{"tension", "csv"}, {"deform", "csv"}, {"volume", "csv"},
                                                                      {"intersect", "json"}, {"rivet", "json"}, {"drive", "csv"},
                                                                      {"diff", "csv"}};
    for (const auto& [verb, f] : fallback) {
        INFO(verb);
        CHECK(verb_output_format(verb, "", "-") == f);
        CHECK(verb_output_format(verb, "", "out/run") == f);
        CHECK(verb_output_format(verb, "json", "-") == "json");
        CHECK(verb_output_format(verb, "", "v1.2/x.JSON") == "json");
        CHECK_THROWS_AS(verb_output_format(verb, "csv", "x.json"), Error);
        CHECK_THROWS_AS(verb_output_format(verb, "", "x.xyz"), Error);
        for (const std::string& format : verb_formats(verb).formats) CHECK_NOTHROW(check_verb_format(verb, format));
        try {
            check_verb_format(verb, "xml");
            FAIL("xml accepted");
        } catch (const Error& e) {
            CHECK(std::string(e.what()).rfind(std::string(verb) + " writes ", 0) == 0);
            CHECK(std::string(e.what()).find(", not xml") != std::string::npos);
        }
    }
    CHECK(verb_output_format("diff", "", "") == "");  // no -o: diff writes its report only
    CHECK(verb_output_format("tension", "", "") == "csv");
    CHECK_THROWS_AS(verb_output_format("tension", "", "t.gltf"), Error);  // binary glTF: .glb
}

TEST_CASE("every option a verb's chunk identity names is an option of that verb's --help", "[options]") {
    // The verbs not converted to tables yet are checked this way too: a record naming an option
    // the command line does not have could never be matched by a rerun. (deform, drive and rivet:
    // tests/run/test_chunk_identity.cpp; their headers move in issue 61 item 5.)
    const std::vector<std::pair<const char*, ChunkOptions>> verbs = {
        {"tension", chunk_identity(TensionJobOptions{})}, {"check", chunk_identity(CheckJobOptions{})},
        {"diff", chunk_identity(DiffJobOptions{})},       {"volume", chunk_identity(VolumeJobOptions{})},
        {"intersect", chunk_identity(IntersectJobOptions{})}, {"regions", chunk_identity(RegionsJobOptions{})},
        {"bake", chunk_identity(BakeJobOptions{})},       {"report", chunk_identity(ReportJobOptions{})}};
    // Not info: its identity (its batch's --task records) lists the per-frame input options
    // (--frames, --clip, --fps, --rom, ...) at their defaults although `info` has none of them;
    // left so, as changing it would change the records those batches write.
    for (const auto& [verb, id] : verbs) {
        const std::string help = squeeze(command_output(test::rigscope_binary() + " " + verb + " --help"));
        for (const auto& [name, values] : id) {
            if (name == "FILE" || name == "NEW") continue;
            INFO(verb << ": " << name);
            CHECK(help.find(" " + name + " ") != std::string::npos);
        }
    }
}

namespace {

// A value outside a row's rule, written into `o`: an unknown word, a number past hi (past 0
// for the rules without an upper end).
template <typename Options>
void break_rule(const OptionSpec<Options>& s, Options& o) {
    visit_option(s, o, [&](auto& v) {
        using T = std::decay_t<decltype(v)>;
        const bool upper = s.check == OptionCheck::range || s.check == OptionCheck::open_range;
        if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, std::optional<std::string>>) v = "none_of_them";
        else if constexpr (std::is_same_v<T, std::vector<std::string>>) v = {"none_of_them"};
        else if constexpr (std::is_same_v<T, bool>) FAIL(s.name << ": a flag has no rule");
        else if constexpr (std::is_same_v<T, std::optional<long>>) v = upper ? long(s.hi) + 1 : -1L;
        else if constexpr (std::is_same_v<T, int> || std::is_same_v<T, unsigned> || std::is_same_v<T, std::size_t>)
            v = static_cast<T>(upper ? s.hi + 1 : 0);
        else if constexpr (std::is_same_v<T, OptionPair>) v = std::make_pair(-1.0, upper ? s.hi + 1 : -1.0);
        else v = upper ? s.hi + 1 : -1.0;
    });
}

// `validate` refuses each row's value outside its rule with a message naming the row's option.
template <typename Options, typename Validate>
int check_refusals(const OptionTable<Options>& table, const Options& valid, Validate validate, std::vector<std::string> unchecked = {}) {
    REQUIRE_NOTHROW(validate(valid));
    int checked = 0;
    for (const OptionSpec<Options>& s : table) {
        if (s.check == OptionCheck::none || std::find(unchecked.begin(), unchecked.end(), s.name) != unchecked.end()) continue;
        Options o = valid;
        break_rule(s, o);
        INFO(s.name);
        try {
            validate(o);
            FAIL("accepted");
        } catch (const Error& e) {
            std::string name = s.name;
            if (name.rfind("-o,", 0) == 0) name = "-o";
            CHECK(std::string(e.what()).find(name) != std::string::npos);
        }
        ++checked;
    }
    return checked;
}

// Each row's name (its long name for "-o,--output") and squeezed help appear in `help`; a row
// the command line does not take (OptionRule::cli) does not.
template <typename Options>
void check_help_lists(const std::string& verb, const std::string& help, const OptionTable<Options>& table) {
    for (const OptionSpec<Options>& s : table) {
        std::string name = s.name;
        if (const auto comma = name.find(','); comma != std::string::npos) name = name.substr(comma + 1);
        INFO(verb << " --help, " << name);
        CHECK((help.find(name + " ") != std::string::npos) == s.cli);
        CHECK((help.find(squeeze(s.help)) != std::string::npos) == s.cli);
    }
}

// The names of `table`'s identity rows in the order chunk identity lists them.
template <typename Options>
std::vector<std::string> identity_names(const OptionTable<Options>& table) {
    std::vector<const OptionSpec<Options>*> rows;
    for (const auto& s : table)
        if (s.identity) rows.push_back(&s);
    std::stable_sort(rows.begin(), rows.end(), [](const auto* a, const auto* b) { return a->identity_rank < b->identity_rank; });
    std::vector<std::string> names;
    for (const auto* s : rows) names.push_back(s->name);
    return names;
}

std::vector<std::string> names_of(const ChunkOptions& id) {
    std::vector<std::string> names;
    for (const auto& [n, v] : id) names.push_back(n);
    return names;
}

// `id` ends with `tail` (a verb's own rows come last).
void check_ends_with(const ChunkOptions& id, const std::vector<std::string>& tail) {
    const std::vector<std::string> names = names_of(id);
    REQUIRE(names.size() >= tail.size());
    CHECK(std::vector<std::string>(names.end() - tail.size(), names.end()) == tail);
}

}  // namespace

TEST_CASE("every verb's --help lists the input rows it offers, with the table's help", "[options]") {
    struct Verb {
        const char* name;
        bool per_frame;
        std::vector<const char*> requested;  // the on_request rows it offers
        bool batch = true;                   // FILE... is the batch's (add_batch_options), with its help
    };
    const std::vector<Verb> verbs = {
        {"tension", true, {"--weld", "--skinning", "--threads", "--max-output"}},
        {"check", true, {"--weld", "--skinning", "--threads"}},
        {"diff", true, {"--weld", "--skinning", "--threads"}},
        {"deform", true, {"--skinning", "--max-output"}},
        {"volume", true, {"--weld", "--skinning", "--threads"}},
        {"intersect", true, {"--weld", "--skinning", "--threads"}},
        {"rivet", true, {"--weld", "--skinning", "--max-output"}, false},
        {"drive", true, {}, false},
        {"bake", true, {"--weld", "--skinning", "--threads"}},
        {"regions", true, {"--weld", "--skinning", "--threads"}},
        {"info", false, {"--weld"}},
        {"lint", false, {}},
    };
    for (const Verb& v : verbs) {
        const std::string help = squeeze(command_output(test::rigscope_binary() + " " + v.name + " --help"));
        for (const auto& s : input_options()) {
            const bool offered = s.offered == OptionOffered::always || (s.offered == OptionOffered::per_frame && v.per_frame) ||
                                 std::find_if(v.requested.begin(), v.requested.end(), [&](const char* n) { return std::string(n) == s.name; }) !=
                                     v.requested.end();
            INFO(v.name << " --help, " << s.name);
            CHECK((help.find(std::string(s.name) + " ") != std::string::npos) == offered);
            if (offered && !(v.batch && std::string(s.name) == "FILE")) CHECK(help.find(squeeze(s.help)) != std::string::npos);
        }
    }
    const std::string rom = squeeze(command_output(test::rigscope_binary() + " rom --help"));
    check_help_lists("rom", rom, rom_input_options());
}

TEST_CASE("chunk identity begins with the input table's identity rows, in table order", "[options]") {
    auto expected = [](bool weld, bool skinning) {
        std::vector<std::string> names;
        for (const auto& s : input_options()) {
            if (!s.identity) continue;
            if (s.offered == OptionOffered::on_request && !(std::string(s.name) == "--weld" ? weld : skinning)) continue;
            names.push_back(s.name);
        }
        return names;
    };
    // The order merges compare across versions: written out once here, so that a table edit that
    // moves a row fails.
    const std::vector<std::string> recorded = {"FILE",     "--mesh",  "--max-memory", "--allow-outside-uris", "--frames",    "--clip",
                                               "--fps",    "--animation", "--cache",  "--abc-unit",           "--retarget",  "--rig",
                                               "--rom",    "--rom-angle", "--rom-frames", "--joints",         "--weld",      "--skinning"};
    CHECK(expected(true, true) == recorded);
    auto starts = [](const ChunkOptions& id, const std::vector<std::string>& head) {
        const std::vector<std::string> names = names_of(id);
        REQUIRE(names.size() >= head.size());
        CHECK(std::vector<std::string>(names.begin(), names.begin() + head.size()) == head);
    };
    starts(chunk_identity(TensionJobOptions{}), expected(true, true));
    starts(chunk_identity(CheckJobOptions{}), expected(true, true));
    starts(chunk_identity(DiffJobOptions{}), expected(true, true));
    starts(chunk_identity(VolumeJobOptions{}), expected(true, true));
    starts(chunk_identity(RivetJobOptions{}), expected(true, true));
    starts(chunk_identity(DeformJobOptions{}), expected(false, true));
    starts(chunk_identity(DriveJobOptions{}), expected(false, false));
    starts(chunk_identity(InfoJobOptions{}), expected(false, false));
    // --fps 0 is the file's rate: no value; a rate is its number.
    DeformJobOptions d;
    const ChunkOptions unset = chunk_identity(d);
    d.input.fps = 30;
    const ChunkOptions given = chunk_identity(d);
    for (std::size_t i = 0; i < unset.size(); ++i)
        if (unset[i].first == "--fps") {
            CHECK(unset[i].second.empty());
            CHECK(given[i].second == std::vector<std::string>{"30"});
        }
}

TEST_CASE("the input rows' rules are validate()'s: a value outside one is refused, naming it", "[options]") {
    InputOptions valid;
    valid.file = "x.glb";
    // check_input_options, then load_options (--max-memory), as load_input calls them. --max-output
    // has the CLI's validator only: the budget (run_budget.h) takes the value Python passes.
    const int checked = check_refusals(input_options(), valid, [](const InputOptions& o) {
        check_input_options(o);
        load_options(o);
    }, {"--max-output"});
    CHECK(checked >= 7);  // --max-memory, --fps, --abc-unit, --retarget, --weld, --skinning, --threads
}

TEST_CASE("every verb's own rows are in its --help with the table's help, and in its chunk identity", "[options]") {
    auto help_of = [](const char* verb) { return squeeze(command_output(test::rigscope_binary() + " " + verb + " --help")); };
    check_help_lists("deform", help_of("deform"), deform_options());
    check_help_lists("volume", help_of("volume"), volume_options());
    check_help_lists("intersect", help_of("intersect"), intersect_options());
    check_help_lists("drive", help_of("drive"), drive_options());
    check_help_lists("rivet", help_of("rivet"), rivet_options());
    check_help_lists("info", help_of("info"), info_options());
    check_help_lists("diff", help_of("diff"), diff_options());
    check_help_lists("check", help_of("check"), check_options());
    check_help_lists("report", help_of("report"), report_page_options());
    check_help_lists("tension", help_of("tension"), tension_job_options());
    check_help_lists("regions", help_of("regions"), regions_options());
    check_ends_with(chunk_identity(DeformJobOptions{}), identity_names(deform_options()));
    check_ends_with(chunk_identity(VolumeJobOptions{}), identity_names(volume_options()));
    check_ends_with(chunk_identity(IntersectJobOptions{}), identity_names(intersect_options()));
    check_ends_with(chunk_identity(DriveJobOptions{}), identity_names(drive_options()));
    check_ends_with(chunk_identity(RivetJobOptions{}), identity_names(rivet_options()));
    check_ends_with(chunk_identity(InfoJobOptions{}), identity_names(info_options()));
    check_ends_with(chunk_identity(DiffJobOptions{}), identity_names(diff_options()));
    check_ends_with(chunk_identity(CheckJobOptions{}), identity_names(check_options()));
    check_ends_with(chunk_identity(ReportJobOptions{}), identity_names(report_page_options()));
    check_ends_with(chunk_identity(TensionJobOptions{}), identity_names(tension_job_options()));
    check_ends_with(chunk_identity(RegionsJobOptions{}), identity_names(regions_options()));
    // The orders records have had (merges compare them across versions), written out once.
    CHECK(identity_names(check_options()) == std::vector<std::string>{"--max-stretch", "--max-compress", "--max-lambda", "--min-lambda",
                                                                      "--max-volume-loss", "--worst", "--max-size", "--lint",
                                                                      "--max-intersections"});
    CHECK(identity_names(tension_job_options()) ==
          std::vector<std::string>{"--vertices", "--auto-range", "--bake-max", "--bake-points", "--color", "--format"});
    CHECK(identity_names(diff_options()) == std::vector<std::string>{"NEW", "--match", "--match-tolerance", "--align", "--frame-offset",
                                                                     "--max-displacement", "--max-t-change", "--worst", "--format"});
    CHECK(identity_names(rivet_options()) == std::vector<std::string>{"--vertices", "--joint", "--bake", "--format", "--max-fit-error"});
}

TEST_CASE("each verb's validate() refuses a value outside its rows' rules, naming the option", "[options]") {
    auto input = [] {
        InputOptions in;
        in.file = "x.glb";
        return in;
    };
    DiffJobOptions diff;
    diff.input = input(), diff.new_file = "y.glb", diff.match = "position";
    // --format: "diff writes csv, json or gltf, not none_of_them" names the verb, not the option.
    CHECK(check_refusals(diff_options(), diff, [](const DiffJobOptions& o) { o.validate(); }, {"--format"}) >= 5);
    CheckJobOptions check;
    check.tension.input = input(), check.max_compress = 2, check.tension.measure = "principal", check.html.out = "page.html";
    CHECK(check_refusals(check_options(), check, [](const CheckJobOptions& o) { o.validate(); }) >= 8);
    RivetJobOptions rivet;
    rivet.input = input(), rivet.vertices = "1";
    CHECK(check_refusals(rivet_options(), rivet, [](const RivetJobOptions& o) { o.validate(); }, {"--format"}) >= 1);
    ReportOptions page;
    page.out = "page.html";
    CHECK(check_refusals(report_page_options(), page, [](const ReportOptions& o) { o.validate(); }) >= 2);
    TensionJobOptions tension;
    tension.tension.input = input();
    CHECK(check_refusals(tension_job_options(), tension, [](const TensionJobOptions& o) { o.validate(); }, {"--format"}) >= 2);
    RegionsJobOptions regions;
    regions.tension.input = input();
    CHECK(check_refusals(regions_options(), regions, [](const RegionsJobOptions& o) { o.validate(); }, {"--format"}) >= 1);
    DeformJobOptions deform;
    deform.input = input();
    CHECK(check_refusals(deform_options(), deform, [](const DeformJobOptions& o) { o.validate(); }, {"--format"}) >= 1);
}

TEST_CASE("verb_output_format: regions, bake, lint and info by their rows' rules, with their messages", "[options]") {
    // regions: --format, else the extension as named (validate() refuses one it does not write), else csv.
    CHECK(verb_output_format("regions", "", "-") == "csv");
    CHECK(verb_output_format("regions", "", "r.glb") == "gltf");
    CHECK(verb_output_format("regions", "json", "r.csv") == "json");  // validate() refuses the name (refuse_other_format_extension)
    CHECK(verb_output_format("regions", "", "r.xyz") == ".xyz");
    RegionsJobOptions regions;
    regions.out = "r.xyz";
    CHECK_THROWS_WITH(regions.validate(), "regions writes csv, json, usda or gltf, not .xyz");
    // bake: --format, else .png or .exr (any case), else none.
    CHECK(verb_output_format("bake", "", "maps/{mesh}.PNG") == "png");
    CHECK(verb_output_format("bake", "", "maps/{mesh}.exr") == "exr");
    CHECK(verb_output_format("bake", "", "maps.v1/{mesh}") == "");
    CHECK(verb_output_format("bake", "exr", "x.png") == "exr");  // validate() refuses the pair
    // lint: text or json; a name that says otherwise is refused.
    CHECK(verb_output_format("lint", "", "-") == "text");
    CHECK(verb_output_format("lint", "", "l.json") == "json");
    CHECK(verb_output_format("lint", "", "l.log") == "text");
    CHECK_THROWS_WITH(verb_output_format("lint", "", "l.csv"), "l.csv: the extension says csv but lint writes text (name it .txt or .json)");
    CHECK_THROWS_WITH(verb_output_format("lint", "json", "l.txt"),
                      "l.txt: the extension says txt but lint writes json as --format says (rename the output or drop --format)");
    // info: --json or a .json name; --json under another extension is refused.
    CHECK(verb_output_format("info", "", "-") == "text");
    CHECK(verb_output_format("info", "", "i.JSON") == "json");
    CHECK(verb_output_format("info", "json", "-") == "json");
    CHECK(verb_output_format("info", "", "i.txt") == "text");
    CHECK_THROWS_WITH(verb_output_format("info", "json", "i.txt"), "i.txt: the extension says txt but --json says json");
}

TEST_CASE("bake's and lint's rows: in --help but lint's --area-tolerance, and last in their chunk identity in the records' order", "[options]") {
    auto help_of = [](const char* verb) { return squeeze(command_output(test::rigscope_binary() + " " + verb + " --help")); };
    check_help_lists("bake", help_of("bake"), bake_options());
    check_help_lists("lint", help_of("lint"), lint_options());
    CHECK_FALSE(table_row(lint_options(), "--area-tolerance").cli);
    check_ends_with(chunk_identity(BakeJobOptions{}), identity_names(bake_options()));
    check_ends_with(lint_identity(InputOptions{}, LintOptions{}), identity_names(lint_options()));
    // The orders records have had (a batch's --task records compare them), written out once.
    CHECK(identity_names(bake_options()) ==
          std::vector<std::string>{"--map", "--color", "--size", "--padding", "--range", "--uv", "--udim", "--format"});
    CHECK(identity_names(lint_options()) == std::vector<std::string>{"--weight-tolerance", "--max-influences", "--min-weight", "--mirror",
                                                                     "--mirror-names", "--mirror-tolerance", "--bind-tolerance",
                                                                     "--scale-tolerance", "--area-tolerance", "--strict"});
}

namespace {

std::vector<std::string> values_of(const ChunkOptions& id, const std::string& name) {
    for (const auto& [n, v] : id)
        if (n == name) return v;
    FAIL("no " << name << " in the identity");
    return {};
}

}  // namespace

TEST_CASE("a pair row is recorded as its two numbers, a list row as its items, each as given, unset as no value", "[options]") {
    BakeJobOptions bake;
    CHECK(values_of(chunk_identity(bake), "--range").empty());
    bake.range = std::make_pair(0.5, 2.0);
    CHECK(values_of(chunk_identity(bake), "--range") == std::vector<std::string>{"0.5", "2"});
    CHECK(option_default_text(table_row(bake_options(), "--range")).empty());
    LintOptions lint;
    CHECK(values_of(lint_identity(InputOptions{}, lint), "--mirror-names").empty());
    lint.mirror_names = {"Lf=Rt", "left=right"};
    CHECK(values_of(lint_identity(InputOptions{}, lint), "--mirror-names") == lint.mirror_names);
    // The row no option sets: its value, which the lint reports, is recorded all the same.
    lint.params.area_tolerance = 2.5e-9;
    CHECK(values_of(lint_identity(InputOptions{}, lint), "--area-tolerance") == std::vector<std::string>{"2.5e-09"});
    CHECK(option_default_text(table_row(lint_options(), "--area-tolerance")) == number_text(LintParams{}.area_tolerance));
}

TEST_CASE("bake's --range LO,HI and lint's repeated --mirror-names reach the job from the command line", "[options]") {
    const std::string bin = test::rigscope_binary(), file = test::source_dir() + "/data/bend_cylinder.glb";
    const std::string dir = std::filesystem::temp_directory_path() / ("rigscope_option_table_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    // A PNG holds T only through --range: refused without it, written with it.
    const std::string bake = bin + " -q bake " + file + " --frames 61 --map tension --size 8 -o '" + dir + "/{mesh}.{frame}.png'";
    CHECK(WEXITSTATUS(std::system((bake + " 2>/dev/null").c_str())) == kExitUsage);
    CHECK(WEXITSTATUS(std::system((bake + " --range 0.5,2").c_str())) == kExitOk);
    CHECK(std::filesystem::exists(dir + "/Cylinder.0061.png"));
    // One number is not a pair: CLI11 refuses it.
    CHECK(WEXITSTATUS(std::system((bake + " --range 0.5 2>/dev/null").c_str())) == kExitUsage);
    // Each --mirror-names is one more pair in the lint's parameters.
    const std::string lint = command_output(bin + " lint " + file + " --format json --mirror x --mirror-names Lf=Rt --mirror-names a=b");
    CHECK(lint.find("\"mirror_names\":[\"Lf=Rt\",\"a=b\"]") != std::string::npos);
    std::filesystem::remove_all(dir);
}

namespace {

// The text of `file` (docs/...) from the line starting with `heading` to the next "## " line;
// the whole file for an empty heading.
std::string doc_section(const std::string& file, const std::string& heading) {
    const std::string doc = read_text(test::source_dir() + "/docs/" + file);
    if (heading.empty()) return doc;
    const auto start = doc.find("\n" + heading);
    REQUIRE(start != std::string::npos);
    const auto end = doc.find("\n## ", start + 1);
    return doc.substr(start + 1, end == std::string::npos ? std::string::npos : end - start - 1);
}

// `option` named in `text` as a whole word ("--map", not "--map-x"; "-o" not in "-out").
bool names(const std::string& text, const std::string& option) {
    for (auto at = text.find(option); at != std::string::npos; at = text.find(option, at + 1)) {
        const auto after = at + option.size();
        auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'; };
        if ((at == 0 || !word(text[at - 1])) && (after == text.size() || !word(text[after]))) return true;
    }
    return false;
}

// A row's names as docs write them: "-o,--output" is named by either.
template <typename Options>
std::vector<std::vector<std::string>> cli_names(const OptionTable<Options>& table) {
    std::vector<std::vector<std::string>> out;
    for (const auto& s : table) {
        const std::string name = s.name;
        if (!s.cli || name.rfind("-", 0) != 0) continue;  // FILE, NEW: positionals
        std::vector<std::string> spellings;
        std::stringstream parts(name);
        for (std::string part; std::getline(parts, part, ',');) spellings.push_back(part);
        out.push_back(spellings);
    }
    return out;
}

template <typename Options>
void check_docs_name(const std::string& where, const std::string& text, const OptionTable<Options>& table) {
    for (const auto& spellings : cli_names(table)) {
        INFO(where << " names " << spellings.back());
        CHECK(std::any_of(spellings.begin(), spellings.end(), [&](const std::string& n) { return names(text, n); }));
    }
}

// The options named in the first column of a docs table's rows ("| `--frames LIST` | ...").
std::vector<std::string> docs_table_options(const std::string& text) {
    static const std::regex row(R"(^\| *`(-[-a-z0-9]+))");
    std::vector<std::string> out;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        std::smatch m;
        if (std::regex_search(line, m, row)) out.push_back(m[1]);
    }
    return out;
}

}  // namespace

TEST_CASE("each verb's docs name every option of its table, and list in their option tables only options it has", "[options][docs]") {
    const std::string shared = doc_section("commands.md", "## Options shared by every per-frame command");
    check_docs_name("commands.md's shared options", shared + doc_section("commands.md", "## tension"), input_options());
    check_docs_name("commands.md: info", doc_section("commands.md", "## info"), info_options());
    check_docs_name("commands.md: deform", doc_section("commands.md", "## deform"), deform_options());
    const std::string tension = doc_section("commands.md", "## tension");
    check_docs_name("commands.md: tension", tension, tension_reference_options());
    check_docs_name("commands.md: tension", tension, tension_map_options());
    check_docs_name("commands.md: tension", tension, tension_job_options());
    check_docs_name("commands.md: rivet", doc_section("commands.md", "## rivet"), rivet_options());
    check_docs_name("commands.md: intersect", doc_section("commands.md", "## intersect"), intersect_options());
    check_docs_name("commands.md: drive", doc_section("commands.md", "## drive"), drive_options());
    check_docs_name("commands.md: volume", doc_section("commands.md", "## volume"), volume_options());
    const std::string texture = doc_section("commands.md", "## bake and regions");
    check_docs_name("commands.md: bake", texture, bake_options());
    check_docs_name("commands.md: regions", texture, regions_options());
    // check's limits beyond T are documented with what they judge: lambda with the measures,
    // volume loss with volume, crossings with intersect, --lint in lint.md.
    check_docs_name("rig_ci.md: check (and the sections of its other limits)",
                    doc_section("rig_ci.md", "## check") + doc_section("commands.md", "## Measures beyond") + doc_section("commands.md", "## volume") +
                        doc_section("commands.md", "## intersect") + doc_section("lint.md", ""),
                    check_options());
    check_docs_name("rig_ci.md: report", doc_section("rig_ci.md", "## report"), report_page_options());
    check_docs_name("rig_ci.md: diff", doc_section("rig_ci.md", "## diff"), diff_options());
    check_docs_name("rig_ci.md: rom", doc_section("rig_ci.md", "## rom"), rom_input_options());
    check_docs_name("rig_ci.md: rom", doc_section("rig_ci.md", "## rom"), rom_options());
    check_docs_name("lint.md", doc_section("lint.md", ""), lint_options());

    // The option tables of the docs: the shared one lists input rows, tension's its own rows and
    // the input rows it takes; lint's the lint's parameters.
    auto option_of = [](const std::string& verb) {
        const std::string help = squeeze(command_output(test::rigscope_binary() + " " + verb + " --help"));
        return [help](const std::string& option) { return names(help, option); };
    };
    std::vector<std::string> inputs;
    for (const auto& s : input_options()) inputs.push_back(s.name);
    const auto listed = docs_table_options(shared);
    CHECK(listed.size() >= 15);
    for (const std::string& o : listed) {
        INFO("commands.md's shared options table lists " << o);
        CHECK(std::find(inputs.begin(), inputs.end(), o) != inputs.end());
    }
    const auto of_tension = option_of("tension");
    for (const std::string& o : docs_table_options(tension)) {
        INFO("commands.md's tension table lists " << o);
        CHECK(of_tension(o));
    }
    // lint.md's table of checks names, per check, the options that set its parameters.
    const auto of_lint = option_of("lint");
    std::istringstream lint(doc_section("lint.md", ""));
    static const std::regex backticked("`(--[a-z][-a-z0-9]*)");
    int named = 0;
    for (std::string line; std::getline(lint, line);) {
        if (line.rfind("| `", 0) != 0) continue;
        for (auto it = std::sregex_iterator(line.begin(), line.end(), backticked); it != std::sregex_iterator(); ++it, ++named) {
            INFO("lint.md's table of checks names " << (*it)[1]);
            CHECK(of_lint((*it)[1]));
        }
    }
    CHECK(named >= 7);
}

TEST_CASE("every option the docs name is an option of some verb", "[options][docs]") {
    std::string every;
    for (const char* verb : {"info", "deform", "tension", "rivet", "intersect", "drive", "volume", "bake", "regions", "check", "report", "diff",
                             "rom", "lint", "merge"})
        every += squeeze(command_output(test::rigscope_binary() + " " + verb + " --help")) + " ";
    every += squeeze(command_output(test::rigscope_binary() + " --help"));
    static const std::regex option("`(--[a-z][-a-z0-9]*)");
    int named = 0;
    for (const char* file : {"commands.md", "rig_ci.md", "lint.md"}) {
        const std::string doc = doc_section(file, "");
        for (auto it = std::sregex_iterator(doc.begin(), doc.end(), option); it != std::sregex_iterator(); ++it, ++named) {
            INFO(file << " names " << (*it)[1]);
            CHECK(names(every, (*it)[1]));
        }
    }
    CHECK(named >= 100);
}
