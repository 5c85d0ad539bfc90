// Stanford PLY (scanners, ZBrush, Blender, MeshLab): ASCII and binary of either byte order, the
// `vertex` element's x, y, z and the `face` element's index list, and UVs for bake: per vertex
// (s, t / u, v / texture_u, texture_v, as Blender's importer reads them) and per face corner
// (MeshLab's `texcoord` list). Every count in the header is checked against the bytes left in
// the file and against --max-memory before anything is allocated for it; other elements and
// properties are skipped.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string_view>

#include "io/plain/plain_file.h"
#include "rigscope/core/error.h"
#include "rigscope/io/load.h"

namespace rigscope {

namespace {

enum class Type { i8, u8, i16, u16, i32, u32, f32, f64 };

bool type_of(std::string_view s, Type& t) {
    static const std::pair<const char*, Type> kNames[] = {
        {"char", Type::i8},   {"int8", Type::i8},     {"uchar", Type::u8},   {"uint8", Type::u8},     {"short", Type::i16},
        {"int16", Type::i16}, {"ushort", Type::u16},  {"uint16", Type::u16}, {"int", Type::i32},      {"int32", Type::i32},
        {"uint", Type::u32},  {"uint32", Type::u32},  {"float", Type::f32},  {"float32", Type::f32},  {"double", Type::f64},
        {"float64", Type::f64},
    };
    for (const auto& [n, ty] : kNames)
        if (s == n) {
            t = ty;
            return true;
        }
    return false;
}

std::size_t size_of(Type t) {
    switch (t) {
        case Type::i8: case Type::u8: return 1;
        case Type::i16: case Type::u16: return 2;
        case Type::i32: case Type::u32: case Type::f32: return 4;
        case Type::f64: return 8;
    }
    return 1;
}

bool is_integer(Type t) { return t != Type::f32 && t != Type::f64; }

bool finite_float(double x) { return std::isfinite(x) && std::abs(x) <= std::numeric_limits<float>::max(); }

// An index read as a double, for a message: whole digits where they fit a long long exactly (a
// larger one, 5e79 in an ASCII file, converted to an integer is undefined), else %g.
std::string index_text(double v) {
    if (std::abs(v) < 1e15) return std::to_string(static_cast<long long>(v));
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}

struct Property {
    std::string name;
    Type type = Type::f32;
    bool list = false;
    Type count_type = Type::u8;
};

struct Element {
    std::string name;
    std::uint64_t count = 0;
    std::vector<Property> props;
};

enum class Format { ascii, little, big };

// Splits the header into lines and words.
std::vector<std::string_view> words(std::string_view line) {
    std::vector<std::string_view> w;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
        const std::size_t b = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
        if (i > b) w.push_back(line.substr(b, i - b));
    }
    return w;
}

class Reader {
public:
    Reader(const std::string& path, const std::vector<char>& bytes, LoadBudget& budget)
        : path_(path), data_(bytes.data()), size_(bytes.size()), budget_(budget) {}

    Mesh run() {
        header();
        Mesh mesh;
        for (const Element& e : elements_) {
            if (e.name == "vertex") vertices(e, mesh);
            else if (e.name == "face") faces(e, mesh);
            else skip(e);
        }
        if (!has_vertex_) throw bad_input(path_, "no 'vertex' element");
        const std::size_t n = mesh.positions.size();
        for (const std::uint32_t i : mesh.face_indices)
            if (i >= n) throw bad_input(path_, "a face names vertex " + std::to_string(i) + " of " + std::to_string(n));
        // The vertex UVs first (the set Blender's importer makes), then the corners' texcoord.
        if (!vertex_uv_.uv.empty()) {
            vertex_uv_.corners = mesh.face_indices;
            mesh.uv_sets.push_back(std::move(vertex_uv_));
        }
        if (!corner_uv_.uv.empty()) {
            if (corner_uv_.uv.size() == mesh.face_indices.size()) {
                corner_uv_.corners.resize(corner_uv_.uv.size());
                for (std::size_t c = 0; c < corner_uv_.corners.size(); ++c) corner_uv_.corners[c] = std::uint32_t(c);
                mesh.uv_sets.push_back(std::move(corner_uv_));
            }
        }
        return mesh;
    }

    std::vector<std::string>& warnings() { return warnings_; }

private:
    [[noreturn]] void fail(const std::string& problem) const { throw bad_input(path_, problem); }

    void header() {
        std::size_t pos = 0, line_no = 0;
        bool format_seen = false;
        while (true) {
            if (pos >= size_) fail("the header has no end_header line");
            const char* nl = static_cast<const char*>(std::memchr(data_ + pos, '\n', size_ - pos));
            if (!nl) fail("the header has no end_header line");
            std::string_view line(data_ + pos, static_cast<std::size_t>(nl - (data_ + pos)));
            pos = static_cast<std::size_t>(nl - data_) + 1;
            ++line_no;
            const auto w = words(line);
            if (line_no == 1) {
                if (w.size() != 1 || w[0] != "ply") fail("not a PLY file (it does not start with 'ply')");
                continue;
            }
            if (w.empty() || w[0] == "comment" || w[0] == "obj_info") continue;
            const std::string where = "header line " + std::to_string(line_no) + ": ";
            if (w[0] == "end_header") break;
            if (w[0] == "format") {
                if (w.size() != 3 || w[2] != "1.0") fail(where + "expected 'format ascii|binary_little_endian|binary_big_endian 1.0'");
                if (w[1] == "ascii") format_ = Format::ascii;
                else if (w[1] == "binary_little_endian") format_ = Format::little;
                else if (w[1] == "binary_big_endian") format_ = Format::big;
                else fail(where + "unknown format '" + std::string(w[1]) + "'");
                format_seen = true;
            } else if (w[0] == "element") {
                long long count = 0;
                std::string_view c = w.size() == 3 ? w[2] : std::string_view();
                if (w.size() != 3 || !plain::parse_long(c, count) || !c.empty() || count < 0)
                    fail(where + "expected 'element NAME COUNT'");
                elements_.push_back(Element{std::string(w[1]), static_cast<std::uint64_t>(count), {}});
            } else if (w[0] == "property") {
                if (elements_.empty()) fail(where + "a property before any element");
                Property p;
                if (w.size() == 5 && w[1] == "list") {
                    p.list = true;
                    if (!type_of(w[2], p.count_type) || !is_integer(p.count_type) || !type_of(w[3], p.type))
                        fail(where + "unknown list types '" + std::string(w[2]) + " " + std::string(w[3]) + "'");
                    p.name = std::string(w[4]);
                } else if (w.size() == 3) {
                    if (!type_of(w[1], p.type)) fail(where + "unknown property type '" + std::string(w[1]) + "'");
                    p.name = std::string(w[2]);
                } else {
                    fail(where + "expected 'property TYPE NAME' or 'property list COUNT_TYPE TYPE NAME'");
                }
                elements_.back().props.push_back(p);
            } else {
                fail(where + "unknown keyword '" + std::string(w[0]) + "'");
            }
        }
        if (!format_seen) fail("the header has no format line");
        pos_ = pos;
    }

    // The fewest bytes a row of e can take: what the count is checked against before reading.
    std::uint64_t min_row_bytes(const Element& e) const {
        std::uint64_t b = 0;
        for (const Property& p : e.props) b += format_ == Format::ascii ? 2 : size_of(p.list ? p.count_type : p.type);
        return b;
    }

    void check_count(const Element& e) const {
        const std::uint64_t row = std::max<std::uint64_t>(min_row_bytes(e), 1);
        const std::uint64_t left = size_ - pos_;
        if (e.count > left / row)
            fail("element '" + e.name + "' claims " + std::to_string(e.count) + " rows of at least " + std::to_string(row) +
                 " bytes, but only " + std::to_string(left) + " bytes follow");
    }

    // One value of type t, as a double (exact for every PLY type).
    double value(Type t, const std::string& what) {
        if (format_ == Format::ascii) {
            std::string_view s(data_ + pos_, size_ - pos_);
            // Newlines separate rows; as whitespace they are skipped like spaces.
            std::size_t skipped = 0;
            while (skipped < s.size() && (s[skipped] == '\n' || s[skipped] == ' ' || s[skipped] == '\t' || s[skipped] == '\r')) ++skipped;
            s.remove_prefix(skipped);
            const std::size_t before = s.size();
            double v = 0;
            if (!plain::parse_double(s, v)) fail(what + ": not a number at byte " + std::to_string(pos_ + skipped));
            if (is_integer(t) && v != std::floor(v)) fail(what + ": " + std::to_string(v) + " is not an integer");
            pos_ += skipped + (before - s.size());
            return v;
        }
        const std::size_t n = size_of(t);
        if (size_ - pos_ < n) fail(what + ": the file ends inside it (truncated)");
        unsigned char b[8];
        std::memcpy(b, data_ + pos_, n);
        pos_ += n;
        if (format_ == Format::big) std::reverse(b, b + n);  // this machine is little-endian (x86, ARM)
        switch (t) {
            case Type::i8: return static_cast<std::int8_t>(b[0]);
            case Type::u8: return b[0];
            case Type::i16: { std::int16_t x; std::memcpy(&x, b, 2); return x; }
            case Type::u16: { std::uint16_t x; std::memcpy(&x, b, 2); return x; }
            case Type::i32: { std::int32_t x; std::memcpy(&x, b, 4); return x; }
            case Type::u32: { std::uint32_t x; std::memcpy(&x, b, 4); return x; }
            case Type::f32: { float x; std::memcpy(&x, b, 4); return x; }
            case Type::f64: { double x; std::memcpy(&x, b, 8); return x; }
        }
        return 0;
    }

    // A list's length, checked against the bytes left.
    std::uint64_t list_count(const Property& p, const std::string& what) {
        const double c = value(p.count_type, what + " count");
        if (c < 0) fail(what + ": negative list length");
        const std::uint64_t n = static_cast<std::uint64_t>(c);
        const std::uint64_t item = format_ == Format::ascii ? 2 : size_of(p.type);
        if (n > (size_ - pos_ + (format_ == Format::ascii ? 1 : 0)) / item)
            fail(what + ": a list of " + std::to_string(n) + " past the end of the file");
        return n;
    }

    void vertices(const Element& e, Mesh& mesh) {
        if (has_vertex_) fail("two 'vertex' elements");
        has_vertex_ = true;
        int axis[3] = {-1, -1, -1};
        for (std::size_t i = 0; i < e.props.size(); ++i)
            for (int a = 0; a < 3; ++a)
                if (e.props[i].name == std::string(1, char('x' + a)) && !e.props[i].list) axis[a] = static_cast<int>(i);
        if (axis[0] < 0 || axis[1] < 0 || axis[2] < 0) fail("element 'vertex' lacks one of the properties x, y, z");
        // UVs: the first pair present of Blender's PLY importer's names; the set is named for it.
        static const char* const kUv[][3] = {{"u", "v", "uv"}, {"s", "t", "st"}, {"texture_u", "texture_v", "texture_uv"},
                                             {"texture_s", "texture_t", "texture_st"}};
        int uv_at[2] = {-1, -1};
        for (const auto& pair : kUv) {
            int at[2] = {-1, -1};
            for (std::size_t i = 0; i < e.props.size(); ++i)
                for (int k = 0; k < 2; ++k)
                    if (!e.props[i].list && e.props[i].name == pair[k]) at[k] = static_cast<int>(i);
            if (at[0] >= 0 && at[1] >= 0) {
                uv_at[0] = at[0];
                uv_at[1] = at[1];
                vertex_uv_.name = pair[2];
                break;
            }
        }
        check_count(e);
        if (e.count >= std::numeric_limits<std::uint32_t>::max()) fail("more than 2^32 vertices");
        budget_.charge(double(e.count) * sizeof(Eigen::Vector3f), "the " + std::to_string(e.count) + " vertices");
        if (uv_at[0] >= 0) {
            budget_.charge(double(e.count) * sizeof(Eigen::Vector2f), "the " + std::to_string(e.count) + " vertex UVs");
            vertex_uv_.uv.resize(static_cast<std::size_t>(e.count));
        }
        mesh.positions.resize(static_cast<std::size_t>(e.count));
        for (std::uint64_t v = 0; v < e.count; ++v) {
            const std::string what = "vertex " + std::to_string(v);
            double c[3] = {0, 0, 0}, uv[2] = {0, 0};
            for (std::size_t i = 0; i < e.props.size(); ++i) {
                const Property& p = e.props[i];
                if (p.list) {
                    const std::uint64_t n = list_count(p, what);
                    for (std::uint64_t k = 0; k < n; ++k) value(p.type, what);
                    continue;
                }
                const double x = value(p.type, what);
                for (int a = 0; a < 3; ++a)
                    if (axis[a] == static_cast<int>(i)) c[a] = x;
                for (int a = 0; a < 2; ++a)
                    if (uv_at[a] == static_cast<int>(i)) uv[a] = x;
            }
            for (const double x : c)
                if (!finite_float(x)) fail(what + " is not a finite number (NaN, infinite or past a float)");
            mesh.positions[v] = Eigen::Vector3f(static_cast<float>(c[0]), static_cast<float>(c[1]), static_cast<float>(c[2]));
            if (uv_at[0] < 0) continue;
            if (!finite_float(uv[0]) || !finite_float(uv[1])) fail(what + ": its UV is not a finite number (NaN, infinite or past a float)");
            vertex_uv_.uv[v] = Eigen::Vector2f(static_cast<float>(uv[0]), static_cast<float>(uv[1]));
        }
    }

    void faces(const Element& e, Mesh& mesh) {
        if (has_face_) fail("two 'face' elements");
        has_face_ = true;
        int list = -1;
        for (std::size_t i = 0; i < e.props.size(); ++i)
            if (e.props[i].list && (e.props[i].name == "vertex_indices" || e.props[i].name == "vertex_index")) list = static_cast<int>(i);
        if (list < 0) fail("element 'face' has no list property vertex_indices");
        if (!is_integer(e.props[list].type)) fail("element 'face': vertex_indices are not integers");
        // MeshLab's per-corner UVs: a list of 2 n numbers (u, v per corner) beside n indices.
        int texcoord = -1;
        for (std::size_t i = 0; i < e.props.size(); ++i)
            if (e.props[i].list && e.props[i].name == "texcoord") texcoord = static_cast<int>(i);
        bool texcoord_ok = texcoord >= 0;
        corner_uv_.name = "texcoord";
        check_count(e);
        if (e.count >= std::numeric_limits<std::uint32_t>::max()) fail("more than 2^32 faces");
        budget_.charge(double(e.count) * 4, "the " + std::to_string(e.count) + " faces");
        mesh.face_offsets.reserve(static_cast<std::size_t>(e.count) + 1);
        for (std::uint64_t f = 0; f < e.count; ++f) {
            const std::string what = "face " + std::to_string(f);
            const std::size_t corners_before = mesh.face_indices.size();
            std::uint64_t texcoord_numbers = 0;
            for (std::size_t i = 0; i < e.props.size(); ++i) {
                const Property& p = e.props[i];
                if (!p.list) {
                    value(p.type, what);
                    continue;
                }
                const std::uint64_t n = list_count(p, what);
                if (static_cast<int>(i) == texcoord && texcoord_ok) {
                    texcoord_numbers = n;
                    budget_.charge(double(n / 2) * (sizeof(Eigen::Vector2f) + 4), "the face corners' UVs");
                    for (std::uint64_t k = 0; k + 1 < n; k += 2) {
                        const double u = value(p.type, what), v = value(p.type, what);
                        if (!finite_float(u) || !finite_float(v)) fail(what + ": a texcoord is not a finite number (NaN, infinite or past a float)");
                        corner_uv_.uv.emplace_back(static_cast<float>(u), static_cast<float>(v));
                    }
                    if (n % 2) value(p.type, what);
                    continue;
                }
                if (static_cast<int>(i) != list) {
                    for (std::uint64_t k = 0; k < n; ++k) value(p.type, what);
                    continue;
                }
                if (n < 3) fail(what + ": a face needs at least 3 corners, this one has " + std::to_string(n));
                budget_.charge(double(n) * 4, "the faces");
                for (std::uint64_t k = 0; k < n; ++k) {
                    const double v = value(p.type, what);
                    if (v < 0 || v >= static_cast<double>(std::numeric_limits<std::uint32_t>::max()))
                        fail(what + ": vertex index " + index_text(v) + " out of range");
                    mesh.face_indices.push_back(static_cast<std::uint32_t>(v));
                }
                if (mesh.face_indices.size() >= std::numeric_limits<std::uint32_t>::max()) fail("more than 2^32 face corners");
                mesh.face_offsets.push_back(static_cast<std::uint32_t>(mesh.face_indices.size()));
            }
            // A texcoord list that is not two numbers a corner: no corner UVs (the geometry stands).
            const std::size_t corners = mesh.face_indices.size() - corners_before;
            if (texcoord_ok && texcoord_numbers != 2 * std::uint64_t(corners)) {
                warnings_.push_back(what + " has " + std::to_string(corners) + " corners but a texcoord list of " + std::to_string(texcoord_numbers) +
                                    " numbers (not u, v a corner): the texcoord UVs are not read");
                texcoord_ok = false;
                corner_uv_.uv = {};
            }
        }
    }

    void skip(const Element& e) {
        check_count(e);
        for (std::uint64_t r = 0; r < e.count; ++r) {
            const std::string what = "element '" + e.name + "' row " + std::to_string(r);
            for (const Property& p : e.props) {
                const std::uint64_t n = p.list ? list_count(p, what) : 1;
                for (std::uint64_t k = 0; k < n; ++k) value(p.type, what);
            }
        }
    }

    const std::string& path_;
    const char* data_;
    std::size_t size_;
    std::size_t pos_ = 0;
    LoadBudget& budget_;
    Format format_ = Format::ascii;
    std::vector<Element> elements_;
    bool has_vertex_ = false, has_face_ = false;
    UvSet vertex_uv_, corner_uv_;  // per vertex, per face corner (uv[c] for corner c)
    std::vector<std::string> warnings_;
};

}  // namespace

Scene read_ply(const std::string& path, const LoadOptions& options) {
    LoadBudget budget(path, options.max_memory);
    const std::vector<char> bytes = plain::read_whole(path, budget);
    Reader reader(path, bytes, budget);
    Mesh mesh = reader.run();
    mesh.name = plain::file_stem(path);
    std::vector<Mesh> meshes;
    meshes.push_back(std::move(mesh));
    Scene scene = plain::static_scene(path, "PLY", std::move(meshes), "PLY: vertex i is row i of the 'vertex' element");
    for (std::string& w : reader.warnings()) scene.warnings.push_back({WarningKind::AttributeDropped, std::move(w)});
    return scene;
}

}  // namespace rigscope
