// LoadOptions::mesh (--mesh): the glTF reader reads only the meshes the run will select. The
// selected meshes must be the bytes a full load gives them, the others keep the entries names,
// rigs and weights channels read, and a broken unselected mesh stops a run only without --mesh.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "corpus.h"
#include "io/gltf/gltf_document.h"
#include "rigscope/core/error.h"
#include "rigscope/core/same_bytes.h"
#include "rigscope/io/load.h"
#include "rigscope/run/input.h"
#include "same_mesh.h"
#include "temp_dir.h"

namespace fs = std::filesystem;
using namespace rigscope;
using nlohmann::json;

namespace {

Scene load(const std::string& path, const std::string& mesh, unsigned threads) {
    LoadOptions lo;
    lo.mesh = mesh;
    lo.threads = threads;
    return load_scene(path, lo);
}

using rigscope_test::check_same_mesh;

// What an unread mesh keeps: everything a full load gives it that is not an array of its data.
void check_entry(const Mesh& unread, const Mesh& full) {
    CHECK(unread.name == full.name);
    CHECK(unread.node == full.node);
    CHECK(unread.skin == full.skin);
    CHECK(unread.uv_v_down == full.uv_v_down);
    CHECK(unread.default_weights == full.default_weights);
    REQUIRE(unread.targets.size() == full.targets.size());
    for (std::size_t t = 0; t < full.targets.size(); ++t) {
        CHECK(unread.targets[t].name == full.targets[t].name);
        CHECK(unread.targets[t].deltas.empty());
    }
    CHECK(unread.positions.empty());
    CHECK(unread.face_indices.empty());
    CHECK(unread.influences.empty());
}

std::vector<std::string> gltf_files() {
    std::vector<std::string> files = {test::corpus("khronos/interpolation_test.gltf"), test::corpus("khronos/cesium_man.gltf"),
                                      test::corpus("khronos/rigged_simple.gltf"), test::source_dir() + "/data/bend_cylinder.glb",
                                      test::source_dir() + "/data/joystick_face.glb"};
    // Two meshes sharing their indices accessor: the one read must still get it.
    if (fs::exists(test::bench_dir() + "/tube_262k.glb")) files.push_back(test::bench_dir() + "/tube_262k.glb");
    return files;
}

// A two-mesh glTF beside its buffer: "Good" (a triangle) and "Bad", whose broken part `breaks`
// writes into its primitive and the document.
std::string two_meshes(const rigscope_test::TempDir& dir, const std::function<void(json& doc, json& bad_prim)>& breaks) {
    std::vector<float> pos = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 2, 0};
    std::vector<std::uint8_t> bin(pos.size() * 4);
    std::memcpy(bin.data(), pos.data(), bin.size());
    std::ofstream(dir.file("two.bin"), std::ios::binary).write(reinterpret_cast<const char*>(bin.data()), std::streamsize(bin.size()));
    json doc = {{"asset", {{"version", "2.0"}}},
                {"buffers", json::array({{{"byteLength", bin.size()}, {"uri", "two.bin"}}})},
                {"bufferViews", json::array({{{"buffer", 0}, {"byteOffset", 0}, {"byteLength", 36}},
                                             {{"buffer", 0}, {"byteOffset", 36}, {"byteLength", 36}}})},
                {"accessors", json::array({{{"bufferView", 0}, {"componentType", 5126}, {"count", 3}, {"type", "VEC3"}},
                                           {{"bufferView", 1}, {"componentType", 5126}, {"count", 3}, {"type", "VEC3"}}})},
                {"nodes", json::array({{{"name", "A"}, {"mesh", 0}}, {{"name", "B"}, {"mesh", 1}}})},
                {"scenes", json::array({{{"nodes", {0, 1}}}})}};
    json bad_prim = {{"attributes", {{"POSITION", 1}}}};
    breaks(doc, bad_prim);
    doc["meshes"] = json::array({{{"name", "Good"}, {"primitives", json::array({{{"attributes", {{"POSITION", 0}}}}})}},
                                 {{"name", "Bad"}, {"primitives", json::array({bad_prim})}}});
    const std::string path = dir.file("two.gltf");
    std::ofstream(path) << doc.dump();
    return path;
}

std::string refusal(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return std::to_string(e.code()) + " " + e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("glTF --mesh: the selected meshes are a full load's bytes, the others keep their entries", "[gltf][mesh_selection]") {
    int files = 0, unread = 0;
    for (const std::string& path : gltf_files()) {
        if (!fs::exists(path)) continue;
        INFO(path);
        ++files;
        const Scene full = load(path, "", 1);
        std::vector<std::string> names;
        for (const Mesh& m : full.meshes) names.push_back(m.name);
        std::vector<std::string> specs = names;
        for (std::size_t k = 0; k < names.size(); ++k) specs.push_back(std::to_string(k));
        for (const std::string& spec : specs)
            for (unsigned threads : {1u, 2u}) {
                INFO("--mesh " << spec << ", " << threads << " threads");
                const Scene part = load(path, spec, threads);
                const std::vector<int> chosen = meshes_selected(names, spec);
                REQUIRE(!chosen.empty());
                REQUIRE(part.meshes.size() == full.meshes.size());
                CHECK(part.nodes.size() == full.nodes.size());
                CHECK(part.clips.size() == full.clips.size());
                for (std::size_t m = 0; m < full.meshes.size(); ++m) {
                    INFO("mesh " << m << " " << full.meshes[m].name);
                    CHECK(part.nodes[full.meshes[m].node].mesh == static_cast<int>(m));
                    if (std::find(chosen.begin(), chosen.end(), static_cast<int>(m)) != chosen.end()) {
                        check_same_mesh(part.meshes[m], full.meshes[m]);
                    } else {
                        check_entry(part.meshes[m], full.meshes[m]);
                        ++unread;
                    }
                }
            }
        // A spec that selects nothing reads every mesh (the run then refuses it, naming them all).
        const Scene none = load(path, "no such mesh", 1);
        REQUIRE(none.meshes.size() == full.meshes.size());
        for (std::size_t m = 0; m < full.meshes.size(); ++m) check_same_mesh(none.meshes[m], full.meshes[m]);
    }
    CHECK(files >= 5);
    CHECK(unread > 0);  // some file has a mesh left unread, or this tested nothing
}

TEST_CASE("glTF --mesh: the prefetch plans only the selected meshes' accessors", "[gltf][mesh_selection][threads]") {
    const std::string path = test::bench_dir() + "/tube_262k.glb";
    if (!fs::exists(path)) {
        WARN("no " << path);
        return;
    }
    // Cylinder.001's POSITION is not read: a plan naming it would leave the reader's reads.
    gltf::Document doc(path, 8ull << 30);
    const Scene s = gltf::read_scene(doc, path, 2, "Cylinder");
    CHECK(doc.prefetch_followed_plan());
    REQUIRE(s.meshes.size() == 2);
    CHECK(!s.meshes[0].positions.empty());
    CHECK(s.meshes[1].positions.empty());
}

TEST_CASE("glTF --mesh: a broken unselected mesh stops only a run that reads it", "[gltf][mesh_selection]") {
    const std::vector<std::pair<const char*, std::function<void(json&, json&)>>> breaks = {
        {"NaN position", [](json&, json&) {}},  // written into the buffer below
        {"indices out of range", [](json&, json& prim) { prim["indices"] = 99; }},
        {"an accessor past its view", [](json& doc, json&) { doc["accessors"][1]["count"] = 4; }},
        {"joints without weights", [](json&, json& prim) { prim["attributes"]["JOINTS_0"] = 0; }},
    };
    for (const auto& [what, brk] : breaks) {
        INFO(what);
        rigscope_test::TempDir dir("rigscope_mesh_selection");
        const std::string path = two_meshes(dir, brk);
        if (std::string(what) == "NaN position") {
            // Bad's first coordinate (its view starts at byte 36).
            std::fstream f(dir.file("two.bin"), std::ios::in | std::ios::out | std::ios::binary);
            const float nan = std::numeric_limits<float>::quiet_NaN();
            f.seekp(36);
            f.write(reinterpret_cast<const char*>(&nan), 4);
        }
        // Without --mesh, and with --mesh naming it, the broken mesh is read and refused.
        CHECK(!refusal([&] { load(path, "", 1); }).empty());
        CHECK(!refusal([&] { load(path, "Bad", 1); }).empty());
        CHECK(refusal([&] { load(path, "Bad", 1); }) == refusal([&] { load(path, "", 1); }));
        CHECK(refusal([&] { load(path, "1", 2); }) == refusal([&] { load(path, "", 2); }));
        // --mesh Good: Good is read as a file without Bad would give it; Bad is not looked at.
        REQUIRE(refusal([&] { load(path, "Good", 1); }).empty());
        const Scene good = load(path, "Good", 2);
        REQUIRE(good.meshes.size() == 2);
        CHECK(good.meshes[0].positions.size() == 3);
        CHECK(good.meshes[0].face_indices == std::vector<std::uint32_t>({0, 1, 2}));
        CHECK(good.meshes[1].name == "Bad");
        CHECK(good.meshes[1].positions.empty());
        // The run layer: a per-frame run with --mesh Good loads; without --mesh, or info (which
        // reports the whole file), it is refused as the file's fault (exit 3).
        InputOptions opt;
        opt.file = path;
        opt.threads = 1;
        opt.mesh = "Good";
        CHECK(refusal([&] { load_input(opt); }).empty());
        CHECK(refusal([&] { load_input(opt, false); }).rfind(std::to_string(kExitBadInput) + " ", 0) == 0);
        opt.read_every_mesh = true;
        CHECK(refusal([&] { load_input(opt); }).rfind(std::to_string(kExitBadInput) + " ", 0) == 0);
        opt.read_every_mesh = false;
        opt.mesh.clear();
        CHECK(refusal([&] { load_input(opt); }).rfind(std::to_string(kExitBadInput) + " ", 0) == 0);
    }
}

TEST_CASE("GLB: a binary chunk after another chunk reads as the same scene as one second in the file", "[gltf][load]") {
    // The reader splits a GLB after its JSON chunk and the next chunk's header, so that a binary
    // chunk second in the file starts the second part and needs no move (glb_split); another
    // chunk in between takes the path that assembles the file first.
    const std::string path = test::source_dir() + "/data/bend_cylinder.glb";
    std::ifstream in(path, std::ios::binary);
    std::vector<char> b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    REQUIRE(b.size() > 28);
    std::uint32_t json_len;
    std::memcpy(&json_len, b.data() + 12, 4);
    const std::size_t at = 20 + json_len;
    const char extra[16] = {8, 0, 0, 0, 'A', 'B', 'C', 'D', 1, 2, 3, 4, 5, 6, 7, 8};  // an unknown chunk of 8 bytes
    b.insert(b.begin() + static_cast<std::ptrdiff_t>(at), extra, extra + 16);
    const auto total = static_cast<std::uint32_t>(b.size());
    std::memcpy(b.data() + 8, &total, 4);
    rigscope_test::TempDir dir("rigscope_glb_chunks");
    std::ofstream(dir.file("extra.glb"), std::ios::binary).write(b.data(), std::streamsize(b.size()));
    const Scene plain = load(path, "", 1), extra_chunk = load(dir.file("extra.glb"), "", 1);
    REQUIRE(plain.meshes.size() == 1);
    REQUIRE(extra_chunk.meshes.size() == 1);
    check_same_mesh(extra_chunk.meshes[0], plain.meshes[0]);
    REQUIRE(plain.clips.size() == extra_chunk.clips.size());
    CHECK(same_bytes(plain.clips[0].channels[0].values, extra_chunk.clips[0].channels[0].values));
}
