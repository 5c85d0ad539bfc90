// The bake job (run/bake_job.h): its validate() cases first, then its file names and a run kept
// in memory (tests/cli/bake/bake.sh checks the images against an oracle rasteriser).
#include <catch2/catch.hpp>

#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "corpus.h"
#include "refusal.h"
#include "temp_dir.h"
#include "rigscope/core/error.h"
#include "rigscope/core/uv_raster.h"
#include "rigscope/io/image_output.h"
#include "rigscope/run/bake_job.h"

using namespace rigscope;
using rigscope_test::refusal;

TEST_CASE("bake job: validate() refuses what cannot make the images asked for", "[bake][job]") {
    BakeJobOptions o;
    o.out = "maps/{mesh}.{frame}.png";
    CHECK(refusal(o).empty());
    auto with = [&](auto change) {
        BakeJobOptions b = o;
        change(b);
        return refusal(b);
    };
    CHECK_THAT(with([](BakeJobOptions& b) { b.size = 0; }), Catch::Contains("--size 0 is not in 1..16384"));
    CHECK_THAT(with([](BakeJobOptions& b) { b.size = kMaxBakeSize + 1; }), Catch::Contains("--size 16385"));
    CHECK(with([](BakeJobOptions& b) { b.size = kMaxBakeSize; }).empty());
    CHECK_THAT(with([](BakeJobOptions& b) { b.padding = -1; }), Catch::Contains("--padding -1"));
    CHECK_THAT(with([](BakeJobOptions& b) { b.map = "colour"; }), Catch::Contains("not colour"));
    CHECK_THAT(with([](BakeJobOptions& b) { b.map = "area"; }), Catch::Contains("--measure area"));
    CHECK(with([](BakeJobOptions& b) {
              b.map = "area";
              b.tension.measure = "area";
              b.range = std::make_pair(0.5, 2.0);
          }).empty());
    CHECK_THAT(with([](BakeJobOptions& b) { b.map = "lambda_max"; }), Catch::Contains("--measure principal"));
    // T is not in 0..1: a PNG needs --range; an EXR holds it as it is.
    CHECK_THAT(with([](BakeJobOptions& b) { b.map = "tension"; }), Catch::Contains("--range LO,HI"));
    CHECK(with([](BakeJobOptions& b) {
              b.map = "tension";
              b.out = "t.{frame}.exr";
          }).empty());
    CHECK_THAT(with([](BakeJobOptions& b) { b.range = std::make_pair(2.0, 0.5); }), Catch::Contains("LO < HI"));
    CHECK_THAT(with([](BakeJobOptions& b) { b.out = "maps/{frame}.tif"; }), Catch::Contains(".png or .exr"));
    CHECK_THAT(with([](BakeJobOptions& b) { b.out = "-"; }), Catch::Contains("not stdout"));
    CHECK_THAT(with([](BakeJobOptions& b) { b.udim = true; }), Catch::Contains("{udim}"));
    CHECK_THAT(with([](BakeJobOptions& b) { b.out = "m.{udim}.{frame}.png"; }), Catch::Contains("give --udim"));
    CHECK_THAT(with([](BakeJobOptions& b) { b.format = "jpg"; }), Catch::Contains("png or exr"));
    CHECK_THAT(with([](BakeJobOptions& b) { b.tension.input.chunk = "0/2"; }), Catch::Contains("--chunk"));
    // No -o: the images stay in memory (Python), but --udim needs file names.
    CHECK(with([](BakeJobOptions& b) { b.out.clear(); }).empty());
}

TEST_CASE("bake job: file names are safe and numbered as -o patterns elsewhere", "[bake][job]") {
    CHECK(bake_file_mesh_name("Body/Head:01", 0) == "Body_Head_01");
    CHECK(bake_file_mesh_name("..", 3) == "mesh3");
    CHECK(bake_file_mesh_name("", 2) == "mesh2");
    CHECK(bake_file_mesh_name("a b\xc3\xa9", 0) == "a_b__");
    Frame f;
    f.number = 7;
    CHECK(bake_file_name("maps/{mesh}.{frame}.png", "Cyl", f, 0) == "maps/Cyl.0007.png");
    CHECK(bake_file_name("maps/{mesh}.{udim}.##.exr", "Cyl", f, 1002) == "maps/Cyl.1002.07.exr");
    f.bind = true;
    CHECK(bake_file_name("{mesh}_{frame}.png", "Cyl", f, 0) == "Cyl_bind.png");
}

TEST_CASE("bake job: a run kept in memory gives an image per frame and mesh", "[bake][job]") {
    BakeJobOptions o;
    o.tension.input.file = rigscope::test::corpus("bend_cylinder/bend_cylinder.glb");
    o.tension.input.frames = "1,61";
    o.size = 32;
    o.padding = 0;
    const BakeJobResult r = load_and_run_bake(o);
    REQUIRE(r.images.size() == 2);
    REQUIRE(r.meshes.size() == 1);
    CHECK(r.meshes[0].uv_set == "TEXCOORD_0");
    CHECK(r.meshes[0].covered > 32 * 32 / 2);
    for (const BakeImage& img : r.images) CHECK(img.texels.size() == 32 * 32);
    // Frame 1 is the rest pose (compress 0 everywhere); frame 61 bends 60 degrees.
    float max0 = 0, max1 = 0;
    for (float v : r.images[0].texels) max0 = std::max(max0, v);
    for (float v : r.images[1].texels) max1 = std::max(max1, v);
    CHECK(max0 < 1e-3f);
    CHECK(max1 > 0.5f);
}

TEST_CASE("bake job: a frame whose map repeats the frame before reuses its image, the same texels as baked alone", "[bake][job]") {
    // Repeated frames make maps of the same values, within a batch of frames and across batches
    // (at least 4 frames a batch): each image must be the texels the frame gives on its own.
    const std::vector<std::string> frames = {"61", "61", "1", "1", "1", "61", "31", "31", "31", "31", "31", "45"};
    std::string list;
    for (const std::string& f : frames) list += (list.empty() ? "" : ",") + f;
    BakeJobOptions o;
    o.tension.input.file = rigscope::test::corpus("bend_cylinder/bend_cylinder.glb");
    o.size = 40;
    o.padding = 2;
    o.map = "color";
    std::map<std::string, std::vector<float>> alone;
    for (const char* f : {"61", "1", "31", "45"}) {
        o.tension.input.frames = f;
        const BakeJobResult a = load_and_run_bake(o);
        REQUIRE(a.images.size() == 1);
        alone[f] = a.images[0].texels;
    }
    CHECK(alone["61"] != alone["1"]);
    o.tension.input.frames = list;
    for (unsigned threads : {1u, 3u}) {
        o.tension.input.threads = threads;
        const BakeJobResult r = load_and_run_bake(o);
        REQUIRE(r.images.size() == frames.size());
        std::size_t differ = 0;
        for (std::size_t i = 0; i < frames.size(); ++i) {
            REQUIRE(r.images[i].frame == i);
            REQUIRE(r.images[i].texels.size() == 40 * 40 * 3);
            differ += std::memcmp(r.images[i].texels.data(), alone[frames[i]].data(), 40 * 40 * 3 * sizeof(float)) != 0;
        }
        CHECK(differ == 0);
    }
}

TEST_CASE("bake job: PNG files made by segments are the images kept in memory, written whole", "[bake][job]") {
    // Files go by segments of their rows, a segment whose bytes repeat the frame before taking its
    // deflated part; images kept in memory are whole planes. Frames whose maps repeat and frames
    // that differ in parts (the bend's still end), several segments an image, padding and --range or
    // colour composed per segment, on 1 and 3 threads: each file must be write_png16 of the
    // image the in-memory run gives.
    rigscope_test::TempDir dir("bake_segments");
    const std::vector<std::string> frames = {"1", "2", "61", "31", "45", "46", "47", "60"};
    std::string list;
    for (const std::string& f : frames) list += (list.empty() ? "" : ",") + f;
    for (const char* map : {"tension", "color"}) {
        BakeJobOptions o;
        o.tension.input.file = rigscope::test::corpus("bend_cylinder/bend_cylinder.glb");
        o.tension.input.frames = list;
        o.size = 230;
        o.padding = 3;
        o.map = map;
        if (o.map == "tension") o.range = std::make_pair(0.5, 2.0);
        const BakeJobResult kept = load_and_run_bake(o);
        REQUIRE(kept.images.size() == frames.size());
        for (unsigned threads : {1u, 3u}) {
            INFO(map << ", " << threads << " threads");
            o.tension.input.threads = threads;
            o.out = dir.file(std::string(map) + std::to_string(threads) + "/{frame}.{mesh}.png");
            const BakeJobResult r = load_and_run_bake(o);
            REQUIRE(r.images.size() == frames.size());
            std::size_t differ = 0;
            for (std::size_t i = 0; i < frames.size(); ++i) {
                std::string expected;  // (the kept texels are after --range)
                write_png16(expected, kept.images[i].texels.data(), o.size, o.size, kept.channels);
                std::ifstream in(r.images[i].path, std::ios::binary);
                const std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
                differ += file != expected;
            }
            CHECK(differ == 0);
        }
    }
}
