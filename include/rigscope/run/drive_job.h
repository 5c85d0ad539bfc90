// The `drive` job: a rig's joystick controls evaluated per frame into morph-target weights (its
// engine: run/drive_engine.h).
#pragma once

#include <string>

#include "rigscope/run/input.h"
#include "rigscope/run/progress.h"

namespace rigscope {

// The `drive` job (the CLI's): the rig's joystick controls per frame into morph weights, written
// as a CSV or JSON table, or the input scene as glTF with the weights baked into its animation.
struct DriveJobOptions {
    InputOptions input;            // input.rig: the rig (required)
    std::string out = "-";
    std::string format = "csv";    // csv, json or gltf (the CLI resolves it from -o)
    // Throws Error (exit 2) for options that cannot make the output, before any file is read.
    void validate() const;
};

struct DriveJobResult {
    std::size_t frames = 0;        // frames written (glTF: keyed times)
    std::size_t series = 0;        // driven targets of the table (glTF: every driven mesh's)
};

DriveJobResult run_drive(const DriveJobOptions& opt, const Input& in, const FrameProgress& progress = {});
DriveJobResult load_and_run_drive(const DriveJobOptions& opt, const FrameProgress& progress = {});

}  // namespace rigscope
