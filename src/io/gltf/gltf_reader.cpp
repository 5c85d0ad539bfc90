// glTF 2.0 into the plain scene model. Read natively (not through Assimp) because Assimp 5.2.5
// drops the samplers' interpolation mode and the cubic-spline tangents, and renumbers vertices.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <optional>

#include "io/gltf/gltf_document.h"
#include "io/mesh_names.h"
#include "rigscope/core/error.h"
#include "rigscope/core/finite_floats.h"
#include "rigscope/core/parallel.h"
#include "rigscope/io/load.h"

namespace rigscope {

namespace {

using gltf::Document;
using gltf::json;

std::string at(const char* what, std::size_t i) { return std::string(what) + "[" + std::to_string(i) + "]"; }

bool finite(const std::vector<float>& v) { return floats_finite(v.data(), v.size()); }

Transform read_node_transform(const Document& doc, const json& node, const std::string& where) {
    Transform t;
    auto vec = [&](const char* key, std::size_t n) -> std::vector<double> {
        const json& a = doc.array(node, key, where);
        if (a.empty()) return {};
        if (a.size() != n) doc.fail(where + "." + key + ": expected " + std::to_string(n) + " numbers");
        std::vector<double> out;
        for (const json& x : a) {
            if (!x.is_number()) doc.fail(where + "." + key + ": expected numbers");
            out.push_back(x.get<double>());
            if (!std::isfinite(out.back())) doc.fail(where + "." + key + ": not finite");
        }
        return out;
    };
    if (auto m = vec("matrix", 16); !m.empty()) {
        Eigen::Matrix4d mat;
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 4; ++r) mat(r, c) = m[c * 4 + r];  // column-major
        Eigen::Matrix3d rs = mat.topLeftCorner<3, 3>();
        Eigen::Vector3d scale(rs.col(0).norm(), rs.col(1).norm(), rs.col(2).norm());
        if (rs.determinant() < 0) scale.x() = -scale.x();
        Eigen::Matrix3d rot = rs;
        for (int c = 0; c < 3; ++c)
            if (scale[c] != 0) rot.col(c) /= scale[c];
        t.translation = mat.topRightCorner<3, 1>();
        t.rotation = Eigen::Quaterniond(rot).normalized();
        t.scale = scale;
        return t;
    }
    if (auto v = vec("translation", 3); !v.empty()) t.translation = Eigen::Vector3d(v[0], v[1], v[2]);
    if (auto v = vec("rotation", 4); !v.empty()) t.rotation = Eigen::Quaterniond(v[3], v[0], v[1], v[2]).normalized();
    if (auto v = vec("scale", 3); !v.empty()) t.scale = Eigen::Vector3d(v[0], v[1], v[2]);
    return t;
}

// Triangles of a primitive as local vertex indices; strips and fans become triangles.
Document::Uints primitive_triangles(const Document& doc, const json& prim, const std::string& where, std::size_t vertices) {
    // Checked as a double first: converting one outside int's range is undefined behaviour.
    const double mode_number = doc.number(prim, "mode", where, 4);
    if (!(mode_number >= 0 && mode_number <= 6) || mode_number != std::floor(mode_number))
        doc.fail(where + ".mode: invalid primitive mode " + json(mode_number).dump());
    const int mode = static_cast<int>(mode_number);
    Document::Uints shared_idx;
    int acc = doc.index(prim, "indices", where, doc.size_of("accessors"));
    if (acc >= 0) {
        int comps = 0;
        shared_idx = doc.uints(acc, &comps);
        if (comps != 1) doc.fail(where + ".indices: expected SCALAR indices");
    } else {
        doc.charge(vertices * 4, where);
        std::vector<std::uint32_t> all(vertices);
        for (std::size_t i = 0; i < vertices; ++i) all[i] = static_cast<std::uint32_t>(i);
        shared_idx = std::make_shared<std::vector<std::uint32_t>>(std::move(all));
    }
    const std::vector<std::uint32_t>& idx = *shared_idx;
    // The largest index first (a loop the compiler vectorises); only a file with one out of
    // range is searched for the first.
    std::uint32_t largest = 0;
    for (std::uint32_t i : idx) largest = std::max(largest, i);
    if (!idx.empty() && largest >= vertices)
        for (std::uint32_t i : idx)
            if (i >= vertices)
                doc.fail(where + ".indices: index " + std::to_string(i) + " out of range (" + std::to_string(vertices) + " vertices)");
    if (mode == 4) {
        if (idx.size() % 3 != 0) doc.fail(where + ": triangle index count " + std::to_string(idx.size()) + " is not a multiple of 3");
        return shared_idx;
    }
    std::vector<std::uint32_t> tris;
    if (mode == 5) {
        doc.charge(idx.size() * 12, where + " triangles");
        for (std::size_t i = 2; i < idx.size(); ++i) {
            if (i % 2 == 0) tris.insert(tris.end(), {idx[i - 2], idx[i - 1], idx[i]});
            else tris.insert(tris.end(), {idx[i - 1], idx[i - 2], idx[i]});
        }
    } else if (mode == 6) {
        doc.charge(idx.size() * 12, where + " triangles");
        for (std::size_t i = 2; i < idx.size(); ++i) tris.insert(tris.end(), {idx[0], idx[i - 1], idx[i]});
    }
    // Points and lines have no faces: they contribute vertices, no tension edges.
    return std::make_shared<std::vector<std::uint32_t>>(std::move(tris));
}

// What a Mesh holds, for the memory budget.
std::uint64_t mesh_bytes(const Mesh& m) {
    std::uint64_t b = m.positions.size() * sizeof(m.positions[0]) + m.face_indices.size() * 4 + m.face_offsets.size() * 4 +
                      m.influences.offsets.size() * 4 + m.influences.joints.size() * sizeof(m.influences.joints[0]) +
                      m.influences.weights.size() * 4;
    for (const auto& t : m.targets) b += t.deltas.size() * sizeof(t.deltas[0]);
    for (const auto& u : m.uv_sets) b += u.uv.size() * sizeof(u.uv[0]) + u.corners.size() * 4;
    return b + m.normals.size() * sizeof(m.normals[0]);
}

// Every nonzero influence as read (set by set, so not in vertex order); sorted by vertex,
// stably, at the end. Flat, because a list per vertex is a heap allocation per vertex: on a
// 262k-vertex mesh that was a tenth of the load's time and its memory peak.
struct StagedInfluence {
    std::uint32_t vertex;
    std::uint16_t joint;
    float weight;
};

// UV sets as read so far, with how many primitives had each: a set some primitive lacks is
// dropped at the end.
struct StagedUvSets {
    std::vector<UvSet> sets;
    std::vector<std::size_t> prims;  // per set, the primitives that have it
};

// One primitive's place in its mesh and where its attributes are.
struct PrimitiveAt {
    const json& prim;
    const json& attrs;
    std::string where;
    std::size_t accessors;  // the document's accessor count, for index checks
    std::uint32_t base;     // the mesh's vertex count before this primitive
    std::size_t n;          // this primitive's vertex count
};

// POSITION appended to the mesh; returns the primitive's vertex count.
std::size_t append_positions(const Document& doc, const json& prim, const json& attrs, const std::string& where,
                             std::size_t accessors, Mesh& mesh) {
    int pos_acc = doc.index(attrs, "POSITION", where + ".attributes", accessors);
    if (pos_acc < 0) doc.fail(where + ": no POSITION attribute");
    int comps = 0;
    const Document::Floats pos_data = doc.floats(pos_acc, &comps);
    const std::vector<float>& pos = *pos_data;
    if (comps != 3) doc.fail(where + ".attributes.POSITION: expected VEC3");
    if (!finite(pos)) doc.fail(where + ".attributes.POSITION: NaN or infinite position");
    const std::size_t n = pos.size() / 3;
    // What this primitive adds to the mesh, charged before it is built: a primitive that
    // shares its accessors with others costs its copy each time.
    doc.charge(n * sizeof(Eigen::Vector3f) * (1 + doc.array(prim, "targets", where).size()), where);
    const std::size_t base = mesh.positions.size();
    // Sized, then filled by one copy (Vector3f is three packed floats): emplace_back per
    // vertex checked the capacity each time (issue 62: the load is a one-mesh run's set-up).
    static_assert(sizeof(Eigen::Vector3f) == 3 * sizeof(float));
    mesh.positions.resize(base + n);
    if (n) std::memcpy(mesh.positions[base].data(), pos.data(), n * sizeof(Eigen::Vector3f));
    return n;
}

// UV sets TEXCOORD_n, per vertex (glTF splits vertices at UV seams). A set some primitive lacks
// is dropped at the end: a bake cannot place those faces.
void append_uv_sets(const Document& doc, const PrimitiveAt& pa, StagedUvSets& uv, std::vector<Warning>& warnings) {
    const std::size_t n = pa.n;
    for (std::size_t set = 0;; ++set) {
        const std::string un = "TEXCOORD_" + std::to_string(set);
        const int ua = doc.index(pa.attrs, un.c_str(), pa.where + ".attributes", pa.accessors);
        if (ua < 0) break;
        int uc = 0;
        const Document::Floats uv_data = doc.floats(ua, &uc);
        const std::vector<float>& coords = *uv_data;
        if (set >= uv.sets.size()) {
            uv.sets.resize(set + 1);
            uv.prims.resize(set + 1, 0);
            uv.sets[set].name = un;
        }
        // UVs are read for bakes and outputs, never evaluated: a set that cannot be read is
        // left out (not counted for this primitive, so dropped at the end with a warning) rather
        // than refusing a file whose positions and skin are sound.
        if (uc != 2 || coords.size() != n * 2 || !finite(coords)) {
            warnings.push_back({WarningKind::AttributeDropped, doc.path() + ": " + pa.where + ".attributes." + un + ": " +
                               (uc != 2 || coords.size() != n * 2 ? "expected " + std::to_string(n) + " VEC2" : std::string("NaN or infinite UV")) +
                               ": that UV set is not read"});
            continue;
        }
        doc.charge(n * sizeof(Eigen::Vector2f), pa.where + "." + un);
        UvSet& us = uv.sets[set];
        us.uv.resize(pa.base, Eigen::Vector2f(0, 0));
        for (std::size_t v = 0; v < n; ++v) us.uv.emplace_back(coords[2 * v], coords[2 * v + 1]);
        ++uv.prims[set];
    }
}

// NORMAL, per vertex: kept for outputs only (Alembic's N), so one that cannot be read is left
// out with a warning, as a UV set is. Returns whether this primitive's normals were read.
bool append_normals(const Document& doc, const PrimitiveAt& pa, std::vector<Eigen::Vector3f>& normals, std::vector<Warning>& warnings) {
    const int na = doc.index(pa.attrs, "NORMAL", pa.where + ".attributes", pa.accessors);
    if (na < 0) return false;
    const std::size_t n = pa.n;
    int nc = 0;
    const Document::Floats normal_data = doc.floats(na, &nc);
    const std::vector<float>& nv = *normal_data;
    if (nc != 3 || nv.size() != n * 3 || !finite(nv)) {
        warnings.push_back({WarningKind::AttributeDropped, doc.path() + ": " + pa.where + ".attributes.NORMAL: " +
                           (nc != 3 || nv.size() != n * 3 ? "expected " + std::to_string(n) + " VEC3" : std::string("NaN or infinite normal")) +
                           ": the mesh's normals are not read"});
        return false;
    }
    doc.charge(n * sizeof(Eigen::Vector3f), pa.where + ".NORMAL");
    normals.resize(pa.base, Eigen::Vector3f::Zero());
    for (std::size_t v = 0; v < n; ++v) normals.emplace_back(nv[3 * v], nv[3 * v + 1], nv[3 * v + 2]);
    return true;
}

// The primitive's triangles appended as faces of the mesh.
void append_faces(const Document& doc, const PrimitiveAt& pa, Mesh& mesh) {
    Document::Uints tri_data = primitive_triangles(doc, pa.prim, pa.where, pa.n);
    const std::size_t count = tri_data->size();
    doc.charge(count * 4 + count / 3 * 4, pa.where + " faces");
    // Whole triangles only (a strip's or fan's are), each closing at 3 more corners: sized,
    // then filled by loops the compiler vectorises instead of a push_back a corner.
    const std::size_t corners = count / 3 * 3, first_corner = mesh.face_indices.size();
    const std::size_t first_face = mesh.face_offsets.size();
    const std::uint32_t base = pa.base;
    // The first primitive's whole triangles are the mesh's corners as they are: its indices'
    // array is taken where this was their last read (issue 62: the bench tube's 6 MB copy and
    // its 1,500 fresh pages), else copied with the primitive's base added.
    if (!(first_corner == 0 && base == 0 && corners == count && Document::release(tri_data, mesh.face_indices))) {
        const std::vector<std::uint32_t>& tris = *tri_data;
        mesh.face_indices.resize(first_corner + corners);
        std::uint32_t* fi = mesh.face_indices.data() + first_corner;
        for (std::size_t k = 0; k < corners; ++k) fi[k] = base + tris[k];
    }
    mesh.face_offsets.resize(first_face + corners / 3);
    std::uint32_t* fo = mesh.face_offsets.data() + first_face;
    for (std::size_t f = 0; f < corners / 3; ++f) fo[f] = static_cast<std::uint32_t>(first_corner + 3 * (f + 1));
}

// Skin influences: every JOINTS_n / WEIGHTS_n pair, staged. Returns whether the primitive has any pair.
bool stage_influences(const Document& doc, const PrimitiveAt& pa, int skin_joints, std::vector<StagedInfluence>& infl) {
    const std::string& where = pa.where;
    const std::size_t n = pa.n;
    bool any_skin = false;
    for (int set = 0;; ++set) {
        const std::string jn = "JOINTS_" + std::to_string(set), wn = "WEIGHTS_" + std::to_string(set);
        int ja = doc.index(pa.attrs, jn.c_str(), where + ".attributes", pa.accessors);
        int wa = doc.index(pa.attrs, wn.c_str(), where + ".attributes", pa.accessors);
        if (ja < 0 && wa < 0) break;
        if (ja < 0 || wa < 0) doc.fail(where + ": " + (ja < 0 ? jn : wn) + " missing beside its pair");
        int jc = 0, wc = 0;
        const Document::Uints joint_data = doc.uints(ja, &jc);
        const Document::Floats weight_data = doc.floats(wa, &wc);
        const std::vector<std::uint32_t>& joints = *joint_data;
        const std::vector<float>& weights = *weight_data;
        if (jc != 4 || wc != 4) doc.fail(where + ": " + jn + "/" + wn + " must be VEC4");
        if (joints.size() != n * 4 || weights.size() != n * 4)
            doc.fail(where + ": " + jn + "/" + wn + " count differs from POSITION count " + std::to_string(n));
        if (!finite(weights)) doc.fail(where + "." + wn + ": NaN or infinite weight");
        any_skin = true;
        doc.charge(n * 4 * (sizeof(StagedInfluence) + 6), where + "." + wn);
        infl.reserve(infl.size() + static_cast<std::size_t>(n * 4 - std::count(weights.begin(), weights.end(), 0.0f)));
        // Whether any nonzero weight is negative or names a joint past the skin, in one pass
        // the compiler vectorises; only then is the first such searched for, in order, for the
        // message (the loop below without its two checks a weight: the arrays are sound nearly
        // always).
        // The largest joint index allowed (any without a skin; a skin has at least one joint).
        const std::uint32_t joint_max = skin_joints > 0 ? static_cast<std::uint32_t>(skin_joints - 1) : 0xffffffffu;
        const std::uint32_t no_joint = skin_joints == 0;
        std::uint32_t unsound = 0;
        for (std::size_t i = 0; i < n * 4; ++i)
            unsound |= static_cast<std::uint32_t>(weights[i] != 0.0f) & (static_cast<std::uint32_t>(weights[i] < 0) |
                                                                         static_cast<std::uint32_t>(joints[i] > joint_max) | no_joint);
        if (unsound)
            for (std::size_t v = 0; v < n; ++v)
                for (int k = 0; k < 4; ++k) {
                    const float w = weights[v * 4 + k];
                    if (w == 0.0f) continue;
                    if (w < 0) doc.fail(where + "." + wn + ": negative weight at vertex " + std::to_string(v));
                    const std::uint32_t j = joints[v * 4 + k];
                    if (skin_joints >= 0 && j >= static_cast<std::uint32_t>(skin_joints))
                        doc.fail(where + "." + jn + ": joint index " + std::to_string(j) + " beyond the skin's " + std::to_string(skin_joints) + " joints");
                }
        for (std::size_t v = 0; v < n; ++v)
            for (int k = 0; k < 4; ++k) {
                const float w = weights[v * 4 + k];
                if (w == 0.0f) continue;
                infl.push_back(StagedInfluence{pa.base + static_cast<std::uint32_t>(v), static_cast<std::uint16_t>(joints[v * 4 + k]), w});
            }
    }
    return any_skin;
}

// Morph targets: POSITION deltas; primitives of one mesh share the target list, whose length
// the first primitive sets.
void append_target_deltas(const Document& doc, const PrimitiveAt& pa, bool first_primitive, Mesh& mesh) {
    const std::string& where = pa.where;
    const std::size_t n = pa.n;
    const json& targets = doc.array(pa.prim, "targets", where);
    if (first_primitive) {
        mesh.targets.resize(targets.size());
    } else if (targets.size() != mesh.targets.size()) {
        doc.fail(where + ".targets: " + std::to_string(targets.size()) + " targets, the first primitive has " + std::to_string(mesh.targets.size()));
    }
    for (std::size_t t = 0; t < targets.size(); ++t) {
        auto& deltas = mesh.targets[t].deltas;
        deltas.resize(mesh.positions.size(), Eigen::Vector3f::Zero());
        int ta = doc.index(targets[t], "POSITION", where + ".targets[" + std::to_string(t) + "]", pa.accessors);
        if (ta < 0) continue;
        int comps = 0;
        const Document::Floats delta_data = doc.floats(ta, &comps);
        const std::vector<float>& d = *delta_data;
        if (comps != 3 || d.size() != n * 3) doc.fail(where + ".targets[" + std::to_string(t) + "].POSITION: expected " + std::to_string(n) + " VEC3");
        if (!finite(d)) doc.fail(where + ".targets[" + std::to_string(t) + "].POSITION: NaN or infinite delta");
        for (std::size_t v = 0; v < n; ++v) deltas[pa.base + v] = Eigen::Vector3f(d[3 * v], d[3 * v + 1], d[3 * v + 2]);
    }
}

// The UV sets every primitive has, each per corner; the others dropped with a warning.
void keep_complete_uv_sets(const Document& doc, const std::string& mwhere, std::size_t prim_count, StagedUvSets& uv, Mesh& mesh,
                           std::vector<Warning>& warnings) {
    for (std::size_t set = 0; set < uv.sets.size(); ++set) {
        if (uv.prims[set] != prim_count) {
            warnings.push_back({WarningKind::AttributeDropped, doc.path() + ": " + mwhere + ": " + uv.sets[set].name + " is missing on some primitives: that UV set is not read"});
            continue;
        }
        uv.sets[set].corners = mesh.face_indices;  // per vertex: a corner takes its vertex's UV
        mesh.uv_sets.push_back(std::move(uv.sets[set]));
    }
}

// Target names and default weights from the glTF mesh.
void name_targets(const Document& doc, const json& jm, const std::string& mwhere, Mesh& mesh) {
    // Target names: the de-facto convention mesh.extras.targetNames (Blender, three.js).
    if (jm.contains("extras") && jm["extras"].is_object() && jm["extras"].contains("targetNames") && jm["extras"]["targetNames"].is_array()) {
        const json& names = jm["extras"]["targetNames"];
        for (std::size_t t = 0; t < mesh.targets.size() && t < names.size(); ++t)
            if (names[t].is_string()) mesh.targets[t].name = names[t].get<std::string>();
    }
    for (std::size_t t = 0; t < mesh.targets.size(); ++t)
        if (mesh.targets[t].name.empty()) mesh.targets[t].name = "target_" + std::to_string(t);
    const json& weights = doc.array(jm, "weights", mwhere);
    for (const json& w : weights) mesh.default_weights.push_back(w.is_number() ? w.get<float>() : 0.0f);
    mesh.default_weights.resize(mesh.targets.size(), 0.0f);
}

// The staged influences sorted by vertex into the mesh, each vertex's weights normalised and
// their stored sums kept; the staging is freed.
void sort_influences_by_vertex(const Document& doc, const std::string& mwhere, std::vector<StagedInfluence>& infl, Mesh& mesh,
                               std::vector<Warning>& warnings) {
    // Counting sort by vertex: offsets from the counts, then each influence to its slot in
    // the order read.
    Influences& out = mesh.influences;
    const std::size_t nv = mesh.positions.size();
    out.offsets.assign(nv + 1, 0);
    for (const StagedInfluence& s : infl) ++out.offsets[s.vertex + 1];
    for (std::size_t v = 0; v < nv; ++v) out.offsets[v + 1] += out.offsets[v];
    out.joints.resize(infl.size());
    out.weights.resize(infl.size());
    std::vector<std::uint32_t> next(out.offsets.begin(), out.offsets.end() - 1);
    for (const StagedInfluence& s : infl) {
        const std::uint32_t at = next[s.vertex]++;
        out.joints[at] = s.joint;
        out.weights[at] = s.weight;
    }
    std::vector<StagedInfluence>().swap(infl);
    std::size_t zero = 0;
    doc.charge(nv * sizeof(float), mwhere + " weight sums");
    out.stored_sums.resize(nv);
    for (std::size_t v = 0; v < nv; ++v) {
        double sum = 0;
        for (std::uint32_t i = out.offsets[v]; i < out.offsets[v + 1]; ++i) sum += out.weights[i];
        out.stored_sums[v] = static_cast<float>(sum);
        if (sum <= 0) ++zero;
        for (std::uint32_t i = out.offsets[v]; i < out.offsets[v + 1]; ++i)
            out.weights[i] = static_cast<float>(out.weights[i] / sum);
    }
    if (zero) warnings.push_back({WarningKind::SkinWeights, doc.path() + ": " + mwhere + ": " + std::to_string(zero) + " vertices have no skin weight (they stay at rest)"});
}

Mesh read_mesh(const Document& doc, int mesh_index, int skin_joints, std::vector<Warning>& warnings) {
    const std::string mwhere = at("meshes", mesh_index);
    const json& jm = doc.root()["meshes"][mesh_index];
    if (!jm.is_object()) doc.fail(mwhere + ": expected an object");
    Mesh mesh;
    mesh.name = doc.string(jm, "name", mwhere, mwhere);
    const json& prims = doc.array(jm, "primitives", mwhere);
    if (!jm.contains("primitives")) doc.fail(mwhere + ": missing primitives");
    std::vector<StagedInfluence> infl;
    bool any_skin = false;
    StagedUvSets uv;
    std::size_t normal_prims = 0;  // the primitives with a readable NORMAL
    for (std::size_t p = 0; p < prims.size(); ++p) {
        const std::string where = mwhere + ".primitives[" + std::to_string(p) + "]";
        const json& prim = prims[p];
        if (!prim.is_object()) doc.fail(where + ": expected an object");
        if (!prim.contains("attributes") || !prim["attributes"].is_object()) doc.fail(where + ": missing attributes");
        const json& attrs = prim["attributes"];
        const std::size_t accessors = doc.size_of("accessors");
        const auto base = static_cast<std::uint32_t>(mesh.positions.size());
        const std::size_t n = append_positions(doc, prim, attrs, where, accessors, mesh);
        const PrimitiveAt pa{prim, attrs, where, accessors, base, n};
        append_uv_sets(doc, pa, uv, warnings);
        if (append_normals(doc, pa, mesh.normals, warnings)) ++normal_prims;
        append_faces(doc, pa, mesh);
        if (stage_influences(doc, pa, skin_joints, infl)) any_skin = true;
        append_target_deltas(doc, pa, p == 0, mesh);
    }
    for (auto& t : mesh.targets) t.deltas.resize(mesh.positions.size(), Eigen::Vector3f::Zero());
    mesh.uv_v_down = true;  // glTF's UV origin is the image's top left
    if (normal_prims != prims.size()) mesh.normals.clear();  // some primitive has none: the mesh has none
    keep_complete_uv_sets(doc, mwhere, prims.size(), uv, mesh, warnings);
    name_targets(doc, jm, mwhere, mesh);
    if (any_skin) sort_influences_by_vertex(doc, mwhere, infl, mesh, warnings);
    return mesh;
}

// The scene's description: where it came from, its units, what the document warned of and read.
Scene describe_scene(const Document& doc, const std::string& path) {
    Scene scene;
    scene.source = path;
    scene.format = "glTF";
    scene.units_note = "glTF: metres by definition";
    scene.vertex_ids = "glTF: index into the mesh's vertices (primitives in order, concatenated)";
    scene.warnings = doc.warnings;
    scene.extensions = doc.extensions_used();
    for (const auto& [file, how] : doc.files_read) scene.read_files.push_back({file, how});
    return scene;
}

// Per node, the glTF mesh and skin it instantiates (-1 for none).
struct NodeUses {
    std::vector<int> mesh, skin;
};

// The glTF meshes instantiate_meshes reads, in the order it first reads them.
std::vector<int> meshes_in_reading_order(const NodeUses& uses) {
    std::vector<int> order;
    std::vector<char> seen;
    for (int m : uses.mesh) {
        if (m < 0) continue;
        if (static_cast<std::size_t>(m) >= seen.size()) seen.resize(m + 1, 0);
        if (!seen[m]) order.push_back(m);
        seen[m] = 1;
    }
    return order;
}

// The node hierarchy into scene.nodes, each node's parent and children checked to form a tree
// (bar cycles, checked next); returns what each node instantiates.
NodeUses read_nodes(const Document& doc, std::vector<Node>& scene_nodes) {
    const json& nodes = doc.array(doc.root(), "nodes", "");
    const std::size_t node_count = nodes.size();
    scene_nodes.resize(node_count);
    const std::size_t mesh_count = doc.size_of("meshes");
    const std::size_t skin_count = doc.size_of("skins");
    NodeUses uses{std::vector<int>(node_count, -1), std::vector<int>(node_count, -1)};
    for (std::size_t i = 0; i < node_count; ++i) {
        const std::string where = at("nodes", i);
        const json& n = nodes[i];
        if (!n.is_object()) doc.fail(where + ": expected an object");
        Node& node = scene_nodes[i];
        node.name = doc.string(n, "name", where, "node_" + std::to_string(i));
        node.rest = read_node_transform(doc, n, where);
        uses.mesh[i] = doc.index(n, "mesh", where, mesh_count);
        uses.skin[i] = doc.index(n, "skin", where, skin_count);
        for (const json& c : doc.array(n, "children", where)) {
            if (!c.is_number_integer() || c.get<long long>() < 0 || c.get<unsigned long long>() >= node_count)
                doc.fail(where + ".children: invalid node index");
            const int child = c.get<int>();
            if (scene_nodes[child].parent >= 0 || child == static_cast<int>(i))
                doc.fail(where + ".children: node " + std::to_string(child) + " has more than one parent (the hierarchy must be a tree)");
            scene_nodes[child].parent = static_cast<int>(i);
            node.children.push_back(child);
        }
    }
    return uses;
}

// A cycle leaves nodes unreachable from any root. Each node has at most one parent (checked by
// read_nodes), so walking up from every node while marking the path visits each node once: a
// walk that meets its own mark went round a cycle; one that meets an earlier walk's mark, or a
// root, did not. Linear, where walking to the root from every node is quadratic in a chain.
void refuse_cycles(const Document& doc, const std::vector<Node>& nodes) {
    const std::size_t node_count = nodes.size();
    std::vector<std::uint32_t> walk(node_count, 0);  // 0: unvisited, else the walk's number
    for (std::size_t i = 0; i < node_count; ++i) {
        const auto mark = static_cast<std::uint32_t>(i + 1);
        int p = static_cast<int>(i);
        while (p >= 0 && walk[p] == 0) {
            walk[p] = mark;
            p = nodes[p].parent;
        }
        if (p >= 0 && walk[p] == mark) doc.fail(at("nodes", i) + ": cyclic node hierarchy");
    }
}

// The skins: joint nodes and inverse bind matrices.
std::vector<Skin> read_skins(const Document& doc, std::size_t node_count) {
    std::vector<Skin> out;
    const json& skins = doc.array(doc.root(), "skins", "");
    for (std::size_t s = 0; s < skins.size(); ++s) {
        const std::string where = at("skins", s);
        Skin skin;
        skin.name = doc.string(skins[s], "name", where, where);
        for (const json& j : doc.array(skins[s], "joints", where)) {
            if (!j.is_number_integer() || j.get<long long>() < 0 || j.get<unsigned long long>() >= node_count)
                doc.fail(where + ".joints: invalid node index");
            skin.joints.push_back(j.get<int>());
        }
        if (skin.joints.empty()) doc.fail(where + ": no joints");
        if (skin.joints.size() > 65535) doc.fail(where + ": more than 65535 joints");
        skin.inverse_bind.assign(skin.joints.size(), Eigen::Matrix4d::Identity());
        int ibm = doc.index(skins[s], "inverseBindMatrices", where, doc.size_of("accessors"));
        if (ibm >= 0) {
            int comps = 0;
            const Document::Floats ibm_data = doc.floats(ibm, &comps);
            const std::vector<float>& m = *ibm_data;
            if (comps != 16 || m.size() != 16 * skin.joints.size())
                doc.fail(where + ".inverseBindMatrices: expected " + std::to_string(skin.joints.size()) + " MAT4");
            if (!finite(m)) doc.fail(where + ".inverseBindMatrices: NaN or infinite value");
            for (std::size_t j = 0; j < skin.joints.size(); ++j)
                for (int c = 0; c < 4; ++c)
                    for (int r = 0; r < 4; ++r) skin.inverse_bind[j](r, c) = m[16 * j + 4 * c + r];
        }
        out.push_back(std::move(skin));
    }
    return out;
}

// Per node, whether the scene mesh it instantiates is read: every one, unless `spec` (--mesh)
// selects some, by meshes_selected's rule on the names the scene will have (the glTF meshes'
// names, those shared taken from their nodes as load_scene names them). Where a mesh's name
// cannot be read (not an object, a name not a string), every mesh is read: the reader then
// refuses the file as it always did.
std::vector<char> nodes_read(const Document& doc, const std::vector<Node>& nodes, const NodeUses& uses, const std::string& spec) {
    std::vector<char> read(uses.mesh.size(), 1);
    if (spec.empty()) return read;
    const json& meshes = doc.array(doc.root(), "meshes", "");
    Scene names;
    names.nodes = nodes;
    std::vector<std::size_t> node_of;  // per scene mesh
    for (std::size_t i = 0; i < uses.mesh.size(); ++i) {
        if (uses.mesh[i] < 0) continue;
        const json& jm = meshes[uses.mesh[i]];
        if (!jm.is_object() || (jm.contains("name") && !jm["name"].is_string())) return read;
        Mesh m;
        m.name = jm.contains("name") ? jm["name"].get<std::string>() : at("meshes", uses.mesh[i]);
        m.node = static_cast<int>(i);
        names.meshes.push_back(std::move(m));
        node_of.push_back(i);
    }
    name_mesh_instances(names);
    std::vector<std::string> list;
    for (const Mesh& m : names.meshes) list.push_back(m.name);
    const std::vector<int> chosen = meshes_selected(list, spec);
    if (chosen.empty()) return read;  // the run refuses the spec, naming every mesh
    for (std::size_t k = 0; k < node_of.size(); ++k) read[node_of[k]] = 0;
    for (int k : chosen) read[node_of[k]] = 1;
    return read;
}

// An unread mesh's entry (LoadOptions::mesh): what names, rigs and weights channels read of a
// mesh, from the JSON alone and nothing checked (a value of another type reads as absent): its
// name, the first primitive's morph target count (the one read_mesh holds every primitive to),
// the targets' names and default weights, and the node's skin where a primitive names weights.
Mesh unread_mesh(const Document& doc, int mesh_index, int node_skin) {
    const json& jm = doc.root()["meshes"][mesh_index];
    Mesh mesh;
    mesh.name = jm.contains("name") ? jm["name"].get<std::string>() : at("meshes", mesh_index);
    mesh.uv_v_down = true;
    bool weighted = false;
    if (jm.contains("primitives") && jm["primitives"].is_array()) {
        const json& prims = jm["primitives"];
        if (!prims.empty() && prims[0].is_object() && prims[0].contains("targets") && prims[0]["targets"].is_array())
            mesh.targets.resize(prims[0]["targets"].size());
        for (const json& p : prims)
            weighted = weighted || (p.is_object() && p.contains("attributes") && p["attributes"].is_object() &&
                                    p["attributes"].contains("WEIGHTS_0"));
    }
    const json* names = nullptr;
    if (jm.contains("extras") && jm["extras"].is_object() && jm["extras"].contains("targetNames") && jm["extras"]["targetNames"].is_array())
        names = &jm["extras"]["targetNames"];
    for (std::size_t t = 0; t < mesh.targets.size(); ++t)
        mesh.targets[t].name = names && t < names->size() && (*names)[t].is_string() ? (*names)[t].get<std::string>() : "target_" + std::to_string(t);
    if (jm.contains("weights") && jm["weights"].is_array())
        for (const json& w : jm["weights"]) mesh.default_weights.push_back(w.is_number() ? w.get<float>() : 0.0f);
    mesh.default_weights.resize(mesh.targets.size(), 0.0f);
    mesh.skin = weighted ? node_skin : -1;
    return mesh;
}

// One Mesh per node that instantiates a glTF mesh: a mesh used twice is deformed twice. The
// glTF mesh is read once (per skin size, which its joint indices are checked against), copied
// for the nodes before the last that use it and moved to the last; every copy is charged to
// the memory budget (reading it charged the first).
void instantiate_meshes(const Document& doc, const std::string& path, const NodeUses& uses, const std::vector<char>& read, Scene& scene) {
    const std::size_t node_count = scene.nodes.size();
    std::map<std::pair<int, int>, std::pair<int, std::optional<Mesh>>> read_once;  // (mesh, skin size): nodes left, mesh
    auto skin_size = [&](std::size_t i) { return uses.skin[i] >= 0 ? static_cast<int>(scene.skins[uses.skin[i]].joints.size()) : -1; };
    for (std::size_t i = 0; i < node_count; ++i)
        if (uses.mesh[i] >= 0 && read[i]) ++read_once[{uses.mesh[i], skin_size(i)}].first;
    for (std::size_t i = 0; i < node_count; ++i) {
        if (uses.mesh[i] < 0) continue;
        const int skin = uses.skin[i];
        if (!read[i]) {
            Mesh mesh = unread_mesh(doc, uses.mesh[i], skin);
            mesh.node = static_cast<int>(i);
            scene.nodes[i].mesh = static_cast<int>(scene.meshes.size());
            scene.meshes.push_back(std::move(mesh));
            continue;
        }
        auto& [left, original] = read_once[{uses.mesh[i], skin_size(i)}];
        if (!original) original = read_mesh(doc, uses.mesh[i], skin_size(i), scene.warnings);
        Mesh mesh;
        if (--left == 0) {
            mesh = std::move(*original);
            original.reset();
        } else {
            doc.charge(mesh_bytes(*original), at("nodes", i) + " (an instance of " + at("meshes", uses.mesh[i]) + ")");
            mesh = *original;
        }
        mesh.node = static_cast<int>(i);
        mesh.skin = mesh.influences.empty() ? -1 : skin;
        if (skin < 0 && !mesh.influences.empty()) {
            scene.warnings.push_back({WarningKind::SkinWeights, path + ": " + at("nodes", i) + " has skin weights but no skin (drawn unskinned)"});
            mesh.influences = Influences{};
        }
        scene.nodes[i].mesh = static_cast<int>(scene.meshes.size());
        scene.meshes.push_back(std::move(mesh));
    }
}

// What a channel drives: its path and width, or nothing for an extension's path.
std::optional<Channel> channel_target(const Document& doc, const Scene& scene, int node, const std::string& path_name, const std::string& cw) {
    Channel ch;
    ch.node = node;
    if (path_name == "translation") { ch.path = ChannelPath::Translation; ch.width = 3; }
    else if (path_name == "rotation") { ch.path = ChannelPath::Rotation; ch.width = 4; }
    else if (path_name == "scale") { ch.path = ChannelPath::Scale; ch.width = 3; }
    else if (path_name == "weights") {
        ch.path = ChannelPath::Weights;
        const int m = scene.nodes[node].mesh;
        if (m < 0) doc.fail(cw + ": weights channel on a node without a mesh");
        ch.width = static_cast<int>(scene.meshes[m].targets.size());
        if (ch.width == 0) doc.fail(cw + ": weights channel on a mesh without morph targets");
    } else {
        return std::nullopt;  // "pointer" and other extension paths
    }
    return ch;
}

// A channel's keys from its sampler: interpolation, times and values, checked against each other.
void read_channel_keys(const Document& doc, const json& js, const std::string& sw, const std::string& cw, Channel& ch) {
    const std::string interp = doc.string(js, "interpolation", sw, "LINEAR");
    if (interp == "STEP") ch.interpolation = Interpolation::Step;
    else if (interp == "LINEAR") ch.interpolation = Interpolation::Linear;
    else if (interp == "CUBICSPLINE") ch.interpolation = Interpolation::CubicSpline;
    else doc.fail(sw + ".interpolation: unknown '" + interp + "'");
    const int in = doc.index(js, "input", sw, doc.size_of("accessors"));
    const int out = doc.index(js, "output", sw, doc.size_of("accessors"));
    if (in < 0 || out < 0) doc.fail(sw + ": missing input or output");
    int in_components = 0;
    ch.times = doc.read_floats(in, &in_components);
    if (in_components != 1) doc.fail(sw + ".input: expected SCALAR key times");
    ch.values = doc.read_floats(out);
    doc.charge((ch.times.size() + ch.values.size()) * sizeof(float), cw);
    if (ch.times.empty()) doc.fail(sw + ": no keys");
    if (!finite(ch.times) || !finite(ch.values)) doc.fail(sw + ": NaN or infinite key");
    for (std::size_t k = 1; k < ch.times.size(); ++k)
        if (ch.times[k] < ch.times[k - 1]) doc.fail(sw + ".input: key times decrease at key " + std::to_string(k));
    const std::size_t per_key = static_cast<std::size_t>(ch.width) * (ch.interpolation == Interpolation::CubicSpline ? 3 : 1);
    if (ch.values.size() != ch.times.size() * per_key)
        doc.fail(sw + ".output: " + std::to_string(ch.values.size()) + " values for " + std::to_string(ch.times.size()) +
                 " keys of " + std::to_string(per_key));
}

// One animation as a clip: the channels rigscope drives, and the span of their keys.
Clip read_clip(const Document& doc, const Scene& scene, const json& ja, std::size_t a) {
    const std::string where = at("animations", a);
    const std::size_t node_count = scene.nodes.size();
    Clip clip;
    clip.name = doc.string(ja, "name", where, "animation_" + std::to_string(a));
    const json& samplers = doc.array(ja, "samplers", where);
    const json& channels = doc.array(ja, "channels", where);
    bool first = true;
    for (std::size_t c = 0; c < channels.size(); ++c) {
        const std::string cw = where + ".channels[" + std::to_string(c) + "]";
        const json& jc = channels[c];
        if (!jc.is_object() || !jc.contains("target") || !jc["target"].is_object()) doc.fail(cw + ": missing target");
        int node = doc.index(jc["target"], "node", cw + ".target", node_count);
        if (node < 0) continue;  // targets an extension's object; nothing for rigscope
        const std::string path_name = doc.string(jc["target"], "path", cw + ".target");
        std::optional<Channel> ch = channel_target(doc, scene, node, path_name, cw);
        if (!ch) continue;
        int s = doc.index(jc, "sampler", cw, samplers.size());
        if (s < 0) doc.fail(cw + ": missing sampler");
        const std::string sw = where + ".samplers[" + std::to_string(s) + "]";
        read_channel_keys(doc, samplers[s], sw, cw, *ch);
        clip.start = first ? ch->times.front() : std::min<double>(clip.start, ch->times.front());
        clip.end = first ? ch->times.back() : std::max<double>(clip.end, ch->times.back());
        first = false;
        clip.channels.push_back(std::move(*ch));
    }
    return clip;
}

}  // namespace

Scene gltf::read_scene(Document& doc, const std::string& path, unsigned threads, const std::string& mesh) {
    Scene scene = describe_scene(doc, path);
    const NodeUses uses = read_nodes(doc, scene.nodes);
    const std::vector<char> read = nodes_read(doc, scene.nodes, uses, mesh);
    // The glTF meshes no read node instantiates: never read, so neither planned for the
    // prefetch nor holding a shared accessor for a read that never comes.
    NodeUses reads = uses;
    std::vector<char> wanted(doc.size_of("meshes"), 0);
    for (std::size_t i = 0; i < read.size(); ++i) {
        if (!read[i]) reads.mesh[i] = -1;
        if (reads.mesh[i] >= 0) wanted[reads.mesh[i]] = 1;
    }
    for (std::size_t m = 0; m < wanted.size(); ++m)
        if (!wanted[m]) doc.skip_mesh_accessors(static_cast<int>(m));
    doc.prefetch_mesh_accessors(meshes_in_reading_order(reads), threads);
    refuse_cycles(doc, scene.nodes);
    scene.skins = read_skins(doc, scene.nodes.size());
    instantiate_meshes(doc, path, uses, read, scene);
    gltf::move_dequantization_into_meshes(scene);
    const json& anims = doc.array(doc.root(), "animations", "");
    for (std::size_t a = 0; a < anims.size(); ++a) scene.clips.push_back(read_clip(doc, scene, anims[a], a));
    return scene;
}

Scene read_gltf(const std::string& path, const LoadOptions& options) {
    Document doc(path, options.max_memory, options.allow_outside_uris);
    return gltf::read_scene(doc, path, options.threads ? options.threads : ThreadPool::default_threads(), options.mesh);
}

}  // namespace rigscope
