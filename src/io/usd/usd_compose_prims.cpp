// A prim's composed spec (usd_compose_build.h compose_prim): its index completed arc by arc, then
// its opinions in strength order resolved as OpenUSD's stage reads them: the strongest def or
// class decides the specifier, the strongest type, metadata and property values win, apiSchemas
// are the union, time samples are mapped into the stage's time, and relationship targets into
// its namespace. Inherits, specializes, relocates and value clips are refused by name.
#include <algorithm>
#include <map>

#include "io/usd/usd_compose_build.h"
#include "io/usd/usd_values.h"

namespace rigscope::usd {

namespace {

// Bytes a copied value holds, charged to the budget as the composed prims are made. Its numeric
// array is not among them: the copy shares the layer's (usd_numbers.h).
double value_bytes(const Value& v) {
    double n = double(sizeof(Value)) + double(v.text.size());
    for (const auto& i : v.items) n += value_bytes(i);
    for (const auto& d : v.dict) n += double(d.first.size()) + value_bytes(d.second);
    return n;
}

struct Opinion {
    const PrimSpec* spec;
    const IndexNode* node;
    TimeMap map;  // the spec's layer's times into the stage's
    int layer;
};

struct PropState {
    bool default_done = false, samples_done = false, targets_done = false;
};

// What a composed prim is built from while its opinions are met, strongest first.
struct PrimState {
    bool specifier_done = false;
    std::set<std::string> meta_done;
    std::vector<std::string> api_schemas;
    std::map<std::string, std::size_t> prop_at;
    std::vector<PropState> props;
};

bool has_sites(const IndexNode& n) {
    if (!n.sites.empty()) return true;
    for (const auto& c : n.children)
        if (has_sites(*c)) return true;
    return false;
}

// Every arc of the prim's index: references and payloads of each node as it appears, then
// variant sets (whose selections may come from any node), until no node adds one.
void complete(Composition& c, IndexNode& root_node, const std::string& prim_path, int depth) {
    std::size_t count = 0;
    for (;;) {
        bool changed = false;
        std::vector<IndexNode*> order;
        strength_order(root_node, order);
        count = std::max(count, order.size());
        for (IndexNode* n : order)
            if (!n->arcs_done) {
                n->arcs_done = true;
                add_arcs(c, *n, prim_path, depth, count);
                changed = true;
            }
        if (changed) continue;
        for (IndexNode* n : order)
            if (!n->variants_done) {
                n->variants_done = true;
                changed = add_variants(c, *n, root_node, prim_path, depth, count) || changed;
            }
        if (!changed) return;
    }
}

void refuse_unsupported(const Composition& c, const Opinion& o, const std::string& prim_path) {
    const std::string file = c.files.name_of(*o.node->stack->layers[std::size_t(o.layer)].layer);
    for (const char* arc : {"inherits", "specializes"})
        if (o.spec->meta(arc)) c.fail_in(file, "prim " + prim_path + " has " + arc + ", which rigscope does not compose" + flatten_hint(c.files.name_of(c.root)));
    if (o.spec->meta("clips") || o.spec->meta("clipSets"))
        c.fail_in(file, "prim " + prim_path + " has value clips, which rigscope does not compose" + flatten_hint(c.files.name_of(c.root)));
    if (o.spec->meta("relocates"))
        c.fail_in(file, "prim " + prim_path + " has relocates, which rigscope does not compose" + flatten_hint(c.files.name_of(c.root)));
}

// A relationship's targets from its strongest spec that has them, absolute ones mapped into the
// stage's namespace (one outside the arc that brings it is dropped, as USD drops it).
void compose_targets(Composition& c, PropertySpec& out, PropState& st, const PropertySpec& in, const Opinion& o) {
    if (st.targets_done || !in.has_default) return;
    st.targets_done = true;
    out.has_default = true;
    for (const auto& t : in.targets) {
        if (t.empty() || t[0] != '/') {
            out.targets.push_back(t);  // relative: the same in the stage's namespace
            continue;
        }
        const std::string mapped = map_to_stage(*o.node, t);
        if (mapped.empty())
            c.warnings.push_back({WarningKind::Skipped, "property " + out.name + "'s target " + t + " lies outside the reference that brings it (" + o.node->describe +
                                 "): USD drops it, and so does rigscope"});
        else
            out.targets.push_back(mapped);
    }
}

void compose_property(Composition& c, PropertySpec& out, PropState& st, const PropertySpec& in, const Opinion& o, bool first) {
    if (first) {
        out.name = in.name;
        out.type = in.type;
        out.array = in.array;
        out.uniform = in.uniform;
        out.custom = in.custom;
        out.line = in.line;
        c.charge(double(sizeof(PropertySpec) + in.name.size()));
    }
    for (const auto& m : in.metadata)
        if (!out.metadata.count(m.first)) {
            c.charge(value_bytes(m.second));
            out.metadata[m.first] = m.second;
        }
    if (in.type == "rel" || !in.targets.empty()) return compose_targets(c, out, st, in, o);
    if (!st.default_done && in.has_default) {
        st.default_done = true;
        out.has_default = true;
        c.charge(value_bytes(in.value));
        out.value = in.value;
    }
    if (!st.samples_done && (in.has_default || !in.samples.empty())) {
        // Get(t) takes the strongest spec that has samples or a default: its samples, if any.
        st.samples_done = true;
        double bytes = 0;
        for (const auto& s : in.samples) bytes += 8 + value_bytes(s.second);
        c.charge(bytes);
        out.samples.clear();
        for (const auto& s : in.samples) out.samples.emplace_back(o.map.apply(s.first), s.second);
        if (o.map.scale < 0) std::reverse(out.samples.begin(), out.samples.end());
    }
}

// One opinion into the composed prim, weaker than the ones met before it.
void apply_opinion(Composition& c, const Opinion& o, const std::string& prim_path, PrimSpec& out, PrimState& st) {
    refuse_unsupported(c, o, prim_path);
    if (!out.line) out.line = o.spec->line;
    // The strongest def or class decides (an over says nothing of the specifier).
    if (!st.specifier_done && o.spec->specifier != PrimSpec::Specifier::Over) {
        out.specifier = o.spec->specifier;
        st.specifier_done = true;
    }
    if (out.type.empty()) out.type = o.spec->type;
    for (const auto& m : o.spec->metadata) {
        const std::string& key = m.first;
        // The arcs are composed here and not restated; apiSchemas are the union of the opinions.
        if (key == "references" || key == "payload" || key == "variants" || key == "variantSets") continue;
        if (key == "apiSchemas") {
            for (const auto& s : strings_of(m.second.second))
                if (std::find(st.api_schemas.begin(), st.api_schemas.end(), s) == st.api_schemas.end()) st.api_schemas.push_back(s);
            continue;
        }
        if (!st.meta_done.insert(key).second) continue;
        c.charge(value_bytes(m.second.second));
        out.metadata.push_back(m);
    }
    // A property declared twice in one spec: the later is the spec's (Sdf keeps it).
    std::set<std::string> seen_here;
    for (auto it = o.spec->properties.rbegin(); it != o.spec->properties.rend(); ++it) {
        if (!seen_here.insert(it->name).second) continue;
        auto at = st.prop_at.find(it->name);
        const bool first = at == st.prop_at.end();
        if (first) {
            at = st.prop_at.emplace(it->name, out.properties.size()).first;
            out.properties.emplace_back();
            st.props.emplace_back();
        }
        compose_property(c, out.properties[at->second], st.props[at->second], *it, o, first);
    }
}

void add_api_schemas(const std::vector<std::string>& api_schemas, PrimSpec& out) {
    if (api_schemas.empty()) return;
    Value v;
    v.kind = Value::Kind::List;
    for (const auto& s : api_schemas) {
        Value i;
        i.kind = Value::Kind::Token;
        i.text = s;
        v.items.push_back(std::move(i));
    }
    out.metadata.push_back({"apiSchemas", {ListEdit::Explicit, std::move(v)}});
}

// The prim's children, each composed from its own index (the children's names in the order the
// opinions give them).
void compose_children(Composition& c, IndexNode& index, const std::vector<IndexNode*>& order, const std::vector<Opinion>& ops,
                      const std::string& prim_path, int depth, PrimSpec& out) {
    std::vector<std::string> names;
    for (const Opinion& o : ops)
        for (const auto& child : o.spec->children)
            if (std::find(names.begin(), names.end(), child->name) == names.end()) names.push_back(child->name);
    // An instance's descendants are its prototype's: Usd ignores what the instance's own layer
    // stack says below it (its variants and arcs still count; the prim's own opinions too).
    // Only a prim that brings in data by an arc of its own (a reference, payload or variant
    // authored at this prim, with specs) is an instance: Pcp finds no instanceable data in a
    // prim tagged instanceable = true without one, and composes its children as usual.
    bool instance = false;
    if (const Value* v = out.meta("instanceable"); v && v->kind == Value::Kind::Number && v->number != 0)
        instance = std::any_of(order.begin(), order.end(), [&](const IndexNode* n) { return n != &index && n->depth == depth && !n->sites.empty(); });
    if (instance) c.record("instance " + prim_path);
    for (const auto& child : names) {
        auto ci = child_index(index, child, nullptr);
        if (ci && instance) {
            if (!ci->sites.empty()) c.local_below_instances.insert(prim_path);
            ci->sites.clear();
            if (!has_sites(*ci)) ci.reset();
        }
        if (!ci) continue;
        out.children.push_back(compose_prim(c, *ci, child, prim_path + "/" + child, depth + 1));
    }
}

}  // namespace

std::unique_ptr<PrimSpec> compose_prim(Composition& c, IndexNode& index, const std::string& name, const std::string& prim_path, int depth) {
    if (depth > kMaxComposedDepth)
        c.fail_in(c.files.name_of(c.root), "composed prims nest deeper than " + std::to_string(kMaxComposedDepth) + " levels (at " + prim_path + ")");
    complete(c, index, prim_path, depth);
    std::vector<IndexNode*> order;
    strength_order(index, order);
    std::vector<Opinion> ops;
    for (IndexNode* n : order)
        for (const Site& s : n->sites) ops.push_back({s.spec, n, n->map.after(n->stack->layers[std::size_t(s.layer)].map), s.layer});
    auto out = std::make_unique<PrimSpec>();
    c.charge(double(sizeof(PrimSpec) + name.size()));
    out->name = name;
    out->specifier = PrimSpec::Specifier::Over;
    PrimState st;
    for (const Opinion& o : ops) apply_opinion(c, o, prim_path, *out, st);
    add_api_schemas(st.api_schemas, *out);
    // An inactive prim's namespace is not composed (Usd prunes it).
    if (const Value* a = out->meta("active"); a && a->kind == Value::Kind::Number && a->number == 0) return out;
    compose_children(c, index, order, ops, prim_path, depth, *out);
    return out;
}

}  // namespace rigscope::usd
