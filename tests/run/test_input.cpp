// The run layer's input (src/run/input.cpp): an Input made from a scene already in memory selects
// and checks as load_input does over the same file, so callers that hold a scene (the fuzz
// targets, tests) run what the CLI runs.
#include <catch2/catch.hpp>

#include <string>
#include <utility>

#include "corpus.h"
#include "rigscope/core/error.h"
#include "rigscope/io/load.h"
#include "rigscope/run/input.h"

using namespace rigscope;

namespace {

std::string data_file(const char* name) { return test::source_dir() + "/data/" + name; }

Input from_scene(const InputOptions& opt) { return input_from_scene(load_scene(opt.file, load_options(opt)), opt); }

// The Error `f` throws, as code and message; fails the test when it throws nothing.
template <typename F>
std::pair<int, std::string> error_of(F&& f) {
    try {
        f();
    } catch (const Error& e) {
        return {e.code(), e.what()};
    }
    FAIL("no error thrown");
    return {0, ""};
}

}  // namespace

namespace {

// The paths an input reads, with how it reached each: equal when both loads read the same files.
std::vector<std::pair<std::string, std::string>> paths_of(const rigscope::Input& in) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& f : in.paths) out.emplace_back(f.path, f.how);
    return out;
}

}  // namespace

TEST_CASE("input_from_scene selects what load_input selects from the same file", "[run][input]") {
    InputOptions opt;
    opt.file = data_file("bend_cylinder.glb");
    opt.frames = "1..91:10";
    opt.weld = "off";
    opt.chunk = "1/3";  // I/N counts from 0
    const Input a = load_input(opt), b = from_scene(opt);
    REQUIRE(b.has_clip);
    CHECK(b.clip.name == a.clip.name);
    CHECK(b.clip.channels.size() == a.clip.channels.size());
    CHECK(b.fps == a.fps);
    CHECK(b.meshes == a.meshes);
    CHECK_FALSE(b.weld);
    CHECK(b.chunk_index == 1);
    CHECK(b.chunk_count == 3);
    CHECK(paths_of(b) == paths_of(a));
    // Frames 1, 11, ..., 91 (ten) in three parts: the second is 31, 41, 51.
    REQUIRE(b.frames.size() == 3);
    REQUIRE(a.frames.size() == 3);
    for (std::size_t i = 0; i < b.frames.size(); ++i) {
        CHECK(b.frames[i].number == 31 + 10 * static_cast<long>(i));
        CHECK(b.frames[i].number == a.frames[i].number);
        CHECK(b.frames[i].time == a.frames[i].time);
    }
}

TEST_CASE("input_from_scene reads --rig and resolves it against the scene", "[run][input]") {
    InputOptions opt;
    opt.file = data_file("joystick_face.glb");
    opt.rig = data_file("joystick_face.rig.json");
    const Input a = load_input(opt), b = from_scene(opt);
    REQUIRE_FALSE(b.rig.controls.empty());
    CHECK(b.rig.controls.size() == a.rig.controls.size());
    CHECK(b.rig.driven.size() == a.rig.driven.size());
    CHECK(paths_of(b) == paths_of(a));
    CHECK(b.paths.back().path == opt.rig);
}

TEST_CASE("input_from_scene makes load_input's checks, naming the option", "[run][input][errors]") {
    InputOptions opt;
    opt.file = data_file("bend_cylinder.glb");
    const Scene scene = load_scene(opt.file);

    InputOptions bad = opt;
    bad.weld = "maybe";
    auto e = error_of([&] { input_from_scene(scene, bad); });
    CHECK(e.first == kExitUsage);
    CHECK(e.second.find("--weld") != std::string::npos);

    bad = opt;
    bad.frames = "1..500";
    e = error_of([&] { input_from_scene(scene, bad); });
    CHECK(e.first == kExitUsage);
    CHECK(e.second.find("--frames") != std::string::npos);
    CHECK(e.second.find("outside clip") != std::string::npos);

    bad = opt;
    bad.clip = "no_such_clip";
    e = error_of([&] { input_from_scene(scene, bad); });
    CHECK(e.first == kExitMismatch);
    CHECK(e.second.find(opt.file) != std::string::npos);

    bad = opt;
    bad.mesh = "no_such_mesh";
    e = error_of([&] { input_from_scene(scene, bad); });
    CHECK(e.first == kExitUsage);
    CHECK(e.second.find("Cylinder") != std::string::npos);  // the names it has

    bad = opt;
    bad.max_memory_mib = -1;
    e = error_of([&] { input_from_scene(scene, bad); });
    CHECK(e.first == kExitUsage);
    CHECK(e.second.find("--max-memory") != std::string::npos);
}
