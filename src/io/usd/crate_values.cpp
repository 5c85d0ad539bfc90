// Crate value reps into values (crate_values.h). What rigscope does not read a value of (an
// unregistered value, a path expression) becomes a Token naming its type, so that a reader that
// needs it can say what it found; a spline is refused by the spec step (crate_specs.cpp).
#include "io/usd/crate_values.h"

#include "io/usd/crate_numbers.h"

namespace rigscope::usd::crate {

namespace {

constexpr int kMaxValueDepth = 32;

// An empty value of kind k, which the reader then fills.
Value of_kind(Value::Kind k) {
    Value out;
    out.kind = k;
    return out;
}

Value text_value(Value::Kind k, std::string s) {
    Value out = of_kind(k);
    out.text = std::move(s);
    return out;
}

}  // namespace

Value CrateValues::string_list(Cursor& c, int kind) {
    const std::uint64_t n = c_.count_in(c, 4, "a list");
    c_.charge(n * sizeof(Value), "the lists");
    Value out = of_kind(Value::Kind::List);
    for (std::uint64_t i = 0; i < n; ++i) {
        const std::uint32_t x = c.read<std::uint32_t>("a list entry");
        if (kind == tPathVector || kind == tPathListOp) out.items.push_back(text_value(Value::Kind::Path, t_.path_at(x)));
        else if (kind == tStringVector || kind == tStringListOp) out.items.push_back(text_value(Value::Kind::String, t_.string_at(x)));
        else out.items.push_back(text_value(Value::Kind::String, t_.token(x)));
    }
    return out;
}

// A list op's lists with their edits, in the order the crate stores them: explicit, added,
// prepended, appended, deleted, ordered (header bits 1, 2, 5, 6, 3, 4; bit 0 marks an
// explicit list op, whose explicit list may be empty).
std::vector<std::pair<ListEdit, Value>> CrateValues::list_op_edits(const Rep& r) {
    Cursor c = c_.at(r.payload());
    const std::uint8_t header = c.read<std::uint8_t>("a list op");
    std::vector<std::pair<ListEdit, Value>> out;
    const std::pair<int, ListEdit> lists[] = {{1, ListEdit::Explicit}, {2, ListEdit::Add},    {5, ListEdit::Prepend},
                                              {6, ListEdit::Append},   {3, ListEdit::Delete}, {4, ListEdit::Reorder}};
    for (const auto& l : lists) {
        if (!(header & (1 << l.first))) {
            if (l.first == 1 && (header & 1)) out.push_back({ListEdit::Explicit, of_kind(Value::Kind::List)});  // an explicit empty list
            continue;
        }
        out.push_back({l.second, r.type() == tReferenceListOp || r.type() == tPayloadListOp ? arc_list(c, r.type()) : string_list(c, r.type())});
    }
    return out;
}

// A list op's items, all of its lists together but the deleted and the reordered (what
// rigscope asks of such a list, apiSchemas, is membership).
Value CrateValues::list_op(const Rep& r) {
    Value out = of_kind(Value::Kind::List);
    for (auto& e : list_op_edits(r)) {
        if (e.first == ListEdit::Delete || e.first == ListEdit::Reorder) continue;
        for (auto& i : e.second.items) out.items.push_back(std::move(i));
    }
    return out;
}

// A reference or payload as the text reader holds it: the asset path, with the prim path and
// the layer offset as its items (an SdfReference: asset string, prim path, offset and scale,
// custom data; an SdfPayload: the same without custom data, and before crate 0.8.0 without
// the offset).
Value CrateValues::arc_item(Cursor& c, bool reference) {
    Value out = text_value(Value::Kind::Asset, t_.string_at(c.read<std::uint32_t>("an arc's asset path")));
    const std::string& prim = t_.path_at(c.read<std::uint32_t>("an arc's prim path"));
    if (!prim.empty() && prim != "/") out.items.push_back(text_value(Value::Kind::Path, prim));
    if (reference || c_.version() >= version_code(0, 8, 0)) {
        Value offset, o, sc;
        offset.kind = Value::Kind::Dict;
        o.kind = sc.kind = Value::Kind::Number;
        o.number = c.read<double>("an arc's layer offset");
        sc.number = c.read<double>("an arc's layer scale");
        offset.dict = {{"offset", o}, {"scale", sc}};
        out.items.push_back(std::move(offset));
    }
    if (reference) dictionary_at(c);  // custom data: read past, not kept
    return out;
}

Value CrateValues::arc_list(Cursor& c, int kind) {
    const std::uint64_t n = c_.count_in(c, 8, "a list of arcs");
    c_.charge(n * sizeof(Value) * 3, "the lists");
    Value out = of_kind(Value::Kind::List);
    for (std::uint64_t i = 0; i < n; ++i) out.items.push_back(arc_item(c, kind == tReferenceListOp));
    return out;
}

Value CrateValues::dictionary_at(Cursor& c) {
    const std::uint64_t n = c_.count_in(c, 12, "a dictionary");
    Value out = of_kind(Value::Kind::Dict);
    for (std::uint64_t i = 0; i < n; ++i) {
        const std::string key = t_.string_at(c.read<std::uint32_t>("a dictionary key"));
        c.jump("a dictionary value");
        const Rep inner{c.read<std::uint64_t>("a dictionary value")};
        out.dict.emplace_back(key, value(inner));
    }
    return out;
}

// Set name -> selected variant, both strings.
Value CrateValues::variant_selections(const Rep& r) {
    Cursor c = c_.at(r.payload());
    const std::uint64_t n = c_.count_in(c, 8, "a variant selection map");
    Value out = of_kind(Value::Kind::Dict);
    for (std::uint64_t i = 0; i < n; ++i) {
        std::string set = t_.string_at(c.read<std::uint32_t>("a variant set's name"));
        out.dict.emplace_back(std::move(set), text_value(Value::Kind::String, t_.string_at(c.read<std::uint32_t>("a variant selection"))));
    }
    return out;
}

// (offset, scale) per sublayer.
Value CrateValues::layer_offsets(const Rep& r) {
    Cursor c = c_.at(r.payload());
    const std::uint64_t n = c_.count_in(c, 16, "the layer offsets");
    Value out = of_kind(Value::Kind::NumberArray);
    out.width = 2;
    c_.charge(n * 16, "the arrays");
    std::vector<double> offsets;
    for (std::uint64_t i = 0; i < 2 * n; ++i) offsets.push_back(c.read<double>("a layer offset"));
    out.numbers = Numbers(std::move(offsets));
    return out;
}

Value CrateValues::value(const Rep& r) {
    if (depth_ >= kMaxValueDepth) c_.fail("values nest deeper than " + std::to_string(kMaxValueDepth) + " levels");
    if (!unpacking_.insert(r.bits).second) c_.fail("a value contains itself (value rep at byte " + std::to_string(r.payload()) + ")");
    ++depth_;
    Value out = value_inner(r);
    --depth_;
    unpacking_.erase(r.bits);
    return out;
}

// Token, path and string vectors, and a vector of doubles.
Value CrateValues::vector_value(const Rep& r) {
    Cursor c = c_.at(r.payload());
    if (r.type() != tDoubleVector) return string_list(c, r.type());
    const std::uint64_t n = c_.count_in(c, 8, "a double vector");
    Value out = of_kind(Value::Kind::NumberArray);
    c_.charge(n * 8, "the arrays");
    out.numbers = stored_from(c_, c.bytes(n * 8, "a double vector"), n, Shape{1, 8, 'd'}, false);
    return out;
}

Value CrateValues::value_inner(const Rep& r) {
    const int t = r.type();
    const Shape s = shape_of(t);
    if (s.width) return r.array() ? numeric_array(c_, r, s) : numeric_scalar(c_, r, s);
    const std::uint32_t x = std::uint32_t(r.payload());
    switch (t) {
        case tToken:
            if (r.array()) return token_array(r, false);
            return text_value(Value::Kind::String, t_.token(x));
        case tString:
            if (r.array()) return token_array(r, true);
            return text_value(Value::Kind::String, t_.string_at(x));
        case tAssetPath:
            if (r.array()) return token_array(r, false);
            return text_value(Value::Kind::Asset, t_.token(x));
        case tSpecifier: case tPermission: case tVariability: {
            Value out = of_kind(Value::Kind::Number);
            out.number = x;
            return out;
        }
        case tTokenVector: case tPathVector: case tStringVector: case tDoubleVector: return vector_value(r);
        case tTokenListOp: case tStringListOp: case tPathListOp: case tReferenceListOp: case tPayloadListOp: return list_op(r);
        case tPayload: {
            Cursor c = c_.at(r.payload());
            return arc_item(c, false);
        }
        case tVariantSelectionMap: return variant_selections(r);
        case tLayerOffsetVector: return layer_offsets(r);
        case tDictionary: {
            Cursor c = c_.at(r.payload());
            return dictionary_at(c);
        }
        case tValueBlock: case tAnimationBlock: return Value{};
        case tTimeSamples: c_.fail("time samples where a single value belongs");
        case tValue: {
            Cursor c = c_.at(r.payload());
            c.jump("a value");
            return value(Rep{c.read<std::uint64_t>("a value")});
        }
        default:
            // Composition arcs and other kinds rigscope only needs to see (references, payloads,
            // variant selections, layer offsets, ...): a marker that names the kind.
            return text_value(Value::Kind::Token, type_name(t));
    }
}

Value CrateValues::token_array(const Rep& r, bool strings) {
    Value out = of_kind(Value::Kind::List);
    if (r.payload() == 0) return out;
    Cursor c = c_.at(r.payload());
    if (c_.version() < version_code(0, 5, 0)) c.read<std::uint32_t>("an array's rank");
    const std::uint64_t n = c_.version() < version_code(0, 7, 0) ? c.read<std::uint32_t>("an array size") : c.read<std::uint64_t>("an array size");
    if (n > (c_.b.size() - c.pos) / 4) c_.fail("an array claims " + std::to_string(n) + " entries, more than the file holds");
    c_.charge(n * (sizeof(Value) + 16), "the arrays");
    for (std::uint64_t i = 0; i < n; ++i) {
        const std::uint32_t x = c.read<std::uint32_t>("an array entry");
        out.items.push_back(text_value(r.type() == tAssetPath ? Value::Kind::Asset : Value::Kind::String, strings ? t_.string_at(x) : t_.token(x)));
    }
    return out;
}

void CrateValues::time_samples(const Rep& r, PropertySpec& p) {
    Cursor c = c_.at(r.payload());
    c.jump("time samples");
    const Rep times_rep{c.read<std::uint64_t>("the sample times")};
    c.jump("time samples' values");
    const std::uint64_t n = c_.count_in(c, 8, "the time samples");
    const Value times = value(times_rep);
    if (times.kind != Value::Kind::NumberArray || times.numbers.size() != n)
        c_.fail("attribute " + p.name + " has " + std::to_string(n) + " sample values for " + std::to_string(times.numbers.size()) + " times");
    c_.charge(n * sizeof(std::pair<double, Value>), "the time samples");
    for (std::uint64_t i = 0; i < n; ++i) {
        const Rep vr{c.read<std::uint64_t>("a sample value")};
        const double t = times.numbers[i];
        if (!p.samples.empty() && !(t > p.samples.back().first)) c_.fail("attribute " + p.name + "'s sample times are not increasing");
        p.samples.emplace_back(t, value(vr));
    }
}

}  // namespace rigscope::usd::crate
