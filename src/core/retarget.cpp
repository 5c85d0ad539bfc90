#include "rigscope/core/retarget.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <unordered_map>

namespace rigscope {

Clip retarget_clip(const Scene& target, const Scene& source, const Clip& clip, std::vector<std::string>& unmatched) {
    std::unordered_map<std::string, int> by_name;
    for (std::size_t i = 0; i < target.nodes.size(); ++i) by_name.emplace(target.nodes[i].name, static_cast<int>(i));
    Clip out;
    out.name = clip.name;
    bool first = true;
    for (const Channel& ch : clip.channels) {
        const std::string& name = source.nodes[ch.node].name;
        auto it = by_name.find(name);
        if (it == by_name.end()) {
            if (std::find(unmatched.begin(), unmatched.end(), name) == unmatched.end()) unmatched.push_back(name);
            continue;
        }
        Channel c = ch;
        c.node = it->second;
        if (c.path == ChannelPath::Weights) {
            const int m = target.nodes[c.node].mesh;
            if (m < 0 || static_cast<int>(target.meshes[m].targets.size()) != c.width) continue;
        }
        out.start = first ? c.times.front() : std::min<double>(out.start, c.times.front());
        out.end = first ? c.times.back() : std::max<double>(out.end, c.times.back());
        first = false;
        out.channels.push_back(std::move(c));
    }
    return out;
}

namespace {

std::string without_namespace(const std::string& name) {
    const auto colon = name.rfind(':');
    return colon == std::string::npos ? name : name.substr(colon + 1);
}

}  // namespace

Clip retarget_clip(const Scene& target, const Scene& source, const Clip& clip, RetargetMode mode, RetargetReport& report) {
    std::unordered_map<std::string, int> by_name;
    for (std::size_t i = 0; i < target.nodes.size(); ++i) by_name.emplace(without_namespace(target.nodes[i].name), static_cast<int>(i));
    // Matched target node per channel, -1 when unmatched.
    std::vector<int> node_of(clip.channels.size(), -1);
    std::set<int> animated;
    for (std::size_t c = 0; c < clip.channels.size(); ++c) {
        const Node& src = source.nodes[clip.channels[c].node];
        auto it = by_name.find(without_namespace(src.name));
        if (it == by_name.end()) {
            if (std::find(report.unmatched.begin(), report.unmatched.end(), src.name) == report.unmatched.end())
                report.unmatched.push_back(src.name);
            continue;
        }
        node_of[c] = it->second;
        animated.insert(it->second);
        // Rest rotations of the pair: copied rotations mean the same pose only if these agree.
        const double deg = src.rest.rotation.angularDistance(target.nodes[it->second].rest.rotation) * 180.0 / M_PI;
        if (deg > kRetargetRestToleranceDegrees && clip.channels[c].path == ChannelPath::Rotation) {
            ++report.rest_differs;
            if (deg > report.worst_degrees) {
                report.worst_degrees = deg;
                report.worst_joint = target.nodes[it->second].name;
            }
        }
    }
    int root = -1;
    if (mode == RetargetMode::Rotation)
        for (std::size_t c = 0; c < clip.channels.size() && root < 0; ++c) {
            if (node_of[c] < 0 || clip.channels[c].path != ChannelPath::Translation) continue;
            bool top = true;
            for (int p = target.nodes[node_of[c]].parent; p >= 0 && top; p = target.nodes[p].parent) top = !animated.count(p);
            if (top) root = node_of[c];
        }
    if (root >= 0) report.root = target.nodes[root].name;
    Clip out;
    out.name = clip.name;
    bool first = true;
    for (std::size_t c = 0; c < clip.channels.size(); ++c) {
        if (node_of[c] < 0) continue;
        Channel ch = clip.channels[c];
        ch.node = node_of[c];
        if (mode == RetargetMode::Rotation && (ch.path == ChannelPath::Scale || (ch.path == ChannelPath::Translation && ch.node != root)))
            continue;
        if (ch.path == ChannelPath::Weights) {
            const int m = target.nodes[ch.node].mesh;
            if (m < 0 || static_cast<int>(target.meshes[m].targets.size()) != ch.width) continue;
        }
        out.start = first ? ch.times.front() : std::min<double>(out.start, ch.times.front());
        out.end = first ? ch.times.back() : std::max<double>(out.end, ch.times.back());
        first = false;
        out.channels.push_back(std::move(ch));
    }
    out.has_take = clip.has_take;
    out.take_start = clip.take_start;
    out.take_end = clip.take_end;
    out.key_start = clip.key_start;
    out.key_end = clip.key_end;
    return out;
}

}  // namespace rigscope
