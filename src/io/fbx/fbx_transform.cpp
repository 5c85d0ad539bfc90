#include "io/fbx/fbx_transform.h"

#include <Eigen/Geometry>
#include <cmath>

namespace rigscope::fbx {

namespace {

Eigen::Matrix4d translate(const Eigen::Vector3d& v) {
    Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
    m.topRightCorner<3, 1>() = v;
    return m;
}

Eigen::Matrix4d scale(const Eigen::Vector3d& v) {
    Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
    m.topLeftCorner<3, 3>() = v.asDiagonal();
    return m;
}

}  // namespace

Eigen::Matrix4d euler_matrix(const Eigen::Vector3d& deg, int order) {
    static const char* const orders[] = {"XYZ", "XZY", "YZX", "YXZ", "ZXY", "ZYX"};
    const char* o = orders[order >= 0 && order < 6 ? order : 0];
    Eigen::Matrix3d m = Eigen::Matrix3d::Identity();
    for (int i = 0; i < 3; ++i) {
        const int axis = o[i] - 'X';
        m = Eigen::AngleAxisd(deg[axis] * M_PI / 180.0, Eigen::Vector3d::Unit(axis)).toRotationMatrix() * m;
    }
    Eigen::Matrix4d out = Eigen::Matrix4d::Identity();
    out.topLeftCorner<3, 3>() = m;
    return out;
}

Eigen::Matrix4d local_matrix(const ModelProps& m) {
    return translate(m.t) * translate(m.roff) * translate(m.rp) * euler_matrix(m.rpre, 0) * euler_matrix(m.r, m.order) *
           euler_matrix(m.rpost, 0).transpose() * translate(-m.rp) * translate(m.soff) * translate(m.sp) * scale(m.s) *
           translate(-m.sp);
}

Eigen::Matrix4d geometric_matrix(const ModelProps& m) { return translate(m.gt) * euler_matrix(m.gr, 0) * scale(m.gs); }

}  // namespace rigscope::fbx
