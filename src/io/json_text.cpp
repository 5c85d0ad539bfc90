#include "rigscope/io/json_text.h"

#include <nlohmann/json.hpp>

namespace rigscope::json_text {

namespace {

bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::size_t skip_ws(std::string_view s, std::size_t i) {
    while (i < s.size() && is_ws(s[i])) ++i;
    return i;
}

[[noreturn]] void fail(const char* what, std::size_t at) {
    throw SyntaxError(std::string(what) + " at byte " + std::to_string(at));
}

std::size_t string_end(std::string_view s, std::size_t i) {
    // s[i] is the opening quote.
    for (++i; i < s.size(); ++i) {
        if (s[i] == '\\') ++i;
        else if (s[i] == '"') return i + 1;
    }
    fail("unterminated string", s.size());
}

// End of the value starting at i. Iterative, so nesting depth costs no stack.
std::size_t value_end(std::string_view s, std::size_t i) {
    i = skip_ws(s, i);
    if (i >= s.size()) fail("value expected", i);
    const char c = s[i];
    if (c == '"') return string_end(s, i);
    if (c != '[' && c != '{') {
        const std::size_t b = i;
        while (i < s.size() && !is_ws(s[i]) && s[i] != ',' && s[i] != ']' && s[i] != '}' && s[i] != ':') ++i;
        if (i == b) fail("value expected", b);
        return i;
    }
    std::string stack;
    for (; i < s.size(); ++i) {
        const char d = s[i];
        if (d == '"') {
            i = string_end(s, i) - 1;
        } else if (d == '[' || d == '{') {
            stack.push_back(d == '[' ? ']' : '}');
        } else if (d == ']' || d == '}') {
            if (stack.empty() || stack.back() != d) fail("mismatched bracket", i);
            stack.pop_back();
            if (stack.empty()) return i + 1;
        }
    }
    fail("unterminated array or object", s.size());
}

std::string decode_key(std::string_view lit) {
    if (lit.find('\\') == std::string_view::npos) return std::string(lit.substr(1, lit.size() - 2));
    return nlohmann::json::parse(lit).get<std::string>();
}

}  // namespace

Span document(std::string_view s) {
    const std::size_t b = skip_ws(s, 0);
    const std::size_t e = value_end(s, b);
    if (skip_ws(s, e) != s.size()) fail("text after the document", skip_ws(s, e));
    return Span{b, e};
}

std::vector<Member> members(std::string_view s, Span object) {
    std::vector<Member> out;
    std::size_t i = object.begin;
    if (i >= object.end || s[i] != '{') fail("object expected", i);
    i = skip_ws(s, i + 1);
    if (i < object.end && s[i] == '}') return out;
    for (;;) {
        i = skip_ws(s, i);
        if (i >= object.end || s[i] != '"') fail("member name expected", i);
        const std::size_t ke = string_end(s, i);
        Member m;
        m.key = decode_key(s.substr(i, ke - i));
        i = skip_ws(s, ke);
        if (i >= object.end || s[i] != ':') fail("':' expected", i);
        const std::size_t vb = skip_ws(s, i + 1);
        const std::size_t ve = value_end(s, vb);
        m.value = Span{vb, ve};
        out.push_back(std::move(m));
        i = skip_ws(s, ve);
        if (i < object.end && s[i] == ',') {
            ++i;
            continue;
        }
        if (i < object.end && s[i] == '}') return out;
        fail("',' or '}' expected", i);
    }
}

std::vector<Span> elements(std::string_view s, Span array) {
    std::vector<Span> out;
    std::size_t i = array.begin;
    if (i >= array.end || s[i] != '[') fail("array expected", i);
    i = skip_ws(s, i + 1);
    if (i < array.end && s[i] == ']') return out;
    for (;;) {
        const std::size_t vb = skip_ws(s, i);
        const std::size_t ve = value_end(s, vb);
        out.push_back(Span{vb, ve});
        i = skip_ws(s, ve);
        if (i < array.end && s[i] == ',') {
            ++i;
            continue;
        }
        if (i < array.end && s[i] == ']') return out;
        fail("',' or ']' expected", i);
    }
}

std::string_view inner(std::string_view s, Span array) {
    if (array.end - array.begin < 2 || s[array.begin] != '[') fail("array expected", array.begin);
    std::size_t b = skip_ws(s, array.begin + 1), e = array.end - 1;
    while (e > b && is_ws(s[e - 1])) --e;
    return s.substr(b, e - b);
}

std::string string_value(std::string_view s, Span value) {
    const std::string_view lit = value.of(s);
    if (lit.size() < 2 || lit.front() != '"' || lit.back() != '"') fail("string expected", value.begin);
    return decode_key(lit);
}

const Member* find(const std::vector<Member>& members, std::string_view key) {
    for (const Member& m : members)
        if (m.key == key) return &m;
    return nullptr;
}

}  // namespace rigscope::json_text
