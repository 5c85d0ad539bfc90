// Every input the fuzzers once crashed on (tests/regressions, see its README.md) replays the
// fuzz targets' path (fuzz/fuzz_evaluate.h, through the run layer): load, then pose, deform,
// topology and tension over a few frames. Each has its outcome pinned (loads, or refused with
// exit 3 and the fault named); a crash or a sanitizer report fails the suite too.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <utility>
#include <unistd.h>

#include "../../fuzz/fuzz_evaluate.h"
#include "corpus.h"

namespace fs = std::filesystem;

namespace {

// The outcome each kept finding must have, decided from what the file is (tests/regressions/
// README.md): a file that breaks the format is refused with exit 3 and a message naming the
// broken field; a valid file, however extreme, loads and evaluates. An empty fragment: loads.
struct Expected {
    const char* file;
    const char* refusal;
};
const Expected kExpected[] = {
    // Binary FBX is read from the file itself, which keys joints by object id: two joints of one
    // name are two joints, and the file loads (Assimp merged them into one bone).
    {"fbx_duplicate_joint_names.fbx", ""},
    // The fuzzer's edit also broke four zlib arrays' checksums: the record checks that now run on
    // every binary FBX before anything reads it refuse those first.
    {"fbx_rotation_key_minus_6e9.fbx", "holds bad zlib data"},
    // A key time far past the take is a valid file: it loads, sampled within what its keys buy
    // (the next test pins the count).
    {"fbx_key_time_frame_73000.fbx", ""},
    // Its Vertices record renamed: polygons over no control points at all.
    {"fbx_polygons_without_vertices.fbx", "polygon vertex index 0 at position 0 is past its 0 control points"},
    // ASCII FBX (fuzz_fbx_ascii): KeyAttrFlags of 1e33, converted to int64 (undefined).
    {"fbx_ascii_key_flags_1e33.fbx", "key attribute flags 1e+33 are not a 32-bit integer"},
    // ASCII FBX (fuzz_fbx_ascii): RotationOrder 2e10 converted to int (undefined); now the default.
    {"fbx_ascii_rotation_order_2e10.fbx", ""},
    // The folder 'many' it names is not beside it here (the next test builds one): no buffer
    // is read for what rigscope evaluates, and the scene loads.
    {"gltf_buffer_uri_directory.glb", ""},
    {"gltf_byte_stride_1e30.glb", "byteStride 1e+30 out of range"},
    {"gltf_component_type_1e20.glb", "invalid componentType 1e+20"},
    {"gltf_mode_1e20.glb", "invalid primitive mode 1e+20"},
    // Positions near float's maximum are valid floats: loaded and evaluated, not refused.
    {"gltf_positions_near_float_max.glb", ""},
    {"gltf_sparse_count_1e30.glb", "sparse.count: 1e+30 is not a count"},
    {"gltf_sparse_negative_offset.glb", "sparse.values: negative byteOffset"},
    {"gltf_sparse_signed_indices.glb", "sparse.indices: invalid componentType"},
    {"gltf_view_length_over_2e64.glb", "past the end of buffer 0"},
    // Its zero-count accessor is an animation's key times: a sampler without keys.
    {"gltf_zero_count_offset_1e30.glb", "samplers[0]: no keys"},
    // USD crate (fuzz_usdc, fuzz_usdz, from Blender's exports): an empty float array before the
    // array whose count is refused; the empty one was copied with memcpy from a null pointer.
    {"usdc_empty_float_array.usdc", "an array claims 8880321746748047360 elements"},
    {"usdz_empty_float_array.usdz", "an array claims 633894165101797 elements"},
    // USD text (fuzz_usda): a face count of 4.3e54 was converted to size_t before its check.
    {"usda_face_count_4e54.usda", "faceVertexCounts do not add up to its 192 faceVertexIndices"},
    // PLY (fuzz_ply): a face's vertex index of 5e79 in an ASCII file was converted to long long
    // for the message that refuses it.
    {"ply_vertex_index_5e79.ply", "face 0: vertex index 5e+79 out of range"},
};

}  // namespace

TEST_CASE("Kept fuzz findings: every file has its pinned outcome (loads, or refused with exit 3 naming the fault)",
          "[regressions][errors]") {
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(rigscope::test::source_dir() + "/tests/regressions")) {
        const std::string ext = entry.path().extension().string();
        if (ext == ".glb" || ext == ".gltf" || ext == ".fbx" || ext == ".usda" || ext == ".usdc" || ext == ".usdz" || ext == ".ply") files.push_back(entry.path().filename().string());
    }
    std::sort(files.begin(), files.end());
    // Every kept file is pinned below and every pinned file is kept: a finding added without an
    // outcome, or a folder that went missing (zero files), fails here.
    std::vector<std::string> pinned;
    for (const Expected& e : kExpected) pinned.push_back(e.file);
    std::sort(pinned.begin(), pinned.end());
    REQUIRE(files == pinned);

    for (const Expected& e : kExpected) {
        SECTION(e.file) {
            const std::string path = rigscope::test::source_dir() + "/tests/regressions/" + e.file;
            std::string refused;
            int code = 0;
            try {
                rigscope::fuzz::evaluate_file(path);
            } catch (const rigscope::Error& err) {
                refused = err.what();
                code = err.code();
            }
            INFO(e.file << ": " << (refused.empty() ? std::string("loaded") : refused));
            if (*e.refusal == 0) {
                CHECK(refused.empty());
            } else {
                CHECK(code == rigscope::kExitBadInput);
                CHECK(refused.find(e.refusal) != std::string::npos);
                CHECK(refused.find(e.file) != std::string::npos);
            }
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

TEST_CASE("A key time 73,000 frames out is sampled at what the file's keys buy, not at every frame",
          "[regressions][fbx]") {
    // animation_with_skeleton.fbx with one key moved to frame 73,000 (tests/regressions/README.md):
    // 15 moving models over 73,001 frames were 1,095,015 sampled model-frames (3,285,045 channel
    // keys), each a transform chain and a decomposition. The file's 90 keys buy 2^14 samples
    // (fbx_scene_clips.cpp), so the reader samples the whole frames at its keys and the take's
    // ends (0..20 and 73,000: 22) and 64 frames inside the one long stretch: 86 per model.
    // A count, not a time: the suite runs at any speed.
    const std::string path = rigscope::test::source_dir() + "/tests/regressions/fbx_key_time_frame_73000.fbx";
    rigscope::Scene scene = rigscope::load_scene(path, rigscope::load_options(rigscope::fuzz::fuzz_input_options(path)));
    REQUIRE(scene.clips.size() == 1);
    const rigscope::Clip& clip = scene.clips[0];
    REQUIRE(clip.channels.size() == 45);
    for (const rigscope::Channel& ch : clip.channels) {
        CHECK(ch.times.size() == 86);
        // Every frame of the take (0..20) is a sample; so is the far key's frame.
        for (int f = 0; f <= 20; ++f) CHECK(std::count(ch.times.begin(), ch.times.end(), float(f / 24.0)) == 1);
        CHECK(ch.times.back() == float(73000 / 24.0));
    }
    CHECK(clip.end == Approx(73000 / 24.0));
    bool warned = false;
    for (const rigscope::Warning& w : scene.warnings)
        warned |= w.kind == rigscope::WarningKind::Sampling && w.message.find("between keys (the longest 72979 frames) sampled at 64 evenly spaced") != std::string::npos;
    CHECK(warned);
    rigscope::fuzz::evaluate_scene(std::move(scene));
}
