// Rivets as nodes of a scene, so a writer can export them beside the skeleton they follow.
#include <algorithm>
#include <string>

#include "rigscope/core/rivet.h"

namespace rigscope {

namespace {

int add_node(Scene& scene, Node node) {
    const int index = static_cast<int>(scene.nodes.size());
    if (node.parent >= 0) scene.nodes[node.parent].children.push_back(index);
    scene.nodes.push_back(std::move(node));
    return index;
}

}  // namespace

int add_rivet_nodes(Scene& scene, std::uint32_t vertex, int joint, const RivetFit& fit) {
    const std::string name = "rivet_" + std::to_string(vertex);
    const Node& j = scene.nodes[joint];
    Node pivot;
    pivot.name = name + "_pivot";
    pivot.parent = j.parent;
    // J's rest rotation and scale, so the pivot's linear part is J's in every pose, the
    // animation's keys included (they are copied below): that is the A_J the fit used.
    pivot.rest.translation = fit.pivot_parent;
    pivot.rest.rotation = j.rest.rotation;
    pivot.rest.scale = j.rest.scale;
    const int pivot_index = add_node(scene, std::move(pivot));
    Node locator;
    locator.name = name;
    locator.parent = pivot_index;
    locator.rest.translation = fit.offset;
    const int locator_index = add_node(scene, std::move(locator));
    for (Clip& clip : scene.clips) {
        std::vector<Channel> copies;
        for (const Channel& ch : clip.channels)
            if (ch.node == joint && (ch.path == ChannelPath::Rotation || ch.path == ChannelPath::Scale)) {
                copies.push_back(ch);
                copies.back().node = pivot_index;
            }
        clip.channels.insert(clip.channels.end(), copies.begin(), copies.end());
    }
    return locator_index;
}

int add_baked_rivet_node(Scene& scene, std::uint32_t vertex, const BakedTransform& rest, int clip,
                         const std::vector<double>& times, const std::vector<BakedTransform>& keys) {
    Node node;
    node.name = "rivet_" + std::to_string(vertex);
    node.rest.translation = rest.position;
    node.rest.rotation = rest.rotation;
    const int index = add_node(scene, std::move(node));
    if (clip < 0 || times.empty()) return index;
    Channel translation, rotation;
    translation.node = rotation.node = index;
    translation.path = ChannelPath::Translation;
    rotation.path = ChannelPath::Rotation;
    translation.width = 3;
    rotation.width = 4;
    for (std::size_t k = 0; k < times.size(); ++k) {
        translation.times.push_back(static_cast<float>(times[k]));
        for (int c = 0; c < 3; ++c) translation.values.push_back(static_cast<float>(keys[k].position[c]));
        const auto& q = keys[k].rotation.coeffs();  // x, y, z, w: glTF's order
        for (int c = 0; c < 4; ++c) rotation.values.push_back(static_cast<float>(q[c]));
    }
    rotation.times = translation.times;
    Clip& c = scene.clips[clip];
    c.channels.push_back(std::move(translation));
    c.channels.push_back(std::move(rotation));
    c.start = std::min(c.start, times.front());
    c.end = std::max(c.end, times.back());
    return index;
}

}  // namespace rigscope
