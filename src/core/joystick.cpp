#include "rigscope/core/joystick.h"

#include <algorithm>
#include <stdexcept>

#include "rigscope/core/error.h"
#include "rigscope/core/morph_channel.h"

namespace rigscope {

double joystick_axis(double offset, const Travel& travel) {
    // Piecewise rather than one linear map of [min, max] onto [-1, 1]: with an asymmetric travel
    // the centre of [min, max] is not the rest position, and a control at rest must drive nothing.
    const double v = offset >= 0 ? offset / travel.max : offset / -travel.min;
    return std::clamp(v, -1.0, 1.0);
}

std::array<double, 4> joystick_weights(double x, double y) {
    x = std::clamp(x, -1.0, 1.0);
    y = std::clamp(y, -1.0, 1.0);
    const double up = std::max(y, 0.0), down = std::max(-y, 0.0);
    const double keep_left = 1.0 - std::max(x, 0.0), keep_right = 1.0 - std::max(-x, 0.0);
    return {up * keep_left, up * keep_right, down * keep_left, down * keep_right};
}

std::array<double, 2> control_xy(const ResolvedControl& c, const Scene& scene, const Pose& pose) {
    // The translation's own space (the parent's axes), not the node's rotated axes: an FBX root
    // carries the exporter's axis conversion as a rotation, and a control that is rotated in
    // its rest pose still moves along the directions the animator keyed.
    const Eigen::Vector3d offset = pose.local[c.node].translation - scene.nodes[c.node].rest.translation;
    std::array<double, 2> xy;
    for (int a = 0; a < 2; ++a)
        xy[a] = joystick_axis(c.axes[a].sign * offset[c.axes[a].index], c.travel[a]);
    return xy;
}

void apply_rig(const ResolvedRig& rig, const Scene& scene, Pose& pose) {
    if (rig.controls.empty()) return;
    for (const DrivenTarget& d : rig.driven) pose.morph_weights[d.mesh][d.target] = 0.0f;
    // Sum in float like the weights themselves; the clamp afterwards keeps several controls on
    // one target within the glTF range.
    for (const ResolvedControl& c : rig.controls) {
        const auto xy = control_xy(c, scene, pose);
        const auto w = joystick_weights(xy[0], xy[1]);
        for (const auto& m : c.meshes)
            for (int k = 0; k < 4; ++k) {
                std::vector<float>& weights = pose.morph_weights[m.mesh];
                if (m.targets[k] >= 0) weights[m.targets[k]] += static_cast<float>(w[k]);
                if (m.channels[k] >= 0) {
                    const MorphChannel& ch = scene.meshes[m.mesh].channels[m.channels[k]];
                    std::vector<float> part(weights.size(), 0.0f);
                    morph_channel_weights(ch, w[k], part.data());
                    for (int t : ch.targets) weights[t] += part[t];
                }
            }
    }
    for (const DrivenTarget& d : rig.driven) {
        float& w = pose.morph_weights[d.mesh][d.target];
        w = std::clamp(w, 0.0f, 1.0f);
    }
}

Clip bake_rig(const ResolvedRig& rig, const Scene& scene, const Clip* source, const std::vector<double>& times,
              const std::string& name, std::vector<Warning>& warnings) {
    if (times.empty()) throw std::invalid_argument("bake_rig: no key times");
    for (std::size_t i = 1; i < times.size(); ++i)
        if (!(static_cast<float>(times[i]) > static_cast<float>(times[i - 1])))
            throw std::invalid_argument("bake_rig: key times must increase (as floats)");
    Clip clip = source ? *source : Clip{};
    clip.name = name;

    // Per node, the mesh whose weights its channel carries: the first driven one.
    std::vector<int> node_mesh(scene.nodes.size(), -1);
    std::vector<int> nodes;
    for (const DrivenTarget& d : rig.driven) {
        const int n = scene.meshes[d.mesh].node;
        if (n < 0) continue;  // a mesh without a node cannot be animated in glTF either
        if (node_mesh[n] < 0) {
            node_mesh[n] = d.mesh;
            nodes.push_back(n);
        }
    }
    clip.channels.erase(std::remove_if(clip.channels.begin(), clip.channels.end(),
                                       [&](const Channel& ch) {
                                           return ch.path == ChannelPath::Weights && ch.node >= 0 &&
                                                  ch.node < static_cast<int>(node_mesh.size()) && node_mesh[ch.node] >= 0;
                                       }),
                        clip.channels.end());
    std::vector<Channel> baked;
    for (int n : nodes) {
        Channel ch;
        ch.node = n;
        ch.path = ChannelPath::Weights;
        ch.interpolation = Interpolation::Linear;
        ch.width = static_cast<int>(scene.meshes[node_mesh[n]].targets.size());
        ch.times.reserve(times.size());
        ch.values.reserve(times.size() * ch.width);
        baked.push_back(std::move(ch));
    }
    Pose pose = rest_pose(scene);
    std::vector<bool> warned(scene.meshes.size(), false);
    for (double t : times) {
        sample_pose(scene, source, t, pose);
        apply_rig(rig, scene, pose);
        for (Channel& ch : baked) {
            const int m = node_mesh[ch.node];
            ch.times.push_back(static_cast<float>(t));
            ch.values.insert(ch.values.end(), pose.morph_weights[m].begin(), pose.morph_weights[m].end());
            // One weights channel drives every mesh on its node; say so when that is wrong.
            for (std::size_t o = 0; o < scene.meshes.size(); ++o) {
                if (static_cast<int>(o) == m || scene.meshes[o].node != ch.node || warned[o]) continue;
                const auto& w = pose.morph_weights[o];
                bool same = true;
                for (std::size_t i = 0; i < w.size(); ++i)
                    same = same && i < pose.morph_weights[m].size() && w[i] == pose.morph_weights[m][i];
                if (!same) {
                    warned[o] = true;
                    warnings.push_back({WarningKind::Naming, "mesh '" + scene.meshes[o].name + "' shares node '" + scene.nodes[ch.node].name +
                                       "' with '" + scene.meshes[m].name + "' but is driven differently; the baked weights are '" +
                                       scene.meshes[m].name + "''s"});
                }
            }
        }
    }
    for (Channel& ch : baked) clip.channels.push_back(std::move(ch));
    if (clip.channels.size() == baked.size()) {
        clip.start = times.front();
        clip.end = times.back();
    } else {
        clip.start = std::min(clip.start, times.front());
        clip.end = std::max(clip.end, times.back());
    }
    return clip;
}

namespace {

std::string list_names(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out.empty() ? "none" : out;
}

}  // namespace

ResolvedRig resolve_rig(const Rig& rig, const Scene& scene) {
    ResolvedRig out;
    for (std::size_t ci = 0; ci < rig.controls.size(); ++ci) {
        const RigControl& rc = rig.controls[ci];
        const std::string where = rig.source + ": controls[" + std::to_string(ci) + "]";
        ResolvedControl c;
        c.name = rc.name;
        c.axes = rc.axes;
        c.travel = rc.travel;
        c.node = scene.find_node(rc.node);
        if (c.node < 0) {
            std::vector<std::string> names;
            for (const Node& n : scene.nodes) names.push_back(n.name);
            throw Error(kExitMismatch, where + ".node: " + scene.source + " has no node '" + rc.node +
                                           "' (nodes: " + list_names(names) + ")");
        }
        for (std::size_t m = 0; m < scene.meshes.size(); ++m) {
            const Mesh& mesh = scene.meshes[m];
            if (mesh.name != rc.mesh) continue;
            ResolvedControl::MeshTargets mt;
            mt.mesh = static_cast<int>(m);
            for (int k = 0; k < 4; ++k) {
                if (rc.targets[k].empty()) continue;
                for (std::size_t t = 0; t < mesh.targets.size(); ++t)
                    if (mesh.targets[t].name == rc.targets[k]) {
                        mt.targets[k] = static_cast<int>(t);
                        break;
                    }
                for (std::size_t ch = 0; mt.targets[k] < 0 && ch < mesh.channels.size(); ++ch)
                    if (mesh.channels[ch].name == rc.targets[k]) {
                        mt.channels[k] = static_cast<int>(ch);
                        break;
                    }
                if (mt.targets[k] < 0 && mt.channels[k] < 0) {
                    std::vector<std::string> names;
                    for (const auto& t : mesh.targets) names.push_back(t.name);
                    for (const auto& ch : mesh.channels) names.push_back(ch.name);
                    throw Error(kExitMismatch, where + ".targets." + kCornerNames[k] + ": mesh '" + mesh.name + "' of " +
                                                   scene.source + " has no morph target '" + rc.targets[k] +
                                                   "' (targets: " + list_names(names) + ")");
                }
            }
            c.meshes.push_back(mt);
        }
        if (c.meshes.empty()) {
            std::vector<std::string> names;
            for (const Mesh& m : scene.meshes)
                if (std::find(names.begin(), names.end(), m.name) == names.end()) names.push_back(m.name);
            throw Error(kExitMismatch, where + ".mesh: " + scene.source + " has no mesh '" + rc.mesh +
                                           "' (meshes: " + list_names(names) + ")");
        }
        for (const auto& mt : c.meshes) {
            std::vector<int> driven;
            for (int k = 0; k < 4; ++k) {
                if (mt.targets[k] >= 0) driven.push_back(mt.targets[k]);
                if (mt.channels[k] >= 0)
                    for (int t : scene.meshes[mt.mesh].channels[mt.channels[k]].targets) driven.push_back(t);
            }
            for (int t : driven) {
                const bool seen = std::any_of(out.driven.begin(), out.driven.end(),
                                              [&](const DrivenTarget& d) { return d.mesh == mt.mesh && d.target == t; });
                if (!seen) out.driven.push_back({mt.mesh, t});
            }
        }
        out.controls.push_back(std::move(c));
    }
    return out;
}

}  // namespace rigscope
