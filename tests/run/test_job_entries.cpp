// The job shape of issue 61 (docs/library.md): each verb's run_X(opt, loaded input) validates its
// options itself, so a caller with its own loaded input (Python's session) gets the refusals the
// CLI gets, and nothing is written; and load_and_run_X is that run on the job's own load step.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "corpus.h"
#include "rigscope/core/error.h"
#include "rigscope/run/bake_job.h"
#include "rigscope/run/check_job.h"
#include "rigscope/run/diff_job.h"
#include "rigscope/run/info_job.h"
#include "rigscope/run/intersect_job.h"
#include "rigscope/run/lint_job.h"
#include "rigscope/run/merge_job.h"
#include "rigscope/run/regions_job.h"
#include "rigscope/run/report_job.h"
#include "rigscope/run/rom_job.h"
#include "rigscope/run/volume_job.h"
#include "temp_dir.h"

using namespace rigscope;

namespace {

// The message of the usage error `run` throws ("" when it throws none).
template <typename Run>
std::string usage_error(Run&& run) {
    try {
        run();
    } catch (const Error& e) {
        CHECK(e.code() == kExitUsage);
        return e.what();
    }
    return "";
}

std::string cylinder() { return test::corpus("bend_cylinder/bend_cylinder.glb"); }

}  // namespace

TEST_CASE("job entries: run_X on a loaded input validates its options and writes nothing", "[run][job]") {
    rigscope_test::TempDir dir("rigscope_job_entries");
    {
        InfoJobOptions o;
        o.input.file = cylinder();
        const Input in = load_info_input(o);
        o.json = true;
        o.out = dir.file("info.txt");
        CHECK_THAT(usage_error([&] { run_info(o, in); }), Catch::Contains("the extension says txt but --json says json"));
    }
    {
        RomJobOptions o;
        o.input.file = cylinder();
        const Input in = load_input(rom_input_options(o));
        o.out = dir.file("rom.gltf");
        CHECK_THAT(usage_error([&] { run_rom(o, in); }), Catch::Contains("name the file .glb"));
    }
    {
        LintJobOptions o;
        o.input.file = cylinder();
        const Input in = load_lint_input(o);
        o.lint.params.max_influences = 0;
        CHECK_THAT(usage_error([&] { run_lint(o, in); }), Catch::Contains("--max-influences"));
    }
    {
        ReportJobOptions o;
        o.tension.input.file = cylinder();
        Input in = load_report_input(o);
        o.report.out = dir.file("page_{clip}.html");
        CHECK_THAT(usage_error([&] { run_report(o, in); }), Catch::Contains("{clip} names an output per clip"));
    }
    {
        CheckJobOptions o;
        o.tension.input.file = cylinder();
        Input in = load_check_input(o);
        o.max_stretch = 2.0;  // above 1: every vertex fails at rest
        o.json = dir.file("check.json");
        CHECK_THAT(usage_error([&] { run_check(o, in); }), Catch::Contains("is above 1"));
    }
    {
        DiffJobOptions o;
        o.input.file = cylinder();
        o.new_file = cylinder();
        DiffJobInput in = load_diff_input(o);
        o.worst = 0;
        o.out = dir.file("diff.csv");
        o.format = "csv";
        CHECK_THAT(usage_error([&] { run_diff(o, std::move(in)); }), Catch::Contains("--worst"));
    }
    {
        MergeJobOptions o;
        o.chunks = {dir.file("part0.csv")};
        CHECK_THAT(usage_error([&] { run_merge(o, MergeJobInput{}); }), Catch::Contains("merge needs OUT"));
    }
    CHECK(std::filesystem::is_empty(dir.path));  // no output of any refused run
}

TEST_CASE("job entries: bake, regions, volume and intersect validate on a loaded input too", "[run][job]") {
    rigscope_test::TempDir dir("rigscope_job_entries_maps");
    InputOptions io;
    io.file = cylinder();
    io.frames = "61";
    Input in = load_input(io);
    {
        BakeJobOptions o;
        o.tension.input = io;
        o.size = 0;
        o.out = dir.file("b.{frame}.png");
        CHECK_THAT(usage_error([&] { run_bake(o, in); }), Catch::Contains("--size 0"));
    }
    {
        RegionsJobOptions o;
        o.tension.input = io;
        o.by = "bones";
        o.out = dir.file("r.csv");
        CHECK_THAT(usage_error([&] { run_regions(o, in); }), Catch::Contains("--by is joints"));
    }
    {
        VolumeJobOptions o;
        o.input = io;
        o.format = "xml";
        CHECK_THAT(usage_error([&] { run_volume(o, in); }), Catch::Contains("volume writes json or csv"));
    }
    {
        IntersectJobOptions o;
        o.input = io;
        o.format = "xml";
        CHECK_THAT(usage_error([&] { run_intersect(o, in); }), Catch::Contains("intersect writes json or csv"));
    }
    CHECK(std::filesystem::is_empty(dir.path));
}

TEST_CASE("job entries: load_and_run_X is run_X on the job's own load step", "[run][job]") {
    InfoJobOptions info;
    info.input.file = cylinder();
    info.json = true;
    CHECK(load_and_run_info(info).text == run_info(info, load_info_input(info)).text);

    LintJobOptions lint;
    lint.input.file = cylinder();
    lint.format = "json";
    const LintJobResult loaded = load_and_run_lint(lint);
    const LintJobResult given = run_lint(lint, load_lint_input(lint));
    CHECK(loaded.format == "json");
    CHECK(loaded.output == given.output);
    CHECK(loaded.output == lint_json(given.lint));  // -o's JSON is the lint's own document
    CHECK(loaded.text == lint_text(given.lint, lint.listed));
    CHECK(loaded.meshes == 1);
    CHECK(loaded.vertices == 625);  // the glTF's vertices (corpus README: 625, split at the caps)

    RomJobOptions rom;
    rom.input.file = cylinder();
    CHECK(load_and_run_rom(rom).json == run_rom(rom, load_input(rom_input_options(rom))).json);
}
