// glTF 2.0 into the plain scene model. Read natively (not through Assimp) because Assimp 5.2.5
// drops the samplers' interpolation mode and the cubic-spline tangents, and renumbers vertices.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <optional>

#include "io/gltf/gltf_document.h"
#include "rigscope/core/error.h"
#include "rigscope/io/load.h"

namespace rigscope {

namespace {

using gltf::Document;
using gltf::json;

std::string at(const char* what, std::size_t i) { return std::string(what) + "[" + std::to_string(i) + "]"; }

// Without an early exit, so that the compiler vectorises it: the arrays are sound nearly always.
bool finite(const std::vector<float>& v) {
    bool ok = true;
    for (float x : v) ok &= std::abs(x) <= std::numeric_limits<float>::max();
    return ok;
}

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
        shared_idx = std::make_shared<const std::vector<std::uint32_t>>(std::move(all));
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
    return std::make_shared<const std::vector<std::uint32_t>>(std::move(tris));
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

Mesh read_mesh(const Document& doc, int mesh_index, int skin_joints, std::vector<Warning>& warnings) {
    const std::string mwhere = at("meshes", mesh_index);
    const json& jm = doc.root()["meshes"][mesh_index];
    if (!jm.is_object()) doc.fail(mwhere + ": expected an object");
    Mesh mesh;
    mesh.name = doc.string(jm, "name", mwhere, mwhere);
    const json& prims = doc.array(jm, "primitives", mwhere);
    if (!jm.contains("primitives")) doc.fail(mwhere + ": missing primitives");
    // Every nonzero influence as read (set by set, so not in vertex order); sorted by vertex,
    // stably, at the end. Flat, because a list per vertex is a heap allocation per vertex: on a
    // 262k-vertex mesh that was a tenth of the load's time and its memory peak.
    struct Staged {
        std::uint32_t vertex;
        std::uint16_t joint;
        float weight;
    };
    std::vector<Staged> infl;
    std::size_t target_count = 0;
    bool any_skin = false;
    std::vector<UvSet> uv_sets;
    std::vector<std::size_t> uv_prims;  // per set, the primitives that have it
    std::size_t normal_prims = 0;       // the primitives with a readable NORMAL
    for (std::size_t p = 0; p < prims.size(); ++p) {
        const std::string where = mwhere + ".primitives[" + std::to_string(p) + "]";
        const json& prim = prims[p];
        if (!prim.is_object()) doc.fail(where + ": expected an object");
        if (!prim.contains("attributes") || !prim["attributes"].is_object()) doc.fail(where + ": missing attributes");
        const json& attrs = prim["attributes"];
        const std::size_t accessors = doc.size_of("accessors");
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
        const std::uint32_t base = static_cast<std::uint32_t>(mesh.positions.size());
        // Sized, then filled by one copy (Vector3f is three packed floats): emplace_back per
        // vertex checked the capacity each time (issue 62: the load is a one-mesh run's set-up).
        static_assert(sizeof(Eigen::Vector3f) == 3 * sizeof(float));
        mesh.positions.resize(base + n);
        if (n) std::memcpy(mesh.positions[base].data(), pos.data(), n * sizeof(Eigen::Vector3f));

        // UV sets TEXCOORD_n, per vertex (glTF splits vertices at UV seams). A set some
        // primitive lacks is dropped below: a bake cannot place those faces.
        for (std::size_t set = 0;; ++set) {
            const std::string un = "TEXCOORD_" + std::to_string(set);
            const int ua = doc.index(attrs, un.c_str(), where + ".attributes", accessors);
            if (ua < 0) break;
            int uc = 0;
            const Document::Floats uv_data = doc.floats(ua, &uc);
            const std::vector<float>& uv = *uv_data;
            if (set >= uv_sets.size()) {
                uv_sets.resize(set + 1);
                uv_prims.resize(set + 1, 0);
                uv_sets[set].name = un;
            }
            // UVs are read for bakes and outputs, never evaluated: a set that cannot be read is
            // left out (not counted for this primitive, so dropped below with a warning) rather
            // than refusing a file whose positions and skin are sound.
            if (uc != 2 || uv.size() != n * 2 || !finite(uv)) {
                warnings.push_back({WarningKind::AttributeDropped, doc.path() + ": " + where + ".attributes." + un + ": " +
                                   (uc != 2 || uv.size() != n * 2 ? "expected " + std::to_string(n) + " VEC2" : std::string("NaN or infinite UV")) +
                                   ": that UV set is not read"});
                continue;
            }
            doc.charge(n * sizeof(Eigen::Vector2f), where + "." + un);
            UvSet& us = uv_sets[set];
            us.uv.resize(base, Eigen::Vector2f(0, 0));
            for (std::size_t v = 0; v < n; ++v) us.uv.emplace_back(uv[2 * v], uv[2 * v + 1]);
            ++uv_prims[set];
        }

        // NORMAL, per vertex: kept for outputs only (Alembic's N), so one that cannot be read is
        // left out with a warning, as a UV set is.
        if (const int na = doc.index(attrs, "NORMAL", where + ".attributes", accessors); na >= 0) {
            int nc = 0;
            const Document::Floats normal_data = doc.floats(na, &nc);
            const std::vector<float>& nv = *normal_data;
            if (nc != 3 || nv.size() != n * 3 || !finite(nv)) {
                warnings.push_back({WarningKind::AttributeDropped, doc.path() + ": " + where + ".attributes.NORMAL: " +
                                   (nc != 3 || nv.size() != n * 3 ? "expected " + std::to_string(n) + " VEC3" : std::string("NaN or infinite normal")) +
                                   ": the mesh's normals are not read"});
            } else {
                doc.charge(n * sizeof(Eigen::Vector3f), where + ".NORMAL");
                mesh.normals.resize(base, Eigen::Vector3f::Zero());
                for (std::size_t v = 0; v < n; ++v) mesh.normals.emplace_back(nv[3 * v], nv[3 * v + 1], nv[3 * v + 2]);
                ++normal_prims;
            }
        }

        const Document::Uints tri_data = primitive_triangles(doc, prim, where, n);
        const std::vector<std::uint32_t>& tris = *tri_data;
        doc.charge(tris.size() * 4 + tris.size() / 3 * 4, where + " faces");
        // Whole triangles only (a strip's or fan's are), each closing at 3 more corners: sized,
        // then filled by loops the compiler vectorises instead of a push_back a corner.
        const std::size_t corners = tris.size() / 3 * 3, first_corner = mesh.face_indices.size();
        const std::size_t first_face = mesh.face_offsets.size();
        mesh.face_indices.resize(first_corner + corners);
        mesh.face_offsets.resize(first_face + corners / 3);
        std::uint32_t* fi = mesh.face_indices.data() + first_corner;
        for (std::size_t k = 0; k < corners; ++k) fi[k] = base + tris[k];
        std::uint32_t* fo = mesh.face_offsets.data() + first_face;
        for (std::size_t f = 0; f < corners / 3; ++f) fo[f] = static_cast<std::uint32_t>(first_corner + 3 * (f + 1));

        // Skin influences: every JOINTS_n / WEIGHTS_n pair.
        for (int set = 0;; ++set) {
            const std::string jn = "JOINTS_" + std::to_string(set), wn = "WEIGHTS_" + std::to_string(set);
            int ja = doc.index(attrs, jn.c_str(), where + ".attributes", accessors);
            int wa = doc.index(attrs, wn.c_str(), where + ".attributes", accessors);
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
            doc.charge(n * 4 * (sizeof(Staged) + 6), where + "." + wn);
            infl.reserve(infl.size() + static_cast<std::size_t>(n * 4 - std::count(weights.begin(), weights.end(), 0.0f)));
            for (std::size_t v = 0; v < n; ++v)
                for (int k = 0; k < 4; ++k) {
                    const float w = weights[v * 4 + k];
                    if (w == 0.0f) continue;
                    if (w < 0) doc.fail(where + "." + wn + ": negative weight at vertex " + std::to_string(v));
                    const std::uint32_t j = joints[v * 4 + k];
                    if (skin_joints >= 0 && j >= static_cast<std::uint32_t>(skin_joints))
                        doc.fail(where + "." + jn + ": joint index " + std::to_string(j) + " beyond the skin's " + std::to_string(skin_joints) + " joints");
                    infl.push_back(Staged{base + static_cast<std::uint32_t>(v), static_cast<std::uint16_t>(j), w});
                }
        }

        // Morph targets: POSITION deltas; primitives of one mesh share the target list.
        const json& targets = doc.array(prim, "targets", where);
        if (p == 0) {
            target_count = targets.size();
            mesh.targets.resize(target_count);
        } else if (targets.size() != target_count) {
            doc.fail(where + ".targets: " + std::to_string(targets.size()) + " targets, the first primitive has " + std::to_string(target_count));
        }
        for (std::size_t t = 0; t < targets.size(); ++t) {
            auto& deltas = mesh.targets[t].deltas;
            deltas.resize(mesh.positions.size(), Eigen::Vector3f::Zero());
            int ta = doc.index(targets[t], "POSITION", where + ".targets[" + std::to_string(t) + "]", accessors);
            if (ta < 0) continue;
            const Document::Floats delta_data = doc.floats(ta, &comps);
            const std::vector<float>& d = *delta_data;
            if (comps != 3 || d.size() != n * 3) doc.fail(where + ".targets[" + std::to_string(t) + "].POSITION: expected " + std::to_string(n) + " VEC3");
            if (!finite(d)) doc.fail(where + ".targets[" + std::to_string(t) + "].POSITION: NaN or infinite delta");
            for (std::size_t v = 0; v < n; ++v) deltas[base + v] = Eigen::Vector3f(d[3 * v], d[3 * v + 1], d[3 * v + 2]);
        }
    }
    for (auto& t : mesh.targets) t.deltas.resize(mesh.positions.size(), Eigen::Vector3f::Zero());
    mesh.uv_v_down = true;  // glTF's UV origin is the image's top left
    if (normal_prims != prims.size()) mesh.normals.clear();  // some primitive has none: the mesh has none
    for (std::size_t set = 0; set < uv_sets.size(); ++set) {
        if (uv_prims[set] != prims.size()) {
            warnings.push_back({WarningKind::AttributeDropped, doc.path() + ": " + mwhere + ": " + uv_sets[set].name + " is missing on some primitives: that UV set is not read"});
            continue;
        }
        uv_sets[set].corners = mesh.face_indices;  // per vertex: a corner takes its vertex's UV
        mesh.uv_sets.push_back(std::move(uv_sets[set]));
    }

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

    if (any_skin) {
        // Counting sort by vertex: offsets from the counts, then each influence to its slot in
        // the order read.
        Influences& out = mesh.influences;
        const std::size_t nv = mesh.positions.size();
        out.offsets.assign(nv + 1, 0);
        for (const Staged& s : infl) ++out.offsets[s.vertex + 1];
        for (std::size_t v = 0; v < nv; ++v) out.offsets[v + 1] += out.offsets[v];
        out.joints.resize(infl.size());
        out.weights.resize(infl.size());
        std::vector<std::uint32_t> next(out.offsets.begin(), out.offsets.end() - 1);
        for (const Staged& s : infl) {
            const std::uint32_t at = next[s.vertex]++;
            out.joints[at] = s.joint;
            out.weights[at] = s.weight;
        }
        std::vector<Staged>().swap(infl);
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
    return mesh;
}

}  // namespace

Scene read_gltf(const std::string& path, const LoadOptions& options) {
    Document doc(path, options.max_memory, options.allow_outside_uris);
    const json& root = doc.root();
    Scene scene;
    scene.source = path;
    scene.format = "glTF";
    scene.units_note = "glTF: metres by definition";
    scene.vertex_ids = "glTF: index into the mesh's vertices (primitives in order, concatenated)";
    scene.warnings = doc.warnings;
    scene.extensions = doc.extensions_used();
    for (const auto& [file, how] : doc.files_read) scene.read_files.push_back({file, how});

    const json& nodes = doc.array(root, "nodes", "");
    const std::size_t node_count = nodes.size();
    scene.nodes.resize(node_count);
    const std::size_t mesh_count = doc.size_of("meshes");
    const std::size_t skin_count = doc.size_of("skins");
    std::vector<int> node_mesh(node_count, -1), node_skin(node_count, -1);
    for (std::size_t i = 0; i < node_count; ++i) {
        const std::string where = at("nodes", i);
        const json& n = nodes[i];
        if (!n.is_object()) doc.fail(where + ": expected an object");
        Node& node = scene.nodes[i];
        node.name = doc.string(n, "name", where, "node_" + std::to_string(i));
        node.rest = read_node_transform(doc, n, where);
        node_mesh[i] = doc.index(n, "mesh", where, mesh_count);
        node_skin[i] = doc.index(n, "skin", where, skin_count);
        for (const json& c : doc.array(n, "children", where)) {
            if (!c.is_number_integer() || c.get<long long>() < 0 || c.get<unsigned long long>() >= node_count)
                doc.fail(where + ".children: invalid node index");
            const int child = c.get<int>();
            if (scene.nodes[child].parent >= 0 || child == static_cast<int>(i))
                doc.fail(where + ".children: node " + std::to_string(child) + " has more than one parent (the hierarchy must be a tree)");
            scene.nodes[child].parent = static_cast<int>(i);
            node.children.push_back(child);
        }
    }
    // A cycle leaves nodes unreachable from any root. Each node has at most one parent (checked
    // above), so walking up from every node while marking the path visits each node once: a
    // walk that meets its own mark went round a cycle; one that meets an earlier walk's mark, or
    // a root, did not. Linear, where walking to the root from every node is quadratic in a chain.
    {
        std::vector<std::uint32_t> walk(node_count, 0);  // 0: unvisited, else the walk's number
        for (std::size_t i = 0; i < node_count; ++i) {
            const auto mark = static_cast<std::uint32_t>(i + 1);
            int p = static_cast<int>(i);
            while (p >= 0 && walk[p] == 0) {
                walk[p] = mark;
                p = scene.nodes[p].parent;
            }
            if (p >= 0 && walk[p] == mark) doc.fail(at("nodes", i) + ": cyclic node hierarchy");
        }
    }

    const json& skins = doc.array(root, "skins", "");
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
        scene.skins.push_back(std::move(skin));
    }

    // One Mesh per node that instantiates a glTF mesh: a mesh used twice is deformed twice. The
    // glTF mesh is read once (per skin size, which its joint indices are checked against), copied
    // for the nodes before the last that use it and moved to the last; every copy is charged to
    // the memory budget (reading it charged the first).
    std::map<std::pair<int, int>, std::pair<int, std::optional<Mesh>>> read_once;  // (mesh, skin size): nodes left, mesh
    auto skin_size = [&](std::size_t i) { return node_skin[i] >= 0 ? static_cast<int>(scene.skins[node_skin[i]].joints.size()) : -1; };
    for (std::size_t i = 0; i < node_count; ++i)
        if (node_mesh[i] >= 0) ++read_once[{node_mesh[i], skin_size(i)}].first;
    for (std::size_t i = 0; i < node_count; ++i) {
        if (node_mesh[i] < 0) continue;
        const int skin = node_skin[i];
        auto& [left, original] = read_once[{node_mesh[i], skin_size(i)}];
        if (!original) original = read_mesh(doc, node_mesh[i], skin_size(i), scene.warnings);
        Mesh mesh;
        if (--left == 0) {
            mesh = std::move(*original);
            original.reset();
        } else {
            doc.charge(mesh_bytes(*original), at("nodes", i) + " (an instance of " + at("meshes", node_mesh[i]) + ")");
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

    gltf::move_dequantization_into_meshes(scene);

    const json& anims = doc.array(root, "animations", "");
    for (std::size_t a = 0; a < anims.size(); ++a) {
        const std::string where = at("animations", a);
        const json& ja = anims[a];
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
                continue;  // "pointer" and other extension paths
            }
            int s = doc.index(jc, "sampler", cw, samplers.size());
            if (s < 0) doc.fail(cw + ": missing sampler");
            const std::string sw = where + ".samplers[" + std::to_string(s) + "]";
            const json& js = samplers[s];
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
            clip.start = first ? ch.times.front() : std::min<double>(clip.start, ch.times.front());
            clip.end = first ? ch.times.back() : std::max<double>(clip.end, ch.times.back());
            first = false;
            clip.channels.push_back(std::move(ch));
        }
        scene.clips.push_back(std::move(clip));
    }
    return scene;
}

}  // namespace rigscope
