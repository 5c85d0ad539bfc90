// A text layer (usda_parser.h) parsed top down: the header line, the layer's metadata, then its
// prims, each with its metadata, properties, variant sets and children. The lexical pieces are
// usda_text.cpp's, the values usda_values.cpp's.
#include "io/usd/usda_parser.h"

#include <cctype>

#include "io/usd/usda_text.h"

namespace rigscope::usd {

namespace usda {

namespace {

void parse_header(UsdaText& t, Layer& layer) {
    if (t.s.compare(0, 6, "#usda ") != 0) t.fail("not a text USD layer (it does not begin with '#usda')");
    std::size_t end = t.s.find('\n');
    std::string version = t.s.substr(6, end == std::string::npos ? std::string::npos : end - 6);
    while (!version.empty() && std::isspace(static_cast<unsigned char>(version.back()))) version.pop_back();
    if (version != "1.0" && version != "1.1") t.fail("text layer version " + version + " is not read (rigscope reads usda 1.0 and 1.1)");
    layer.format = "usda " + version;
    t.pos = end == std::string::npos ? t.s.size() : end;
}

// `reorder nameChildren = [...]` and the like: order only, which rigscope does not need.
void skip_reorder(UsdaText& t) {
    t.need_identifier("nameChildren, rootPrims or properties");
    t.expect('=');
    value(t, 0);
}

void parse_time_samples(UsdaText& t, PropertySpec& p) {
    t.expect('{');
    p.samples.clear();
    for (;;) {
        t.skip_space();
        if (t.peek() == '}') break;
        if (t.at_end()) t.fail("the time samples of '" + p.name + "' are not closed with '}'");
        double time = t.number();
        t.expect(':');
        Value v = value(t, 0);
        if (!p.samples.empty() && !(time > p.samples.back().first)) {
            // Sdf keeps samples in time order whatever the text's order; a repeated time keeps the last.
            auto it = p.samples.begin();
            while (it != p.samples.end() && it->first < time) ++it;
            if (it != p.samples.end() && it->first == time) it->second = std::move(v);
            else p.samples.insert(it, {time, std::move(v)});
        } else {
            p.samples.emplace_back(time, std::move(v));
        }
        t.charge(sizeof(std::pair<double, Value>));
        if (!t.accept(',')) {
            t.skip_space();
            if (t.peek() != '}') t.fail("expected ',' or '}' in the time samples of '" + p.name + "', found " + t.describe_here());
        }
    }
    t.expect('}');
}

// A property's declaration up to its name and field: list edit, custom, variability, type, name.
PropertySpec property_head(UsdaText& t, std::string& suffix) {
    PropertySpec p;
    p.line = t.line;
    std::string word = t.need_identifier("a property");
    ListEdit edit = list_edit(word);
    if (edit != ListEdit::Explicit) word = t.need_identifier("a property");
    if (word == "custom") {
        p.custom = true;
        word = t.need_identifier("a property type");
    }
    if (word == "uniform" || word == "config" || word == "varying") {
        p.uniform = word == "uniform";
        word = t.need_identifier("a property type");
    }
    p.type = word;
    if (t.accept('[')) {
        t.expect(']');
        p.array = true;
    }
    p.name = t.need_identifier("a property name", true);
    if (t.peek() == '.') {
        t.step();
        suffix = t.need_identifier("timeSamples, connect or default");
    }
    t.charge(sizeof(PropertySpec) + p.name.size());
    return p;
}

// `= value` of a property: time samples, targets (a relationship or a connection), or a default.
void property_value(UsdaText& t, const std::string& suffix, const std::string& type, PropertySpec& target) {
    if (suffix == "timeSamples") {
        parse_time_samples(t, target);
    } else if (suffix == "connect" || type == "rel") {
        Value v = value(t, 0);
        target.targets.clear();
        if (v.kind == Value::Kind::Path) target.targets.push_back(v.text);
        else if (v.kind == Value::Kind::List)
            for (const auto& i : v.items)
                if (i.kind == Value::Kind::Path) target.targets.push_back(i.text);
        target.has_default = true;
    } else {
        target.value = value(t, 0);
        target.has_default = true;
    }
}

void parse_property(UsdaText& t, PrimSpec& prim) {
    std::string suffix;
    PropertySpec p = property_head(t, suffix);
    PropertySpec* target = nullptr;
    if (!suffix.empty()) {
        // name.timeSamples / name.connect add to a property declared before or after.
        if (suffix == "spline") t.fail("attribute '" + p.name + "' is a spline (usda 1.1 splines are not read; bake it to time samples)");
        if (suffix != "timeSamples" && suffix != "connect" && suffix != "default")
            t.fail("unknown property field '." + suffix + "' on '" + p.name + "'");
        target = prim.property(p.name);
    }
    if (!target) {
        prim.properties.push_back(p);
        target = &prim.properties.back();
    } else {
        // A later declaration's type and variability are the same property's.
        target->type = p.type;
        target->array = p.array;
        target->uniform = target->uniform || p.uniform;
    }
    if (t.accept('=')) property_value(t, suffix, p.type, *target);
    t.skip_space();
    if (t.peek() == '(') parse_metadata_map(t, target->metadata);
}

std::unique_ptr<PrimSpec> parse_prim(UsdaText& t, const std::string& specifier, int depth);

void parse_variant_set(UsdaText& t, PrimSpec& prim, int depth);

void parse_body(UsdaText& t, PrimSpec& prim, int depth) {
    t.expect('{');
    for (;;) {
        t.skip_space();
        if (t.peek() == '}') break;
        if (t.at_end()) t.fail("prim '" + prim.name + "' is not closed with '}'");
        if (t.accept(';')) continue;
        const std::size_t here = t.pos;
        std::string word = t.need_identifier("a prim, a property or '}'");
        if (word == "def" || word == "over" || word == "class") {
            prim.children.push_back(parse_prim(t, word, depth + 1));
        } else if (word == "variantSet") {
            parse_variant_set(t, prim, depth);
        } else if (word == "reorder") {
            skip_reorder(t);
        } else {
            t.pos = here;
            parse_property(t, prim);
        }
    }
    t.expect('}');
}

void parse_variant_set(UsdaText& t, PrimSpec& prim, int depth) {
    std::string name = t.quoted_string();
    t.expect('=');
    t.expect('{');
    std::vector<std::pair<std::string, std::unique_ptr<PrimSpec>>> variants;
    for (;;) {
        t.skip_space();
        if (t.peek() == '}') break;
        if (t.at_end()) t.fail("variantSet '" + name + "' is not closed with '}'");
        std::string variant = t.quoted_string();
        auto body = std::make_unique<PrimSpec>();
        body->name = prim.name;
        body->specifier = PrimSpec::Specifier::Over;  // a variant's opinions define nothing by themselves (Sdf's variant prim spec is an over)
        body->line = t.line;
        t.skip_space();
        if (t.peek() == '(') parse_metadata(t, body->metadata);
        parse_body(t, *body, depth + 1);
        variants.emplace_back(std::move(variant), std::move(body));
    }
    t.expect('}');
    prim.variant_sets.emplace_back(std::move(name), std::move(variants));
}

std::unique_ptr<PrimSpec> parse_prim(UsdaText& t, const std::string& specifier, int depth) {
    if (depth > kMaxPrimDepth) t.fail("prims nest deeper than " + std::to_string(kMaxPrimDepth) + " levels");
    auto prim = std::make_unique<PrimSpec>();
    prim->line = t.line;
    prim->specifier = specifier == "def"    ? PrimSpec::Specifier::Def
                      : specifier == "over" ? PrimSpec::Specifier::Over
                                            : PrimSpec::Specifier::Class;
    t.skip_space();
    if (t.peek() != '"' && t.peek() != '\'') prim->type = t.need_identifier("a prim type or name");
    prim->name = t.quoted_string();
    if (prim->name.empty()) t.fail("a prim has an empty name");
    t.charge(sizeof(PrimSpec));
    t.skip_space();
    if (t.peek() == '(') parse_metadata(t, prim->metadata);
    parse_body(t, *prim, depth);
    return prim;
}

}  // namespace

}  // namespace usda

Layer parse_usda(const std::string& path, const std::string& text, std::uint64_t max_memory) {
    usda::UsdaText t(path, text, max_memory);
    t.charge(text.size(), "the layer's text");
    Layer layer;
    layer.path = path;
    usda::parse_header(t, layer);
    t.skip_space();
    if (t.peek() == '(') usda::parse_metadata_map(t, layer.metadata);
    for (;;) {
        t.skip_space();
        if (t.at_end()) break;
        const std::size_t here = t.pos;
        std::string word = t.identifier();
        if (word == "def" || word == "over" || word == "class") {
            layer.roots.push_back(usda::parse_prim(t, word, 0));
        } else if (word == "reorder") {
            usda::skip_reorder(t);
        } else {
            t.pos = here;
            t.fail("expected def, over or class, found " + t.describe_here());
        }
    }
    layer.held = t.budget.held();
    return layer;
}

}  // namespace rigscope::usd
