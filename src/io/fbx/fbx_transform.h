// A model's transform chain, as the FBX SDK documents it (7.x and 6.x properties alike). No Scene
// types beyond Eigen.
#pragma once

#include <Eigen/Core>

namespace rigscope::fbx {

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

}  // namespace rigscope::fbx
