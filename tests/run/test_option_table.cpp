// The shared tension options' table (run/option_table.h) against what is produced or written
// from it elsewhere: each verb's --help (the CLI registers the rows), docs/commands.md's tension
// table (defaults), the help texts' "(default N)", validate() and chunk identity.
// tests/python/test_keywords.py checks the Python keywords and the .pyi against it.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "corpus.h"
#include "rigscope/core/error.h"
#include "rigscope/run/chunk_run.h"
#include "rigscope/run/option_table.h"
#include "rigscope/run/output_formats.h"
#include "rigscope/run/bake_job.h"
#include "rigscope/run/check_job.h"
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
