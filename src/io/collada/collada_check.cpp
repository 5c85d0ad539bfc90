#include "io/load_budget.h"
#include "io/collada/collada_check.h"

#include <pugixml.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <unordered_map>
#include <vector>

#include "rigscope/core/error.h"

namespace rigscope {

namespace {

// Whitespace-separated tokens of an element's text.
std::size_t count_tokens(const char* s) {
    std::size_t n = 0;
    bool in = false;
    for (; *s; ++s) {
        const bool space = *s == ' ' || *s == '\n' || *s == '\r' || *s == '\t';  // XML whitespace
        if (!space && !in) ++n;
        in = !space;
    }
    return n;
}

// An attribute that must be a non-negative integer when present.
std::uint64_t count_attr(const std::string& path, const pugi::xml_node& e, const char* name, std::uint64_t fallback) {
    const pugi::xml_attribute a = e.attribute(name);
    if (!a) return fallback;
    const char* v = a.value();
    char* end = nullptr;
    errno = 0;
    const unsigned long long n = std::strtoull(v, &end, 10);
    if (end == v || *end || errno || std::strchr(v, '-'))
        throw bad_input(path, std::string("<") + e.name() + "> " + name + "=\"" + v + "\" is not a count");
    return n;
}

// XML's whitespace, the only separator Assimp's Collada parser knows (a form feed between two
// numbers made it allocate 18 GB).
bool separator(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
bool ends_token(char c) { return c == 0 || separator(c); }

std::vector<long long> integers(const std::string& path, const pugi::xml_node& e, const std::string& what) {
    std::vector<long long> out;
    const char* s = e.child_value();
    for (;;) {
        while (separator(*s)) ++s;
        if (!*s) break;
        char* end = nullptr;
        errno = 0;
        const long long v = (*s == '-' || (*s >= '0' && *s <= '9')) ? std::strtoll(s, &end, 10) : 0;
        if (!end || end == s || !ends_token(*end)) throw bad_input(path, what + " holds something that is not an integer");
        if (errno) throw bad_input(path, what + " holds an integer out of range");
        out.push_back(v);
        s = end;
    }
    return out;
}

std::string name_of(const pugi::xml_node& e) {
    const char* id = e.attribute("id").value();
    return *id ? id : e.attribute("name").value();
}

// The nearest enclosing element that has an id or a name, for messages.
std::string owner_of(pugi::xml_node e) {
    for (; e && e.type() == pugi::node_element; e = e.parent())
        if (!name_of(e).empty()) return std::string("<") + e.name() + "> '" + name_of(e) + "'";
    return "the document";
}

struct Checker {
    const std::string& path;
    std::unordered_map<std::string, pugi::xml_node> by_id;

    pugi::xml_node resolve(const char* ref) const {
        if (!ref || *ref != '#') return {};
        auto it = by_id.find(ref + 1);
        return it == by_id.end() ? pugi::xml_node() : it->second;
    }

    // Elements a <source> offers: its accessor's count, once the accessor is checked against
    // its array; the array's own count where there is no accessor.
    std::uint64_t elements(const pugi::xml_node& source, const std::string& what) const {
        if (!source || std::strcmp(source.name(), "source") != 0) throw bad_input(path, what + " refers to no <source>");
        const pugi::xml_node acc = source.child("technique_common").child("accessor");
        pugi::xml_node array;
        for (const char* kind : {"float_array", "Name_array", "IDREF_array", "int_array", "bool_array", "SIDREF_array"})
            if ((array = source.child(kind))) break;
        if (acc) {
            if (const pugi::xml_node r = resolve(acc.attribute("source").value())) array = r;
        }
        const std::uint64_t values = array ? count_tokens(array.child_value()) : 0;
        if (!acc) return values;
        const std::uint64_t count = count_attr(path, acc, "count", 0);
        const std::uint64_t stride = count_attr(path, acc, "stride", 1);
        const std::uint64_t offset = count_attr(path, acc, "offset", 0);
        if (stride == 0 || count > (UINT64_MAX - offset) / stride || offset + count * stride > values)
            throw bad_input(path, "source '" + name_of(source) + "': its accessor claims " + std::to_string(count) + " elements of " +
                                      std::to_string(stride) + " values, its array holds " + std::to_string(values));
        return count;
    }

    void arrays(const pugi::xml_node& root) const {
        for (const pugi::xpath_node& x : root.select_nodes("//float_array | //Name_array | //IDREF_array | //int_array")) {
            const pugi::xml_node a = x.node();
            // Assimp reads an array by its count (none: nothing), so the count must be there.
            if (!a.attribute("count")) throw bad_input(path, std::string("<") + a.name() + "> '" + name_of(a) + "' has no count attribute");
            const std::uint64_t claimed = count_attr(path, a, "count", 0);
            const std::uint64_t held = count_tokens(a.child_value());
            if (claimed != held)
                throw bad_input(path, std::string("<") + a.name() + "> '" + name_of(a) + "' says count=\"" + std::to_string(claimed) +
                                          "\" but holds " + std::to_string(held) + " values");
            if (std::strcmp(a.name(), "float_array") == 0) numbers(a, std::string("<float_array> '") + name_of(a) + "'");
        }
        // Index lists: a byte that is no digit inside one made Assimp 5.2.5 loop for ever.
        for (const pugi::xpath_node& x : root.select_nodes("//p | //vcount | //v | //int_array | //h"))
            integers(path, x.node(), std::string("<") + x.node().name() + "> in " + owner_of(x.node()));
    }

    // Every value of a float array a finite number in plain notation (Assimp's messages quote the
    // whole rest of the array; NaN and infinities are refused as in every reader).
    void numbers(const pugi::xml_node& a, const std::string& what) const {
        const char* s = a.child_value();
        for (std::size_t i = 0;; ++i) {
            while (separator(*s)) ++s;
            if (!*s) return;
            const char* stop = s;
            bool plain = true;
            while (!ends_token(*stop)) plain &= std::strchr("0123456789+-.eE", *stop++) != nullptr;
            char* end = nullptr;
            const double v = plain ? std::strtod(s, &end) : 0.0;
            if (!plain || end != stop || !std::isfinite(v))
                throw bad_input(path, what + ": value " + std::to_string(i) + " ('" + std::string(s, std::min<std::size_t>(stop - s, 24)) +
                                          "') is not a finite number");
            s = end;
        }
    }

    void skin(const pugi::xml_node& sk) const {
        const std::string what = "skin of controller '" + name_of(sk.parent()) + "'";
        std::uint64_t joints = 0, matrices = 0;
        bool have_joints = false;
        for (const pugi::xml_node in : sk.child("joints").children("input")) {
            const std::string sem = in.attribute("semantic").value();
            if (sem == "JOINT") {
                joints = elements(resolve(in.attribute("source").value()), what + " <joints> JOINT");
                have_joints = true;
            } else if (sem == "INV_BIND_MATRIX") {
                matrices = elements(resolve(in.attribute("source").value()), what + " INV_BIND_MATRIX");
            }
        }
        if (!have_joints) throw bad_input(path, what + " has no JOINT input in <joints>");
        if (matrices < joints)
            throw bad_input(path, what + ": " + std::to_string(matrices) + " inverse bind matrices for " + std::to_string(joints) + " joints");

        const pugi::xml_node vw = sk.child("vertex_weights");
        if (!vw) throw bad_input(path, what + " has no <vertex_weights>");
        const std::uint64_t n = count_attr(path, vw, "count", 0);
        std::uint64_t stride = 0, joint_offset = UINT64_MAX, weight_offset = UINT64_MAX, weight_count = 0, joint_count = 0;
        for (const pugi::xml_node in : vw.children("input")) {
            const std::uint64_t offset = count_attr(path, in, "offset", 0);
            if (offset > 16) throw bad_input(path, what + ": an input offset of " + std::to_string(offset));
            stride = std::max(stride, offset + 1);
            const std::string sem = in.attribute("semantic").value();
            if (sem == "JOINT") {
                joint_offset = offset;
                joint_count = elements(resolve(in.attribute("source").value()), what + " <vertex_weights> JOINT");
            } else if (sem == "WEIGHT") {
                weight_offset = offset;
                weight_count = elements(resolve(in.attribute("source").value()), what + " WEIGHT");
            }
        }
        if (joint_offset == UINT64_MAX || weight_offset == UINT64_MAX)
            throw bad_input(path, what + ": <vertex_weights> needs a JOINT and a WEIGHT input");

        const std::vector<long long> vcount = integers(path, vw.child("vcount"), what + " <vcount>");
        if (vcount.size() != n)
            throw bad_input(path, what + ": <vertex_weights count=\"" + std::to_string(n) + "\"> has " + std::to_string(vcount.size()) + " <vcount> entries");
        std::uint64_t pairs = 0;
        for (long long c : vcount) {
            if (c < 0 || c > 1 << 16) throw bad_input(path, what + ": a <vcount> of " + std::to_string(c));
            pairs += static_cast<std::uint64_t>(c);
        }
        const std::vector<long long> v = integers(path, vw.child("v"), what + " <v>");
        if (v.size() != pairs * stride)
            throw bad_input(path, what + ": <v> holds " + std::to_string(v.size()) + " indices, <vcount> needs " + std::to_string(pairs * stride));
        std::uint64_t at = 0;
        for (std::uint64_t vertex = 0; vertex < n; ++vertex)
            for (long long k = 0; k < vcount[vertex]; ++k, at += stride) {
                const long long j = v[at + joint_offset], w = v[at + weight_offset];
                if (j < 0)
                    throw bad_input(path, what + ": vertex " + std::to_string(vertex) + " uses joint index " + std::to_string(j) +
                                              " (the bind shape), which is not supported");
                if (static_cast<std::uint64_t>(j) >= joint_count)
                    throw bad_input(path, what + ": vertex " + std::to_string(vertex) + " uses joint index " + std::to_string(j) +
                                              ", but the skin has " + std::to_string(joint_count) + " joints");
                if (w < 0 || static_cast<std::uint64_t>(w) >= weight_count)
                    throw bad_input(path, what + ": vertex " + std::to_string(vertex) + " uses weight index " + std::to_string(w) +
                                              ", but the skin has " + std::to_string(weight_count) + " weights");
            }

        // One <vertex_weights> entry per position of the skinned geometry: Assimp looks each
        // position's weights up by its index.
        const pugi::xml_node geometry = resolve(sk.attribute("source").value());
        if (!geometry || std::strcmp(geometry.name(), "geometry") != 0) return;  // a morph under the skin: Assimp's own checks
        for (const pugi::xml_node in : geometry.child("mesh").child("vertices").children("input"))
            if (std::strcmp(in.attribute("semantic").value(), "POSITION") == 0) {
                const std::uint64_t positions = elements(resolve(in.attribute("source").value()), "geometry '" + name_of(geometry) + "' POSITION");
                if (positions != n)
                    throw bad_input(path, what + ": <vertex_weights> has " + std::to_string(n) + " entries for the " +
                                              std::to_string(positions) + " positions of geometry '" + name_of(geometry) + "'");
            }
    }
};

}  // namespace

void check_collada(const std::string& path, std::uint64_t max_memory) {
    std::uint64_t size = 0;
    {
        std::ifstream in(path, std::ios::binary | std::ios::ate);
        if (!in) throw bad_input(path, "cannot open the file");
        size = static_cast<std::uint64_t>(in.tellg());
    }
    // pugixml keeps the text and about a node per element: a few times the file's size.
    LoadBudget(path, max_memory).charge(4.0 * double(size), "the file's XML tree (four times its size)");

    pugi::xml_document doc;
    const pugi::xml_parse_result parsed = doc.load_file(path.c_str(), pugi::parse_default);
    if (!parsed)
        throw bad_input(path, std::string("not valid XML (") + parsed.description() + " at byte " + std::to_string(parsed.offset) + ")");
    const pugi::xml_node root = doc.document_element();
    if (std::strcmp(root.name(), "COLLADA") != 0)
        throw bad_input(path, std::string("not a Collada file (its root element is <") + root.name() + ">, not <COLLADA>)");

    // Assimp's Collada parser recurses once per element level.
    constexpr int kMaxDepth = 256;
    struct Depth : pugi::xml_tree_walker {
        int deepest = 0;
        bool for_each(pugi::xml_node&) override {
            deepest = std::max(deepest, depth());
            return deepest <= 256;
        }
    } depth;
    doc.traverse(depth);
    if (depth.deepest > kMaxDepth) throw bad_input(path, "XML nested deeper than " + std::to_string(kMaxDepth) + " levels");

    Checker c{path, {}};
    for (const pugi::xpath_node& x : root.select_nodes("//*[@id]")) c.by_id.emplace(x.node().attribute("id").value(), x.node());
    c.arrays(root);
    for (const pugi::xpath_node& x : root.select_nodes("//source")) c.elements(x.node(), "source");
    for (const pugi::xpath_node& x : root.select_nodes("/COLLADA/library_controllers/controller/skin")) c.skin(x.node());
}

}  // namespace rigscope
