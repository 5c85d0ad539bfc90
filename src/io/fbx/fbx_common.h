// Pieces the FBX reader's steps share: units, frame rates, number formatting, the rest-versus-bind
// warning.
#pragma once

#include <Eigen/Core>
#include <string>

#include "rigscope/core/scene.h"

namespace rigscope::fbx {

// The frame rate of GlobalSettings' TimeMode (NaN where the file has none) and CustomFrameRate,
// whether the file set it, and how it was arrived at (for `info`).
struct FrameRate {
    double fps = 24.0;
    bool from_file = false;
    std::string note;
};
FrameRate time_mode_fps(double mode, double custom);
std::string format_number(double v, int precision = 3);
// Every length in the scene times s (rest translations, positions, morph deltas, translation
// keys, the translation part of inverse binds).
void scale_lengths(Scene& scene, double s);
// A warning per skinned mesh whose skinning at the rest pose misses its stored (bind) positions.
void warn_rest_not_bind(Scene& scene);

}  // namespace rigscope::fbx
