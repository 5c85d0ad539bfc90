// How the binary FBX reader samples a stack (src/io/fbx/fbx_scene_clips.cpp, plan_frames): every
// whole frame of the span while the file's keys justify it, which must hold for every real file,
// so that a bound put there against hostile key times changes no result on them. The thinned
// case itself is pinned in tests/test_regressions.cpp.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>

#include "corpus.h"
#include "rigscope/io/load.h"

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
        for (const std::string& w : scene.warnings) CHECK(w.find("between keys (the longest") == std::string::npos);
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
