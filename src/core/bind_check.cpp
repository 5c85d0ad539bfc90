#include "rigscope/core/bind_check.h"

#include <algorithm>
#include <cmath>

#include "rigscope/core/pose.h"

namespace rigscope {

namespace {

// Rest world matrices, each node inheriting scale as the file says (pose.h's world_matrices,
// which also survives a bad parent index or a cycle that a reader should never produce), and a
// node's full rest matrix where translate/rotate/scale cannot hold it (a USD stack that shears).
std::vector<Eigen::Matrix4d> rest_world(const Scene& scene) {
    const std::size_t n = scene.nodes.size();
    std::vector<Transform> local;
    local.reserve(n);
    std::vector<Eigen::Matrix4d> matrix;
    std::vector<char> has_matrix;
    for (std::size_t i = 0; i < n; ++i) {
        const Node& node = scene.nodes[i];
        local.push_back(node.rest);
        if (!node.rest_matrix) continue;
        if (matrix.empty()) matrix.assign(n, Eigen::Matrix4d::Identity()), has_matrix.assign(n, 0);
        matrix[i] = *node.rest_matrix;
        has_matrix[i] = 1;
    }
    std::vector<Eigen::Matrix4d> world;
    if (matrix.empty()) world_matrices(scene, local, world);
    else world_matrices(scene, local, world, &matrix, &has_matrix);
    return world;
}

}  // namespace

BindCheck check_bind(const Scene& scene, int mesh_index) {
    BindCheck out;
    if (mesh_index < 0 || mesh_index >= static_cast<int>(scene.meshes.size())) return out;
    const Mesh& mesh = scene.meshes[mesh_index];
    const std::vector<Eigen::Matrix4d> world = rest_world(scene);
    // glTF's rule: a skinned mesh is stored where it sits at bind and its node is ignored; an
    // unskinned one is placed by its node. USD's skin binds in skeleton space: at bind its points
    // sit at world(skeleton) G p, under whatever transforms the skeleton's parents add.
    const bool skinned = mesh.skin >= 0 && mesh.skin < static_cast<int>(scene.skins.size());
    Eigen::Matrix4d place = Eigen::Matrix4d::Identity();
    if (!skinned && mesh.node >= 0 && mesh.node < static_cast<int>(world.size())) {
        place = world[mesh.node];
    } else if (skinned) {
        const Skin& skin = scene.skins[mesh.skin];
        if (skin.bind_space >= 0 && skin.bind_space < static_cast<int>(world.size())) place = world[skin.bind_space] * skin.geom_bind;
    }

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
    out.joint_vertex_distance.assign(skin.joints.size(), 0.0);

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
        for (std::size_t k = b; k < e; ++k)
            if (inf.joints[k] < joint.size() && inf.weights[k] != 0)
                out.joint_vertex_distance[inf.joints[k]] = std::max(out.joint_vertex_distance[inf.joints[k]], d);
        if (out.worst_vertex < 0 || d > out.max_distance) {
            out.max_distance = d;
            out.worst_vertex = static_cast<int>(v);
        }
    }
    return out;
}

}  // namespace rigscope
