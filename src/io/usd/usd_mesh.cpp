// UsdGeomMesh prims into the scene's meshes: points in metres, faces checked against the points
// (a count or index from the file is its word until proved), texture-coordinate primvars as UV
// sets, and time-sampled points as the mesh's point cache. Skins and blend shapes come later
// (usd_skin.cpp, usd_blend_shapes.cpp), once every skeleton is read.
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "io/usd/usd_point_samples.h"
#include "io/usd/usd_scene_build.h"
#include "io/usd/usd_values.h"
#include "rigscope/core/huge_pages.h"

namespace rigscope::usd {

std::string interpolation(const PropertySpec& p) {
    auto it = p.metadata.find("interpolation");
    return it == p.metadata.end() ? "constant" : it->second.text;
}

int element_size(const PropertySpec& p) {
    auto it = p.metadata.find("elementSize");
    return it == p.metadata.end() ? 1 : int(it->second.number);
}

namespace {

// faceVertexCounts into the mesh's face offsets. Integers (a crate's int[]) are checked in
// one pass the compiler vectorises: all of them at least 0 and their sum the corners is what the
// count-by-count check of any other type (a text layer's doubles) comes to, with its one message.
template <class T>
void face_offsets(SceneBuild& b, const std::string& path, const T* c, std::size_t faces, std::size_t corners, Mesh& m) {
    const std::string message = "Mesh " + path + "'s faceVertexCounts do not add up to its " + std::to_string(corners) + " faceVertexIndices";
    m.face_offsets.resize(faces + 1);  // its leading 0 and one offset a face
    std::uint32_t* offsets = m.face_offsets.data() + 1;
    std::size_t used = 0;
    if constexpr (std::is_integral<T>::value) {
        std::uint32_t negative = 0;
        std::uint64_t sum = 0;  // of the counts' bits as unsigned: off only where one is negative, refused anyway
        for (std::size_t f = 0; f < faces; ++f) {
            negative |= std::uint32_t(c[f] < 0);
            sum += std::uint64_t(std::make_unsigned_t<T>(c[f]));
        }
        if (negative || sum != corners) b.fail(message);
        for (std::size_t f = 0; f < faces; ++f) offsets[f] = std::uint32_t(used += std::size_t(c[f]));
    } else {
        for (std::size_t f = 0; f < faces; ++f) {
            const double k = double(c[f]);
            // Compared as a double: a count past size_t (a text layer's 4e54) must not be converted first.
            if (!(k >= 0) || k != std::floor(k) || k > double(corners - used)) b.fail(message);
            used += std::size_t(k);
            offsets[f] = std::uint32_t(used);
        }
        if (used != corners) b.fail(message);
    }
}

// faceVertexIndices into the mesh's face indices, each checked against the points. Integers
// (of a mesh of fewer points than their type's largest value) are checked in one vectorised pass and copied as they are; the first index
// out of range (or any of another type) is found by the element-wise check, for its message.
template <class T>
void face_indices(SceneBuild& b, const std::string& path, const T* x, std::size_t corners, std::size_t count, Mesh& m) {
    if constexpr (std::is_integral<T>::value) {
        if (count <= std::size_t(std::numeric_limits<T>::max())) {
            const T points = T(count);
            std::uint32_t outside = 0;
            for (std::size_t k = 0; k < corners; ++k) outside |= std::uint32_t(x[k] < 0) | std::uint32_t(x[k] >= points);
            if (!outside) {
                m.face_indices.assign(x, x + corners);
                return;
            }
        }
    }
    m.face_indices.resize(corners);
    for (std::size_t k = 0; k < corners; ++k) {
        const double i = double(x[k]);
        if (!(i >= 0) || i >= double(count) || i != std::floor(i))
            b.fail("Mesh " + path + "'s faceVertexIndices hold " + std::to_string(i) + ", past its " + std::to_string(count) + " points");
        m.face_indices[k] = std::uint32_t(i);
    }
}

// faceVertexCounts and faceVertexIndices into the mesh's faces, the indices' array sized on huge
// pages before its first write (a fresh 4 KB page costs a fault otherwise).
void mesh_faces(SceneBuild& b, const PrimSpec& p, const std::string& path, std::size_t count, Mesh& m) {
    Numbers counts, indices;
    int w1 = 1, w2 = 1;
    const PropertySpec* fc = p.property("faceVertexCounts");
    const PropertySpec* fi = p.property("faceVertexIndices");
    if (!fc || !fi || !stored_numbers(*fc, counts, w1) || !stored_numbers(*fi, indices, w2))
        b.fail("Mesh " + path + " has no faceVertexCounts or faceVertexIndices");
    // Time-sampled topology is read when every sample holds the one topology (exporters
    // write it per frame beside the points); a change is refused naming its time code.
    check_constant_topology(*fc, counts, b.layer.path, path);
    check_constant_topology(*fi, indices, b.layer.path, path);
    b.charge((counts.size() + indices.size()) * 4);
    counts.visit([&](const auto* c, std::size_t faces) { face_offsets(b, path, c, faces, indices.size(), m); });
    detail::reserve_huge(m.face_indices, indices.size());
    indices.visit([&](const auto* x, std::size_t corners) { face_indices(b, path, x, corners, count, m); });
}

// The mesh's texture-coordinate primvars (texCoord2f/2d/2h, or float2 named st), st first.
std::vector<const PropertySpec*> texcoord_primvars(const PrimSpec& p) {
    std::vector<const PropertySpec*> found;
    for (const PropertySpec& prop : p.properties) {
        if (prop.name.rfind("primvars:", 0) != 0 || !prop.array || prop.name.find(':', 9) != std::string::npos) continue;
        const bool texcoord = prop.type.rfind("texCoord2", 0) == 0 || (prop.name == "primvars:st" && prop.type.rfind("float2", 0) == 0);
        if (!texcoord || p.property(prop.name) != &prop) continue;  // the last spec of a name only
        found.push_back(&prop);
    }
    std::stable_partition(found.begin(), found.end(), [](const PropertySpec* q) { return q->name == "primvars:st"; });
    return found;
}

// One texture-coordinate primvar as a UV set: faceVarying (per corner, seams as the file has
// them) or vertex/varying (per point), through the primvar's :indices when it has them. A
// primvar that breaks its counts is skipped with a warning (the mesh deforms without it; bake
// names the missing set).
void uv_set(SceneBuild& b, const PrimSpec& p, const std::string& path, const PropertySpec& prop, Mesh& m) {
    const std::size_t corners = m.face_indices.size(), points = m.positions.size();
    UvSet set;
    set.name = prop.name.substr(9);
    auto skip = [&](const std::string& why) { b.scene.warnings.push_back({WarningKind::AttributeDropped, "Mesh " + path + "'s primvar " + set.name + " " + why + ": not read as UVs"}); };
    Numbers values;
    int w = 1;
    if (!stored_numbers(prop, values, w) || w != 2) return skip("holds no 2-vectors");
    const std::string interp = interpolation(prop);
    const bool per_corner = interp == "faceVarying";
    if (!per_corner && interp != "vertex" && interp != "varying") return skip("has interpolation '" + interp + "' (read: faceVarying, vertex, varying)");
    const std::size_t n = values.size() / 2, slots = per_corner ? corners : points;
    std::vector<double> slot;
    Numbers idx;
    int wi = 1;
    const PropertySpec* ip = p.property(prop.name + ":indices");
    if (ip && stored_numbers(*ip, idx, wi)) slot = idx.doubles();
    else {
        slot.resize(n);
        for (std::size_t k = 0; k < n; ++k) slot[k] = double(k);
    }
    if (slot.size() != slots)
        return skip("has " + std::to_string(slot.size()) + " values for " + std::to_string(slots) + (per_corner ? " face corners" : " points"));
    bool ok = true;
    for (double x : slot) ok = ok && x >= 0 && x < double(n) && x == std::floor(x);
    for (std::size_t k = 0; ok && k < values.size(); ++k) ok = std::isfinite(values[k]);
    if (!ok) return skip("has an index past its " + std::to_string(n) + " values or a value that is not finite");
    b.charge(n * sizeof(Eigen::Vector2f) + corners * 4);
    set.uv.resize(n);
    for (std::size_t k = 0; k < n; ++k) set.uv[k] = Eigen::Vector2f(float(values[2 * k]), float(values[2 * k + 1]));
    set.corners.resize(corners);
    for (std::size_t c = 0; c < corners; ++c) set.corners[c] = std::uint32_t(slot[per_corner ? c : m.face_indices[c]]);
    m.uv_sets.push_back(std::move(set));
}

// Time-sampled points: the mesh is animated by them, as by a point cache file (--cache), and
// their times span the clip. The positions read (the default, else the first sample) stay
// the bind pose.
void point_cache(SceneBuild& b, const PropertySpec& points, const std::string& path, std::size_t count) {
    PointSamplesContext ctx;
    ctx.file = b.layer.path;
    ctx.mesh_path = path;
    ctx.points = count;
    ctx.meters_per_unit = b.mpu;
    ctx.time_codes_per_second = b.tcps;
    ctx.charge = [&b](std::uint64_t bytes) { b.charge(bytes); };
    auto cache = point_samples(points, ctx);
    for (double t : cache->times()) b.add_key_span(t);
    for (auto& w : attach_point_cache(b.scene, int(b.scene.meshes.size()) - 1, std::move(cache))) b.scene.warnings.push_back(std::move(w));
}

}  // namespace

bool read_mesh(SceneBuild& b, const PrimSpec& p, int node) {
    const std::string& path = b.stage.path_of(p);
    Mesh m;
    m.name = p.name;
    m.node = node;
    const PropertySpec* points = p.property("points");
    // The arrays as the layer holds them (stored_numbers): a mesh's are the bulk of a file.
    Numbers n;
    int w = 1;
    if (!points || !stored_numbers(*points, n, w)) {
        b.scene.warnings.push_back({WarningKind::Skipped, "Mesh " + path + " has no points: skipped"});
        return false;
    }
    if (w != 3) b.fail("Mesh " + path + "'s points are not 3-vectors");
    const std::size_t count = n.size() / 3;
    b.charge(count * sizeof(Eigen::Vector3f));
    m.positions = points_in_metres(n, b.mpu);
    mesh_faces(b, p, path, count, m);
    for (const PropertySpec* prop : texcoord_primvars(p)) uv_set(b, p, path, *prop, m);
    b.scene.meshes.push_back(std::move(m));
    b.scene.nodes[node].mesh = int(b.scene.meshes.size()) - 1;
    if (!points->samples.empty()) point_cache(b, *points, path, count);
    return true;
}

}  // namespace rigscope::usd
