#include "rigscope/core/pose.h"

#include <algorithm>
#include <cmath>

#include "rigscope/core/local_matrices.h"

namespace rigscope {

namespace {

// The nodes' rest matrices (Node::rest_matrix) into pose.matrix / has_matrix, which stay empty
// when no node has one.
void rest_matrices(const Scene& scene, Pose& pose) {
    pose.matrix.clear();
    pose.has_matrix.clear();
    for (std::size_t i = 0; i < scene.nodes.size(); ++i) {
        if (!scene.nodes[i].rest_matrix) continue;
        if (pose.has_matrix.empty()) {
            pose.matrix.assign(scene.nodes.size(), Eigen::Matrix4d::Identity());
            pose.has_matrix.assign(scene.nodes.size(), 0);
        }
        pose.matrix[i] = *scene.nodes[i].rest_matrix;
        pose.has_matrix[i] = 1;
    }
}

}  // namespace

Pose rest_pose(const Scene& scene) {
    Pose pose;
    pose.local.reserve(scene.nodes.size());
    for (const Node& n : scene.nodes) pose.local.push_back(n.rest);
    rest_matrices(scene, pose);
    pose.morph_weights.reserve(scene.meshes.size());
    for (const Mesh& m : scene.meshes) {
        std::vector<float> w = m.default_weights;
        w.resize(m.targets.size(), 0.0f);
        pose.morph_weights.push_back(std::move(w));
    }
    pose_world(scene, pose);
    return pose;
}

Pose bind_pose(const Scene& scene) {
    Pose pose = rest_pose(scene);
    pose.bind = true;
    return pose;
}

namespace {

Eigen::Matrix4d unscaled_matrix(const Eigen::Vector3d& t, const Eigen::Quaterniond& r) {
    Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
    m.topLeftCorner<3, 3>() = r.normalized().toRotationMatrix();
    m.topRightCorner<3, 1>() = t;
    return m;
}

// Nodes in an order where every parent comes before its children. A bad parent index or a cycle
// (which readers reject) leaves the node to be taken as a root, so this always terminates.
std::vector<int> parents_first(const Scene& scene, std::vector<int>& parent) {
    const std::size_t n = scene.nodes.size();
    parent.assign(n, -1);
    std::vector<int> order;
    order.reserve(n);
    std::vector<char> state(n, 0);  // 0 todo, 1 on the stack, 2 done
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
            parent[v] = has_parent ? p : -1;
            state[v] = 2;
            order.push_back(v);
            stack.pop_back();
        }
    }
    return order;
}

}  // namespace

void world_matrices(const Scene& scene, const std::vector<Transform>& local, std::vector<Eigen::Matrix4d>& world,
                    const std::vector<Eigen::Matrix4d>* matrix, const std::vector<char>* has_matrix) {
    const std::size_t n = scene.nodes.size();
    world.resize(n);
    std::vector<int> parent;
    const std::vector<int> order = parents_first(scene, parent);
    const bool plain = std::all_of(scene.nodes.begin(), scene.nodes.end(), [](const Node& x) { return x.inherit == InheritScale::Full; });
    const bool full = matrix && has_matrix && has_matrix->size() == n && matrix->size() == n;
    if (plain) {
        for (const int i : order) {
            const Eigen::Matrix4d m = full && (*has_matrix)[i] ? (*matrix)[i] : local[i].matrix();
            world[i] = parent[i] < 0 ? m : Eigen::Matrix4d(world[parent[i]] * m);
        }
        return;
    }
    // Per node, what its children of the other inherit types need (ufbx's formulation): its world
    // without its own scale, the scale it hands down axis by axis, and the node whose handed-down
    // scale an IgnoreParentScale child inherits (-1: none, as under a Full node).
    std::vector<Eigen::Matrix4d> unscaled(n);
    std::vector<Eigen::Vector3d> handed(n);
    std::vector<int> scale_from(n, -1);
    for (const int i : order) {
        const bool has = full && (*has_matrix)[i];
        // A full matrix is composed as Full inheritance (USD's rule, the only reader that makes them).
        const Transform l = has ? decompose((*matrix)[i]) : local[i];
        const int p = parent[i];
        if (p < 0 || has || scene.nodes[i].inherit == InheritScale::Full) {
            const Eigen::Matrix4d m = has ? (*matrix)[i] : l.matrix();
            world[i] = p < 0 ? m : Eigen::Matrix4d(world[p] * m);
            unscaled[i] = p < 0 ? unscaled_matrix(l.translation, l.rotation) : Eigen::Matrix4d(world[p] * unscaled_matrix(l.translation, l.rotation));
            handed[i] = l.scale;
            continue;
        }
        const int from = scene.nodes[i].inherit == InheritScale::Componentwise ? p : scale_from[p];
        Transform t = l;
        if (from >= 0) t.scale = t.scale.cwiseProduct(handed[from]);
        t.translation = t.translation.cwiseProduct(handed[p]);
        world[i] = unscaled[p] * t.matrix();
        unscaled[i] = unscaled[p] * unscaled_matrix(t.translation, t.rotation);
        handed[i] = t.scale;
        scale_from[i] = from;
    }
}

void pose_world(const Scene& scene, Pose& pose) { world_matrices(scene, pose.local, pose.world, &pose.matrix, &pose.has_matrix); }

namespace {

// Index k of the segment [times[k], times[k+1]) holding t, at most keys - 2 so k + 1 is a key
// (a time on the last key would otherwise read one key past the end).
std::size_t segment(const std::vector<float>& times, double t) {
    auto it = std::upper_bound(times.begin(), times.end(), t, [](double a, float b) { return a < static_cast<double>(b); });
    std::size_t k = static_cast<std::size_t>(it - times.begin());
    k = k == 0 ? 0 : k - 1;
    return std::min(k, times.size() - 2);
}

void normalise_quaternion(float* q) {
    double len = std::sqrt(double(q[0]) * q[0] + double(q[1]) * q[1] + double(q[2]) * q[2] + double(q[3]) * q[3]);
    if (len > 0) for (int i = 0; i < 4; ++i) q[i] = static_cast<float>(q[i] / len);
}

void slerp(const float* a, const float* b, double u, float* out) {
    Eigen::Quaterniond qa(a[3], a[0], a[1], a[2]), qb(b[3], b[0], b[1], b[2]);
    // Eigen's slerp takes the shorter arc, as glTF asks.
    Eigen::Quaterniond q = qa.normalized().slerp(u, qb.normalized());
    out[0] = static_cast<float>(q.x());
    out[1] = static_cast<float>(q.y());
    out[2] = static_cast<float>(q.z());
    out[3] = static_cast<float>(q.w());
}

}  // namespace

void sample_channel(const Channel& ch, double time_in, float* out) {
    // Key times are floats in the files; a frame time computed in double (49 / 24) lands a hair
    // off the float key it names. Comparing at float resolution makes frames on keys exact.
    const double time = static_cast<float>(time_in);
    const int w = ch.width;
    const bool cubic = ch.interpolation == Interpolation::CubicSpline;
    const std::size_t stride = cubic ? 3 * w : w;  // a cubic key holds in-tangent, value, out-tangent
    const std::size_t value_at = cubic ? w : 0;
    const std::size_t keys = ch.times.size();
    auto key_value = [&](std::size_t k) { return ch.values.data() + k * stride + value_at; };
    if (keys == 0) return;
    if (keys == 1 || time <= ch.times.front()) {
        std::copy_n(key_value(0), w, out);
        return;
    }
    if (time >= ch.times.back()) {
        std::copy_n(key_value(keys - 1), w, out);
        return;
    }
    const std::size_t k = segment(ch.times, time);
    const double t0 = ch.times[k], t1 = ch.times[k + 1];
    const double dt = t1 - t0;
    const double u = dt > 0 ? (time - t0) / dt : 0.0;
    const bool rotation = ch.path == ChannelPath::Rotation;
    switch (ch.interpolation) {
        case Interpolation::Step:
            std::copy_n(key_value(k), w, out);
            return;
        case Interpolation::Linear:
            if (rotation) {
                slerp(key_value(k), key_value(k + 1), u, out);
            } else {
                const float* a = key_value(k);
                const float* b = key_value(k + 1);
                for (int i = 0; i < w; ++i) out[i] = static_cast<float>(a[i] + (b[i] - a[i]) * u);
            }
            return;
        case Interpolation::CubicSpline: {
            // glTF's cubic Hermite: tangents are scaled by the segment's duration.
            const float* p0 = key_value(k);
            const float* m0 = ch.values.data() + k * stride + 2 * w;  // out-tangent of key k
            const float* p1 = key_value(k + 1);
            const float* m1 = ch.values.data() + (k + 1) * stride;    // in-tangent of key k+1
            const double u2 = u * u, u3 = u2 * u;
            const double h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u;
            const double h01 = -2 * u3 + 3 * u2, h11 = u3 - u2;
            for (int i = 0; i < w; ++i)
                out[i] = static_cast<float>(h00 * p0[i] + h10 * dt * m0[i] + h01 * p1[i] + h11 * dt * m1[i]);
            if (rotation) normalise_quaternion(out);
            return;
        }
    }
}

void sample_pose(const Scene& scene, const Clip* clip, double time, Pose& pose) {
    if (pose.local.size() != scene.nodes.size()) pose = rest_pose(scene);
    pose.bind = false;
    pose.time = time;
    for (std::size_t i = 0; i < scene.nodes.size(); ++i) pose.local[i] = scene.nodes[i].rest;
    if (!pose.has_matrix.empty() || (clip && !clip->matrices.empty())) rest_matrices(scene, pose);
    for (std::size_t m = 0; m < scene.meshes.size(); ++m) {
        auto& w = pose.morph_weights[m];
        w = scene.meshes[m].default_weights;
        w.resize(scene.meshes[m].targets.size(), 0.0f);
    }
    if (clip) {
        float v[64];
        std::vector<float> wide;
        for (const Channel& ch : clip->channels) {
            if (ch.node < 0 || ch.node >= static_cast<int>(scene.nodes.size())) continue;
            float* out = v;
            if (ch.width > 64) {
                wide.resize(ch.width);
                out = wide.data();
            }
            sample_channel(ch, time, out);
            Transform& t = pose.local[ch.node];
            // A channel replaces the node's rest, its rest matrix too (a reader's own matrices
            // below replace the channel in turn).
            if (!pose.has_matrix.empty() && ch.path != ChannelPath::Weights) pose.has_matrix[ch.node] = 0;
            switch (ch.path) {
                case ChannelPath::Translation: t.translation = Eigen::Vector3d(out[0], out[1], out[2]); break;
                case ChannelPath::Scale: t.scale = Eigen::Vector3d(out[0], out[1], out[2]); break;
                case ChannelPath::Rotation:
                    t.rotation = Eigen::Quaterniond(out[3], out[0], out[1], out[2]).normalized();
                    break;
                case ChannelPath::Weights: {
                    int mesh = scene.nodes[ch.node].mesh;
                    // FBX files may split one blend-shape deformer over several meshes sharing
                    // a node; every mesh of the node takes the weights its target count allows.
                    for (std::size_t m = 0; m < scene.meshes.size(); ++m) {
                        if (static_cast<int>(m) != mesh && scene.meshes[m].node != ch.node) continue;
                        auto& w = pose.morph_weights[m];
                        for (std::size_t i = 0; i < w.size() && i < static_cast<std::size_t>(ch.width); ++i) w[i] = out[i];
                    }
                    break;
                }
            }
        }
        // The reader's own local matrices win over these nodes' channels.
        std::vector<Eigen::Matrix4d> m;
        for (const auto& lm : clip->matrices) {
            const std::vector<int>& nodes = lm->nodes();
            m.resize(nodes.size());
            lm->at(time, m.data());
            if (pose.has_matrix.empty()) {
                pose.matrix.assign(scene.nodes.size(), Eigen::Matrix4d::Identity());
                pose.has_matrix.assign(scene.nodes.size(), 0);
            }
            for (std::size_t k = 0; k < nodes.size(); ++k) {
                if (nodes[k] < 0 || nodes[k] >= static_cast<int>(scene.nodes.size())) continue;
                pose.matrix[nodes[k]] = m[k];
                pose.has_matrix[nodes[k]] = 1;
            }
        }
    }
    pose_world(scene, pose);
}

}  // namespace rigscope
