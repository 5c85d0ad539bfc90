// The deform and drive jobs (run/deform_job.h, run/drive_job.h): validate() cases first, then
// what each writes and returns (tests/cli/drive/drive.sh and the deform CLI tests run them end to end).
#include <catch2/catch.hpp>
#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>

#include "corpus.h"
#include "refusal.h"
#include "rigscope/core/error.h"
#include "rigscope/run/deform_job.h"
#include "rigscope/run/drive_job.h"
#include "temp_dir.h"

using namespace rigscope;
using rigscope_test::refusal;

namespace {

std::size_t lines(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    const std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n'));
}

}  // namespace

TEST_CASE("deform job: validate() and the rows it writes", "[deform][job]") {
    DeformJobOptions o;
    CHECK(refusal(o).empty());
    o.format = "gltf";
    CHECK_THAT(refusal(o), Catch::Contains("deform writes csv, json, usda or abc, not gltf"));
    // A USD layer: over a USD input only, to a file, in the stage's own axes.
    o.format = "usda";
    o.input.file = "a.glb";
    o.out = "d.usda";
    CHECK_THAT(refusal(o), Catch::Contains("is not USD"));
    o.input.file = "a.usdc";
    CHECK(refusal(o).empty());
    o.axes = "y-up";
    CHECK_THAT(refusal(o), Catch::Contains("stage's own axes"));
    o.axes = "file";
    o.out = "-";
    CHECK_THAT(refusal(o), Catch::Contains("needs -o FILE.usda"));
    o = DeformJobOptions{};
    o.format = "json";
    o.axes = "z-up";
    CHECK_THAT(refusal(o), Catch::Contains("--axes is file or y-up"));

    rigscope_test::TempDir dir("rigscope_deform_job");
    DeformJobOptions d;
    d.input.file = test::corpus("bend_cylinder/bend_cylinder.glb");
    d.out = dir.file("d.csv");
    const DeformJobResult r = load_and_run_deform(d);
    REQUIRE(r.meshes == 1);
    CHECK(r.frames > 1);
    CHECK(r.vertices > 0);
    // A header and a row per frame and vertex.
    CHECK(lines(d.out) == 1 + r.frames * r.vertices);
}

TEST_CASE("drive job: validate() and what it writes", "[drive][job]") {
    DriveJobOptions o;
    CHECK_THAT(refusal(o), Catch::Contains("drive needs --rig"));
    o.input.rig = "rig.json";
    CHECK(refusal(o).empty());
    o.format = "usd";
    CHECK_THAT(refusal(o), Catch::Contains("drive writes csv, json or gltf"));
    o.format = "gltf";
    o.input.mesh = "Face";
    CHECK_THAT(refusal(o), Catch::Contains("bakes every driven mesh"));

    rigscope_test::TempDir dir("rigscope_drive_job");
    DriveJobOptions d;
    d.input.file = test::corpus("joystick_face/joystick_face.glb");
    d.input.rig = test::source_dir() + "/data/joystick_face.rig.json";
    d.out = dir.file("w.csv");
    const DriveJobResult r = load_and_run_drive(d);
    CHECK(r.frames > 1);
    CHECK(r.series > 0);
    CHECK(lines(d.out) == 1 + r.frames * r.series);  // a row per frame and driven target
    // The bind pose alone has no time to key.
    d.format = "gltf";
    d.out = dir.file("w.glb");
    d.input.frames = "bind";
    try {
        load_and_run_drive(d);
        FAIL("baked a bind pose");
    } catch (const Error& e) {
        CHECK(e.code() == kExitUsage);
    }
}
