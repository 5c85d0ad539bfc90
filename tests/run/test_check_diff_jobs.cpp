// The check and diff jobs' validate() (run/check_job.h, run/diff_job.h): what each refuses
// before any file is read, the CLI and Python alike (tests/cli/check/rigci.sh and cli_slips.sh run the
// same refusals through the CLI). A refusal names the option; an accepted case returns "".
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <string>

#include "refusal.h"
#include "rigscope/run/check_job.h"
#include "rigscope/run/diff_job.h"

using namespace rigscope;
using rigscope_test::refusal;

TEST_CASE("check job: validate() refuses limits and combinations that cannot make a verdict", "[check][job]") {
    CheckJobOptions o;
    o.tension.input.file = "rig.glb";
    CHECK_THAT(refusal(o), Catch::Contains("check needs --max-stretch"));
    o.max_stretch = 0.7;
    CHECK(refusal(o).empty());
    {
        CheckJobOptions b = o;
        b.max_lambda = 1.2;
        CHECK_THAT(refusal(b), Catch::Contains("need --measure principal"));
        b.tension.measure = "principal";
        CHECK(refusal(b).empty());
    }
    for (double bad : {0.0, -0.5, std::nan(""), std::numeric_limits<double>::infinity()}) {
        CheckJobOptions b = o;
        b.max_compress = bad;
        CHECK_THAT(refusal(b), Catch::Contains("--max-compress: must be a positive number"));
    }
    {
        // A limit given as exactly its rest value is a limit (the optional holds it): a stretch
        // limit of 1 fails nothing at rest and is accepted; swapped, or past 1, is refused.
        CheckJobOptions b = o;
        b.max_stretch = 1.0;
        CHECK(refusal(b).empty());
        b.max_stretch = 1.5;
        CHECK_THAT(refusal(b), Catch::Contains("--max-stretch 1.5 is above 1"));
        b.max_stretch = 0.9;
        b.max_compress = 0.8;
        CHECK_THAT(refusal(b), Catch::Contains("are the wrong way round"));
        b.max_stretch.reset();
        CHECK_THAT(refusal(b), Catch::Contains("--max-compress 0.8 is below 1"));
    }
    {
        CheckJobOptions b = o;
        b.tension.measure = "principal";
        b.min_lambda = 0.9;
        b.max_lambda = 0.8;
        CHECK_THAT(refusal(b), Catch::Contains("--min-lambda 0.9 and --max-lambda 0.8 are the wrong way round"));
        b.max_lambda.reset();
        b.min_lambda = 1.1;
        CHECK_THAT(refusal(b), Catch::Contains("--min-lambda 1.1 is above 1"));
    }
    {
        CheckJobOptions b = o;
        b.worst = 0;
        CHECK_THAT(refusal(b), Catch::Contains("--worst: must be 1 or more"));
    }
    {
        // A chunk's verdict is partial: its JUnit merges, its JSON (the run's verdict) cannot.
        CheckJobOptions b = o;
        b.tension.input.chunk = "0/2";
        b.junit = "chunk0.xml";
        CHECK(refusal(b).empty());
        b.json = "verdict.json";
        CHECK_THAT(refusal(b), Catch::Contains("check --json gives the run's verdict"));
        b.json.clear();
        b.lint = true;
        CHECK_THAT(refusal(b), Catch::Contains("check --lint judges the bind pose once"));
    }
    {
        // The maps' parameters shape only the page.
        CheckJobOptions b = o;
        b.tension.params.falloff = 2;
        CHECK_THAT(refusal(b), Catch::Contains("--falloff: only shapes the --html page"));
    }
}

TEST_CASE("check job: limits() carries exactly the limits given", "[check][job]") {
    CheckJobOptions o;
    o.tension.input.file = "rig.glb";
    o.max_compress = 1.5;
    const CheckLimits l = o.limits();
    CHECK(l.has_compress);
    CHECK(l.max_compress == 1.5);
    CHECK_FALSE(l.has_stretch);
    CHECK_FALSE(l.has_max_lambda);
    CHECK_FALSE(l.has_min_lambda);
    CHECK(l.file == "rig.glb");
}

TEST_CASE("diff job: validate() refuses options out of range, excluded pairs and outputs diff does not write", "[diff][job]") {
    DiffJobOptions o;
    o.input.file = "old.glb";
    CHECK_THAT(refusal(o), Catch::Contains("diff needs NEW"));
    o.new_file = "new.glb";
    CHECK(refusal(o).empty());
    {
        DiffJobOptions b = o;
        b.match = "name";
        CHECK_THAT(refusal(b), Catch::Contains("--match: 'name' is not index or position"));
    }
    {
        DiffJobOptions b = o;
        b.match_tolerance = 1e-3;
        CHECK_THAT(refusal(b), Catch::Contains("--match-tolerance is for --match position"));
        b.match = "position";
        CHECK(refusal(b).empty());
        CHECK(b.match_tolerance_or_default() == 1e-3);
        b.match_tolerance = 2.0;
        CHECK_THAT(refusal(b), Catch::Contains("--match-tolerance: 2 is not from 0 to 1"));
        b.match_tolerance.reset();
        CHECK(b.match_tolerance_or_default() == kDefaultMatchTolerance);
    }
    {
        DiffJobOptions b = o;
        b.align = "end";
        CHECK_THAT(refusal(b), Catch::Contains("--align: 'end' is not start"));
        b.align = "start";
        CHECK(refusal(b).empty());
        // Given, even as 0, an offset excludes --align: the optional holds what was asked.
        b.frame_offset = 0;
        CHECK_THAT(refusal(b), Catch::Contains("--align excludes --frame-offset"));
    }
    {
        DiffJobOptions b = o;
        b.frame_offset = 3;
        CHECK(refusal(b).empty());
        b.input.rom = true;
        CHECK_THAT(refusal(b), Catch::Contains("--rom poses both files on the same synthetic frames"));
        b.input.rom = false;
        b.frame_offset = -2000000000L;
        CHECK_THAT(refusal(b), Catch::Contains("--frame-offset: at most 10^9 frames either way"));
    }
    for (double bad : {-1.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
        DiffJobOptions b = o;
        b.max_t_change = bad;
        CHECK_THAT(refusal(b), Catch::Contains("--max-displacement and --max-t-change must be 0 or more"));
    }
    {
        DiffJobOptions b = o;
        b.worst = 0;
        CHECK_THAT(refusal(b), Catch::Contains("--worst: must be 1 or more"));
    }
    for (const char* ok : {"", "csv", "json", "gltf"}) {
        DiffJobOptions b = o;
        b.format = ok;
        CHECK(refusal(b).empty());
    }
    {
        DiffJobOptions b = o;
        b.format = "usda";
        CHECK_THAT(refusal(b), Catch::Contains("diff writes csv, json or gltf, not usda"));
    }
    {
        // A chunk sees part of the frames: its per-vertex rows merge, a JUnit verdict would not.
        DiffJobOptions b = o;
        b.input.chunk = "0/2";
        CHECK(refusal(b).empty());
        b.junit = "diff.xml";
        CHECK_THAT(refusal(b), Catch::Contains("diff --chunk: a chunk sees part of the frames"));
    }
}

TEST_CASE("diff job: limits() carries exactly the limits given, 0 included", "[diff][job]") {
    DiffJobOptions o;
    o.input.file = "old.glb";
    o.new_file = "new.glb";
    DiffLimits l = o.limits();
    CHECK_FALSE(l.has_displacement);
    CHECK_FALSE(l.has_t_change);
    o.max_t_change = 0.0;
    l = o.limits();
    CHECK(l.has_t_change);
    CHECK(l.max_t_change == 0.0);
    CHECK_FALSE(l.has_displacement);
}
