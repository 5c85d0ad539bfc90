// The `deform` job: each selected mesh's skinned, morphed positions, frame by frame, written as
// they are evaluated (its engine: run/deform_engine.h).
#pragma once

#include <string>

#include "rigscope/run/input.h"
#include "rigscope/run/progress.h"

namespace rigscope {

// The `deform` job (the CLI's): every selected mesh's positions per frame, written to `out` as
// CSV or JSON as each frame is evaluated (memory does not grow with the frames).
struct DeformJobOptions {
    InputOptions input;
    std::string out = "-";
    std::string format = "csv";   // csv, json, usda or abc (the CLI resolves it from -o; usda: run/usd_output_run.h, abc: run/abc_output_run.h)
    std::string axes = "file";    // file, or y-up: turned from the file's up axis to glTF's +Y
    // Throws Error (exit 2) for options that cannot make the output, before any file is read.
    void validate() const;
};

struct DeformJobResult {
    std::size_t frames = 0, meshes = 0, vertices = 0;  // what was written
};

// Runs on a loaded input, writing opt.out; refused before a byte is written when the least the
// output takes is past the folder's free space.
DeformJobResult run_deform(const DeformJobOptions& opt, const Input& in, const FrameProgress& progress = {});
DeformJobResult load_and_run_deform(const DeformJobOptions& opt, const FrameProgress& progress = {});

}  // namespace rigscope
