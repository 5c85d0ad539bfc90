// The crate's bootstrap header and its six structural sections into tables (crate_sections.h).
// Tokens and field values are LZ4 blocks; the other tables use the integer coding
// (crate_compression.cpp). Paths are stored as a tree walked depth-first by jumps, which a
// hostile file can make loop: each encoded path may be visited once.
#include "io/usd/crate_sections.h"

#include <algorithm>
#include <map>

#include "io/usd/crate_reader.h"

namespace rigscope::usd::crate {

namespace {

struct Section {
    std::uint64_t start = 0, size = 0;
};

std::string version_name(int a, int b, int c) { return std::to_string(a) + "." + std::to_string(b) + "." + std::to_string(c); }

std::map<std::string, Section> table_of_contents(CrateBytes& c) {
    Cursor h = c.at(16);
    const std::uint64_t toc = h.read<std::uint64_t>("the table of contents' offset");
    Cursor t = c.at(toc);
    const std::uint64_t count = t.read<std::uint64_t>("the table of contents");
    if (count > (c.b.size() - t.pos) / 32) c.fail("the table of contents claims " + std::to_string(count) + " sections, more than the file holds");
    std::map<std::string, Section> sections;
    for (std::uint64_t i = 0; i < count; ++i) {
        const char* name = t.bytes(16, "a section name");
        Section s;
        s.start = t.read<std::uint64_t>("a section's start");
        s.size = t.read<std::uint64_t>("a section's size");
        const std::string n(name, strnlen(name, 16));
        if (s.start > c.b.size() || s.size > c.b.size() - s.start)
            c.fail("section " + n + " (" + std::to_string(s.size) + " bytes at " + std::to_string(s.start) + ") lies outside the file");
        sections[n] = s;
    }
    for (const char* n : {"TOKENS", "STRINGS", "FIELDS", "FIELDSETS", "PATHS", "SPECS"})
        if (!sections.count(n)) c.fail(std::string("the ") + n + " section is missing");
    return sections;
}

std::vector<std::string> read_tokens(CrateBytes& c, std::uint64_t start) {
    Cursor at = c.at(start);
    const std::uint64_t count = at.read<std::uint64_t>("the token count");
    const std::uint64_t size = at.read<std::uint64_t>("the tokens' size");
    const std::uint64_t packed = at.read<std::uint64_t>("the tokens' compressed size");
    const char* in = at.bytes(packed, "the tokens");
    if (size > packed * kMaxLz4Ratio + 64) c.fail("the tokens claim " + std::to_string(size) + " bytes from " + std::to_string(packed) + " compressed (an LZ4 bomb)");
    if (count > size) c.fail("the token count " + std::to_string(count) + " exceeds the tokens' " + std::to_string(size) + " bytes");
    c.charge(size + count * sizeof(std::string), "the tokens");
    std::string chars(size, '\0');
    decompress_blocks(c.path, in, packed, &chars[0], size, "the tokens");
    std::size_t p = 0;
    std::vector<std::string> tokens;
    tokens.reserve(count);
    for (std::uint64_t i = 0; i < count; ++i) {
        const std::size_t end = chars.find('\0', p);
        if (end == std::string::npos) c.fail("the tokens section holds fewer than its " + std::to_string(count) + " tokens");
        tokens.push_back(chars.substr(p, end - p));
        p = end + 1;
    }
    return tokens;
}

std::vector<std::uint32_t> read_strings(CrateBytes& c, std::uint64_t start) {
    Cursor at = c.at(start);
    const std::uint64_t n = c.count_in(at, 4, "the strings section");
    c.charge(n * 4, "the strings");
    std::vector<std::uint32_t> strings(n);
    for (auto& s : strings) s = at.read<std::uint32_t>("a string");
    return strings;
}

std::vector<std::pair<std::uint32_t, Rep>> read_fields(CrateBytes& c, const CrateTables& t, std::uint64_t start) {
    Cursor at = c.at(start);
    const std::uint64_t n = at.read<std::uint64_t>("the field count");
    auto names = c.compressed_ints<std::uint32_t>(at, n, "the field names");
    const std::uint64_t packed = at.read<std::uint64_t>("the field values' size");
    const char* in = at.bytes(packed, "the field values");
    if (n * 8 > packed * kMaxLz4Ratio + 64) c.fail("the fields claim " + std::to_string(n) + " values from " + std::to_string(packed) + " compressed bytes (an LZ4 bomb)");
    c.charge(n * 16, "the fields");
    std::vector<std::uint64_t> reps(n);
    if (n) decompress_blocks(c.path, in, packed, reinterpret_cast<char*>(reps.data()), n * 8, "the field values");
    std::vector<std::pair<std::uint32_t, Rep>> fields(n);
    for (std::uint64_t i = 0; i < n; ++i) {
        t.token(names[i]);
        fields[i] = {names[i], Rep{reps[i]}};
    }
    return fields;
}

std::vector<std::uint32_t> read_field_sets(CrateBytes& c, std::size_t fields, std::uint64_t start) {
    Cursor at = c.at(start);
    const std::uint64_t n = at.read<std::uint64_t>("the field-set count");
    std::vector<std::uint32_t> sets = c.compressed_ints<std::uint32_t>(at, n, "the field sets");
    for (auto f : sets)
        if (f != ~0u && f >= fields) c.fail("a field set names field " + std::to_string(f) + " of " + std::to_string(fields));
    if (!sets.empty() && sets.back() != ~0u) c.fail("the field sets are not terminated");
    return sets;
}

// The path tree, depth-first with an explicit stack: a sibling is resumed after the child
// subtree. `index` places each encoded path in the table, `element` is its last name (negative:
// a property's), `jumps` says whether a child and a sibling follow.
void walk_paths(CrateBytes& c, const CrateTables& t, const std::vector<std::uint32_t>& index, const std::vector<std::int32_t>& element,
                const std::vector<std::int32_t>& jumps, std::vector<std::string>& paths) {
    const std::uint64_t n = index.size(), total = paths.size();
    // Each encoded path is visited once, so a jump table that loops is refused, not followed.
    std::vector<bool> seen(n, false);
    std::vector<std::pair<std::uint64_t, std::string>> pending;
    std::uint64_t i = 0;
    std::string parent;
    bool have_parent = false;
    for (;;) {
        if (i >= n) c.fail("the path jumps lead past the " + std::to_string(n) + " encoded paths");
        if (seen[i]) c.fail("the path jumps loop (path " + std::to_string(i) + " is reached twice)");
        seen[i] = true;
        if (index[i] >= total) c.fail("a path index " + std::to_string(index[i]) + " is past the " + std::to_string(total) + " paths");
        std::string here;
        if (!have_parent) {
            here = "/";
            have_parent = true;
        } else {
            const std::int32_t e = element[i];
            const std::string& name = t.token(std::uint64_t(e < 0 ? -std::int64_t(e) : e));
            here = e < 0 ? parent + "." + name : parent == "/" ? "/" + name : parent + "/" + name;
        }
        paths[index[i]] = here;
        const std::int32_t jump = jumps[i];
        const bool child = jump > 0 || jump == -1, sibling = jump >= 0;
        if (child && sibling) {
            if (std::uint64_t(jump) > n - i) c.fail("a path jump leads past the encoded paths");
            pending.emplace_back(i + std::uint64_t(jump), parent);
        }
        if (child) {
            parent = here;
            ++i;
        } else if (sibling) {
            ++i;
        } else {
            if (pending.empty()) break;
            i = pending.back().first;
            parent = pending.back().second;
            pending.pop_back();
        }
    }
}

std::vector<std::string> read_paths(CrateBytes& c, const CrateTables& t, std::uint64_t start) {
    Cursor at = c.at(start);
    const std::uint64_t total = at.read<std::uint64_t>("the path count");
    const std::uint64_t n = at.read<std::uint64_t>("the encoded path count");
    if (total > c.b.size() || n > c.b.size()) c.fail("the paths section claims " + std::to_string(std::max(total, n)) + " paths, more than the file could hold");
    auto index = c.compressed_ints<std::uint32_t>(at, n, "the path indexes");
    auto element = c.compressed_ints<std::int32_t>(at, n, "the path element tokens");
    auto jumps = c.compressed_ints<std::int32_t>(at, n, "the path jumps");
    c.charge(total * (sizeof(std::string) + 32), "the paths");
    std::vector<std::string> paths(total);
    if (n) walk_paths(c, t, index, element, jumps, paths);
    return paths;
}

std::vector<Spec> read_specs(CrateBytes& c, const CrateTables& t, std::uint64_t start) {
    Cursor at = c.at(start);
    const std::uint64_t n = at.read<std::uint64_t>("the spec count");
    auto p = c.compressed_ints<std::uint32_t>(at, n, "the spec paths");
    auto f = c.compressed_ints<std::uint32_t>(at, n, "the spec field sets");
    auto ty = c.compressed_ints<std::uint32_t>(at, n, "the spec types");
    std::vector<Spec> specs(n);
    for (std::uint64_t i = 0; i < n; ++i) {
        t.path_at(p[i]);
        if (f[i] >= t.field_sets.size()) c.fail("a spec's field set " + std::to_string(f[i]) + " is past the field sets");
        if (f[i] && t.field_sets[f[i] - 1] != ~0u) c.fail("a spec's field set does not begin a set");
        specs[i] = {p[i], f[i], ty[i]};
    }
    return specs;
}

}  // namespace

const std::string& CrateTables::token(std::uint64_t i) const {
    if (i >= tokens.size()) source->fail("a token index " + std::to_string(i) + " is past the " + std::to_string(tokens.size()) + " tokens");
    return tokens[i];
}

const std::string& CrateTables::string_at(std::uint64_t i) const {
    if (i >= strings.size()) source->fail("a string index " + std::to_string(i) + " is past the " + std::to_string(strings.size()) + " strings");
    return token(strings[i]);
}

const std::string& CrateTables::path_at(std::uint64_t i) const {
    if (i >= paths.size()) source->fail("a path index " + std::to_string(i) + " is past the " + std::to_string(paths.size()) + " paths");
    return paths[i];
}

void read_header(CrateBytes& c) {
    if (c.b.size() < 88) c.fail("the file is too small for a crate header");
    c.major = static_cast<unsigned char>(c.b[8]);
    c.minor = static_cast<unsigned char>(c.b[9]);
    c.patch = static_cast<unsigned char>(c.b[10]);
    const std::string name = version_name(c.major, c.minor, c.patch);
    if (c.version() > version_code(0, 14, 0)) c.fail("crate version " + name + " is newer than rigscope reads (0.4.0 to 0.14.0)");
    if (c.version() < version_code(0, 4, 0)) c.fail("crate version " + name + " is older than rigscope reads (0.4.0 to 0.14.0)");
}

CrateTables read_sections(CrateBytes& c) {
    const std::map<std::string, Section> sections = table_of_contents(c);
    CrateTables t;
    t.source = &c;
    t.tokens = read_tokens(c, sections.at("TOKENS").start);
    t.strings = read_strings(c, sections.at("STRINGS").start);
    t.fields = read_fields(c, t, sections.at("FIELDS").start);
    t.field_sets = read_field_sets(c, t.fields.size(), sections.at("FIELDSETS").start);
    t.paths = read_paths(c, t, sections.at("PATHS").start);
    t.specs = read_specs(c, t, sections.at("SPECS").start);
    return t;
}

}  // namespace rigscope::usd::crate
