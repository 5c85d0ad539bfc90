#include "rigscope/core/bind_check.h"

#include <algorithm>
#include <cmath>

namespace rigscope {

namespace {

// Rest world matrices without pose.h, so the check stands alone; a cycle or bad parent index
// (which a reader should never produce) falls back to the local transform.
std::vector<Eigen::Matrix4d> rest_world(const Scene& scene) {
    const std::size_t n = scene.nodes.size();
    std::vector<Eigen::Matrix4d> world(n, Eigen::Matrix4d::Identity());
    std::vector<char> state(n, 0);  // 0 todo, 1 in progress, 2 done
    std::vector<int> stack;
    for (std::size_t i = 0; i < n; ++i) {
        if (state[i] == 2) continue;
        stack.assign(1, static_cast<int>(i));
        while (!stack.empty()) {
            const int v = stack.back();
            const int p = scene.nodes[v].parent;
            const bool has_parent = p >= 0 && p < static_cast<int>(n) && state[p] != 1;
            if (has_parent && state[p] == 0) {
                state[v] = 1;
                stack.push_back(p);
                continue;
            }
            const Eigen::Matrix4d local = scene.nodes[v].rest.matrix();
            world[v] = has_parent ? Eigen::Matrix4d(world[p] * local) : local;
            state[v] = 2;
            stack.pop_back();
        }
    }
    return world;
}

}  // namespace

BindCheck check_bind(const Scene& scene, int mesh_index) {
    BindCheck out;
    if (mesh_index < 0 || mesh_index >= static_cast<int>(scene.meshes.size())) return out;
    const Mesh& mesh = scene.meshes[mesh_index];
    const std::vector<Eigen::Matrix4d> world = rest_world(scene);
    // glTF's rule: a skinned mesh is stored where it sits at bind and its node is ignored; an
    // unskinned one is placed by its node.
    const bool skinned = mesh.skin >= 0 && mesh.skin < static_cast<int>(scene.skins.size());
    const Eigen::Matrix4d place = !skinned && mesh.node >= 0 && mesh.node < static_cast<int>(world.size())
                                      ? world[mesh.node]
                                      : Eigen::Matrix4d::Identity();

    const std::size_t nv = mesh.positions.size();
    std::vector<Eigen::Vector3d> stored(nv);
    Eigen::Vector3d lo = Eigen::Vector3d::Constant(INFINITY), hi = -lo;
    for (std::size_t v = 0; v < nv; ++v) {
        stored[v] = (place * mesh.positions[v].cast<double>().homogeneous()).head<3>();
        lo = lo.cwiseMin(stored[v]);
        hi = hi.cwiseMax(stored[v]);
    }
    if (nv) out.diagonal = (hi - lo).norm();

    if (!skinned) return out;
    const Skin& skin = scene.skins[mesh.skin];
    out.skinned = true;
    std::vector<Eigen::Matrix4d> joint(skin.joints.size(), Eigen::Matrix4d::Identity());
    for (std::size_t j = 0; j < skin.joints.size(); ++j) {
        const int node = skin.joints[j];
        if (node >= 0 && node < static_cast<int>(world.size()) && j < skin.inverse_bind.size())
            joint[j] = world[node] * skin.inverse_bind[j];
    }
    out.joint_distance.assign(skin.joints.size(), 0.0);

    const Influences& inf = mesh.influences;
    const std::size_t n = std::min(nv, inf.vertex_count());
    for (std::size_t v = 0; v < n; ++v) {
        const std::size_t b = inf.offsets[v];
        const std::size_t e = std::min<std::size_t>(inf.offsets[v + 1], std::min(inf.joints.size(), inf.weights.size()));
        if (b >= e) continue;  // no influence: the vertex keeps its stored place
        const Eigen::Vector4d p = mesh.positions[v].cast<double>().homogeneous();
        Eigen::Vector3d moved = Eigen::Vector3d::Zero();
        for (std::size_t k = b; k < e; ++k) {
            const std::size_t j = inf.joints[k];
            if (j >= joint.size()) continue;
            const Eigen::Vector3d q = (joint[j] * p).head<3>();
            moved += inf.weights[k] * q;
            out.joint_distance[j] = std::max(out.joint_distance[j], (q - stored[v]).norm());
        }
        const double d = (moved - stored[v]).norm();
        if (out.worst_vertex < 0 || d > out.max_distance) {
            out.max_distance = d;
            out.worst_vertex = static_cast<int>(v);
        }
    }
    return out;
}

}  // namespace rigscope
