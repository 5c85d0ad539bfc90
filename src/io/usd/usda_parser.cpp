#include "io/load_budget.h"
#include "io/usd/usda_parser.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

#include "rigscope/core/error.h"

namespace rigscope::usd {

namespace {

// Deeper nesting than any layer writer produces (values: a matrix array is three levels; prims: a
// character's deepest hierarchy is a few dozen): past these the file is refused, not recursed into.
constexpr int kMaxValueDepth = 32;
constexpr int kMaxPrimDepth = 512;

class Parser {
public:
    Parser(const std::string& path, const std::string& text, std::uint64_t max_memory)
        : path_(path), s_(text), budget_(path, max_memory) {}

    Layer parse() {
        charge(s_.size(), "the layer's text");
        Layer layer;
        layer.path = path_;
        parse_header(layer);
        skip_space();
        if (peek() == '(') parse_metadata_map(layer.metadata);
        for (;;) {
            skip_space();
            if (at_end()) break;
            const std::size_t here = pos_;
            std::string word = identifier();
            if (word == "def" || word == "over" || word == "class") {
                layer.roots.push_back(parse_prim(word, 0));
            } else if (word == "reorder") {
                skip_reorder();
            } else {
                pos_ = here;
                fail("expected def, over or class, found " + describe_here());
            }
        }
        layer.held = budget_.held();
        return layer;
    }

private:
    const std::string& path_;
    const std::string& s_;
    LoadBudget budget_;  // the text, then every value parsed from it
    std::size_t pos_ = 0;
    int line_ = 1;
    std::size_t line_start_ = 0;

    [[noreturn]] void fail(const std::string& what) const {
        throw bad_input(path_, std::to_string(line_) + ":" + std::to_string(pos_ - line_start_ + 1) + ": " + what);
    }

    void charge(std::uint64_t bytes, const char* what = "the layer's values") {
        const std::string problem = budget_.try_charge(double(bytes), what);
        if (!problem.empty()) fail(problem);
    }

    bool at_end() const { return pos_ >= s_.size(); }
    char peek(std::size_t ahead = 0) const { return pos_ + ahead < s_.size() ? s_[pos_ + ahead] : '\0'; }
    void step() {
        if (s_[pos_] == '\n') {
            ++line_;
            line_start_ = pos_ + 1;
        }
        ++pos_;
    }

    std::string describe_here() const {
        if (at_end()) return "the end of the file";
        std::size_t n = 0;
        while (pos_ + n < s_.size() && n < 20 && !std::isspace(static_cast<unsigned char>(s_[pos_ + n]))) ++n;
        return "'" + s_.substr(pos_, n ? n : 1) + "'";
    }

    // Whitespace and comments: `#` and `//` to the end of the line, `/* ... */`.
    void skip_space() {
        while (!at_end()) {
            char c = s_[pos_];
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
                step();
            } else if (c == '#' || (c == '/' && peek(1) == '/')) {
                while (!at_end() && s_[pos_] != '\n') ++pos_;
            } else if (c == '/' && peek(1) == '*') {
                pos_ += 2;
                while (!at_end() && !(s_[pos_] == '*' && peek(1) == '/')) step();
                if (at_end()) fail("a /* comment is not closed");
                pos_ += 2;
            } else {
                break;
            }
        }
    }

    void expect(char c) {
        skip_space();
        if (peek() != c) fail(std::string("expected '") + c + "', found " + describe_here());
        step();
    }
    bool accept(char c) {
        skip_space();
        if (peek() != c) return false;
        step();
        return true;
    }

    static bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
    static bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

    // An identifier, possibly namespaced (primvars:skel:jointIndices); empty when none is here.
    std::string identifier(bool namespaced = false) {
        skip_space();
        const std::size_t start = pos_;
        if (!ident_start(peek())) return {};
        while (!at_end() && (ident_char(s_[pos_]) || (namespaced && s_[pos_] == ':' && ident_start(peek(1))))) ++pos_;
        return s_.substr(start, pos_ - start);
    }
    std::string need_identifier(const char* what, bool namespaced = false) {
        std::string id = identifier(namespaced);
        if (id.empty()) fail(std::string("expected ") + what + ", found " + describe_here());
        return id;
    }

    void parse_header(Layer& layer) {
        if (s_.compare(0, 6, "#usda ") != 0) fail("not a text USD layer (it does not begin with '#usda')");
        std::size_t end = s_.find('\n');
        std::string version = s_.substr(6, end == std::string::npos ? std::string::npos : end - 6);
        while (!version.empty() && std::isspace(static_cast<unsigned char>(version.back()))) version.pop_back();
        if (version != "1.0" && version != "1.1")
            fail("text layer version " + version + " is not read (rigscope reads usda 1.0 and 1.1)");
        layer.format = "usda " + version;
        pos_ = end == std::string::npos ? s_.size() : end;
    }

    std::string quoted_string() {
        skip_space();
        const char q = peek();
        if (q != '"' && q != '\'') fail("expected a string, found " + describe_here());
        const bool triple = peek(1) == q && peek(2) == q;
        pos_ += triple ? 3 : 1;
        std::string out;
        for (;;) {
            if (at_end()) fail("a string is not closed");
            char c = s_[pos_];
            if (triple ? (c == q && peek(1) == q && peek(2) == q) : c == q) {
                pos_ += triple ? 3 : 1;
                break;
            }
            if (!triple && c == '\n') fail("a string runs past the end of its line");
            if (c == '\\' && pos_ + 1 < s_.size()) {
                ++pos_;
                char e = s_[pos_];
                out += e == 'n' ? '\n' : e == 't' ? '\t' : e;
                ++pos_;
                continue;
            }
            out += c;
            step();
        }
        charge(out.size());
        return out;
    }

    Value asset_value() {
        // @path@ or @@@path@@@ (a path that holds @).
        Value v;
        v.kind = Value::Kind::Asset;
        const bool triple = s_.compare(pos_, 3, "@@@") == 0;
        pos_ += triple ? 3 : 1;
        const std::size_t end = s_.find(triple ? "@@@" : "@", pos_);
        if (end == std::string::npos || s_.find('\n', pos_) < end) fail("an asset path is not closed with @");
        v.text = s_.substr(pos_, end - pos_);
        pos_ = end + (triple ? 3 : 1);
        charge(v.text.size());
        // A reference's prim path and a layer offset may follow: @a.usda@</Prim> (offset = 10; scale = 2).
        skip_space();
        if (peek() == '<') v.items.push_back(path_value());
        layer_offset_after(v);
        return v;
    }

    // `( offset = 10; scale = 2 )` after an asset or a path, kept as a Dict item of it.
    void layer_offset_after(Value& v) {
        skip_space();
        if (peek() != '(') return;
        std::size_t save = pos_;
        int sl = line_;
        std::size_t ss = line_start_;
        step();
        std::string key = identifier();
        skip_space();
        pos_ = save, line_ = sl, line_start_ = ss;
        // Only a layer offset: a property's own metadata may follow its value in parentheses too.
        if ((key != "offset" && key != "scale") || !peek_after_identifier_is('=')) return;
        Value offset;
        offset.kind = Value::Kind::Dict;
        std::map<std::string, Value> m;
        parse_metadata_map(m);
        for (auto& e : m) offset.dict.emplace_back(e.first, std::move(e.second));
        v.items.push_back(std::move(offset));
    }

    // After '(' and an identifier: is the next non-space character c?
    bool peek_after_identifier_is(char c) {
        std::size_t save = pos_;
        int sl = line_;
        std::size_t ss = line_start_;
        step();
        identifier();
        skip_space();
        bool yes = peek() == c;
        pos_ = save, line_ = sl, line_start_ = ss;
        return yes;
    }

    Value path_value() {
        Value v;
        v.kind = Value::Kind::Path;
        step();  // <
        const std::size_t end = s_.find('>', pos_);
        if (end == std::string::npos || s_.find('\n', pos_) < end) fail("a path is not closed with >");
        v.text = s_.substr(pos_, end - pos_);
        pos_ = end + 1;
        charge(v.text.size());
        return v;
    }

    double number() {
        skip_space();
        const char* begin = s_.c_str() + pos_;
        char* end = nullptr;
        // inf, -inf and nan as Sdf writes them.
        for (const char* word : {"-inf", "inf", "nan"}) {
            const std::size_t n = std::strlen(word);
            if (s_.compare(pos_, n, word) == 0 && !ident_char(peek(n))) {
                pos_ += n;
                return word[0] == 'n' ? std::nan("") : word[0] == '-' ? -INFINITY : INFINITY;
            }
        }
        double d = std::strtod(begin, &end);
        if (end == begin) fail("expected a number, found " + describe_here());
        pos_ += std::size_t(end - begin);
        return d;
    }

    static bool numeric(const Value& v) {
        return v.kind == Value::Kind::Number || (v.kind == Value::Kind::Tuple && v.items.empty() && !v.numbers.empty());
    }
    static int numeric_width(const Value& v) { return v.kind == Value::Kind::Number ? 1 : int(v.numbers.size()); }
    static void append_numbers(const Value& v, std::vector<double>& out) {
        if (v.kind == Value::Kind::Number) out.push_back(v.number);
        else v.numbers.visit([&out](const auto* d, std::size_t n) { out.insert(out.end(), d, d + n); });
    }

    Value value(int depth) {
        if (depth > kMaxValueDepth) fail("values nest deeper than " + std::to_string(kMaxValueDepth) + " levels");
        skip_space();
        const char c = peek();
        Value v;
        if (c == '"' || c == '\'') {
            v.kind = Value::Kind::String;
            v.text = quoted_string();
        } else if (c == '@') {
            return asset_value();
        } else if (c == '<') {
            // An internal reference may carry a layer offset: </Prim> (offset = 10; scale = 2).
            Value p = path_value();
            layer_offset_after(p);
            return p;
        } else if (c == '(') {
            step();
            std::vector<Value> items;
            bool all_numeric = true;
            skip_space();
            if (peek() != ')') {
                for (;;) {
                    items.push_back(value(depth + 1));
                    all_numeric = all_numeric && numeric(items.back());
                    if (accept(',')) {
                        skip_space();
                        if (peek() == ')') break;
                        continue;
                    }
                    break;
                }
            }
            expect(')');
            v.kind = Value::Kind::Tuple;
            if (all_numeric && !items.empty()) {
                std::vector<double> numbers;
                for (const auto& i : items) append_numbers(i, numbers);
                v.width = int(numbers.size());
                v.numbers = Numbers(std::move(numbers));
            } else {
                v.items = std::move(items);
            }
        } else if (c == '[') {
            step();
            v.kind = Value::Kind::NumberArray;
            bool numeric_so_far = true;
            std::vector<double> numbers;
            skip_space();
            if (peek() != ']') {
                for (;;) {
                    Value item = value(depth + 1);
                    if (numeric_so_far && numeric(item) && (numbers.empty() || numeric_width(item) == v.width)) {
                        if (numbers.empty()) v.width = numeric_width(item);
                        charge(8ull * std::uint64_t(numeric_width(item)));
                        append_numbers(item, numbers);
                    } else {
                        if (numeric_so_far && !numbers.empty()) fail("an array mixes elements of different kinds or sizes");
                        numeric_so_far = false;
                        charge(sizeof(Value));
                        v.items.push_back(std::move(item));
                    }
                    if (accept(',')) {
                        skip_space();
                        if (peek() == ']') break;
                        continue;
                    }
                    break;
                }
            }
            expect(']');
            v.numbers = Numbers(std::move(numbers));
            if (!numeric_so_far) v.kind = Value::Kind::List;
        } else if (c == '{') {
            return dictionary(depth + 1);
        } else if (ident_start(c) && s_.compare(pos_, 3, "inf") != 0 && s_.compare(pos_, 3, "nan") != 0) {
            std::string id = identifier();
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
            v.number = number();
        }
        return v;
    }

    // { type key = value ... } as customData, variants and dictionary-valued attributes hold it.
    Value dictionary(int depth) {
        if (depth > kMaxValueDepth) fail("dictionaries nest deeper than " + std::to_string(kMaxValueDepth) + " levels");
        Value v;
        v.kind = Value::Kind::Dict;
        expect('{');
        for (;;) {
            skip_space();
            if (peek() == '}') break;
            if (accept(';') || accept(',')) continue;
            std::string type = need_identifier("a value type");
            if (accept('[')) expect(']');
            skip_space();
            std::string key = (peek() == '"' || peek() == '\'') ? quoted_string() : need_identifier("a key", true);
            expect('=');
            Value item = type == "dictionary" ? dictionary(depth + 1) : value(depth + 1);
            v.dict.emplace_back(std::move(key), std::move(item));
        }
        expect('}');
        return v;
    }

    // ( key = value ... ) of a layer, a property or a variant: list edits kept only as values.
    void parse_metadata_map(std::map<std::string, Value>& out) {
        std::vector<std::pair<std::string, std::pair<ListEdit, Value>>> entries;
        parse_metadata(entries);
        for (auto& e : entries) out[e.first] = std::move(e.second.second);
    }

    static ListEdit list_edit(const std::string& w) {
        if (w == "prepend") return ListEdit::Prepend;
        if (w == "append") return ListEdit::Append;
        if (w == "add") return ListEdit::Add;
        if (w == "delete") return ListEdit::Delete;
        if (w == "reorder") return ListEdit::Reorder;
        return ListEdit::Explicit;
    }

    void parse_metadata(std::vector<std::pair<std::string, std::pair<ListEdit, Value>>>& out) {
        expect('(');
        for (;;) {
            skip_space();
            if (peek() == ')') break;
            if (at_end()) fail("a metadata block is not closed with ')'");
            if (accept(';')) continue;
            if (peek() == '"' || peek() == '\'') {
                Value doc;
                doc.kind = Value::Kind::String;
                doc.text = quoted_string();
                out.emplace_back("doc", std::make_pair(ListEdit::Explicit, std::move(doc)));
                continue;
            }
            std::string key = need_identifier("a metadata key", true);
            ListEdit edit = list_edit(key);
            if (edit != ListEdit::Explicit) key = need_identifier("a metadata key", true);
            expect('=');
            Value v = value(0);
            out.emplace_back(key, std::make_pair(edit, std::move(v)));
        }
        expect(')');
    }

    void skip_reorder() {
        need_identifier("nameChildren, rootPrims or properties");
        expect('=');
        value(0);
    }

    std::unique_ptr<PrimSpec> parse_prim(const std::string& specifier, int depth) {
        if (depth > kMaxPrimDepth) fail("prims nest deeper than " + std::to_string(kMaxPrimDepth) + " levels");
        auto prim = std::make_unique<PrimSpec>();
        prim->line = line_;
        prim->specifier = specifier == "def" ? PrimSpec::Specifier::Def
                          : specifier == "over" ? PrimSpec::Specifier::Over
                                                : PrimSpec::Specifier::Class;
        skip_space();
        if (peek() != '"' && peek() != '\'') prim->type = need_identifier("a prim type or name");
        prim->name = quoted_string();
        if (prim->name.empty()) fail("a prim has an empty name");
        charge(sizeof(PrimSpec));
        skip_space();
        if (peek() == '(') parse_metadata(prim->metadata);
        parse_body(*prim, depth);
        return prim;
    }

    void parse_body(PrimSpec& prim, int depth) {
        expect('{');
        for (;;) {
            skip_space();
            if (peek() == '}') break;
            if (at_end()) fail("prim '" + prim.name + "' is not closed with '}'");
            if (accept(';')) continue;
            const std::size_t here = pos_;
            std::string word = need_identifier("a prim, a property or '}'");
            if (word == "def" || word == "over" || word == "class") {
                prim.children.push_back(parse_prim(word, depth + 1));
            } else if (word == "variantSet") {
                parse_variant_set(prim, depth);
            } else if (word == "reorder") {
                skip_reorder();
            } else {
                pos_ = here;
                parse_property(prim);
            }
        }
        expect('}');
    }

    void parse_variant_set(PrimSpec& prim, int depth) {
        std::string name = quoted_string();
        expect('=');
        expect('{');
        std::vector<std::pair<std::string, std::unique_ptr<PrimSpec>>> variants;
        for (;;) {
            skip_space();
            if (peek() == '}') break;
            if (at_end()) fail("variantSet '" + name + "' is not closed with '}'");
            std::string variant = quoted_string();
            auto body = std::make_unique<PrimSpec>();
            body->name = prim.name;
            body->specifier = PrimSpec::Specifier::Over;  // a variant's opinions define nothing by themselves (Sdf's variant prim spec is an over)
            body->line = line_;
            skip_space();
            if (peek() == '(') parse_metadata(body->metadata);
            parse_body(*body, depth + 1);
            variants.emplace_back(std::move(variant), std::move(body));
        }
        expect('}');
        prim.variant_sets.emplace_back(std::move(name), std::move(variants));
    }

    void parse_property(PrimSpec& prim) {
        PropertySpec p;
        p.line = line_;
        std::string word = need_identifier("a property");
        ListEdit edit = list_edit(word);
        if (edit != ListEdit::Explicit) word = need_identifier("a property");
        if (word == "custom") {
            p.custom = true;
            word = need_identifier("a property type");
        }
        if (word == "uniform" || word == "config" || word == "varying") {
            p.uniform = word == "uniform";
            word = need_identifier("a property type");
        }
        p.type = word;
        if (accept('[')) {
            expect(']');
            p.array = true;
        }
        p.name = need_identifier("a property name", true);
        std::string suffix;
        if (peek() == '.') {
            step();
            suffix = need_identifier("timeSamples, connect or default");
        }
        charge(sizeof(PropertySpec) + p.name.size());
        PropertySpec* target = nullptr;
        if (!suffix.empty()) {
            // name.timeSamples / name.connect add to a property declared before or after.
            if (suffix == "spline")
                fail("attribute '" + p.name + "' is a spline (usda 1.1 splines are not read; bake it to time samples)");
            if (suffix != "timeSamples" && suffix != "connect" && suffix != "default")
                fail("unknown property field '." + suffix + "' on '" + p.name + "'");
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
        if (accept('=')) {
            if (suffix == "timeSamples") {
                parse_time_samples(*target);
            } else if (suffix == "connect" || p.type == "rel") {
                Value v = value(0);
                target->targets.clear();
                if (v.kind == Value::Kind::Path) target->targets.push_back(v.text);
                else if (v.kind == Value::Kind::List)
                    for (const auto& i : v.items)
                        if (i.kind == Value::Kind::Path) target->targets.push_back(i.text);
                target->has_default = true;
            } else {
                target->value = value(0);
                target->has_default = true;
            }
        }
        skip_space();
        if (peek() == '(') parse_metadata_map(target->metadata);
    }

    void parse_time_samples(PropertySpec& p) {
        expect('{');
        p.samples.clear();
        for (;;) {
            skip_space();
            if (peek() == '}') break;
            if (at_end()) fail("the time samples of '" + p.name + "' are not closed with '}'");
            double t = number();
            expect(':');
            Value v = value(0);
            if (!p.samples.empty() && !(t > p.samples.back().first)) {
                // Sdf keeps samples in time order whatever the text's order; a repeated time keeps the last.
                auto it = p.samples.begin();
                while (it != p.samples.end() && it->first < t) ++it;
                if (it != p.samples.end() && it->first == t) it->second = std::move(v);
                else p.samples.insert(it, {t, std::move(v)});
            } else {
                p.samples.emplace_back(t, std::move(v));
            }
            charge(sizeof(std::pair<double, Value>));
            if (!accept(',')) {
                skip_space();
                if (peek() != '}') fail("expected ',' or '}' in the time samples of '" + p.name + "', found " + describe_here());
            }
        }
        expect('}');
    }
};

}  // namespace

Layer parse_usda(const std::string& path, const std::string& text, std::uint64_t max_memory) {
    return Parser(path, text, max_memory).parse();
}

}  // namespace rigscope::usd
