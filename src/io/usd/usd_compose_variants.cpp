// Variant sets (usd_compose_build.h add_variants): a node's sets are the ones its sites'
// variantSets metadata lists (a variant set it does not list composes nothing in USD, which is
// told as a warning), and each set's selection is the strongest opinion anywhere in the prim's
// index, so a reference's variant may be chosen by the prim that references it.
#include <algorithm>

#include "io/usd/usd_compose_build.h"
#include "io/usd/usd_values.h"

namespace rigscope::usd {

namespace {

std::vector<std::string> names_of(const Value& v) {
    if (v.kind == Value::Kind::String || v.kind == Value::Kind::Token) return {v.text};
    return strings_of(v);
}

// The selection of variant set `set`: the strongest opinion in the prim's index.
std::string selection(const Composition& c, IndexNode& root_node, const std::string& set, const std::string& prim_path) {
    std::vector<IndexNode*> order;
    strength_order(root_node, order);
    for (IndexNode* n : order)
        for (const Site& s : n->sites)
            for (const auto& m : s.spec->metadata) {
                if (m.first != "variants") continue;
                const Value& v = m.second.second;
                if (v.kind == Value::Kind::Token)
                    c.fail_in(c.name_of(*n, s), "prim " + prim_path + "'s variant selections in a binary crate layer, which rigscope does not compose yet" +
                                                    flatten_hint(c.name_of(*n, s)));
                for (const auto& e : v.dict)
                    if (e.first == set) return e.second.text;
            }
    return {};
}

// The node's variant set names, in the order its sites list them.
std::vector<std::string> listed_sets(Composition& c, const IndexNode& node, const std::string& prim_path) {
    std::vector<std::string> sets;
    for (const Site& s : node.sites)
        for (const auto& m : s.spec->metadata)
            if (m.first == "variantSets" && m.second.first != ListEdit::Delete)
                for (const auto& name : names_of(m.second.second))
                    if (std::find(sets.begin(), sets.end(), name) == sets.end()) sets.push_back(name);
    for (const Site& s : node.sites)
        for (const auto& vs : s.spec->variant_sets)
            if (std::find(sets.begin(), sets.end(), vs.first) == sets.end())
                c.warnings.push_back({WarningKind::Skipped, "prim " + prim_path + " in " + c.name_of(node, s) + " has variant set " + vs.first +
                                     ", which its variantSets metadata does not list: USD composes none of it, and neither does rigscope"});
    return sets;
}

}  // namespace

bool add_variants(Composition& c, IndexNode& node, IndexNode& root_node, const std::string& prim_path, int depth, std::size_t& count) {
    const std::vector<std::string> sets = listed_sets(c, node, prim_path);
    bool added = false;
    for (const auto& set : sets) {
        const std::string chosen = selection(c, root_node, set, prim_path);
        if (chosen.empty()) continue;  // no selection: USD composes no variant of the set
        auto n = node_like(node);
        for (const Site& s : node.sites)
            for (const auto& vs : s.spec->variant_sets)
                if (vs.first == set)
                    for (const auto& v : vs.second)
                        if (v.first == chosen) n->sites.push_back({v.second.get(), s.layer});
        if (n->sites.empty()) continue;  // a selection of a variant no spec has: nothing, as in USD
        if (++count > kMaxIndexNodes) c.fail_in(c.files.name_of(c.root), "prim " + prim_path + " composes more than " + std::to_string(kMaxIndexNodes) + " arcs");
        n->site_path = node.site_path;
        n->arc = ArcKind::Variant;
        n->depth = depth;
        n->describe = node.describe.substr(0, node.describe.find('<')) + "<" + node.site_path + "{" + set + "=" + chosen + "}>";
        c.record("variant " + prim_path + " {" + set + "=" + chosen + "}");
        add_child(node, std::move(n));
        added = true;
    }
    return added;
}

}  // namespace rigscope::usd
