// The text layer's cursor and lexical pieces (usda_text.h).
#include "io/usd/usda_text.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "rigscope/core/error.h"

namespace rigscope::usd::usda {

void UsdaText::fail(const std::string& what) const {
    throw bad_input(path, std::to_string(line) + ":" + std::to_string(pos - line_start + 1) + ": " + what);
}

void UsdaText::charge(std::uint64_t bytes, const char* what) {
    const std::string problem = budget.try_charge(double(bytes), what);
    if (!problem.empty()) fail(problem);
}

void UsdaText::step() {
    if (s[pos] == '\n') {
        ++line;
        line_start = pos + 1;
    }
    ++pos;
}

std::string UsdaText::describe_here() const {
    if (at_end()) return "the end of the file";
    std::size_t n = 0;
    while (pos + n < s.size() && n < 20 && !std::isspace(static_cast<unsigned char>(s[pos + n]))) ++n;
    return "'" + s.substr(pos, n ? n : 1) + "'";
}

void UsdaText::skip_space() {
    while (!at_end()) {
        char c = s[pos];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            step();
        } else if (c == '#' || (c == '/' && peek(1) == '/')) {
            while (!at_end() && s[pos] != '\n') ++pos;
        } else if (c == '/' && peek(1) == '*') {
            pos += 2;
            while (!at_end() && !(s[pos] == '*' && peek(1) == '/')) step();
            if (at_end()) fail("a /* comment is not closed");
            pos += 2;
        } else {
            break;
        }
    }
}

void UsdaText::expect(char c) {
    skip_space();
    if (peek() != c) fail(std::string("expected '") + c + "', found " + describe_here());
    step();
}

bool UsdaText::accept(char c) {
    skip_space();
    if (peek() != c) return false;
    step();
    return true;
}

bool UsdaText::ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool UsdaText::ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string UsdaText::identifier(bool namespaced) {
    skip_space();
    const std::size_t start = pos;
    if (!ident_start(peek())) return {};
    while (!at_end() && (ident_char(s[pos]) || (namespaced && s[pos] == ':' && ident_start(peek(1))))) ++pos;
    return s.substr(start, pos - start);
}

std::string UsdaText::need_identifier(const char* what, bool namespaced) {
    std::string id = identifier(namespaced);
    if (id.empty()) fail(std::string("expected ") + what + ", found " + describe_here());
    return id;
}

std::string UsdaText::quoted_string() {
    skip_space();
    const char q = peek();
    if (q != '"' && q != '\'') fail("expected a string, found " + describe_here());
    const bool triple = peek(1) == q && peek(2) == q;
    pos += triple ? 3 : 1;
    std::string out;
    for (;;) {
        if (at_end()) fail("a string is not closed");
        char c = s[pos];
        if (triple ? (c == q && peek(1) == q && peek(2) == q) : c == q) {
            pos += triple ? 3 : 1;
            break;
        }
        if (!triple && c == '\n') fail("a string runs past the end of its line");
        if (c == '\\' && pos + 1 < s.size()) {
            ++pos;
            char e = s[pos];
            out += e == 'n' ? '\n' : e == 't' ? '\t' : e;
            ++pos;
            continue;
        }
        out += c;
        step();
    }
    charge(out.size());
    return out;
}

double UsdaText::number() {
    skip_space();
    const char* begin = s.c_str() + pos;
    char* end = nullptr;
    for (const char* word : {"-inf", "inf", "nan"}) {
        const std::size_t n = std::strlen(word);
        if (s.compare(pos, n, word) == 0 && !ident_char(peek(n))) {
            pos += n;
            return word[0] == 'n' ? std::nan("") : word[0] == '-' ? -INFINITY : INFINITY;
        }
    }
    double d = std::strtod(begin, &end);
    if (end == begin) fail("expected a number, found " + describe_here());
    pos += std::size_t(end - begin);
    return d;
}

}  // namespace rigscope::usd::usda
