// Pieces of the binary FBX scene reader: a model's transform chain and animation curves, as the
// FBX SDK documents them. No Assimp types, no Scene types beyond Eigen.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "io/fbx_records.h"

namespace rigscope::fbx {

constexpr std::int64_t kKTimePerSecond = 46186158000;

// A model's transform properties (file units, degrees).
struct ModelProps {
    Eigen::Vector3d t = Eigen::Vector3d::Zero(), r = Eigen::Vector3d::Zero(), s = Eigen::Vector3d::Ones();
    Eigen::Vector3d roff = Eigen::Vector3d::Zero(), rp = Eigen::Vector3d::Zero(), rpre = Eigen::Vector3d::Zero(),
                    rpost = Eigen::Vector3d::Zero(), soff = Eigen::Vector3d::Zero(), sp = Eigen::Vector3d::Zero();
    Eigen::Vector3d gt = Eigen::Vector3d::Zero(), gr = Eigen::Vector3d::Zero(), gs = Eigen::Vector3d::Ones();
    int order = 0;    // RotationOrder: 0 XYZ, 1 XZY, 2 YZX, 3 YXZ, 4 ZXY, 5 ZYX (first letter applied first)
    int inherit = 1;  // InheritType: 0 RrSs, 1 RSrs, 2 Rrs
};

// Euler angles in degrees, applied in `order` (pre- and post-rotation always use XYZ).
Eigen::Matrix4d euler_matrix(const Eigen::Vector3d& degrees, int order);
// T * Roff * Rp * Rpre * R * Rpost^-1 * Rp^-1 * Soff * Sp * S * Sp^-1 (column vectors).
Eigen::Matrix4d local_matrix(const ModelProps& m);
// GeometricTranslation * GeometricRotation * GeometricScaling: applies to the model's geometry only.
Eigen::Matrix4d geometric_matrix(const ModelProps& m);

struct Curve {
    std::vector<std::int64_t> times;  // KTime, increasing
    std::vector<float> values;
    std::vector<std::uint8_t> interp;  // per key, for the segment after it: 0 constant, 1 linear, 2 cubic
    std::vector<float> right_slope, next_left_slope;  // per key, value per second
    // The value at KTime t: constant before the first key and after the last.
    double at(std::int64_t t) const;
};

// Reads an AnimationCurve record (KeyTime, KeyValueFloat, KeyAttrFlags / DataFloat / RefCount).
// Throws Malformed for lengths that disagree, times that decrease, or non-finite values.
Curve read_curve(const Record& rec, const std::string& name, std::uint64_t max_memory);

}  // namespace rigscope::fbx
