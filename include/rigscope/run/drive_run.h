// The drive run: a rig's joystick controls evaluated per frame into morph-target weights.
#pragma once

#include <array>
#include <functional>
#include <string>
#include <vector>

#include "rigscope/io/drive_output.h"
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

class DriveEngine {
public:
    // One series per driven target of a selected mesh. `in` must outlive the run and hold a rig.
    explicit DriveEngine(const Input& in);

    // Names of each series (controls, mesh, target) and of each control (name, node).
    const std::vector<DriveSeriesName>& series() const { return names_; }
    std::vector<DriveControlName> controls() const;

    // Poses frame `fi` of in.frames; then weights() holds each series' weight and xy() each
    // control's joystick position.
    void evaluate(std::size_t fi);
    const std::vector<float>& weights() const { return weights_; }
    const std::vector<std::array<float, 2>>& xy() const { return xy_; }

    void for_each_frame(const std::function<void(std::size_t)>& each, const FrameProgress& progress = {});

private:
    const Input& in_;
    std::vector<DrivenTarget> targets_;
    std::vector<DriveSeriesName> names_;
    Pose pose_;
    std::vector<float> weights_;
    std::vector<std::array<float, 2>> xy_;
};

}  // namespace rigscope
