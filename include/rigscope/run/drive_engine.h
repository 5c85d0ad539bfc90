// The drive engine: a rig's joystick controls evaluated per frame into morph-target weights (the
// `drive` job, run/drive_job.h, runs it).
#pragma once

#include <array>
#include <functional>
#include <vector>

#include "rigscope/io/drive_output.h"
#include "rigscope/run/input.h"
#include "rigscope/run/progress.h"

namespace rigscope {

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
