#include "io/obj/obj_reader.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string_view>
#include <unordered_map>

#include "rigscope/core/error.h"
#include "rigscope/io/load.h"

namespace rigscope {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

class Parser {
public:
    Parser(const std::string& path, LoadBudget& budget, bool positions_only)
        : path_(path), budget_(budget), positions_only_(positions_only) {}

    ObjFile run(const char* data, std::size_t size) {
        if (const void* nul = std::memchr(data, '\0', size))
            fail_at(static_cast<std::size_t>(static_cast<const char*>(nul) - data), "a NUL byte: not a text file (not an OBJ?)");
        std::size_t pos = 0;
        std::string joined;  // a line continued with a trailing backslash
        while (pos < size) {
            const char* nl = static_cast<const char*>(std::memchr(data + pos, '\n', size - pos));
            const std::size_t end = nl ? static_cast<std::size_t>(nl - data) : size;
            std::string_view line(data + pos, end - pos);
            pos = end + 1;
            ++line_;
            line = trim(line);
            if (!line.empty() && line.back() == '\\') {
                joined.append(line.data(), line.size() - 1);
                joined += ' ';
                continue;
            }
            if (!joined.empty()) {
                joined.append(line.data(), line.size());
                statement(joined);
                joined.clear();
            } else {
                statement(line);
            }
        }
        if (!joined.empty()) statement(joined);
        if (out_.positions.empty()) throw bad_input(path_, "no vertex ('v' line): not an OBJ mesh");
        // Positive indices may name a `v` that comes later in the file (importers accept it):
        // checked once all are read.
        const std::size_t n = out_.positions.size();
        for (const auto& g : out_.groups)
            for (const std::uint32_t i : g.face_indices)
                if (i >= n)
                    throw bad_input(path_, "group '" + g.name + "': a face names vertex " + std::to_string(std::uint64_t(i) + 1) +
                                               " of " + std::to_string(n));
        return std::move(out_);
    }

private:
    [[noreturn]] void fail(const std::string& problem) const {
        throw bad_input(path_, "line " + std::to_string(line_) + ": " + problem);
    }
    [[noreturn]] void fail_at(std::size_t offset, const std::string& problem) const {
        throw bad_input(path_, "byte " + std::to_string(offset) + ": " + problem);
    }

    void statement(std::string_view line) {
        if (line.empty() || line.front() == '#') return;
        std::size_t k = 0;
        while (k < line.size() && line[k] != ' ' && line[k] != '\t') ++k;
        const std::string_view key = line.substr(0, k);
        std::string_view rest = line.substr(k);
        if (key == "v") vertex(rest);
        else if (key == "vt") texture(rest);
        else if (key == "f" || key == "fo") face(rest);
        else if (key == "o" || key == "g") group(trim(rest));
        // vn, vp, s, usemtl, mtllib, l, p, curves and surfaces: not geometry rigscope reads.
    }

    void vertex(std::string_view rest) {
        double c[3];
        for (double& x : c)
            if (!plain::parse_double(rest, x)) fail("'v' needs three numbers");
        // A fourth (w) or colours (r g b) may follow: ignored, as Blender's importer does.
        for (const double x : c)
            if (!std::isfinite(x) || std::abs(x) > std::numeric_limits<float>::max())
                fail("vertex " + std::to_string(out_.positions.size() + 1) + " is not a finite number (NaN, infinite or past a float)");
        if (out_.positions.size() >= std::numeric_limits<std::uint32_t>::max() - 1) fail("more than 2^32 vertices");
        budget_.charge(sizeof(Eigen::Vector3f), "the vertices");
        out_.positions.emplace_back(static_cast<float>(c[0]), static_cast<float>(c[1]), static_cast<float>(c[2]));
    }

    void texture(std::string_view rest) {
        if (positions_only_) return;
        double c[2];
        for (double& x : c)
            if (!plain::parse_double(rest, x)) fail("'vt' needs two numbers (u v)");
        // A third (w) may follow: ignored, as for 'v'.
        for (const double x : c)
            if (!std::isfinite(x) || std::abs(x) > std::numeric_limits<float>::max())
                fail("texture vertex " + std::to_string(out_.uvs.size() + 1) + " is not a finite number (NaN, infinite or past a float)");
        if (out_.uvs.size() >= std::numeric_limits<std::uint32_t>::max() - 1) fail("more than 2^32 texture vertices");
        budget_.charge(sizeof(Eigen::Vector2f), "the texture vertices");
        out_.uvs.emplace_back(static_cast<float>(c[0]), static_cast<float>(c[1]));
    }

    ObjFile::Group& current() {
        if (current_ < 0) group(plain::file_stem(path_));
        return out_.groups[static_cast<std::size_t>(current_)];
    }

    void group(std::string_view name) {
        // `g` alone is the default group (the OBJ convention); the same name again continues it
        // (Maya and Houdini write a group's faces in several runs).
        const std::string n = name.empty() ? "default" : std::string(name);
        auto it = index_.find(n);
        if (it == index_.end()) {
            it = index_.emplace(n, static_cast<int>(out_.groups.size())).first;
            budget_.charge(sizeof(ObjFile::Group) + n.size(), "the groups");
            out_.groups.push_back(ObjFile::Group{n, {0}, {}, {}, false});
        }
        current_ = it->second;
    }

    void face(std::string_view rest) {
        if (positions_only_) return;
        ObjFile::Group& g = current();
        std::size_t corners = 0;
        const long long defined = static_cast<long long>(out_.positions.size());
        while (true) {
            rest = trim(rest);
            if (rest.empty()) break;
            long long i = 0;
            if (!plain::parse_long(rest, i)) fail("'f' corner is not a vertex index");
            // v/vt/vn, v//vn: the texture index is read (bake's UVs), the normal's is not.
            long long t = 0;
            if (!rest.empty() && rest.front() == '/') {
                rest.remove_prefix(1);
                if (!rest.empty() && rest.front() != '/' && !plain::parse_long(rest, t))
                    fail("'f' corner is not of the form v, v/vt, v//vn or v/vt/vn");
            }
            while (!rest.empty() && rest.front() != ' ' && rest.front() != '\t') {
                if (rest.front() != '/' && !(rest.front() >= '0' && rest.front() <= '9') && rest.front() != '-')
                    fail("'f' corner is not of the form v, v/vt, v//vn or v/vt/vn");
                rest.remove_prefix(1);
            }
            texture_corner(g, t);
            long long v;
            if (i > 0) v = i - 1;
            else if (i < 0) v = defined + i;  // -1 is the last `v` so far
            else fail("vertex index 0 (OBJ counts from 1)");
            if (v < 0) fail("vertex index " + std::to_string(i) + " before the first vertex (" + std::to_string(defined) + " so far)");
            if (v >= static_cast<long long>(std::numeric_limits<std::uint32_t>::max())) fail("vertex index past 2^32");
            budget_.charge(4, "the faces");
            g.face_indices.push_back(static_cast<std::uint32_t>(v));
            ++corners;
        }
        if (corners < 3) fail("a face needs at least 3 corners, this one has " + std::to_string(corners));
        budget_.charge(4, "the faces");
        g.face_offsets.push_back(static_cast<std::uint32_t>(g.face_indices.size()));
    }

    // A corner's `vt` (0: none), negative counting back from the last so far; checked against
    // the `vt` count once all are read.
    void texture_corner(ObjFile::Group& g, long long t) {
        if (g.uv_missing) return;
        const long long defined = static_cast<long long>(out_.uvs.size());
        if (t == 0) {
            g.uv_missing = true;
            budget_.release(4 * g.uv_indices.size());
            g.uv_indices = {};
            return;
        }
        const long long u = t > 0 ? t - 1 : defined + t;
        if (u < 0) fail("texture index " + std::to_string(t) + " before the first 'vt' (" + std::to_string(defined) + " so far)");
        if (u >= static_cast<long long>(std::numeric_limits<std::uint32_t>::max())) fail("texture index past 2^32");
        budget_.charge(4, "the faces' texture indices");
        g.uv_indices.push_back(static_cast<std::uint32_t>(u));
    }

    const std::string& path_;
    LoadBudget& budget_;
    bool positions_only_;
    std::size_t line_ = 0;
    int current_ = -1;
    std::unordered_map<std::string, int> index_;
    ObjFile out_;
};

}  // namespace

ObjFile parse_obj(const char* data, std::size_t size, const std::string& path, LoadBudget& budget, bool positions_only) {
    return Parser(path, budget, positions_only).run(data, size);
}

namespace {

// A group's UVs as the mesh's set "vt" (row 0 of an image is v = 1, as Blender's and Maya's OBJ
// importers place it), when every corner of its faces names a `vt`. A `vt` index past the file's
// drops the group's UVs with a warning, not the file: the geometry (a neutral's whole use) stands.
void take_uvs(ObjFile::Group& g, const ObjFile& obj, Mesh& m, LoadBudget& budget, std::vector<Warning>& warnings) {
    if (g.uv_missing || g.uv_indices.empty() || g.uv_indices.size() != m.face_indices.size()) return;
    for (const std::uint32_t t : g.uv_indices)
        if (t >= obj.uvs.size()) {
            warnings.push_back({WarningKind::AttributeDropped, "group '" + g.name + "': a face names texture vertex " + std::to_string(std::uint64_t(t) + 1) + " of " +
                               std::to_string(obj.uvs.size()) + ": its UVs are not read"});
            return;
        }
    budget.charge(double(obj.uvs.size()) * sizeof(Eigen::Vector2f), "the UVs");
    UvSet set;
    set.name = "vt";
    set.uv = obj.uvs;
    set.corners = std::move(g.uv_indices);
    m.uv_sets.push_back(std::move(set));
}

}  // namespace

Scene read_obj(const std::string& path, const LoadOptions& options) {
    LoadBudget budget(path, options.max_memory);
    std::vector<char> bytes = plain::read_whole(path, budget);
    ObjFile obj = parse_obj(bytes.data(), bytes.size(), path, budget);
    budget.release(bytes.size());
    bytes = {};
    std::vector<Mesh> meshes;
    std::vector<Warning> uv_warnings;
    std::size_t with_faces = 0;
    for (const auto& g : obj.groups) with_faces += g.face_indices.empty() ? 0 : 1;
    if (with_faces <= 1) {
        // One mesh: every `v` of the file in order, so that vertex i is the file's i-th `v`
        // (what a reference by index and a cache's points count), used by a face or not.
        Mesh m;
        m.name = plain::file_stem(path);
        for (auto& g : obj.groups)
            if (!g.face_indices.empty()) {
                m.name = g.name;
                m.face_offsets = std::move(g.face_offsets);
                m.face_indices = std::move(g.face_indices);
                take_uvs(g, obj, m, budget, uv_warnings);
            }
        m.positions = std::move(obj.positions);
        meshes.push_back(std::move(m));
    } else {
        // A mesh per group: the vertices its faces use, in file order.
        budget.charge(obj.positions.size() * 4, "the groups' vertex maps");
        std::vector<std::uint32_t> local(obj.positions.size(), 0xffffffffu);
        std::size_t unused = obj.positions.size();
        std::vector<char> used(obj.positions.size(), 0);
        for (auto& g : obj.groups) {
            if (g.face_indices.empty()) continue;
            Mesh m;
            m.name = g.name;
            std::vector<std::uint32_t> ids;
            for (const std::uint32_t v : g.face_indices)
                if (local[v] == 0xffffffffu) {
                    local[v] = 0;
                    ids.push_back(v);
                }
            std::sort(ids.begin(), ids.end());
            budget.charge(ids.size() * sizeof(Eigen::Vector3f), "the groups' vertices");
            m.positions.reserve(ids.size());
            for (std::size_t i = 0; i < ids.size(); ++i) {
                local[ids[i]] = static_cast<std::uint32_t>(i);
                m.positions.push_back(obj.positions[ids[i]]);
                if (!used[ids[i]]) {
                    used[ids[i]] = 1;
                    --unused;
                }
            }
            for (std::uint32_t& v : g.face_indices) v = local[v];
            for (const std::uint32_t v : ids) local[v] = 0xffffffffu;
            m.face_offsets = std::move(g.face_offsets);
            m.face_indices = std::move(g.face_indices);
            take_uvs(g, obj, m, budget, uv_warnings);
            meshes.push_back(std::move(m));
        }
        Scene scene = plain::static_scene(path, "OBJ", std::move(meshes),
                                          "OBJ: a mesh's vertex i is the i-th 'v' line its faces use, in file order");
        if (unused)
            scene.warnings.push_back({WarningKind::Skipped, std::to_string(unused) + " vertices are used by no face of any group (not read)"});
        for (Warning& w : uv_warnings) scene.warnings.push_back(std::move(w));
        return scene;
    }
    Scene scene = plain::static_scene(path, "OBJ", std::move(meshes), "OBJ: vertex i is the file's i-th 'v' line");
    for (Warning& w : uv_warnings) scene.warnings.push_back(std::move(w));
    return scene;
}

}  // namespace rigscope
