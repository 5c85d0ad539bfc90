// What `drive` writes as CSV (a row per frame and driven target) or JSON (the run, each
// control's joystick position and each target's weights as series over the frames).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "rigscope/io/output.h"
#include "rigscope/io/run_info.h"

namespace rigscope {

// One output series: a driven target and the controls (joined by '+') that drive it.
struct DriveSeriesName {
    std::string controls, mesh, target;
};

struct DriveControlName {
    std::string control, node;
};

class DriveWriter {
public:
    DriveWriter(OutputFile& out, bool csv, const RunInfo& run, const std::string& rig, std::vector<DriveSeriesName> series,
                std::vector<DriveControlName> controls);
    // weights: one per series; xy: one per control.
    void frame(const Frame& f, const std::vector<float>& weights, const std::vector<std::array<float, 2>>& xy);
    void end();

private:
    OutputFile& out_;
    bool csv_;
    RunInfo run_;
    std::string rig_;
    std::vector<DriveSeriesName> series_;
    std::vector<DriveControlName> controls_;
    // JSON is written as series, so it is gathered first: a few floats per frame.
    std::vector<std::vector<float>> weights_;
    std::vector<std::vector<float>> xy_;  // 2 per control: x then y
};

}  // namespace rigscope
