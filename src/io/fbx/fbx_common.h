// Pieces both FBX readers share (the binary scene reader and the Assimp path for ASCII FBX):
// units, frame rates, the rest-versus-bind warning. No Assimp types here.
#pragma once

#include <Eigen/Core>
#include <string>

#include "rigscope/core/scene.h"

namespace rigscope::fbx {

// FBX's TimeMode enumeration (GlobalSettings "TimeMode"); 14 is custom (CustomFrameRate). 0 when
// the mode names no rate.
double time_mode_fps(int mode, double custom);
std::string format_number(double v, int precision = 3);
// Every length in the scene times s (rest translations, positions, morph deltas, translation
// keys, the translation part of inverse binds).
void scale_lengths(Scene& scene, double s);
// A warning per skinned mesh whose skinning at the rest pose misses its stored (bind) positions.
void warn_rest_not_bind(Scene& scene);
// Translation, rotation, scale of a matrix (a mirror carried by negating all three scales).
Transform decompose(const Eigen::Matrix4d& m);

}  // namespace rigscope::fbx
