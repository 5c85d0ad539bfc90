// The tension job (run/tension_job.h): its validate() cases first, then what run_tension writes
// and returns (tests/cli/tension/tension.sh runs the same through the CLI).
#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <string>

#include "corpus.h"
#include "refusal.h"
#include "rigscope/core/error.h"
#include "rigscope/run/tension_job.h"
#include "temp_dir.h"

using namespace rigscope;
using rigscope_test::refusal;

namespace {

std::string read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("tension job: validate() refuses what cannot make the output asked for", "[tension][job]") {
    TensionJobOptions o;
    CHECK(refusal(o).empty());
    auto with = [&](auto change) {
        TensionJobOptions b = o;
        change(b);
        return refusal(b);
    };
    CHECK_THAT(with([](TensionJobOptions& b) { b.format = "usd"; }), Catch::Contains("csv, json, gltf, usda or abc"));
    // USD output: a file beside which the sublayer path means something, a USD input, and
    // --bake-points only there.
    CHECK_THAT(with([](TensionJobOptions& b) { b.format = "usda"; b.tension.input.file = "a.usdc"; }), Catch::Contains("needs -o FILE.usda"));
    CHECK_THAT(with([](TensionJobOptions& b) { b.format = "usda"; b.out = "t.usda"; b.tension.input.file = "a.glb"; }),
               Catch::Contains("is not USD"));
    CHECK_THAT(with([](TensionJobOptions& b) { b.format = "usda"; b.out = "t.usda"; b.tension.input.file = "a.USDZ"; b.tension.input.rom = true; }),
               Catch::Contains("--rom poses the rig otherwise"));
    CHECK(with([](TensionJobOptions& b) { b.format = "usda"; b.out = "t.usda"; b.tension.input.file = "a.USDZ"; b.bake_points = true; }).empty());
    CHECK_THAT(with([](TensionJobOptions& b) { b.bake_points = true; }), Catch::Contains("--bake-points writes the points into a USD layer"));
    CHECK_THAT(with([](TensionJobOptions& b) { b.format = "gltf"; }), Catch::Contains("needs -o FILE.glb"));
    CHECK(with([](TensionJobOptions& b) { b.format = "gltf"; b.out = "t.glb"; }).empty());
    CHECK_THAT(with([](TensionJobOptions& b) { b.bake_max = true; }), Catch::Contains("--bake-max writes glTF"));
    CHECK_THAT(with([](TensionJobOptions& b) { b.color = "t"; }), Catch::Contains("--color sets glTF's COLOR_0"));
    CHECK_THAT(with([](TensionJobOptions& b) { b.format = "gltf"; b.out = "t.glb"; b.color = "red"; }), Catch::Contains("maps or t"));
    CHECK_THAT(with([](TensionJobOptions& b) { b.out = "t_##.csv"; }), Catch::Contains("'#' numbers one file per frame"));
    CHECK_THAT(with([](TensionJobOptions& b) { b.format = "gltf"; b.out = "t_##.glb"; b.bake_max = true; }),
               Catch::Contains("'#' numbers one file per frame"));
    CHECK(with([](TensionJobOptions& b) { b.format = "gltf"; b.out = "dir#1/t.glb"; }).empty());  // '#' in a folder name is no pattern
    CHECK_THAT(with([](TensionJobOptions& b) { b.format = "gltf"; b.out = "t.glb"; b.vertices = "1"; }), Catch::Contains("--vertices selects"));
    for (double p : {49.9, 100.1, std::nan("")}) {
        INFO(p);
        CHECK_THAT(with([&](TensionJobOptions& b) { b.auto_range = p; }), Catch::Contains("is not a percentile in [50, 100]"));
    }
    CHECK(with([](TensionJobOptions& b) { b.auto_range = 50.0; }).empty());
}

TEST_CASE("tension job: writes the output and returns the run, and a chunk of --auto-range keeps its extremes", "[tension][job]") {
    rigscope_test::TempDir dir("rigscope_tension_job");
    TensionJobOptions o;
    o.tension.input.file = test::corpus("bend_cylinder/bend_cylinder.glb");
    o.out = dir.file("t.csv");
    const TensionJobResult r = load_and_run_tension(o);
    CHECK(r.frames > 1);
    CHECK(r.chunk_state.empty());
    const std::string csv = read(o.out);
    CHECK(csv.rfind("frame,time,mesh,vertex,t,compress,stretch\n", 0) == 0);
    // The auto range moves t_s and t_c off their defaults, as the run says.
    o.auto_range = 100.0;
    o.out = dir.file("a.csv");
    const TensionJobResult a = load_and_run_tension(o);
    CHECK(a.run.auto_range);
    CHECK(a.run.range.t_s != r.run.range.t_s);
    CHECK(a.chunk_state.empty());
    o.tension.input.chunk = "0/2";
    o.out = dir.file("c.csv");
    const TensionJobResult c = load_and_run_tension(o);
    REQUIRE(c.chunk_state.size() == 1);
    CHECK(c.chunk_state[0].first == "tension_range");
    CHECK(c.frames < a.frames);
}
