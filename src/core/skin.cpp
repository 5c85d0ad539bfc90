#include "rigscope/skin.h"

namespace rigscope {

void skin_matrices(const Scene& scene, const Mesh& mesh, const Pose& pose, std::vector<Affine3x4>& out) {
    out.clear();
    if (mesh.skin < 0) return;
    const Skin& skin = scene.skins[mesh.skin];
    out.resize(skin.joints.size());
    if (pose.bind) {
        // world(joint) = inverse(inverse_bind) at bind, so the product is the identity exactly.
        for (auto& a : out) a = Affine3x4{{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}};
        return;
    }
    for (std::size_t j = 0; j < skin.joints.size(); ++j) {
        // Composed in double: joint chains and inverse binds can be far from the origin, and
        // only the product needs to fit a float.
        const Eigen::Matrix4d m = pose.world[skin.joints[j]] * skin.inverse_bind[j];
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 4; ++c) out[j].m[r * 4 + c] = static_cast<float>(m(r, c));
    }
}

void morph_positions(const Mesh& mesh, const std::vector<float>& weights, std::vector<Eigen::Vector3f>& out) {
    out = mesh.positions;
    for (std::size_t t = 0; t < mesh.targets.size() && t < weights.size(); ++t) {
        const float w = weights[t];
        if (w == 0.0f) continue;
        const auto& d = mesh.targets[t].deltas;
        for (std::size_t v = 0; v < out.size(); ++v) out[v] += w * d[v];
    }
}

void skin_positions(const Influences& inf, const std::vector<Affine3x4>& joints,
                    const std::vector<Eigen::Vector3f>& in, std::vector<Eigen::Vector3f>& out) {
    out.resize(in.size());
    const std::size_t n = std::min(in.size(), inf.vertex_count());
    for (std::size_t v = 0; v < n; ++v) {
        const std::uint32_t b = inf.offsets[v], e = inf.offsets[v + 1];
        if (b == e) {
            out[v] = in[v];
            continue;
        }
        // Blend the matrices first: one 3x4 transform per vertex instead of one per influence.
        float m[12] = {0};
        for (std::uint32_t k = b; k < e; ++k) {
            const float w = inf.weights[k];
            const float* j = joints[inf.joints[k]].m;
            for (int i = 0; i < 12; ++i) m[i] += w * j[i];
        }
        const Eigen::Vector3f& p = in[v];
        out[v] = Eigen::Vector3f(m[0] * p.x() + m[1] * p.y() + m[2] * p.z() + m[3],
                                 m[4] * p.x() + m[5] * p.y() + m[6] * p.z() + m[7],
                                 m[8] * p.x() + m[9] * p.y() + m[10] * p.z() + m[11]);
    }
    for (std::size_t v = n; v < in.size(); ++v) out[v] = in[v];
}

void deform_mesh(const Scene& scene, int mesh_index, const Pose& pose, std::vector<Eigen::Vector3f>& out) {
    const Mesh& mesh = scene.meshes[mesh_index];
    std::vector<Eigen::Vector3f> morphed;
    morph_positions(mesh, pose.morph_weights[mesh_index], morphed);
    if (mesh.skin >= 0 && !mesh.influences.empty()) {
        std::vector<Affine3x4> joints;
        skin_matrices(scene, mesh, pose, joints);
        skin_positions(mesh.influences, joints, morphed, out);
        return;
    }
    const Eigen::Matrix4d world = mesh.node >= 0 ? pose.world[mesh.node] : Eigen::Matrix4d::Identity();
    const Eigen::Matrix3f r = world.topLeftCorner<3, 3>().cast<float>();
    const Eigen::Vector3f t = world.topRightCorner<3, 1>().cast<float>();
    out.resize(morphed.size());
    for (std::size_t v = 0; v < morphed.size(); ++v) out[v] = r * morphed[v] + t;
}

}  // namespace rigscope
