// Choosing a rivet's joint, its closed-form pivot, and the least-squares fit.
#include "rigscope/core/rivet.h"
#include "rigscope/core/skin_dq.h"

#include <Eigen/QR>
#include <algorithm>
#include <cmath>

namespace rigscope {

std::vector<RivetInfluence> vertex_influences(const Scene& scene, const Mesh& mesh, std::uint32_t vertex) {
    std::vector<RivetInfluence> out;
    const Influences& inf = mesh.influences;
    if (mesh.skin < 0 || vertex >= inf.vertex_count()) return out;
    const Skin& skin = scene.skins[mesh.skin];
    for (std::uint32_t k = inf.offsets[vertex]; k < inf.offsets[vertex + 1]; ++k) {
        const int node = skin.joints[inf.joints[k]];
        auto same = std::find_if(out.begin(), out.end(), [&](const RivetInfluence& r) { return r.joint == node; });
        if (same != out.end()) same->weight += inf.weights[k];
        else out.push_back({node, static_cast<double>(inf.weights[k])});
    }
    std::stable_sort(out.begin(), out.end(), [](const RivetInfluence& a, const RivetInfluence& b) { return a.weight > b.weight; });
    return out;
}

int default_rivet_joint(const Scene& scene, const std::vector<RivetInfluence>& influences) {
    for (const RivetInfluence& r : influences) {
        const int parent = scene.nodes[r.joint].parent;
        for (const RivetInfluence& other : influences)
            if (other.joint == parent) return r.joint;
    }
    return influences.empty() ? -1 : influences.front().joint;
}

Eigen::Matrix4d rivet_node_world(const Scene& scene, const Mesh& mesh, const Pose& pose, int node) {
    if (pose.bind && mesh.skin >= 0) {
        const Skin& skin = scene.skins[mesh.skin];
        for (std::size_t j = 0; j < skin.joints.size(); ++j)
            if (skin.joints[j] == node) return skin.inverse_bind[j].inverse();
    }
    return pose.world[node];
}

Eigen::Matrix<double, 3, 4> vertex_skin_transform(const Scene& scene, const Mesh& mesh, const Pose& pose, std::uint32_t vertex) {
    Eigen::Matrix<double, 3, 4> m = Eigen::Matrix<double, 3, 4>::Identity();
    const Influences& inf = mesh.influences;
    // At bind every joint matrix is the identity (skin_matrices' rule), whatever the rest pose.
    if (pose.bind || mesh.skin < 0 || vertex >= inf.vertex_count() || inf.offsets[vertex] == inf.offsets[vertex + 1]) return m;
    const Skin& skin = scene.skins[mesh.skin];
    if (blends_dual_quaternions(skin.method)) return dq_vertex_transform(scene, mesh, pose, vertex);
    m.setZero();
    for (std::uint32_t k = inf.offsets[vertex]; k < inf.offsets[vertex + 1]; ++k) {
        const int j = inf.joints[k];
        m += double(inf.weights[k]) * (pose.world[skin.joints[j]] * skin.inverse_bind[j]).topRows<3>();
    }
    return m;
}

Eigen::Vector3d skinned_vertex(const Scene& scene, int mesh_index, const Pose& pose, std::uint32_t vertex) {
    const Mesh& mesh = scene.meshes[mesh_index];
    Eigen::Vector3d p = mesh.positions[vertex].cast<double>();
    const auto& weights = pose.morph_weights[mesh_index];
    for (std::size_t t = 0; t < mesh.targets.size() && t < weights.size(); ++t)
        if (weights[t] != 0.0f) p += double(weights[t]) * mesh.targets[t].deltas[vertex].cast<double>();
    return vertex_skin_transform(scene, mesh, pose, vertex) * p.homogeneous();
}

std::optional<Eigen::Vector3d> analytic_pivot(const Scene& scene, const Mesh& mesh, std::uint32_t vertex, int joint) {
    // The closed form is linear skinning's: a dual-quaternion blend turns the vertex about J itself.
    if (mesh.skin >= 0 && blends_dual_quaternions(scene.skins[mesh.skin].method)) return std::nullopt;
    const std::vector<RivetInfluence> inf = vertex_influences(scene, mesh, vertex);
    if (inf.size() != 2) return std::nullopt;
    const RivetInfluence& j = inf[0].joint == joint ? inf[0] : inf[1];
    const RivetInfluence& other = inf[0].joint == joint ? inf[1] : inf[0];
    if (j.joint != joint || scene.nodes[joint].parent != other.joint) return std::nullopt;
    const Skin& skin = scene.skins[mesh.skin];
    const auto at = std::find(skin.joints.begin(), skin.joints.end(), joint) - skin.joints.begin();
    const Eigen::Vector3d p_j = skin.inverse_bind[at].inverse().topRightCorner<3, 1>();
    const Eigen::Vector3d v = mesh.positions[vertex].cast<double>();
    return Eigen::Vector3d(p_j + (v - p_j) * (1.0 - j.weight));
}

RivetSample rivet_sample(const Scene& scene, int mesh_index, const Pose& pose, std::uint32_t vertex, int joint) {
    const Mesh& mesh = scene.meshes[mesh_index];
    RivetSample s;
    const int parent = scene.nodes[joint].parent;
    if (parent >= 0) s.parent_world = rivet_node_world(scene, mesh, pose, parent);
    s.joint_linear = rivet_node_world(scene, mesh, pose, joint).topLeftCorner<3, 3>();
    s.vertex = skinned_vertex(scene, mesh_index, pose, vertex);
    return s;
}

RivetFit fit_rivet(const std::vector<RivetSample>& samples) {
    RivetFit fit;
    if (samples.empty()) return fit;
    const Eigen::Index rows = 3 * static_cast<Eigen::Index>(samples.size());
    Eigen::MatrixXd a(rows, 6);
    Eigen::VectorXd b(rows);
    for (std::size_t f = 0; f < samples.size(); ++f) {
        const RivetSample& s = samples[f];
        const Eigen::Index r = 3 * static_cast<Eigen::Index>(f);
        a.block<3, 3>(r, 0) = s.parent_world.topLeftCorner<3, 3>();
        a.block<3, 3>(r, 3) = s.joint_linear;
        b.segment<3>(r) = s.vertex - s.parent_world.topRightCorner<3, 1>();
    }
    // The threshold must be set before compute(): the decomposition's Z factor is built for the
    // rank known at that time, and solve() with a later, different rank reads past it.
    Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(a.rows(), a.cols());
    cod.setThreshold(kRivetRankThreshold);
    cod.compute(a);
    const Eigen::VectorXd x = cod.solve(b);
    fit.pivot_parent = x.head<3>();
    fit.offset = x.tail<3>();
    fit.rank = static_cast<int>(cod.rank());
    double sum = 0.0;
    for (const RivetSample& s : samples) {
        const double e = (rivet_position(s, fit.pivot_parent, fit.offset) - s.vertex).norm();
        sum += e * e;
        fit.max_error = std::max(fit.max_error, e);
    }
    fit.rms_error = std::sqrt(sum / static_cast<double>(samples.size()));
    return fit;
}

}  // namespace rigscope
