// libFuzzer target: bytes as an ASCII FBX through the tokenizer (src/io/fbx/fbx_ascii_records.cpp),
// the record checks and the scene reader every FBX shares, then a few frames posed and skinned.
// It links the FBX reader's own sources and the core only (fuzz/CMakeLists.txt), so that it
// builds in minutes where the loaders' targets build every library. Seeds are ASCII twins of
// the corpus and crafted files (scripts/fbx/fbx_write_ascii.py).
#include <cstdint>
#include <new>
#include <vector>

#include "io/fbx/fbx_scene.h"
#include "io/fbx/fbx_records.h"
#include "rigscope/core/error.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/skin.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace rigscope;
    LoadOptions options;
    options.max_memory = 64ull << 20;  // as fuzz_evaluate.h: within libFuzzer's memory limit
    try {
        const fbx::RecordFile file = fbx::records_from_bytes(std::vector<unsigned char>(data, data + size), options.max_memory);
        const Scene scene = fbx::read_fbx_scene(file, "input.fbx", options);
        Pose pose = rest_pose(scene);
        std::vector<Eigen::Vector3f> out;
        for (const Clip* clip : {static_cast<const Clip*>(nullptr), scene.clips.empty() ? nullptr : &scene.clips[0]})
            for (double t : {-1.0, 0.0, 0.5, 1e3}) {
                if (clip) sample_pose(scene, clip, clip->start + t, pose);
                for (std::size_t m = 0; m < scene.meshes.size() && m < 4; ++m) deform_mesh(scene, int(m), pose, out);
                if (!clip) break;
            }
    } catch (const fbx::Malformed&) {
    } catch (const Error&) {
    } catch (const std::bad_alloc&) {
    }
    return 0;
}
