#include "rigscope/core/scene.h"

#include <Eigen/SVD>

namespace rigscope {

Eigen::Matrix4d Transform::matrix() const {
    Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
    m.topLeftCorner<3, 3>() = rotation.normalized().toRotationMatrix() * scale.asDiagonal();
    m.topRightCorner<3, 1>() = translation;
    return m;
}

Transform decompose(const Eigen::Matrix4d& m) {
    Transform t;
    t.translation = m.topRightCorner<3, 1>();
    Eigen::Matrix3d a = m.topLeftCorner<3, 3>();
    Eigen::Vector3d s(a.col(0).norm(), a.col(1).norm(), a.col(2).norm());
    // A mirror is carried by negating all three scales (Assimp's convention), keeping R proper.
    if (a.determinant() < 0) s = -s;
    for (int i = 0; i < 3; ++i)
        if (s[i] != 0.0) a.col(i) /= s[i];
    // Re-orthonormalise: float matrices from the file are only nearly orthogonal.
    Eigen::JacobiSVD<Eigen::Matrix3d> svd(a, Eigen::ComputeFullU | Eigen::ComputeFullV);
    Eigen::Matrix3d r = svd.matrixU() * svd.matrixV().transpose();
    if (r.determinant() < 0) r = Eigen::Matrix3d::Identity();  // degenerate (zero scale) input
    t.rotation = Eigen::Quaterniond(r).normalized();
    t.scale = s;
    return t;
}

int Scene::find_node(const std::string& name) const {
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].name == name) return static_cast<int>(i);
    return -1;
}

}  // namespace rigscope
