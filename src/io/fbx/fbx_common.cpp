#include "io/fbx/fbx_common.h"

#include <Eigen/SVD>
#include <cmath>
#include <sstream>

#include "rigscope/core/bind_check.h"

namespace rigscope::fbx {

// FBX's TimeMode enumeration (GlobalSettings "TimeMode", Assimp's metadata "FrameRate").
double time_mode_fps(int mode, double custom) {
    static const double table[] = {0, 120, 100, 60, 50, 48, 30, 30, 29.97, 29.97, 25, 24, 1000, 23.976, -1, 96, 72, 59.94, 119.88};
    if (mode <= 0 || mode >= int(sizeof table / sizeof table[0])) return 0.0;
    if (mode == 14) return custom > 0 && std::isfinite(custom) ? custom : 0.0;
    return table[mode];
}

std::string format_number(double v, int precision) {
    std::ostringstream os;
    os.precision(precision);
    os << v;
    return os.str();
}

// Every length in the scene times s: rest translations, positions, morph deltas, translation keys
// and the translation part of inverse binds (conjugating by a uniform scale leaves the rest alone).
void scale_lengths(Scene& scene, double s) {
    for (Node& n : scene.nodes) n.rest.translation *= s;
    for (Mesh& m : scene.meshes) {
        for (auto& p : m.positions) p *= float(s);
        for (auto& t : m.targets)
            for (auto& d : t.deltas) d *= float(s);
    }
    for (Skin& k : scene.skins)
        for (auto& ib : k.inverse_bind) ib.topRightCorner<3, 1>() *= s;
    for (Clip& c : scene.clips)
        for (Channel& ch : c.channels)
            if (ch.path == ChannelPath::Translation)
                for (float& v : ch.values) v *= float(s);
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

void warn_rest_not_bind(Scene& scene) {
    for (std::size_t m = 0; m < scene.meshes.size(); ++m) {
        const BindCheck check = check_bind(scene, static_cast<int>(m));
        if (!check.skinned || check.max_distance <= 1e-3 * check.diagonal) continue;
        std::string joints;
        const Skin& skin = scene.skins[scene.meshes[m].skin];
        for (std::size_t j = 0; j < check.joint_distance.size(); ++j)
            if (check.joint_distance[j] > 1e-3 * check.diagonal)
                joints += (joints.empty() ? "" : ", ") + scene.nodes[skin.joints[j]].name;
        scene.warnings.push_back(
            "mesh '" + scene.meshes[m].name + "': skinning at the rest pose misses the stored mesh by up to " +
            format_number(check.max_distance) + " m (" + format_number(100.0 * check.max_distance / check.diagonal) +
            "% of its " + format_number(check.diagonal) + " m diagonal): the rest pose is not the bind pose" +
            (joints.empty() ? "" : " for " + joints));
    }
}

}  // namespace rigscope::fbx
