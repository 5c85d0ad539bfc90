#include "rigscope/retarget.h"

#include <algorithm>
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

}  // namespace rigscope
