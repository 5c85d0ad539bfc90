// The text layer's characters as the usda parser reads them (private to usda_*.cpp): a cursor
// that knows its line and column for messages, skips whitespace and comments, and reads the
// lexical pieces (identifiers, strings, numbers). The memory budget is here because every piece
// kept is charged as it is read: a hostile file is refused before it costs more than it may.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "io/load_budget.h"
#include "io/usd/usd_layer.h"

namespace rigscope::usd::usda {

// Deeper nesting than any layer writer produces (values: a matrix array is three levels; prims: a
// character's deepest hierarchy is a few dozen): past these the file is refused, not recursed into.
constexpr int kMaxValueDepth = 32;
constexpr int kMaxPrimDepth = 512;

class UsdaText {
public:
    UsdaText(const std::string& path, const std::string& text, std::uint64_t max_memory) : path(path), s(text), budget(path, max_memory) {}

    const std::string& path;
    const std::string& s;
    LoadBudget budget;  // the text, then every value parsed from it
    std::size_t pos = 0;
    int line = 1;
    std::size_t line_start = 0;

    // Where the cursor is, to come back to after looking ahead.
    struct Mark {
        std::size_t pos;
        int line;
        std::size_t line_start;
    };
    Mark mark() const { return {pos, line, line_start}; }
    void reset(const Mark& m) { pos = m.pos, line = m.line, line_start = m.line_start; }

    // Throws rigscope::Error naming the file and line:column.
    [[noreturn]] void fail(const std::string& what) const;
    void charge(std::uint64_t bytes, const char* what = "the layer's values");

    bool at_end() const { return pos >= s.size(); }
    char peek(std::size_t ahead = 0) const { return pos + ahead < s.size() ? s[pos + ahead] : '\0'; }
    void step();
    // What is here, for messages: up to 20 characters, or "the end of the file".
    std::string describe_here() const;
    // Whitespace and comments: `#` and `//` to the end of the line, `/* ... */`.
    void skip_space();
    void expect(char c);
    bool accept(char c);

    static bool ident_start(char c);
    static bool ident_char(char c);
    // An identifier, possibly namespaced (primvars:skel:jointIndices); empty when none is here.
    std::string identifier(bool namespaced = false);
    std::string need_identifier(const char* what, bool namespaced = false);
    // "..." or '...', or a triple-quoted string over several lines; escapes taken.
    std::string quoted_string();
    // A number, or inf, -inf and nan as Sdf writes them.
    double number();
};

// ---- values (usda_values.cpp) ----
Value value(UsdaText& t, int depth);
// ( key = value ... ) of a layer, a prim or a variant, with each key's list edit.
void parse_metadata(UsdaText& t, std::vector<std::pair<std::string, std::pair<ListEdit, Value>>>& out);
// The same where list edits are kept only as values (a layer's or a property's metadata).
void parse_metadata_map(UsdaText& t, std::map<std::string, Value>& out);
// prepend, append, add, delete, reorder; Explicit for any other word.
ListEdit list_edit(const std::string& w);

}  // namespace rigscope::usd::usda
