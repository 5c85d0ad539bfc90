// Values of a text layer (usda_text.h): strings, asset and prim paths (with a reference's layer
// offset), tuples, arrays, dictionaries, identifiers and numbers, and metadata blocks. Numeric
// tuples and arrays are kept flat (Value::numbers) and charged as they grow, so a point array of
// a million entries costs its numbers and is refused the moment it passes the budget.
#include "io/usd/usda_text.h"

namespace rigscope::usd::usda {

namespace {

bool numeric(const Value& v) { return v.kind == Value::Kind::Number || (v.kind == Value::Kind::Tuple && v.items.empty() && !v.numbers.empty()); }
int numeric_width(const Value& v) { return v.kind == Value::Kind::Number ? 1 : int(v.numbers.size()); }
void append_numbers(const Value& v, std::vector<double>& out) {
    if (v.kind == Value::Kind::Number) out.push_back(v.number);
    else v.numbers.visit([&out](const auto* d, std::size_t n) { out.insert(out.end(), d, d + n); });
}

Value path_value(UsdaText& t) {
    Value v;
    v.kind = Value::Kind::Path;
    t.step();  // <
    const std::size_t end = t.s.find('>', t.pos);
    if (end == std::string::npos || t.s.find('\n', t.pos) < end) t.fail("a path is not closed with >");
    v.text = t.s.substr(t.pos, end - t.pos);
    t.pos = end + 1;
    t.charge(v.text.size());
    return v;
}

// After '(' and an identifier: is the next non-space character c?
bool peek_after_identifier_is(UsdaText& t, char c) {
    const UsdaText::Mark save = t.mark();
    t.step();
    t.identifier();
    t.skip_space();
    bool yes = t.peek() == c;
    t.reset(save);
    return yes;
}

// `( offset = 10; scale = 2 )` after an asset or a path, kept as a Dict item of it.
void layer_offset_after(UsdaText& t, Value& v) {
    t.skip_space();
    if (t.peek() != '(') return;
    const UsdaText::Mark save = t.mark();
    t.step();
    std::string key = t.identifier();
    t.skip_space();
    t.reset(save);
    // Only a layer offset: a property's own metadata may follow its value in parentheses too.
    if ((key != "offset" && key != "scale") || !peek_after_identifier_is(t, '=')) return;
    Value offset;
    offset.kind = Value::Kind::Dict;
    std::map<std::string, Value> m;
    parse_metadata_map(t, m);
    for (auto& e : m) offset.dict.emplace_back(e.first, std::move(e.second));
    v.items.push_back(std::move(offset));
}

Value asset_value(UsdaText& t) {
    // @path@ or @@@path@@@ (a path that holds @).
    Value v;
    v.kind = Value::Kind::Asset;
    const bool triple = t.s.compare(t.pos, 3, "@@@") == 0;
    t.pos += triple ? 3 : 1;
    const std::size_t end = t.s.find(triple ? "@@@" : "@", t.pos);
    if (end == std::string::npos || t.s.find('\n', t.pos) < end) t.fail("an asset path is not closed with @");
    v.text = t.s.substr(t.pos, end - t.pos);
    t.pos = end + (triple ? 3 : 1);
    t.charge(v.text.size());
    // A reference's prim path and a layer offset may follow: @a.usda@</Prim> (offset = 10; scale = 2).
    t.skip_space();
    if (t.peek() == '<') v.items.push_back(path_value(t));
    layer_offset_after(t, v);
    return v;
}

// After an element of a ( ) or [ ] list: whether another follows, that is a comma and then not
// the closing bracket (a trailing comma ends the list).
bool another_element(UsdaText& t, char close) {
    if (!t.accept(',')) return false;
    t.skip_space();
    return t.peek() != close;
}

// ( a, b, ... ): a numeric tuple kept flat, else a tuple of values.
Value tuple_value(UsdaText& t, int depth) {
    Value v;
    t.step();
    std::vector<Value> items;
    bool all_numeric = true;
    t.skip_space();
    if (t.peek() != ')') {
        do {
            items.push_back(value(t, depth + 1));
            all_numeric = all_numeric && numeric(items.back());
        } while (another_element(t, ')'));
    }
    t.expect(')');
    v.kind = Value::Kind::Tuple;
    if (all_numeric && !items.empty()) {
        std::vector<double> numbers;
        for (const auto& i : items) append_numbers(i, numbers);
        v.width = int(numbers.size());
        v.numbers = Numbers(std::move(numbers));
    } else {
        v.items = std::move(items);
    }
    return v;
}

// [ a, b, ... ]: numbers or numeric tuples of one width kept flat, else a list of values.
Value array_value(UsdaText& t, int depth) {
    Value v;
    t.step();
    v.kind = Value::Kind::NumberArray;
    bool numeric_so_far = true;
    std::vector<double> numbers;
    t.skip_space();
    if (t.peek() != ']') {
        do {
            Value item = value(t, depth + 1);
            if (numeric_so_far && numeric(item) && (numbers.empty() || numeric_width(item) == v.width)) {
                if (numbers.empty()) v.width = numeric_width(item);
                t.charge(8ull * std::uint64_t(numeric_width(item)));
                append_numbers(item, numbers);
            } else {
                if (numeric_so_far && !numbers.empty()) t.fail("an array mixes elements of different kinds or sizes");
                numeric_so_far = false;
                t.charge(sizeof(Value));
                v.items.push_back(std::move(item));
            }
        } while (another_element(t, ']'));
    }
    t.expect(']');
    v.numbers = Numbers(std::move(numbers));
    if (!numeric_so_far) v.kind = Value::Kind::List;
    return v;
}

// { type key = value ... } as customData, variants and dictionary-valued attributes hold it.
Value dictionary(UsdaText& t, int depth) {
    if (depth > kMaxValueDepth) t.fail("dictionaries nest deeper than " + std::to_string(kMaxValueDepth) + " levels");
    Value v;
    v.kind = Value::Kind::Dict;
    t.expect('{');
    for (;;) {
        t.skip_space();
        if (t.peek() == '}') break;
        if (t.accept(';') || t.accept(',')) continue;
        std::string type = t.need_identifier("a value type");
        if (t.accept('[')) t.expect(']');
        t.skip_space();
        std::string key = (t.peek() == '"' || t.peek() == '\'') ? t.quoted_string() : t.need_identifier("a key", true);
        t.expect('=');
        Value item = type == "dictionary" ? dictionary(t, depth + 1) : value(t, depth + 1);
        v.dict.emplace_back(std::move(key), std::move(item));
    }
    t.expect('}');
    return v;
}

}  // namespace

Value value(UsdaText& t, int depth) {
    if (depth > kMaxValueDepth) t.fail("values nest deeper than " + std::to_string(kMaxValueDepth) + " levels");
    t.skip_space();
    const char c = t.peek();
    Value v;
    if (c == '"' || c == '\'') {
        v.kind = Value::Kind::String;
        v.text = t.quoted_string();
    } else if (c == '@') {
        return asset_value(t);
    } else if (c == '<') {
        // An internal reference may carry a layer offset: </Prim> (offset = 10; scale = 2).
        Value p = path_value(t);
        layer_offset_after(t, p);
        return p;
    } else if (c == '(') {
        return tuple_value(t, depth);
    } else if (c == '[') {
        return array_value(t, depth);
    } else if (c == '{') {
        return dictionary(t, depth + 1);
    } else if (UsdaText::ident_start(c) && t.s.compare(t.pos, 3, "inf") != 0 && t.s.compare(t.pos, 3, "nan") != 0) {
        std::string id = t.identifier();
        if (id == "None") return v;
        if (id == "true" || id == "false") {
            v.kind = Value::Kind::Number;
            v.number = id == "true" ? 1 : 0;
            return v;
        }
        v.kind = Value::Kind::Token;
        v.text = id;
    } else {
        v.kind = Value::Kind::Number;
        v.number = t.number();
    }
    return v;
}

void parse_metadata_map(UsdaText& t, std::map<std::string, Value>& out) {
    std::vector<std::pair<std::string, std::pair<ListEdit, Value>>> entries;
    parse_metadata(t, entries);
    for (auto& e : entries) out[e.first] = std::move(e.second.second);
}

ListEdit list_edit(const std::string& w) {
    if (w == "prepend") return ListEdit::Prepend;
    if (w == "append") return ListEdit::Append;
    if (w == "add") return ListEdit::Add;
    if (w == "delete") return ListEdit::Delete;
    if (w == "reorder") return ListEdit::Reorder;
    return ListEdit::Explicit;
}

void parse_metadata(UsdaText& t, std::vector<std::pair<std::string, std::pair<ListEdit, Value>>>& out) {
    t.expect('(');
    for (;;) {
        t.skip_space();
        if (t.peek() == ')') break;
        if (t.at_end()) t.fail("a metadata block is not closed with ')'");
        if (t.accept(';')) continue;
        if (t.peek() == '"' || t.peek() == '\'') {
            Value doc;
            doc.kind = Value::Kind::String;
            doc.text = t.quoted_string();
            out.emplace_back("doc", std::make_pair(ListEdit::Explicit, std::move(doc)));
            continue;
        }
        std::string key = t.need_identifier("a metadata key", true);
        ListEdit edit = list_edit(key);
        if (edit != ListEdit::Explicit) key = t.need_identifier("a metadata key", true);
        t.expect('=');
        Value v = value(t, 0);
        out.emplace_back(key, std::make_pair(edit, std::move(v)));
    }
    t.expect(')');
}

}  // namespace rigscope::usd::usda
