// What a batch run does with a file after loading it, over whatever scene the loader accepted,
// through the run layer as `rigscope tension` runs it: the input's checks and selection, the rest
// pose and a MeshTension per mesh, then sampled frames (inside and outside the clip, where
// sampling clamps) deformed and evaluated. Shared by the fuzz targets and
// tests/io/test_regressions.cpp, so a kept crash input replays exactly the path that crashed.
#pragma once

#include <cstdint>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "rigscope/core/error.h"
#include "rigscope/core/frames.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/scene.h"
#include "rigscope/core/tension_map.h"
#include "rigscope/run/input.h"
#include "rigscope/run/tension_run.h"

namespace rigscope::fuzz {

// Small enough that a fuzz input cannot ask for more than libFuzzer's memory limit through
// arrays the budget covers; large enough for every corpus seed.
constexpr std::uint64_t kFuzzMaxMemory = 64ull << 20;

// The options of a run on `path` under `max_memory` bytes: every mesh, the bind frame as the
// frame list. A clip's default list can run to ten million frames, a fuzz input's cost rather
// than a finding; evaluate_input reaches into the clip at times of its own.
inline InputOptions fuzz_input_options(const std::string& path, std::uint64_t max_memory = kFuzzMaxMemory) {
    InputOptions opt;
    opt.file = path;
    opt.frames = "bind";
    opt.max_memory_mib = static_cast<double>(max_memory) / (1024.0 * 1024.0);
    return opt;
}

// The run on a loaded input: both weld settings, then the frames.
inline void evaluate_input(Input& in, const TensionOptions& topt) {
    // Both topologies are reachable from the command line (--weld on|off): every mesh gets both.
    in.weld = true;
    std::vector<MeshTension> meshes = prepare_tension(in, topt);
    in.weld = false;
    std::vector<MeshTension> unwelded = prepare_tension(in, topt);
    meshes.insert(meshes.end(), std::make_move_iterator(unwelded.begin()), std::make_move_iterator(unwelded.end()));

    std::vector<Frame> frames = in.frames;
    if (const Clip* clip = in.clip_ptr()) {
        // Before the first key, on it, inside, on the last and past it. The numbers are labels.
        const double span = clip->end - clip->start;
        for (double t : {clip->start - 1.0, clip->start, clip->start + span / 3, clip->end, clip->end + 1.0})
            frames.push_back(Frame{false, 0, t});
    }
    Pose pose;
    for (const Frame& f : frames) evaluate_tension_at(in, meshes, f, pose, nullptr);
}

// Loads `path` as a run does (load_input) and evaluates it. Throws what the run throws.
inline void evaluate_file(const std::string& path, std::uint64_t max_memory = kFuzzMaxMemory) {
    TensionOptions topt;
    topt.input = fuzz_input_options(path, max_memory);
    Input in = load_input(topt.input);
    evaluate_input(in, topt);
}

// The same over a scene already loaded from scene.source (a test that looks at it first).
inline void evaluate_scene(Scene scene, std::uint64_t max_memory = kFuzzMaxMemory) {
    TensionOptions topt;
    topt.input = fuzz_input_options(scene.source, max_memory);
    Input in = input_from_scene(std::move(scene), topt.input);
    evaluate_input(in, topt);
}

// evaluate_file, where a clear refusal (rigscope::Error) is a correct outcome, so it is
// swallowed. Anything else (another exception, a crash, a sanitizer report) is a finding.
inline void load_and_evaluate(const std::string& path, std::uint64_t max_memory = kFuzzMaxMemory) {
    try {
        evaluate_file(path, max_memory);
    } catch (const Error&) {
    }
}

}  // namespace rigscope::fuzz
