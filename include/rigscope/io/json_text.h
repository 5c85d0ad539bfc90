// Reading JSON as text spans rather than a tree: merging chunk outputs copies most of their bytes
// unchanged (and numbers must keep their exact text), and a chunk may be gigabytes.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rigscope::json_text {

struct Span {
    std::size_t begin = 0, end = 0;  // [begin, end) in the text
    std::string_view of(std::string_view s) const { return s.substr(begin, end - begin); }
};

struct Member {
    std::string key;
    Span value;
};

// Malformed JSON; the message gives the byte offset.
struct SyntaxError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The document's single value (whitespace around it allowed).
Span document(std::string_view s);
// The members of an object, in order; throws SyntaxError unless `object` is one.
std::vector<Member> members(std::string_view s, Span object);
// The elements of an array, in order.
std::vector<Span> elements(std::string_view s, Span array);
// The text between an array's brackets without surrounding whitespace (empty for []).
std::string_view inner(std::string_view s, Span array);

// The text of a string value, escapes decoded; throws SyntaxError unless `value` is a string.
std::string string_value(std::string_view s, Span value);

const Member* find(const std::vector<Member>& members, std::string_view key);

}  // namespace rigscope::json_text
