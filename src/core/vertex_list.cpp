#include "rigscope/core/vertex_list.h"

#include <cctype>
#include <charconv>

#include "rigscope/core/error.h"

namespace rigscope {

namespace {

std::string trim(const std::string& s) {
    std::size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return s.substr(b, e - b);
}

std::uint64_t parse_id(const std::string& text, const std::string& spec) {
    const std::string s = trim(text);
    std::uint64_t v = 0;
    // from_chars, not stoul: stoul accepts a sign and leading spaces, so "-1" would wrap around.
    auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size())
        throw Error(kExitUsage, "'" + spec + "': '" + s + "' is not a vertex id");
    return v;
}

void check_range(std::uint64_t id, std::size_t count, const std::string& spec) {
    if (id >= count)
        throw Error(kExitUsage, "'" + spec + "': vertex " + std::to_string(id) + " is out of range (the mesh has " +
                                    std::to_string(count) + " vertices, ids 0.." +
                                    (count ? std::to_string(count - 1) : std::string("none")) + ")");
}

}  // namespace

std::vector<std::uint32_t> parse_vertex_list(const std::string& spec, std::size_t vertex_count) {
    if (trim(spec).empty()) throw Error(kExitUsage, "empty vertex list");
    std::vector<std::uint32_t> out;
    std::vector<bool> seen(vertex_count, false);
    auto add = [&](std::uint64_t id) {
        if (!seen[id]) {
            seen[id] = true;
            out.push_back(static_cast<std::uint32_t>(id));
        }
    };
    std::size_t start = 0;
    while (start <= spec.size()) {
        std::size_t comma = spec.find(',', start);
        if (comma == std::string::npos) comma = spec.size();
        const std::string item = spec.substr(start, comma - start);
        start = comma + 1;
        const auto dots = item.find("..");
        if (dots == std::string::npos) {
            const std::uint64_t id = parse_id(item, spec);
            check_range(id, vertex_count, spec);
            add(id);
            continue;
        }
        const std::uint64_t a = parse_id(item.substr(0, dots), spec), b = parse_id(item.substr(dots + 2), spec);
        if (b < a) throw Error(kExitUsage, "'" + spec + "': range " + trim(item) + " runs backwards");
        // Checking the end first bounds the loop by the mesh's size, whatever the text says.
        check_range(b, vertex_count, spec);
        for (std::uint64_t id = a; id <= b; ++id) add(id);
    }
    return out;
}

}  // namespace rigscope
