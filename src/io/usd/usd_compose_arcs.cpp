// References and payloads (usd_compose_build.h add_arcs): each site's list edit applied from the
// weakest site to the strongest, as Sdf composes a list op over a layer stack, and each arc that
// remains opened as a child node of the prim's index, its time map and namespace mapping set.
// A chain that comes back to a site it passed is a cycle, refused as Pcp refuses it.
#include <algorithm>

#include "io/usd/usd_compose_build.h"
#include "io/usd/usd_values.h"

namespace rigscope::usd {

namespace {

bool has_prefix(const std::string& path, const std::string& prefix) {
    return path == prefix || (path.size() > prefix.size() && path.compare(0, prefix.size(), prefix) == 0 &&
                              (prefix == "/" || path[prefix.size()] == '/'));
}

// One arc as written: an asset path (empty for an internal arc), a prim path (empty: the
// layer's defaultPrim) and a layer offset.
struct ArcSpec {
    std::string asset;
    std::string prim;
    TimeMap offset;
};

struct Authored {
    ArcSpec arc;
    std::size_t site;
};

// The references or payloads one metadata value holds (text: a path, an asset with its prim
// path and offset, or a list of them).
void arcs_of(const Composition& c, const Value& v, const std::string& file, const std::string& what, std::vector<ArcSpec>& out) {
    switch (v.kind) {
        case Value::Kind::None: return;
        case Value::Kind::Path: {
            ArcSpec a{"", v.text, {}};
            for (const auto& part : v.items)
                if (part.kind == Value::Kind::Dict) a.offset = layer_offset(part, file, what);
            out.push_back(std::move(a));
            return;
        }
        case Value::Kind::Asset: {
            ArcSpec a{v.text, "", {}};
            for (const auto& part : v.items) {
                if (part.kind == Value::Kind::Path) a.prim = part.text;
                else if (part.kind == Value::Kind::Dict) a.offset = layer_offset(part, file, what);
            }
            out.push_back(std::move(a));
            return;
        }
        case Value::Kind::List:
            for (const auto& i : v.items) arcs_of(c, i, file, what, out);
            return;
        case Value::Kind::NumberArray:
            if (v.numbers.empty()) return;  // an empty list []
            break;
        case Value::Kind::Token:
            // A crate layer's ReferenceListOp or PayloadListOp, which its reader does not decode.
            c.fail_in(file, what + " in a binary crate layer, which rigscope does not compose yet" + flatten_hint(file));
        default: break;
    }
    c.fail_in(file, what + " holds something other than asset and prim paths");
}

// One site's list edit of arcs over the list the weaker sites made.
void apply_edit(ListEdit edit, const std::vector<ArcSpec>& arcs, std::size_t site, std::vector<Authored>& list) {
    auto same = [](const ArcSpec& a, const ArcSpec& b) { return a.asset == b.asset && a.prim == b.prim; };
    auto remove = [&](const ArcSpec& a) {
        list.erase(std::remove_if(list.begin(), list.end(), [&](const Authored& x) { return same(x.arc, a); }), list.end());
    };
    switch (edit) {
        case ListEdit::Explicit:
            list.clear();
            for (const auto& a : arcs) list.push_back({a, site});
            break;
        case ListEdit::Prepend:
            for (const auto& a : arcs) remove(a);
            for (std::size_t i = 0; i < arcs.size(); ++i) list.insert(list.begin() + long(i), {arcs[i], site});
            break;
        case ListEdit::Append:
        case ListEdit::Add:
            for (const auto& a : arcs) {
                if (edit == ListEdit::Add && std::any_of(list.begin(), list.end(), [&](const Authored& x) { return same(x.arc, a); })) continue;
                remove(a);
                list.push_back({a, site});
            }
            break;
        case ListEdit::Delete:
            for (const auto& a : arcs) remove(a);
            break;
        case ListEdit::Reorder: break;  // order only: the arcs are the same
    }
}

// A site met again down the chain (the same stack, at the path, an ancestor or a descendant
// of it) would compose without end: Pcp refuses it as a cycle, and so does rigscope.
void refuse_cycle(const Composition& c, const IndexNode& node, const LayerStack* target, const Layer& target_root, const std::string& path,
                  const std::string& file, const std::string& what) {
    int chain = 0;
    for (const IndexNode* n = &node; n; n = n->parent) {
        ++chain;
        if (n->stack == target && (has_prefix(n->site_path, path) || has_prefix(path, n->site_path))) {
            std::string cycle;
            std::vector<std::string> steps;
            for (const IndexNode* m = &node; m; m = m->parent) {
                steps.push_back(m->describe);
                if (m == n) break;
            }
            for (auto it = steps.rbegin(); it != steps.rend(); ++it) cycle += *it + " -> ";
            c.fail_in(file, what + ": a cycle of references: " + cycle + c.files.name_of(target_root) + "<" + path + ">");
        }
    }
    if (chain > kMaxArcDepth) c.fail_in(file, what + ": references nest deeper than " + std::to_string(kMaxArcDepth) + " arcs");
}

void add_arc(Composition& c, IndexNode& node, const Site& site, ArcKind kind, const ArcSpec& a, const std::string& what_prefix,
             const std::string& prim_path, int depth, std::size_t& count) {
    const Layer& layer = *node.stack->layers[std::size_t(site.layer)].layer;
    const std::string file = c.name_of(node, site);
    const std::string what = what_prefix + " " + (a.asset.empty() ? "<" + a.prim + ">" : "@" + a.asset + "@" + (a.prim.empty() ? "" : "<" + a.prim + ">"));
    const LayerStack* target = node.stack;
    const Layer* target_root = &c.stacks.root_of(*node.stack);
    if (!a.asset.empty()) {
        target_root = &c.files.open(layer, a.asset, what);
        target = &c.stacks.of(*target_root);
    }
    std::string path = a.prim;
    if (path.empty()) {
        auto dp = target_root->metadata.find("defaultPrim");
        if (dp == target_root->metadata.end() || dp->second.text.empty())
            c.fail_in(file, what + " names no prim, and " + c.files.name_of(*target_root) + " has no defaultPrim");
        path = "/" + dp->second.text;
    }
    if (path[0] != '/' || path.find_first_of("{}.[") != std::string::npos)
        c.fail_in(file, what + ": the target <" + path + "> is not an absolute prim path (rigscope composes references to prims)");
    refuse_cycle(c, node, target, *target_root, path, file, what);
    if (++count > kMaxIndexNodes) c.fail_in(file, "prim " + prim_path + " composes more than " + std::to_string(kMaxIndexNodes) + " arcs");
    auto n = std::make_unique<IndexNode>();
    n->stack = target;
    n->sites = sites_at(*target, path);
    n->site_path = path;
    TimeMap offset = a.offset;
    offset.scale *= time_codes_per_second(layer) / time_codes_per_second(*target_root);
    n->map = node.map.after(node.stack->layers[std::size_t(site.layer)].map).after(offset);
    n->identity = false;
    n->src_prefix = path;
    n->dst_prefix = prim_path;
    n->arc = kind;
    n->depth = depth;
    n->describe = c.files.name_of(*target_root) + "<" + path + ">";
    c.record(std::string(kind == ArcKind::Payload ? "payload " : "reference ") + prim_path + " -> " + c.shown(c.files.name_of(*target_root)) + "<" +
             path + ">" + offset_text(a.offset));
    add_child(node, std::move(n));
}

}  // namespace

void add_arcs(Composition& c, IndexNode& node, const std::string& prim_path, int depth, std::size_t& count) {
    for (ArcKind kind : {ArcKind::Reference, ArcKind::Payload}) {
        const char* key = kind == ArcKind::Reference ? "references" : "payload";
        const std::string what = "prim " + prim_path + " " + (kind == ArcKind::Reference ? "references" : "has the payload");
        std::vector<Authored> list;
        for (std::size_t k = node.sites.size(); k-- > 0;) {
            const Site& site = node.sites[k];
            const std::string file = c.name_of(node, site);
            for (const auto& m : site.spec->metadata) {
                if (m.first != key) continue;
                std::vector<ArcSpec> arcs;
                arcs_of(c, m.second.second, file, what, arcs);
                apply_edit(m.second.first, arcs, k, list);
            }
        }
        for (const auto& a : list) add_arc(c, node, node.sites[a.site], kind, a.arc, what, prim_path, depth, count);
    }
}

}  // namespace rigscope::usd
