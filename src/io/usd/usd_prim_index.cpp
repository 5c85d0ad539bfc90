#include "io/usd/usd_prim_index.h"

namespace rigscope::usd {

void strength_order(IndexNode& node, std::vector<IndexNode*>& out) {
    out.push_back(&node);
    for (auto& c : node.children) strength_order(*c, out);
}

void add_child(IndexNode& node, std::unique_ptr<IndexNode> child) {
    child->parent = &node;
    auto weaker = [&](const IndexNode& other) {
        if (int(other.arc) != int(child->arc)) return int(other.arc) > int(child->arc);
        return other.depth < child->depth;  // an ancestor's arc is weaker than the prim's own
    };
    auto it = node.children.begin();
    while (it != node.children.end() && !weaker(**it)) ++it;
    node.children.insert(it, std::move(child));
}

std::unique_ptr<IndexNode> node_like(const IndexNode& node) {
    auto out = std::make_unique<IndexNode>();
    out->stack = node.stack;
    out->map = node.map;
    out->identity = node.identity;
    out->src_prefix = node.src_prefix;
    out->dst_prefix = node.dst_prefix;
    return out;
}

std::unique_ptr<IndexNode> child_index(const IndexNode& node, const std::string& name, IndexNode* parent) {
    auto out = node_like(node);
    out->site_path = node.site_path + "/" + name;
    out->arc = node.arc;
    out->depth = node.depth;
    out->parent = parent;
    out->describe = node.describe.substr(0, node.describe.find('<')) + "<" + out->site_path + ">";
    for (const Site& s : node.sites)
        // A layer that writes the prim twice: the later statement is the stronger (Sdf sets its
        // fields again).
        for (auto it = s.spec->children.rbegin(); it != s.spec->children.rend(); ++it)
            if ((*it)->name == name) out->sites.push_back({it->get(), s.layer});
    for (const auto& c : node.children)
        if (auto mapped = child_index(*c, name, out.get())) out->children.push_back(std::move(mapped));
    if (out->sites.empty() && out->children.empty()) return nullptr;
    return out;
}

std::string map_to_stage(const IndexNode& node, const std::string& path) {
    if (node.identity) return path;
    const std::string& src = node.src_prefix;
    if (path == src) return node.dst_prefix;
    if (path.compare(0, src.size(), src) == 0 && path.size() > src.size() && (path[src.size()] == '/' || path[src.size()] == '.'))
        return node.dst_prefix + path.substr(src.size());
    return {};
}

}  // namespace rigscope::usd
