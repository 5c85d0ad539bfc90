// Every input the fuzzers once crashed on (tests/regressions, see its README.md) replays the
// fuzz targets' path: load, then pose, deform, topology and tension over a few frames. Each must
// load or be refused with rigscope::Error; a crash or a sanitizer report fails the suite.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "../fuzz/fuzz_evaluate.h"
#include "corpus.h"

namespace fs = std::filesystem;

TEST_CASE("Kept fuzz findings load or are refused, never crash", "[regressions][errors]") {
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(rigscope::test::source_dir() + "/tests/regressions")) {
        const std::string ext = entry.path().extension().string();
        if (ext == ".glb" || ext == ".gltf" || ext == ".fbx") files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());
    for (const std::string& f : files) {
        SECTION(fs::path(f).filename().string()) {
            CHECK_NOTHROW(rigscope::fuzz::load_and_evaluate(f));
        }
    }
}

TEST_CASE("A buffer URI naming a large folder is refused, not read", "[regressions][errors]") {
    // ext4 reports an indexed folder's size as 2^63 - 1: read as a file, it asked for 8 EiB.
    const fs::path dir = fs::temp_directory_path() / ("rigscope_test_uri_dir_" + std::to_string(::getpid()));
    fs::create_directories(dir / "many");
    for (int i = 0; i < 400; ++i) std::ofstream(dir / "many" / ("entry_with_a_long_name_" + std::to_string(i)));
    const std::string gltf = R"({"asset":{"version":"2.0"},"buffers":[{"byteLength":4,"uri":"many"}],)"
                             R"("bufferViews":[{"buffer":0,"byteLength":4}],)"
                             R"("accessors":[{"bufferView":0,"componentType":5126,"count":1,"type":"SCALAR"}],)"
                             R"("animations":[{"samplers":[{"input":0,"output":0}],"channels":[{"sampler":0,"target":{"node":0,"path":"weights"}}]}],)"
                             R"("nodes":[{"name":"n"}]})";
    const std::string path = (dir / "folder_buffer.gltf").string();
    std::ofstream(path) << gltf;
    try {
        rigscope::load_scene(path);
        FAIL("loaded a folder as a buffer");
    } catch (const rigscope::Error& e) {
        CHECK(std::string(e.what()).find("cannot read buffer file 'many'") != std::string::npos);
    }
    fs::remove_all(dir);
}
