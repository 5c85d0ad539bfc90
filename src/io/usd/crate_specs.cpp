// The crate's specs into the layer's prim tree (crate_specs.h). Specs come in any order, a
// property's spec apart from its prim's, and a variant's body as a spec at /Prim{set=variant};
// so the prims are made first, the properties joined to them after, and the tree assembled last,
// leaves first, each subtree whole when it moves into its parent. A spec tree that leaves a
// prim without its parent is refused: a text layer could not say it.
#include "io/usd/crate_specs.h"

#include <algorithm>
#include <map>
#include <memory>

namespace rigscope::usd::crate {

namespace {

// Spec types (SdfSpecType) the layer model reads.
constexpr std::uint32_t kAttribute = 1, kPrim = 6, kPseudoRoot = 7, kRelationship = 8, kVariant = 10;

using Fields = std::vector<std::pair<std::string, Rep>>;

// What the specs give before the tree is assembled.
struct Specs {
    std::vector<std::pair<std::string, std::unique_ptr<PrimSpec>>> prims;  // in spec order
    std::map<std::string, std::vector<std::string>> child_order;           // primChildren by parent path
    struct Prop {
        std::string prim;
        PropertySpec spec;
    };
    std::vector<Prop> props;
};

std::vector<std::string> strings_of_list(const Value& v) {
    std::vector<std::string> out;
    for (const auto& i : v.items) out.push_back(i.text);
    return out;
}

Fields fields_of(const CrateTables& t, const Spec& s) {
    Fields fields;
    for (std::size_t f = s.field_set; f < t.field_sets.size() && t.field_sets[f] != ~0u; ++f)
        fields.emplace_back(t.token(t.fields[t.field_sets[f]].first), t.fields[t.field_sets[f]].second);
    return fields;
}

void layer_metadata(const Fields& fields, CrateValues& values, Layer& layer, Specs& out) {
    for (const auto& f : fields) {
        if (f.first == "primChildren") {
            for (const auto& c : strings_of_list(values.value(f.second))) out.child_order["/"].push_back(c);
            continue;
        }
        layer.metadata[f.first] = values.value(f.second);
    }
}

// One field of a prim spec into the prim: arcs and variant set names keep their list edits,
// which composition applies; the fields that only say what other specs exist are passed over.
void prim_field(const std::string& path, const std::pair<std::string, Rep>& f, CrateValues& values, PrimSpec& prim, Specs& out) {
    if (f.first == "references" || f.first == "payload" || f.first == "variantSetNames") {
        const int t = f.second.type();
        const std::string key = f.first == "variantSetNames" ? "variantSets" : f.first;
        if (t == tReferenceListOp || t == tPayloadListOp || t == tStringListOp || t == tTokenListOp) {
            for (auto& e : values.list_op_edits(f.second)) prim.metadata.push_back({key, std::move(e)});
        } else {
            prim.metadata.push_back({key, {ListEdit::Explicit, values.value(f.second)}});
        }
        return;
    }
    if (f.first == "specifier") {
        const auto sp = values.value(f.second).number;
        prim.specifier = sp == 0 ? PrimSpec::Specifier::Def : sp == 1 ? PrimSpec::Specifier::Over : PrimSpec::Specifier::Class;
    } else if (f.first == "typeName") {
        prim.type = values.value(f.second).text;
    } else if (f.first == "primChildren") {
        out.child_order[path] = strings_of_list(values.value(f.second));
    } else if (f.first == "properties") {
        return;
    } else if (f.first == "variantSelection") {
        prim.metadata.push_back({"variants", {ListEdit::Explicit, values.value(f.second)}});
    } else if (f.first == "variantChildren" || f.first == "variantSetChildren") {
        return;  // the variant specs themselves say what there is
    } else {
        prim.metadata.push_back({f.first, {ListEdit::Explicit, values.value(f.second)}});
    }
}

// A prim, or a variant (a prim body inside its prim).
void prim_spec(CrateBytes& c, const std::string& path, std::uint32_t type, const Fields& fields, CrateValues& values, Specs& out) {
    auto prim = std::make_unique<PrimSpec>();
    prim->name = path.substr(path.find_last_of('/') + 1);
    if (type == kVariant) {
        // /Char/{rig=hero}: the body of variant hero of set rig, named as its prim.
        const std::string parent = path.substr(0, path.find_last_of('/'));
        prim->name = parent.substr(parent.find_last_of('/') + 1);
        prim->specifier = PrimSpec::Specifier::Over;
    }
    c.charge(sizeof(PrimSpec), "the prims");
    for (const auto& f : fields) prim_field(path, f, values, *prim, out);
    out.prims.emplace_back(path, std::move(prim));
}

// An attribute or a relationship.
void property_spec(CrateBytes& c, const std::string& path, std::uint32_t type, const Fields& fields, CrateValues& values, Specs& out) {
    const auto dot = path.find('.');
    if (dot == std::string::npos) c.fail("property spec " + path + " has no property name");
    Specs::Prop p;
    p.prim = path.substr(0, dot);
    p.spec.name = path.substr(dot + 1);
    if (type == kRelationship) p.spec.type = "rel";
    for (const auto& f : fields) {
        if (f.first == "typeName") {
            std::string t = values.value(f.second).text;
            p.spec.array = t.size() > 2 && t.compare(t.size() - 2, 2, "[]") == 0;
            p.spec.type = p.spec.array ? t.substr(0, t.size() - 2) : t;
        } else if (f.first == "default") {
            p.spec.value = values.value(f.second);
            p.spec.has_default = true;
        } else if (f.first == "timeSamples") {
            if (f.second.type() != tTimeSamples) c.fail("attribute " + path + "'s timeSamples are a " + type_name(f.second.type()));
            values.time_samples(f.second, p.spec);
        } else if (f.first == "targetPaths" || f.first == "connectionPaths") {
            for (const auto& t : values.value(f.second).items) p.spec.targets.push_back(t.text);
            p.spec.has_default = true;
        } else if (f.first == "variability") {
            p.spec.uniform = values.value(f.second).number == 1;
        } else if (f.first == "custom") {
            p.spec.custom = values.value(f.second).number != 0;
        } else if (f.first == "spline") {
            c.fail("attribute " + path + " is a spline, which rigscope does not read (bake it to time samples)");
        } else {
            p.spec.metadata[f.first] = values.value(f.second);
        }
    }
    out.props.push_back(std::move(p));
}

// Each parent's children in its primChildren order, then any the order does not name, in spec order.
std::map<std::string, std::vector<std::string>> children_in_order(const std::vector<std::string>& order,
                                                                  std::map<std::string, std::vector<std::string>>& child_order) {
    auto parent_of = [](const std::string& p) {
        const auto slash = p.find_last_of('/');
        return slash == 0 ? std::string("/") : p.substr(0, slash);
    };
    std::map<std::string, std::vector<std::string>> children;
    for (const auto& p : order) children[parent_of(p)].push_back(p);
    for (auto& c : children) {
        auto& want = child_order[c.first];
        std::vector<std::string> sorted;
        for (const auto& name : want) {
            const std::string full = c.first == "/" ? "/" + name : c.first + "/" + name;
            if (std::find(c.second.begin(), c.second.end(), full) != c.second.end() &&
                std::find(sorted.begin(), sorted.end(), full) == sorted.end())
                sorted.push_back(full);
        }
        for (const auto& p : c.second)
            if (std::find(sorted.begin(), sorted.end(), p) == sorted.end()) sorted.push_back(p);
        c.second = std::move(sorted);
    }
    return children;
}

// {set=variant}: the body joins its prim's variant set.
void add_variant(PrimSpec& prim, const std::string& leaf, std::unique_ptr<PrimSpec> body) {
    const std::string set = leaf.substr(1, leaf.find('=') - 1);
    const std::string variant = leaf.substr(leaf.find('=') + 1, leaf.size() - leaf.find('=') - 2);
    auto vs = std::find_if(prim.variant_sets.begin(), prim.variant_sets.end(), [&](const auto& x) { return x.first == set; });
    if (vs == prim.variant_sets.end()) {
        prim.variant_sets.emplace_back(set, std::vector<std::pair<std::string, std::unique_ptr<PrimSpec>>>{});
        vs = prim.variant_sets.end() - 1;
    }
    vs->second.emplace_back(variant, std::move(body));
}

void assemble_tree(CrateBytes& c, Specs& specs, Layer& layer) {
    std::map<std::string, std::unique_ptr<PrimSpec>> by_path;
    std::vector<std::string> order;
    for (auto& o : specs.prims) {
        order.push_back(o.first);
        by_path[o.first] = std::move(o.second);
    }
    std::map<std::string, std::vector<std::string>> children = children_in_order(order, specs.child_order);
    // Attach leaves first so each subtree is whole when it moves into its parent.
    std::vector<std::string> deepest_first = order;
    std::stable_sort(deepest_first.begin(), deepest_first.end(), [](const std::string& a, const std::string& b) {
        return std::count(a.begin(), a.end(), '/') > std::count(b.begin(), b.end(), '/');
    });
    for (const auto& p : deepest_first) {
        auto& prim = by_path[p];
        if (!prim) continue;
        for (const auto& child : children[p]) {
            if (!by_path[child]) continue;
            const std::string leaf = child.substr(child.find_last_of('/') + 1);
            if (leaf.size() > 2 && leaf.front() == '{' && leaf.back() == '}' && leaf.find('=') != std::string::npos) {
                add_variant(*prim, leaf, std::move(by_path[child]));
                continue;
            }
            prim->children.push_back(std::move(by_path[child]));
        }
    }
    for (const auto& root : children["/"]) {
        if (!by_path[root]) c.fail("prim " + root + " has no parent prim spec");
        layer.roots.push_back(std::move(by_path[root]));
    }
    for (auto& b : by_path)
        if (b.second) c.fail("prim " + b.first + " has no parent prim spec");
}

}  // namespace

void build_layer(CrateBytes& c, const CrateTables& t, CrateValues& values, Layer& layer) {
    Specs specs;
    std::map<std::string, PrimSpec*> prims;
    for (const Spec& s : t.specs) {
        const std::string& path = t.path_at(s.path);
        const Fields fields = fields_of(t, s);
        if (s.type == kPseudoRoot) {  // layer metadata
            layer_metadata(fields, values, layer, specs);
        } else if (s.type == kPrim || s.type == kVariant) {
            prim_spec(c, path, s.type, fields, values, specs);
            prims[path] = specs.prims.back().second.get();
        } else if (s.type == kAttribute || s.type == kRelationship) {
            property_spec(c, path, s.type, fields, values, specs);
        }  // a variant set's own spec (type 11) holds only the names of its variants
    }
    for (auto& p : specs.props) {
        auto it = prims.find(p.prim);
        if (it == prims.end()) c.fail("property " + p.prim + "." + p.spec.name + " belongs to no prim spec");
        it->second->properties.push_back(std::move(p.spec));
    }
    assemble_tree(c, specs, layer);
}

}  // namespace rigscope::usd::crate
