// What a batch run does with a file after loading it, over whatever scene the loader accepted:
// the bind pose, a few sampled frames (inside and outside the keys, where sampling clamps),
// deformation, welded and unwelded topology, and tension. Shared by the fuzz targets and
// tests/test_regressions.cpp, so a kept crash input replays exactly the path that crashed.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "rigscope/core/error.h"
#include "rigscope/io/load.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/scene.h"
#include "rigscope/core/skin.h"
#include "rigscope/core/tension_map.h"

namespace rigscope::fuzz {

// Small enough that a fuzz input cannot ask for more than libFuzzer's memory limit through
// arrays the budget covers; large enough for every corpus seed.
constexpr std::uint64_t kFuzzMaxMemory = 64ull << 20;

inline void evaluate_scene(const Scene& scene) {
    const Clip* clip = scene.clips.empty() ? nullptr : &scene.clips.front();
    Pose pose = bind_pose(scene);
    std::vector<MeshTension> meshes;
    std::vector<Eigen::Vector3f> rest;
    for (std::size_t m = 0; m < scene.meshes.size(); ++m) {
        deform_mesh(scene, static_cast<int>(m), pose, rest);
        // Alternate weld on and off: both topologies are reachable from the command line.
        meshes.emplace_back(scene, static_cast<int>(m), m % 2 == 0, rest);
    }
    std::vector<double> times = {0.0};
    if (clip) {
        const double span = clip->end - clip->start;
        times = {clip->start - 1.0, clip->start, clip->start + span / 3, clip->end, clip->end + 1.0};
    }
    for (double t : times) {
        sample_pose(scene, clip, t, pose);
        for (MeshTension& mt : meshes) mt.evaluate(scene, pose);
    }
}

// Loads `path` and evaluates it; a clear refusal (rigscope::Error) is a correct outcome, so it
// is swallowed. Anything else (another exception, a crash, a sanitizer report) is a finding.
inline void load_and_evaluate(const std::string& path, std::uint64_t max_memory = kFuzzMaxMemory) {
    LoadOptions options;
    options.max_memory = max_memory;
    try {
        const Scene scene = load_scene(path, options);
        evaluate_scene(scene);
    } catch (const Error&) {
    }
}

}  // namespace rigscope::fuzz
