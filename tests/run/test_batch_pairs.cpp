// The batch's pieces that the CLI tests reach only through whole runs (tests/cli/batch/batch.sh):
// diff's pairs (expand_diff_pairs), the verb table and index.html's rows and links.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>

#include "rigscope/core/error.h"
#include "rigscope/run/batch.h"
#include "temp_dir.h"

using namespace rigscope;

namespace {

void touch(const std::string& path) { std::ofstream(path) << "x"; }

// The exit code and message of what `f` throws; 0 and "" when it does not.
template <typename F>
std::pair<int, std::string> thrown(F f) {
    try {
        f();
    } catch (const Error& e) {
        return {e.code(), e.what()};
    }
    return {0, ""};
}

}  // namespace

TEST_CASE("diff pairs: --against pairs each OLD with its relpath under the folder, present or not", "[batch]") {
    rigscope_test::TempDir dir("batch_pairs");
    std::filesystem::create_directories(dir.file("old/sub"));
    std::filesystem::create_directories(dir.file("new"));
    touch(dir.file("old/a.glb"));
    touch(dir.file("old/sub/b.fbx"));
    const auto pairs = expand_diff_pairs({dir.file("old")}, dir.file("new"), nullptr);
    REQUIRE(pairs.size() == 2);
    CHECK(pairs[0].relpath == "a.glb");
    CHECK(pairs[0].partner == dir.file("new") + "/a.glb");
    // A partner that does not exist is still paired: its run is that pair's error, not the batch's.
    CHECK(pairs[1].relpath == "sub/b.fbx");
    CHECK(pairs[1].partner == dir.file("new") + "/sub/b.fbx");
    CHECK(thrown([&] { expand_diff_pairs({dir.file("old")}, dir.file("old/a.glb"), nullptr); }).first == kExitUsage);
    CHECK(thrown([&] { expand_diff_pairs({dir.file("old")}, dir.file("none"), nullptr); }).second.find("not a folder") != std::string::npos);
}

TEST_CASE("diff pairs: @list lines are OLD NEW, split at white space or at a tab", "[batch]") {
    rigscope_test::TempDir dir("batch_pairs");
    touch(dir.file("a.glb"));
    touch(dir.file("b c.glb"));
    std::istringstream lines("# a comment\n\n" + dir.file("a.glb") + "   new/a.glb\r\n" + dir.file("b c.glb") + "\tnew dir/b c.glb\n");
    const auto pairs = expand_diff_pairs({"@-"}, "", &lines);
    REQUIRE(pairs.size() == 2);
    CHECK(pairs[0].path == dir.file("a.glb"));
    CHECK(pairs[0].partner == "new/a.glb");
    CHECK(pairs[1].path == dir.file("b c.glb"));
    CHECK(pairs[1].partner == "new dir/b c.glb");
    CHECK(pairs[1].relpath == "b c.glb");

    std::istringstream one_field(dir.file("a.glb") + "\n");
    const auto [code, message] = thrown([&] { expand_diff_pairs({"@-"}, "", &one_field); });
    CHECK(code == kExitUsage);
    CHECK(message.find("is not a pair") != std::string::npos);
    std::istringstream three(dir.file("a.glb") + " x.glb y.glb\n");
    CHECK(thrown([&] { expand_diff_pairs({"@-"}, "", &three); }).first == kExitUsage);
    std::istringstream twice(dir.file("a.glb") + " x.glb\n" + dir.file("a.glb") + " y.glb\n");
    CHECK(thrown([&] { expand_diff_pairs({"@-"}, "", &twice); }).second.find("named twice") != std::string::npos);
    std::istringstream folder(dir.path + " x.glb\n");
    CHECK(thrown([&] { expand_diff_pairs({"@-"}, "", &folder); }).second.find("is a folder") != std::string::npos);
    // Without --against the inputs are one list: two files are `diff OLD NEW`, not a batch.
    CHECK(thrown([&] { expand_diff_pairs({dir.file("a.glb"), dir.file("b c.glb")}, "", nullptr); }).first == kExitUsage);
}

TEST_CASE("batch verbs: judging verbs pass, the others are ok, every verb has a row", "[batch]") {
    for (const char* v : {"check", "lint", "diff"}) CHECK(batch_verb(v).judges);
    for (const char* v : {"tension", "report", "info", "deform"}) CHECK_FALSE(batch_verb(v).judges);
    CHECK(std::string(batch_verb("report").pages) == "-o");
    CHECK(std::string(batch_verb("check").pages) == "--html");
    BatchRow row;
    for (const char* s : {"pass", "fail", "ok"}) {
        row.status = s;
        CHECK(batch_row_ran(row));
    }
    for (const char* s : {"error", "not checked"}) {
        row.status = s;
        CHECK_FALSE(batch_row_ran(row));
    }
}

TEST_CASE("index.html: a row per file, a link only to a page written, escaped and percent-encoded", "[batch]") {
    rigscope_test::TempDir dir("batch_index");
    BatchResult r;
    r.verb = "report";
    r.counts = "batch: 2 files: 1 ok, 1 error";
    BatchFileResult ok, bad;
    ok.row.relpath = "sub/a#1 <x>.glb";
    ok.row.status = "ok";
    ok.row.has_t = true;
    ok.row.min_t = 0.5;   // |log 0.5| = |log 2|: the tie goes to the high side, as the pages rank
    ok.row.max_t = 2.0;
    ok.row.max_mesh = "Body";
    ok.row.max_vertex = 7;
    ok.row.max_frame = "12";
    ok.page = dir.file("pages/sub/a#1 <x>.glb.html");
    bad.row.relpath = "broken.glb";
    bad.row.status = "error";
    bad.row.message = "broken.glb: truncated GLB & more";
    r.files = {ok, bad};
    const std::string html = batch_index_html(r, dir.file("pages/index.html"));
    CHECK(html.find("<a href=\"sub/a%231%20%3Cx%3E.glb.html\">sub/a#1 &lt;x&gt;.glb</a>") != std::string::npos);
    CHECK(html.find("<td class=\"n\">2</td><td>Body</td><td class=\"n\">7</td><td class=\"n\">12</td>") != std::string::npos);
    CHECK(html.find("<td>broken.glb</td><td class=\"s\">error</td>") != std::string::npos);
    CHECK(html.find("truncated GLB &amp; more") != std::string::npos);
    CHECK(html.find("broken.glb.html") == std::string::npos);
}
