// How the binary FBX reader samples a stack (src/io/fbx/fbx_scene_clips.cpp, plan_frames): every
// whole frame of the span while the file's keys justify it, which must hold for every real file,
// so that a bound put there against hostile key times changes no result on them. The thinned
// case itself is pinned in tests/io/test_regressions.cpp.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "corpus.h"
#include "rigscope/io/load.h"
#include "temp_dir.h"

using namespace rigscope;
namespace fs = std::filesystem;

TEST_CASE("fbx: every corpus and crafted binary FBX is sampled at every whole frame of its span", "[fbx][sampling]") {
    std::vector<std::string> files = {
        test::corpus("bend_cylinder/bend_cylinder.fbx"), test::corpus("assimp/FBX/huesitos.fbx"),
        test::corpus("assimp/FBX/animation_with_skeleton.fbx"), test::corpus("assimp/FBX/spider.fbx"),
        test::corpus("pab/arnaud.fbx"), test::corpus("pab/walk.fbx"), test::corpus("joystick_face/joystick_face.fbx"),
    };
    for (const auto& e : fs::directory_iterator(test::source_dir() + "/tests/fbx_cases"))
        if (e.path().extension() == ".fbx") files.push_back(e.path().string());
    std::size_t sampled = 0;
    for (const std::string& file : files) {
        INFO(file);
        const Scene scene = load_scene(file);
        for (const Warning& w : scene.warnings) CHECK(w.message.find("between keys (the longest") == std::string::npos);
        for (const Clip& clip : scene.clips) {
            if (!clip.has_take) continue;  // ASCII FBX: Assimp's keys, not sampled by this reader
            const long first = std::lround(clip.start * scene.fps), last = std::lround(clip.end * scene.fps);
            for (const Channel& ch : clip.channels) {
                REQUIRE(ch.times.size() == std::size_t(last - first + 1));
                for (std::size_t i = 0; i < ch.times.size(); ++i) CHECK(ch.times[i] == float(double(first + long(i)) / scene.fps));
            }
            ++sampled;
        }
    }
    CHECK(sampled >= 15);  // the corpus's animated binary files and the crafted cases were all seen
}

// MotionBuilder writes a take's ends some KTime ticks off whole frames (fbx-conv's
// cube_anim_2clips: LocalTime 1539538680,153953856329, frames 1.00000005 and 99.9999976 at 30
// fps). `info` printed frames 1..100 while the default frames stopped at 99, --frames 100 was
// refused, and keys on frame 1 were said to lie outside the take. take_start_50 (take 50..80 at
// 30 fps) with its ends moved as far off: the take, the frames and the keys must agree.
TEST_CASE("fbx: take ends a few ticks off whole frames are those frames", "[fbx][sampling]") {
    const std::string source = test::source_dir() + "/tests/fbx_cases/take_start_50.fbx";
    std::ifstream in(source, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::int64_t per_frame = 46186158000 / 30;
    std::size_t moved = 0;
    for (const auto& [from, to] : {std::pair<std::int64_t, std::int64_t>{50 * per_frame, 50 * per_frame + 80},
                                   std::pair<std::int64_t, std::int64_t>{80 * per_frame, 80 * per_frame - 3671}}) {
        for (std::size_t i = 0; i + 8 <= bytes.size(); ++i)
            if (std::memcmp(&bytes[i], &from, 8) == 0) {
                std::memcpy(&bytes[i], &to, 8);
                ++moved;
            }
    }
    REQUIRE(moved >= 2);  // at least the stack's LocalStart and LocalStop
    rigscope_test::TempDir dir;
    const std::string path = dir.file("take_off_frames.fbx");
    std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
    const Scene scene = load_scene(path);
    REQUIRE(scene.clips.size() == 1);
    const Clip& clip = scene.clips[0];
    CHECK(clip.take_start * scene.fps == Approx(50).margin(1e-9));
    CHECK(clip.take_end * scene.fps == Approx(80).margin(1e-9));
    CHECK(std::lround(clip.start * scene.fps) == 50);
    CHECK(std::lround(clip.end * scene.fps) == 80);
    for (const Warning& w : scene.warnings) CHECK(w.message.find("outside its take") == std::string::npos);
}
