// The rivet job (run/rivet_job.h): its validate() cases first, then what run_rivet returns next
// to the writers' view of it (tests/cli/rivet/rivet.sh runs the same through the CLI).
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <string>

#include "corpus.h"
#include "refusal.h"
#include "rigscope/core/error.h"
#include "rigscope/run/rivet_job.h"

using namespace rigscope;
using rigscope_test::refusal;

TEST_CASE("rivet job: validate() refuses what cannot make the run asked for", "[rivet][job]") {
    RivetJobOptions o;
    o.vertices = "0";
    CHECK(refusal(o).empty());
    {
        RivetJobOptions b = o;
        b.format = "usd";
        CHECK_THAT(refusal(b), Catch::Contains("json, csv or gltf"));
    }
    {
        RivetJobOptions b = o;
        b.format = "gltf";
        CHECK_THAT(refusal(b), Catch::Contains("needs -o FILE.glb"));
        b.out = "x.GLTF";
        CHECK_THAT(refusal(b), Catch::Contains("name the file .glb"));
        b.out = "x.glb";
        CHECK(refusal(b).empty());
    }
    for (double bad : {0.0, -0.1, std::nan("")}) {
        RivetJobOptions b = o;
        b.max_fit_error = bad;
        CHECK_THAT(refusal(b), Catch::Contains("is not a positive number"));
    }
    {
        RivetJobOptions b = o;
        b.bake = true;
        b.max_fit_error = 0.01;
        CHECK_THAT(refusal(b), Catch::Contains("a baked rivet (--bake) has no fit"));
    }
    {
        RivetJobOptions b = o;
        b.junit = "r.xml";
        CHECK_THAT(refusal(b), Catch::Contains("give the limit"));
        b.max_fit_error = 0.01;
        CHECK(refusal(b).empty());
    }
    {
        RivetJobOptions b = o;
        b.bake = true;
        b.joint = "Arm";
        CHECK_THAT(refusal(b), Catch::Contains("follows no joint"));
    }
    {
        RivetJobOptions b = o;
        b.input.weld = "off";
        CHECK_THAT(refusal(b), Catch::Contains("a fitted rivet reads file vertices"));
        b.bake = true;
        CHECK(refusal(b).empty());
    }
    {
        RivetJobOptions b = o;
        b.input.chunk = "0/2";
        CHECK_THAT(refusal(b), Catch::Contains("--chunk splits per-frame rows"));
        b.bake = true;
        CHECK(refusal(b).empty());
        b.format = "gltf";
        b.out = "x.glb";
        CHECK_THAT(refusal(b), Catch::Contains("--chunk splits per-frame rows"));
    }
}

TEST_CASE("rivet job: a fit is judged once, against the limit or the warning level", "[rivet][job]") {
    RivetJobOptions o;
    o.input.file = test::corpus("bend_cylinder/bend_cylinder.glb");
    o.vertices = "0,100";
    const RivetJobLoaded warn = load_and_run_rivet(o);
    REQUIRE(warn.result.rivets.size() == 2);
    CHECK_FALSE(warn.result.judged);
    CHECK(warn.result.diagonal > 0);
    double worst = 0;
    for (const RivetResult& r : warn.result.rivets) worst = std::max(worst, r.fit.max_error / warn.result.diagonal);
    // A limit below the worst fit fails, one above passes: the verdict is the job's, not the writer's.
    o.max_fit_error = worst * 0.5;
    const RivetJobResult fail = run_rivet(o, warn.input);
    CHECK(fail.judged);
    CHECK(fail.verdict.failed == (worst > 0));
    o.max_fit_error = worst * 2 + 1e-9;
    const RivetJobResult pass = run_rivet(o, warn.input);
    CHECK_FALSE(pass.verdict.failed);
    CHECK_THAT(pass.verdict.junit, Catch::Contains("<testcase"));
    // --bake returns the transforms, no verdict.
    o.max_fit_error.reset();
    o.bake = true;
    const RivetJobResult baked = run_rivet(o, warn.input);
    CHECK(baked.rivets.empty());
    CHECK(baked.frames.size() == warn.input.frames.size());
    CHECK(baked.vertices == std::vector<std::uint32_t>{0, 100});
}
