#include "rigscope/core/scene.h"

namespace rigscope {

Eigen::Matrix4d Transform::matrix() const {
    Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
    m.topLeftCorner<3, 3>() = rotation.normalized().toRotationMatrix() * scale.asDiagonal();
    m.topRightCorner<3, 1>() = translation;
    return m;
}

int Scene::find_node(const std::string& name) const {
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].name == name) return static_cast<int>(i);
    return -1;
}

}  // namespace rigscope
