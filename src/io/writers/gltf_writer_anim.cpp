// Clips as glTF animations: one sampler per channel with the channel's own interpolation, so
// STEP and CUBICSPLINE keys (with their tangents) survive the trip.
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

#include "io/writers/gltf_writer_internal.h"

namespace rigscope::gltf {

namespace {

const char* path_name(ChannelPath p) {
    switch (p) {
        case ChannelPath::Translation: return "translation";
        case ChannelPath::Rotation: return "rotation";
        case ChannelPath::Scale: return "scale";
        case ChannelPath::Weights: return "weights";
    }
    return "";
}

// A channel ready to store: glTF node, keys, and per key `elements` groups of `width` floats.
struct Keys {
    int node = -1;
    ChannelPath path = ChannelPath::Translation;
    Interpolation interpolation = Interpolation::Linear;
    std::vector<float> times;
    std::vector<float> values;
};

// glTF wants strictly increasing key times. Keys sharing a time (a jump, as baked FBX curves
// have) move apart by one float step each, which keeps the values on both sides of the jump;
// dropping one would bend the curve before or after it.
void separate_repeated_times(std::vector<float>& times) {
    for (std::size_t i = 1; i < times.size(); ++i)
        if (!(times[i] > times[i - 1])) times[i] = std::nextafter(times[i - 1], INFINITY);
}

// The weights a channel sets, fitted to a mesh with `targets` targets: extra values dropped,
// missing ones held at the mesh's default (tangents at 0), as sampling applies them.
std::vector<float> fit_weights(const Channel& ch, const Mesh& mesh) {
    const std::size_t targets = mesh.targets.size(), width = static_cast<std::size_t>(ch.width);
    if (targets == width) return ch.values;
    const std::size_t groups = ch.values.size() / width;
    const bool cubic = ch.interpolation == Interpolation::CubicSpline;
    std::vector<float> out;
    out.reserve(groups * targets);
    for (std::size_t g = 0; g < groups; ++g) {
        const bool tangent = cubic && g % 3 != 1;
        for (std::size_t t = 0; t < targets; ++t) {
            if (t < width) out.push_back(ch.values[g * width + t]);
            else out.push_back(tangent || t >= mesh.default_weights.size() ? 0.0f : mesh.default_weights[t]);
        }
    }
    return out;
}

}  // namespace

void write_animations(GlbBuilder& glb, const Scene& scene, const WrittenScene& written) {
    // The glTF nodes (and meshes) a weights channel on scene node n drives: the node's own mesh
    // and every mesh placed on n, as sample_pose applies it.
    auto weight_targets = [&](int n) {
        std::vector<int> meshes;
        for (std::size_t m = 0; m < scene.meshes.size(); ++m)
            if (written.mesh_node[m] >= 0 && !scene.meshes[m].targets.empty() &&
                (scene.nodes[n].mesh == static_cast<int>(m) || scene.meshes[m].node == n))
                meshes.push_back(static_cast<int>(m));
        return meshes;
    };

    std::map<std::vector<float>, int> inputs;  // channels with the same key times share an input
    for (const Clip& clip : scene.clips) {
        std::vector<Keys> keys;
        for (const Channel& ch : clip.channels) {
            if (ch.node < 0 || static_cast<std::size_t>(ch.node) >= scene.nodes.size())
                throw std::invalid_argument("clip '" + clip.name + "': channel on node " + std::to_string(ch.node) + ", which does not exist");
            const std::size_t elements = ch.interpolation == Interpolation::CubicSpline ? 3 : 1;
            if (ch.times.empty() || ch.width <= 0 || ch.values.size() != ch.times.size() * elements * ch.width)
                throw std::invalid_argument("clip '" + clip.name + "': channel on node '" + scene.nodes[ch.node].name + "' has inconsistent keys");
            Keys k{ch.node, ch.path, ch.interpolation, ch.times, ch.values};
            if (ch.path == ChannelPath::Rotation && ch.interpolation != Interpolation::CubicSpline) {
                // The validator requires unit quaternions on STEP and LINEAR keys; sampling
                // normalises anyway, so this changes no pose.
                for (std::size_t i = 0; i + 3 < k.values.size(); i += 4) {
                    const float len = std::sqrt(k.values[i] * k.values[i] + k.values[i + 1] * k.values[i + 1] +
                                                k.values[i + 2] * k.values[i + 2] + k.values[i + 3] * k.values[i + 3]);
                    if (len > 0 && std::abs(len - 1.0f) > 1e-7f)
                        for (int c = 0; c < 4; ++c) k.values[i + c] /= len;
                }
            }
            if (ch.path != ChannelPath::Weights) {
                keys.push_back(std::move(k));
                continue;
            }
            for (int m : weight_targets(ch.node)) {
                Keys w = k;
                w.node = written.mesh_node[m];
                w.values = fit_weights(ch, scene.meshes[m]);
                keys.push_back(std::move(w));
            }
        }

        // One channel per node and path (the validator rejects two); the later one is what
        // sampling leaves in place.
        std::set<std::pair<int, int>> seen;
        std::vector<const Keys*> kept;
        for (auto it = keys.rbegin(); it != keys.rend(); ++it)
            if (seen.insert({it->node, static_cast<int>(it->path)}).second) kept.insert(kept.begin(), &*it);
        if (kept.empty()) continue;  // glTF has no empty animation

        json samplers = json::array(), channels = json::array();
        for (const Keys* kp : kept) {
            Keys k = *kp;
            separate_repeated_times(k.times);
            auto found = inputs.find(k.times);
            const int input = found != inputs.end()
                                  ? found->second
                                  : inputs.emplace(k.times, glb.add_floats(k.times.data(), k.times.size(), 1, kNoTarget, true)).first->second;
            // Weights are SCALAR with one element per target and key; the others one per key.
            const int components = k.path == ChannelPath::Rotation ? 4 : k.path == ChannelPath::Weights ? 1 : 3;
            const int output = glb.add_floats(k.values.data(), k.values.size() / components, components, kNoTarget, false);
            channels.push_back({{"sampler", samplers.size()}, {"target", {{"node", k.node}, {"path", path_name(k.path)}}}});
            samplers.push_back({{"input", input}, {"output", output}, {"interpolation", interpolation_name(k.interpolation)}});
        }
        glb.append("animations", {{"name", clip.name}, {"channels", std::move(channels)}, {"samplers", std::move(samplers)}});
    }
}

}  // namespace rigscope::gltf
