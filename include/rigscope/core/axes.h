// Up axes. A file says which of its axes points up (Scene::up_axis: "Y", "Z", "-Z", "X", ...);
// glTF's is +Y by its specification, so every glTF rigscope writes turns the file's up axis onto
// +Y, as gltfpack, FBX2glTF and Blender do. CSV and JSON keep the file's axes unless asked.
#pragma once

#include <Eigen/Geometry>
#include <string>

namespace rigscope {

// True for "Y" and "+Y": nothing to turn.
bool is_y_up(const std::string& up_axis);

// The rotation that takes the file's up axis onto +Y, about the axis perpendicular to both (so a
// right-handed Z-up file's -Y, its front for Blender and 3ds Max, becomes glTF's +Z, its front).
// "Z": -90 degrees about X, (x, y, z) -> (x, z, -y). Throws Error (bad input) for a string that
// names no axis.
Eigen::Quaterniond up_axis_to_y(const std::string& up_axis);

// What --axes asks of CSV and JSON positions: the file's axes (default) or glTF's Y-up.
enum class AxesOption { file, y_up };

// "file" or "y-up"; throws Error (usage) otherwise.
AxesOption parse_axes_option(const std::string& text);

}  // namespace rigscope
