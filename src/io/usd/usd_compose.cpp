#include "io/usd/usd_compose.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "io/usd/usd_layer_stack.h"
#include "io/usd/usd_prim_index.h"
#include "io/usd/usd_values.h"
#include "rigscope/core/error.h"

namespace rigscope::usd {

namespace {

// Bounds past which a stage is refused rather than composed without end: a chain of arcs deeper
// than any production asset nests (kMaxArcDepth, usd_layer_stack.h, which bounds sublayers too),
// arcs in one prim's index, and the composed namespace's depth (the parser's bound for one layer).
constexpr std::size_t kMaxIndexNodes = 10000;
constexpr int kMaxPrimDepth = 512;

bool has_prefix(const std::string& path, const std::string& prefix) {
    return path == prefix || (path.size() > prefix.size() && path.compare(0, prefix.size(), prefix) == 0 &&
                              (prefix == "/" || path[prefix.size()] == '/'));
}

// Bytes a copied value holds, charged to the budget as the composed prims are made. Its numeric
// array is not among them: the copy shares the layer's (usd_numbers.h).
double value_bytes(const Value& v) {
    double n = double(sizeof(Value)) + double(v.text.size());
    for (const auto& i : v.items) n += value_bytes(i);
    for (const auto& d : v.dict) n += double(d.first.size()) + value_bytes(d.second);
    return n;
}

// One arc as written: an asset path (empty for an internal arc), a prim path (empty: the
// layer's defaultPrim) and a layer offset.
struct ArcSpec {
    std::string asset;
    std::string prim;
    TimeMap offset;
};

// A time map as info names it: nothing for the identity.
std::string offset_text(const TimeMap& m) {
    if (m.offset == 0 && m.scale == 1) return "";
    std::ostringstream s;
    s.precision(10);
    s << " (offset " << m.offset << ", scale " << m.scale << ")";
    return s.str();
}

struct Composer {
    Composer(LayerFiles& f, const Layer& r, std::vector<std::string>& w, std::vector<std::string>& c)
        : files(f), root(r), warnings(w), composed(c) {}
    LayerFiles& files;
    const Layer& root;
    std::vector<std::string>& warnings;
    std::vector<std::string>& composed;  // what was composed, once each, in the order met (info)
    std::set<std::string> local_below_instances;  // Layer::instances_with_local_opinions
    LayerStacks stacks{files, files.name_of(root)};

    std::string name_of(const IndexNode& n, const Site& s) const { return files.name_of(*n.stack->layers[std::size_t(s.layer)].layer); }

    [[noreturn]] void fail_in(const std::string& file, const std::string& what) const { throw bad_input(file, what); }

    void charge(double bytes) { files.budget().charge(bytes, "the composed prims"); }

    // A file as info names it: relative to the root layer's folder when inside it (the stage's
    // own files), else as opened.
    std::string shown(const std::string& file) const {
        const std::string& r = files.name_of(root);
        const std::size_t slash = r.find_last_of('/');
        if (slash == std::string::npos || file.compare(0, slash + 1, r, 0, slash + 1) != 0) return file;
        return file.substr(slash + 1);
    }

    void record(std::string what) {
        if (std::find(composed.begin(), composed.end(), what) == composed.end()) composed.push_back(std::move(what));
    }

    // ---- arcs ----

    // The references or payloads one metadata value holds (text: a path, an asset with its prim
    // path and offset, or a list of them).
    void arcs_of(const Value& v, const std::string& file, const std::string& what, std::vector<ArcSpec>& out) {
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
                for (const auto& i : v.items) arcs_of(i, file, what, out);
                return;
            case Value::Kind::NumberArray:
                if (v.numbers.empty()) return;  // an empty list []
                break;
            case Value::Kind::Token:
                // A crate layer's ReferenceListOp or PayloadListOp, which its reader does not decode.
                fail_in(file, what + " in a binary crate layer, which rigscope does not compose yet" + flatten_hint(file));
            default: break;
        }
        fail_in(file, what + " holds something other than asset and prim paths");
    }

    static const char* arc_word(ArcKind k) { return k == ArcKind::Payload ? "payload" : "references"; }

    // The node's references or payloads: each site's list edit applied from the weakest site to
    // the strongest, as Sdf composes a list op over a layer stack (an explicit list replaces what
    // weaker layers say; prepend puts its items first, append last, delete takes them out).
    void add_arcs(IndexNode& node, const std::string& prim_path, int depth, std::size_t& count) {
        for (ArcKind kind : {ArcKind::Reference, ArcKind::Payload}) {
            const char* key = kind == ArcKind::Reference ? "references" : "payload";
            const std::string what = "prim " + prim_path + " " + (kind == ArcKind::Reference ? "references" : "has the payload");
            struct Authored {
                ArcSpec arc;
                std::size_t site;
            };
            std::vector<Authored> list;
            auto same = [](const ArcSpec& a, const ArcSpec& b) { return a.asset == b.asset && a.prim == b.prim; };
            auto remove = [&](const ArcSpec& a) {
                list.erase(std::remove_if(list.begin(), list.end(), [&](const Authored& x) { return same(x.arc, a); }), list.end());
            };
            for (std::size_t k = node.sites.size(); k-- > 0;) {
                const Site& site = node.sites[k];
                const std::string file = name_of(node, site);
                for (const auto& m : site.spec->metadata) {
                    if (m.first != key) continue;
                    std::vector<ArcSpec> arcs;
                    arcs_of(m.second.second, file, what, arcs);
                    switch (m.second.first) {
                        case ListEdit::Explicit:
                            list.clear();
                            for (const auto& a : arcs) list.push_back({a, k});
                            break;
                        case ListEdit::Prepend:
                            for (const auto& a : arcs) remove(a);
                            for (std::size_t i = 0; i < arcs.size(); ++i) list.insert(list.begin() + long(i), {arcs[i], k});
                            break;
                        case ListEdit::Append:
                        case ListEdit::Add:
                            for (const auto& a : arcs) {
                                if (m.second.first == ListEdit::Add &&
                                    std::any_of(list.begin(), list.end(), [&](const Authored& x) { return same(x.arc, a); }))
                                    continue;
                                remove(a);
                                list.push_back({a, k});
                            }
                            break;
                        case ListEdit::Delete:
                            for (const auto& a : arcs) remove(a);
                            break;
                        case ListEdit::Reorder: break;  // order only: the arcs are the same
                    }
                }
            }
            for (const auto& a : list) {
                const Site& site = node.sites[a.site];
                add_arc(node, site, *node.stack->layers[std::size_t(site.layer)].layer, name_of(node, site), kind, a.arc, what, prim_path,
                        depth, count);
            }
        }
    }

    void add_arc(IndexNode& node, const Site& site, const Layer& layer, const std::string& file, ArcKind kind, const ArcSpec& a,
                 const std::string& what_prefix, const std::string& prim_path, int depth, std::size_t& count) {
        const std::string what = what_prefix + " " + (a.asset.empty() ? "<" + a.prim + ">" : "@" + a.asset + "@" + (a.prim.empty() ? "" : "<" + a.prim + ">"));
        const LayerStack* target = node.stack;
        const Layer* target_root = &stacks.root_of(*node.stack);
        if (!a.asset.empty()) {
            target_root = &files.open(layer, a.asset, what);
            target = &stacks.of(*target_root);
        }
        std::string path = a.prim;
        if (path.empty()) {
            auto dp = target_root->metadata.find("defaultPrim");
            if (dp == target_root->metadata.end() || dp->second.text.empty())
                fail_in(file, what + " names no prim, and " + files.name_of(*target_root) + " has no defaultPrim");
            path = "/" + dp->second.text;
        }
        if (path[0] != '/' || path.find_first_of("{}.[") != std::string::npos)
            fail_in(file, what + ": the target <" + path + "> is not an absolute prim path (rigscope composes references to prims)");
        // A site met again down the chain (the same stack, at the path, an ancestor or a
        // descendant of it) would compose without end: Pcp refuses it as a cycle, and so does rigscope.
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
                fail_in(file, what + ": a cycle of references: " + cycle + files.name_of(*target_root) + "<" + path + ">");
            }
        }
        if (chain > kMaxArcDepth) fail_in(file, what + ": references nest deeper than " + std::to_string(kMaxArcDepth) + " arcs");
        if (++count > kMaxIndexNodes) fail_in(file, "prim " + prim_path + " composes more than " + std::to_string(kMaxIndexNodes) + " arcs");
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
        n->describe = files.name_of(*target_root) + "<" + path + ">";
        record(std::string(kind == ArcKind::Payload ? "payload " : "reference ") + prim_path + " -> " + shown(files.name_of(*target_root)) + "<" +
               path + ">" + offset_text(a.offset));
        add_child(node, std::move(n));
    }

    static std::vector<std::string> names_of(const Value& v) {
        if (v.kind == Value::Kind::String || v.kind == Value::Kind::Token) return {v.text};
        return strings_of(v);
    }

    // The selection of variant set `set`: the strongest opinion in the prim's index.
    std::string selection(IndexNode& root_node, const std::string& set, const std::string& prim_path) {
        std::vector<IndexNode*> order;
        strength_order(root_node, order);
        for (IndexNode* n : order)
            for (const Site& s : n->sites)
                for (const auto& m : s.spec->metadata) {
                    if (m.first != "variants") continue;
                    const Value& v = m.second.second;
                    if (v.kind == Value::Kind::Token)
                        fail_in(name_of(*n, s), "prim " + prim_path + "'s variant selections in a binary crate layer, which rigscope does not compose yet" +
                                                    flatten_hint(name_of(*n, s)));
                    for (const auto& e : v.dict)
                        if (e.first == set) return e.second.text;
                }
        return {};
    }

    // A node's variant sets (its sites' composed variantSets), each with its selected variant.
    bool add_variants(IndexNode& node, IndexNode& root_node, const std::string& prim_path, int depth, std::size_t& count) {
        std::vector<std::string> sets;
        for (const Site& s : node.sites)
            for (const auto& m : s.spec->metadata)
                if (m.first == "variantSets" && m.second.first != ListEdit::Delete)
                    for (const auto& name : names_of(m.second.second))
                        if (std::find(sets.begin(), sets.end(), name) == sets.end()) sets.push_back(name);
        for (const Site& s : node.sites)
            for (const auto& vs : s.spec->variant_sets)
                if (std::find(sets.begin(), sets.end(), vs.first) == sets.end())
                    warnings.push_back("prim " + prim_path + " in " + name_of(node, s) + " has variant set " + vs.first +
                                       ", which its variantSets metadata does not list: USD composes none of it, and neither does rigscope");
        bool added = false;
        for (const auto& set : sets) {
            const std::string chosen = selection(root_node, set, prim_path);
            if (chosen.empty()) continue;  // no selection: USD composes no variant of the set
            auto n = node_like(node);
            for (const Site& s : node.sites)
                for (const auto& vs : s.spec->variant_sets)
                    if (vs.first == set)
                        for (const auto& v : vs.second)
                            if (v.first == chosen) n->sites.push_back({v.second.get(), s.layer});
            if (n->sites.empty()) continue;  // a selection of a variant no spec has: nothing, as in USD
            if (++count > kMaxIndexNodes) fail_in(files.name_of(root), "prim " + prim_path + " composes more than " + std::to_string(kMaxIndexNodes) + " arcs");
            n->site_path = node.site_path;
            n->arc = ArcKind::Variant;
            n->depth = depth;
            n->describe = node.describe.substr(0, node.describe.find('<')) + "<" + node.site_path + "{" + set + "=" + chosen + "}>";
            record("variant " + prim_path + " {" + set + "=" + chosen + "}");
            add_child(node, std::move(n));
            added = true;
        }
        return added;
    }

    // Every arc of the prim's index: references and payloads of each node as it appears, then
    // variant sets (whose selections may come from any node), until no node adds one.
    void complete(IndexNode& root_node, const std::string& prim_path, int depth) {
        std::size_t count = 0;
        for (;;) {
            bool changed = false;
            std::vector<IndexNode*> order;
            strength_order(root_node, order);
            count = std::max(count, order.size());
            for (IndexNode* n : order)
                if (!n->arcs_done) {
                    n->arcs_done = true;
                    add_arcs(*n, prim_path, depth, count);
                    changed = true;
                }
            if (changed) continue;
            for (IndexNode* n : order)
                if (!n->variants_done) {
                    n->variants_done = true;
                    changed = add_variants(*n, root_node, prim_path, depth, count) || changed;
                }
            if (!changed) return;
        }
    }

    // ---- composed specs ----

    struct Opinion {
        const PrimSpec* spec;
        const IndexNode* node;
        TimeMap map;  // the spec's layer's times into the stage's
        int layer;
    };

    void refuse_unsupported(const Opinion& o, const std::string& prim_path) {
        const std::string file = files.name_of(*o.node->stack->layers[std::size_t(o.layer)].layer);
        for (const char* arc : {"inherits", "specializes"})
            if (o.spec->meta(arc)) fail_in(file, "prim " + prim_path + " has " + arc + ", which rigscope does not compose" + flatten_hint(files.name_of(root)));
        if (o.spec->meta("clips") || o.spec->meta("clipSets"))
            fail_in(file, "prim " + prim_path + " has value clips, which rigscope does not compose" + flatten_hint(files.name_of(root)));
        if (o.spec->meta("relocates"))
            fail_in(file, "prim " + prim_path + " has relocates, which rigscope does not compose" + flatten_hint(files.name_of(root)));
    }

    struct PropState {
        bool default_done = false, samples_done = false, targets_done = false;
    };

    void compose_property(PropertySpec& out, PropState& st, const PropertySpec& in, const Opinion& o, bool first) {
        if (first) {
            out.name = in.name;
            out.type = in.type;
            out.array = in.array;
            out.uniform = in.uniform;
            out.custom = in.custom;
            out.line = in.line;
            charge(double(sizeof(PropertySpec) + in.name.size()));
        }
        for (const auto& m : in.metadata)
            if (!out.metadata.count(m.first)) {
                charge(value_bytes(m.second));
                out.metadata[m.first] = m.second;
            }
        if (in.type == "rel" || !in.targets.empty()) {
            if (!st.targets_done && in.has_default) {
                st.targets_done = true;
                out.has_default = true;
                for (const auto& t : in.targets) {
                    if (t.empty() || t[0] != '/') {
                        out.targets.push_back(t);  // relative: the same in the stage's namespace
                        continue;
                    }
                    const std::string mapped = map_to_stage(*o.node, t);
                    if (mapped.empty())
                        warnings.push_back("property " + out.name + "'s target " + t + " lies outside the reference that brings it (" +
                                           o.node->describe + "): USD drops it, and so does rigscope");
                    else
                        out.targets.push_back(mapped);
                }
            }
            return;
        }
        if (!st.default_done && in.has_default) {
            st.default_done = true;
            out.has_default = true;
            charge(value_bytes(in.value));
            out.value = in.value;
        }
        if (!st.samples_done && (in.has_default || !in.samples.empty())) {
            // Get(t) takes the strongest spec that has samples or a default: its samples, if any.
            st.samples_done = true;
            double bytes = 0;
            for (const auto& s : in.samples) bytes += 8 + value_bytes(s.second);
            charge(bytes);
            out.samples.clear();
            for (const auto& s : in.samples) out.samples.emplace_back(o.map.apply(s.first), s.second);
            if (o.map.scale < 0) std::reverse(out.samples.begin(), out.samples.end());
        }
    }

    std::unique_ptr<PrimSpec> compose_prim(IndexNode& index, const std::string& name, const std::string& prim_path, int depth) {
        if (depth > kMaxPrimDepth) fail_in(files.name_of(root), "composed prims nest deeper than " + std::to_string(kMaxPrimDepth) + " levels (at " + prim_path + ")");
        complete(index, prim_path, depth);
        std::vector<IndexNode*> order;
        strength_order(index, order);
        std::vector<Opinion> ops;
        for (IndexNode* n : order)
            for (const Site& s : n->sites) ops.push_back({s.spec, n, n->map.after(n->stack->layers[std::size_t(s.layer)].map), s.layer});
        auto out = std::make_unique<PrimSpec>();
        charge(double(sizeof(PrimSpec) + name.size()));
        out->name = name;
        out->specifier = PrimSpec::Specifier::Over;
        bool specifier_done = false;
        std::set<std::string> meta_done;
        std::vector<std::string> api_schemas;
        std::map<std::string, std::size_t> prop_at;
        std::vector<PropState> states;
        for (const Opinion& o : ops) {
            refuse_unsupported(o, prim_path);
            if (!out->line) out->line = o.spec->line;
            // The strongest def or class decides (an over says nothing of the specifier).
            if (!specifier_done && o.spec->specifier != PrimSpec::Specifier::Over) {
                out->specifier = o.spec->specifier;
                specifier_done = true;
            }
            if (out->type.empty()) out->type = o.spec->type;
            for (const auto& m : o.spec->metadata) {
                const std::string& key = m.first;
                // The arcs are composed here and not restated; apiSchemas are the union of the opinions.
                if (key == "references" || key == "payload" || key == "variants" || key == "variantSets") continue;
                if (key == "apiSchemas") {
                    for (const auto& s : strings_of(m.second.second))
                        if (std::find(api_schemas.begin(), api_schemas.end(), s) == api_schemas.end()) api_schemas.push_back(s);
                    continue;
                }
                if (!meta_done.insert(key).second) continue;
                charge(value_bytes(m.second.second));
                out->metadata.push_back(m);
            }
            // A property declared twice in one spec: the later is the spec's (Sdf keeps it).
            std::set<std::string> seen_here;
            for (auto it = o.spec->properties.rbegin(); it != o.spec->properties.rend(); ++it) {
                if (!seen_here.insert(it->name).second) continue;
                auto at = prop_at.find(it->name);
                const bool first = at == prop_at.end();
                if (first) {
                    at = prop_at.emplace(it->name, out->properties.size()).first;
                    out->properties.emplace_back();
                    states.emplace_back();
                }
                compose_property(out->properties[at->second], states[at->second], *it, o, first);
            }
        }
        if (!api_schemas.empty()) {
            Value v;
            v.kind = Value::Kind::List;
            for (const auto& s : api_schemas) {
                Value i;
                i.kind = Value::Kind::Token;
                i.text = s;
                v.items.push_back(std::move(i));
            }
            out->metadata.push_back({"apiSchemas", {ListEdit::Explicit, std::move(v)}});
        }
        // An inactive prim's namespace is not composed (Usd prunes it).
        if (const Value* a = out->meta("active"); a && a->kind == Value::Kind::Number && a->number == 0) return out;
        std::vector<std::string> names;
        for (const Opinion& o : ops)
            for (const auto& c : o.spec->children)
                if (std::find(names.begin(), names.end(), c->name) == names.end()) names.push_back(c->name);
        // An instance's descendants are its prototype's: Usd ignores what the instance's own layer
        // stack says below it (its variants and arcs still count; the prim's own opinions too).
        // Only a prim that brings in data by an arc of its own (a reference, payload or variant
        // authored at this prim, with specs) is an instance: Pcp finds no instanceable data in a
        // prim tagged instanceable = true without one, and composes its children as usual.
        bool instance = false;
        if (const Value* v = out->meta("instanceable"); v && v->kind == Value::Kind::Number && v->number != 0)
            instance = std::any_of(order.begin(), order.end(), [&](const IndexNode* n) { return n != &index && n->depth == depth && !n->sites.empty(); });
        if (instance) record("instance " + prim_path);
        for (const auto& child : names) {
            auto ci = child_index(index, child, nullptr);
            if (ci && instance) {
                if (!ci->sites.empty()) local_below_instances.insert(prim_path);
                ci->sites.clear();
                if (!has_sites(*ci)) ci.reset();
            }
            if (!ci) continue;
            out->children.push_back(compose_prim(*ci, child, prim_path + "/" + child, depth + 1));
        }
        return out;
    }

    static bool has_sites(const IndexNode& n) {
        if (!n.sites.empty()) return true;
        for (const auto& c : n.children)
            if (has_sites(*c)) return true;
        return false;
    }

    Layer compose() {
        const LayerStack& stack = stacks.of(root);
        Layer out;
        out.path = root.path;
        out.format = root.format;
        // Stage metadata are the root layer's alone (Usd reads startTimeCode, metersPerUnit,
        // upAxis... from it, not from sublayers or references).
        out.metadata = root.metadata;
        out.metadata.erase("subLayers");
        out.metadata.erase("subLayerOffsets");
        for (std::size_t k = 1; k < stack.layers.size(); ++k)
            record("sublayer " + shown(files.name_of(*stack.layers[k].layer)) + offset_text(stack.layers[k].map));
        std::vector<std::string> names;
        for (const auto& e : stack.layers)
            for (const auto& r : e.layer->roots)
                if (std::find(names.begin(), names.end(), r->name) == names.end()) names.push_back(r->name);
        for (const auto& name : names) {
            IndexNode index;
            index.stack = &stack;
            index.site_path = "/" + name;
            index.describe = files.name_of(root) + "</" + name + ">";
            index.sites = sites_at(stack, "/" + name);
            out.roots.push_back(compose_prim(index, name, "/" + name, 0));
        }
        out.instances_with_local_opinions = std::move(local_below_instances);
        return out;
    }
};

}  // namespace

std::string flatten_hint(const std::string& path) {
    return " (flatten it with usd-core: python3 -c \"from pxr import Usd; Usd.Stage.Open('" + path +
           "').Export('flat.usda')\")";
}

Layer compose_stage(LayerFiles& files, const Layer& root, std::vector<std::string>& warnings, std::vector<std::string>& composed) {
    return Composer(files, root, warnings, composed).compose();
}

}  // namespace rigscope::usd
