// The glTF reader converts mesh accessors on helper threads when given more than one
// (LoadOptions::threads, src/io/gltf/gltf_prefetch.cpp): the scene, its warnings and what a bad
// file is told must be the same bytes for any thread count.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "corpus.h"
#include "io/gltf/gltf_document.h"
#include "rigscope/core/error.h"
#include "rigscope/core/same_bytes.h"
#include "rigscope/io/load.h"
#include "same_mesh.h"

namespace fs = std::filesystem;
using namespace rigscope;

namespace {

// What read_gltf gives for `path` on `threads`: the scene, or the refusal's message.
struct Outcome {
    Scene scene;
    std::string refused;
};

Outcome read_on(const std::string& path, unsigned threads, std::uint64_t max_memory = 8ull << 30) {
    LoadOptions lo;
    lo.threads = threads;
    lo.max_memory = max_memory;
    Outcome o;
    try {
        o.scene = read_gltf(path, lo);
    } catch (const Error& e) {
        o.refused = e.what();
    }
    return o;
}

void check_same(const Outcome& a, const Outcome& b) {
    CHECK(a.refused == b.refused);
    REQUIRE(a.scene.meshes.size() == b.scene.meshes.size());
    for (std::size_t m = 0; m < a.scene.meshes.size(); ++m) {
        const Mesh& x = a.scene.meshes[m];
        const Mesh& y = b.scene.meshes[m];
        INFO("mesh " << m << " " << x.name);
        rigscope_test::check_same_mesh(x, y);
    }
    REQUIRE(a.scene.warnings.size() == b.scene.warnings.size());
    for (std::size_t w = 0; w < a.scene.warnings.size(); ++w) {
        CHECK(a.scene.warnings[w].kind == b.scene.warnings[w].kind);
        CHECK(a.scene.warnings[w].message == b.scene.warnings[w].message);
    }
}

// Every glTF of the corpus, the project's data and the kept fuzz findings (which are refused,
// each at its own point of the load).
std::vector<std::string> gltf_files() {
    std::vector<std::string> files;
    for (const std::string& dir : {test::corpus("khronos"), test::corpus("bend_cylinder"), test::corpus("joystick_face"),
                                   test::source_dir() + "/data", test::source_dir() + "/tests/regressions"}) {
        if (!fs::is_directory(dir)) continue;
        for (const auto& entry : fs::directory_iterator(dir)) {
            const std::string ext = entry.path().extension().string();
            if (ext == ".glb" || ext == ".gltf") files.push_back(entry.path().string());
        }
    }
    std::sort(files.begin(), files.end());
    // A large mesh, where the helpers convert most accessors before the reader reaches them
    // (on the small files the reader often claims them all first).
    if (fs::exists(test::bench_dir() + "/tube_262k.glb")) files.push_back(test::bench_dir() + "/tube_262k.glb");
    return files;
}

}  // namespace

TEST_CASE("glTF: the scene, its warnings and refusals are the same bytes on 1, 2 and 3 threads", "[gltf][threads]") {
    const std::vector<std::string> files = gltf_files();
    REQUIRE(files.size() >= 10);  // a missing folder must not pass by reading nothing
    for (const std::string& path : files) {
        INFO(path);
        const Outcome one = read_on(path, 1);
        for (unsigned threads : {2u, 3u}) check_same(one, read_on(path, threads));
    }
}

TEST_CASE("glTF: a load past the memory limit is refused in the same words on any thread count", "[gltf][threads][load_budget]") {
    const std::string path = test::source_dir() + "/data/bend_cylinder.glb";
    const Outcome whole = read_on(path, 1);
    REQUIRE(whole.refused.empty());
    // Limits from below the file's size to past the whole load: the prefetch starts only where
    // its arrays fit, and every refusal must name the same array at the same running total.
    const auto size = fs::file_size(path);
    int refusals = 0;
    for (std::uint64_t limit = size / 2; limit < size * 4; limit += size / 8) {
        INFO("limit " << limit);
        const Outcome one = read_on(path, 1, limit);
        if (!one.refused.empty()) ++refusals;
        for (unsigned threads : {2u, 3u}) check_same(one, read_on(path, threads, limit));
    }
    CHECK(refusals > 0);
}

TEST_CASE("glTF: the prefetch's plan is the order the reader reads the meshes' accessors in", "[gltf][threads]") {
    // gltf_prefetch.cpp lists read_mesh's reads in read_mesh's order. A change to either order
    // loads the same scene (the reader converts what it reaches first), so only this notices
    // that the helpers no longer convert ahead of it.
    int planned = 0;
    for (const std::string& path : gltf_files()) {
        INFO(path);
        const Outcome one = read_on(path, 1);
        if (!one.refused.empty() || one.scene.meshes.empty()) continue;
        gltf::Document doc(path, 8ull << 30);
        gltf::read_scene(doc, path, 2);
        CHECK(doc.prefetch_followed_plan());
        ++planned;
    }
    CHECK(planned >= 10);
}
