// The plain scene model as binary glTF 2.0: nodes, meshes, skins here; animations in
// gltf_writer_anim.cpp; buffers and GLB framing in glb_builder.cpp.
#include "rigscope/io/gltf_writer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>

#include "io/writers/gltf_writer_internal.h"
#include "rigscope/core/axes.h"
#include "rigscope/core/error.h"
#include "rigscope/core/inherit.h"
#include "rigscope/core/local_matrices.h"

namespace rigscope {

namespace {

using gltf::GlbBuilder;
using gltf::json;

std::string mesh_label(const Scene& scene, int m) {
    return "mesh " + std::to_string(m) + " '" + scene.meshes[m].name + "'";
}

bool indexed_name(const std::string& name, const std::string& prefix) {
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) return false;
    return std::all_of(name.begin() + prefix.size(), name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The extra attributes per mesh, checked against the rules glTF puts on attribute names and
// shapes, so a caller's mistake is an exception here rather than a file viewers refuse.
std::vector<std::vector<const VertexAttribute*>> check_extra(const Scene& scene, const std::vector<MeshAttributes>& extra) {
    std::vector<std::vector<const VertexAttribute*>> per_mesh(scene.meshes.size());
    for (const MeshAttributes& ma : extra) {
        if (ma.mesh < 0 || static_cast<std::size_t>(ma.mesh) >= scene.meshes.size())
            throw std::invalid_argument("extra attributes for mesh " + std::to_string(ma.mesh) + ", which does not exist");
        for (const VertexAttribute& a : ma.attributes) {
            const std::string what = mesh_label(scene, ma.mesh) + " attribute '" + a.name + "'";
            bool ok_shape;
            if (indexed_name(a.name, "COLOR_")) ok_shape = a.components == 3 || a.components == 4;
            else if (indexed_name(a.name, "TEXCOORD_")) ok_shape = a.components == 2;
            else if (a.name.size() > 1 && a.name[0] == '_') ok_shape = a.components >= 1 && a.components <= 4;
            else throw std::invalid_argument(what + ": not COLOR_n, TEXCOORD_n or a custom name starting with '_'");
            if (!ok_shape) throw std::invalid_argument(what + ": " + std::to_string(a.components) + " components do not fit the name");
            const std::size_t want = static_cast<std::size_t>(a.components) * scene.meshes[ma.mesh].vertex_count();
            if (a.data.size() != want)
                throw std::invalid_argument(what + ": " + std::to_string(a.data.size()) + " floats, expected " + std::to_string(want));
            for (float v : a.data)
                if (!std::isfinite(v)) throw std::invalid_argument(what + ": NaN or infinite value");
            for (const VertexAttribute* other : per_mesh[ma.mesh])
                if (other->name == a.name) throw std::invalid_argument(what + ": given twice");
            per_mesh[ma.mesh].push_back(&a);
        }
    }
    return per_mesh;
}

// Polygons fanned from their first corner: exact for the convex quads and n-gons modelling
// tools write, and triangles stay as they are.
std::vector<std::uint32_t> triangles(const Scene& scene, int m) {
    const Mesh& mesh = scene.meshes[m];
    std::vector<std::uint32_t> tris;
    tris.reserve(mesh.face_indices.size() * 3 / 2);
    for (std::size_t f = 0; f < mesh.face_count(); ++f) {
        const std::uint32_t b = mesh.face_offsets[f], e = mesh.face_offsets[f + 1];
        if (e > mesh.face_indices.size() || b > e) throw std::invalid_argument(mesh_label(scene, m) + ": face offsets out of range");
        for (std::uint32_t k = b; k < e; ++k)
            if (mesh.face_indices[k] >= mesh.vertex_count())
                throw std::invalid_argument(mesh_label(scene, m) + ": face index out of range");
        for (std::uint32_t k = b + 2; k < e; ++k) tris.insert(tris.end(), {mesh.face_indices[b], mesh.face_indices[k - 1], mesh.face_indices[k]});
    }
    return tris;
}

// Area-weighted smooth normals: glTF viewers shade flat-looking garbage without NORMAL.
std::vector<float> smooth_normals(const Mesh& mesh, const std::vector<std::uint32_t>& tris) {
    std::vector<Eigen::Vector3d> acc(mesh.vertex_count(), Eigen::Vector3d::Zero());
    for (std::size_t t = 0; t + 2 < tris.size(); t += 3) {
        const Eigen::Vector3d a = mesh.positions[tris[t]].cast<double>();
        const Eigen::Vector3d n = (mesh.positions[tris[t + 1]].cast<double>() - a).cross(mesh.positions[tris[t + 2]].cast<double>() - a);
        for (int k = 0; k < 3; ++k) acc[tris[t + k]] += n;
    }
    std::vector<float> out(mesh.vertex_count() * 3);
    for (std::size_t v = 0; v < acc.size(); ++v) {
        const double len = acc[v].norm();
        // glTF requires unit normals: a vertex on no (or only degenerate) faces gets "up".
        const Eigen::Vector3f n = len > 1e-30 ? (acc[v] / len).cast<float>() : Eigen::Vector3f(0, 1, 0);
        out[3 * v] = n.x(), out[3 * v + 1] = n.y(), out[3 * v + 2] = n.z();
    }
    return out;
}

// JOINTS_n / WEIGHTS_n: duplicate joints merged, weights renormalised in float (the validator
// checks the sum), and past 4 influences the strongest first, so a viewer that reads only the
// first set still gets most of the motion.
void write_influences(GlbBuilder& glb, const Scene& scene, int m, json& attributes) {
    const Mesh& mesh = scene.meshes[m];
    const Influences& inf = mesh.influences;
    const std::size_t n = mesh.vertex_count();
    const std::size_t joint_count = scene.skins[mesh.skin].joints.size();
    std::vector<std::vector<std::pair<std::uint16_t, float>>> lists(n);
    std::size_t widest = 1;
    for (std::size_t v = 0; v < n; ++v) {
        auto& list = lists[v];
        for (std::uint32_t k = inf.offsets[v]; k < inf.offsets[v + 1]; ++k) {
            if (inf.joints[k] >= joint_count) throw std::invalid_argument(mesh_label(scene, m) + ": joint index beyond its skin");
            if (!(inf.weights[k] > 0)) continue;
            auto same = std::find_if(list.begin(), list.end(), [&](auto& p) { return p.first == inf.joints[k]; });
            if (same != list.end()) same->second += inf.weights[k];
            else list.emplace_back(inf.joints[k], inf.weights[k]);
        }
        if (list.size() > 4)
            std::stable_sort(list.begin(), list.end(), [](auto& a, auto& b) { return a.second > b.second; });
        double sum = 0;
        for (auto& p : list) sum += p.second;
        for (auto& p : list) p.second = static_cast<float>(p.second / sum);
        widest = std::max(widest, list.size());
    }
    const std::size_t sets = (widest + 3) / 4;
    for (std::size_t s = 0; s < sets; ++s) {
        std::vector<std::uint16_t> joints(n * 4, 0);
        std::vector<float> weights(n * 4, 0.0f);
        for (std::size_t v = 0; v < n; ++v)
            for (std::size_t k = 0; k < 4 && 4 * s + k < lists[v].size(); ++k) {
                joints[4 * v + k] = lists[v][4 * s + k].first;
                weights[4 * v + k] = lists[v][4 * s + k].second;
            }
        attributes["JOINTS_" + std::to_string(s)] = glb.add_joints(joints, joint_count <= 256);
        attributes["WEIGHTS_" + std::to_string(s)] = glb.add_floats(weights.data(), n, 4, gltf::kArrayBuffer, false);
    }
}

json write_mesh(GlbBuilder& glb, const Scene& scene, int m, bool skinned, const std::vector<const VertexAttribute*>& extra) {
    const Mesh& mesh = scene.meshes[m];
    const std::size_t n = mesh.vertex_count();
    const std::vector<std::uint32_t> tris = triangles(scene, m);
    json attributes = json::object();
    attributes["POSITION"] = glb.add_floats(mesh.positions.data()->data(), n, 3, gltf::kArrayBuffer, true);
    if (!tris.empty()) {
        const std::vector<float> normals = smooth_normals(mesh, tris);
        attributes["NORMAL"] = glb.add_floats(normals.data(), n, 3, gltf::kArrayBuffer, false);
    }
    if (skinned) write_influences(glb, scene, m, attributes);
    for (const VertexAttribute* a : extra)
        attributes[a->name] = glb.add_floats(a->data.data(), n, a->components, gltf::kArrayBuffer, false);

    json prim = {{"attributes", std::move(attributes)}};
    if (tris.empty()) prim["mode"] = 0;  // no faces: the vertices as points, all still there
    else prim["indices"] = glb.add_indices(tris, n);
    json out = {{"name", mesh.name}};
    if (!mesh.targets.empty()) {
        json targets = json::array(), names = json::array(), weights = json::array();
        std::vector<float> flat(n * 3);
        for (std::size_t t = 0; t < mesh.targets.size(); ++t) {
            const MorphTarget& target = mesh.targets[t];
            if (target.deltas.size() != n) throw std::invalid_argument(mesh_label(scene, m) + ": target '" + target.name + "' has the wrong vertex count");
            for (std::size_t v = 0; v < n; ++v)
                for (int c = 0; c < 3; ++c) flat[3 * v + c] = target.deltas[v][c];
            targets.push_back({{"POSITION", glb.add_deltas(flat)}});
            names.push_back(target.name);
            weights.push_back(t < mesh.default_weights.size() ? mesh.default_weights[t] : 0.0f);
        }
        prim["targets"] = std::move(targets);
        out["weights"] = std::move(weights);
        // Not in the core spec, but what Blender, three.js and rigscope's reader use for names.
        out["extras"] = {{"targetNames", std::move(names)}};
    }
    out["primitives"] = json::array({std::move(prim)});
    return out;
}

void put_transform(json& node, const Transform& t) {
    if (!t.translation.isZero(0)) node["translation"] = {t.translation.x(), t.translation.y(), t.translation.z()};
    const Eigen::Quaterniond q = t.rotation.normalized();
    if (q.x() != 0 || q.y() != 0 || q.z() != 0 || q.w() != 1) node["rotation"] = {q.x(), q.y(), q.z(), q.w()};
    if (t.scale != Eigen::Vector3d::Ones()) node["scale"] = {t.scale.x(), t.scale.y(), t.scale.z()};
}

json write_skin(GlbBuilder& glb, const Scene& scene, int s) {
    const Skin& skin = scene.skins[s];
    if (skin.inverse_bind.size() != skin.joints.size()) throw std::invalid_argument("skin '" + skin.name + "': one inverse bind matrix per joint needed");
    std::vector<float> ibm(16 * skin.joints.size());
    json joints = json::array();
    for (std::size_t j = 0; j < skin.joints.size(); ++j) {
        if (skin.joints[j] < 0 || static_cast<std::size_t>(skin.joints[j]) >= scene.nodes.size())
            throw std::invalid_argument("skin '" + skin.name + "': joint is no node");
        joints.push_back(skin.joints[j]);
        Eigen::Matrix4d mat = skin.inverse_bind[j];
        // Rounding in an FBX's matrix products leaves ~1e-17 in the projective row; the
        // validator wants an affine matrix, which every inverse bind matrix is meant to be.
        if ((mat.row(3) - Eigen::RowVector4d(0, 0, 0, 1)).cwiseAbs().maxCoeff() < 1e-6) mat.row(3) << 0, 0, 0, 1;
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 4; ++r) ibm[16 * j + 4 * c + r] = static_cast<float>(mat(r, c));  // column-major
    }
    return {{"name", skin.name},
            {"joints", std::move(joints)},
            {"inverseBindMatrices", glb.add_floats(ibm.data(), skin.joints.size(), 16, gltf::kNoTarget, false)}};
}

}  // namespace

namespace {

// How far a local matrix is from the translation, rotation and scale glTF holds, as a share of
// its size: 0 but for rounding unless it shears (or, from USD, rotates by a quaternion not of
// length 1).
double shear_of(const Eigen::Matrix4d& m) {
    const Eigen::Matrix3d a = m.topLeftCorner<3, 3>(), b = decompose(m).matrix().topLeftCorner<3, 3>();
    return (a - b).norm() / std::max(1.0, a.norm());
}

// A node path for messages: the names from the root down (a USD node's are its prim's).
std::string node_path(const Scene& scene, int n) {
    std::string path;
    for (int i = n, guard = 0; i >= 0 && i < static_cast<int>(scene.nodes.size()) && guard < 1000; i = scene.nodes[i].parent, ++guard)
        path = "/" + scene.nodes[i].name + path;
    return path;
}

// glTF holds a node's local transform as translation, rotation and scale, and interpolates those:
// a node whose local matrix shears (Node::rest_matrix; a clip's LocalMatrices at one of the
// file's samples) is refused, as FBX's inherit types that shear are (core/inherit.h), before a
// byte is written. Between samples the channels hold the matrices at the samples, interpolated
// as glTF does.
void refuse_shear(const Scene& scene) {
    constexpr double kTolerance = 1e-5;  // the project's tolerance on positions, of the size
    const std::string file = scene.source.empty() ? std::string("the scene") : scene.source;
    auto refuse = [&](const std::string& what, const std::string& when, double by) {
        char share[32];
        std::snprintf(share, sizeof share, "%.2g", by);
        throw Error(kExitMismatch, file + ": glTF cannot hold " + what + ": its transform shears " + when + " (by " + share +
                                       " of its size), which a glTF node's translation, rotation and scale cannot (write JSON or "
                                       "CSV instead, or tension's glTF, which bakes the positions)");
    };
    for (std::size_t n = 0; n < scene.nodes.size(); ++n)
        if (scene.nodes[n].rest_matrix)
            if (const double by = shear_of(*scene.nodes[n].rest_matrix); by > kTolerance)
                refuse("node " + node_path(scene, static_cast<int>(n)), "at rest", by);
    for (const Clip& clip : scene.clips)
        for (const auto& lm : clip.matrices) {
            std::vector<Eigen::Matrix4d> m(lm->nodes().size());
            for (const double t : lm->sample_times()) {
                lm->at(t, m.data());
                for (std::size_t k = 0; k < m.size(); ++k)
                    if (const double by = shear_of(m[k]); lm->nodes()[k] >= 0 && by > kTolerance)
                        refuse(lm->name(k), "in clip '" + clip.name + "' at " + std::to_string(t) + " s", by);
            }
        }
}

// Where each written mesh sits: scene node i is glTF node i; meshes that cannot sit on their own
// node get new ones after the scene's.
struct NodeLayout {
    std::size_t scene_nodes = 0;
    std::vector<int> parent;        // per scene node: its parent, -1 for a root or a broken link
    gltf::WrittenScene written;     // per mesh: its glTF node
    std::vector<int> extra_parent;  // per new node: its parent, -1 for a root
    std::vector<int> extra_mesh;    // per new node: the mesh it holds

    std::size_t node_total() const { return scene_nodes + extra_mesh.size(); }
    bool root(std::size_t i) const { return i < scene_nodes ? parent[i] < 0 : extra_parent[i - scene_nodes] < 0; }
};

NodeLayout place_meshes(const Scene& scene) {
    NodeLayout l;
    l.scene_nodes = scene.nodes.size();
    l.parent.assign(l.scene_nodes, -1);
    for (std::size_t i = 0; i < l.scene_nodes; ++i) {
        const int p = scene.nodes[i].parent;
        if (p >= 0 && static_cast<std::size_t>(p) < l.scene_nodes && p != static_cast<int>(i)) l.parent[i] = p;
    }
    std::vector<int> holds(l.scene_nodes, -1);  // the scene mesh each node holds
    l.written.mesh_node.assign(scene.meshes.size(), -1);
    for (int pass = 0; pass < 2; ++pass) {
        for (std::size_t m = 0; m < scene.meshes.size(); ++m) {
            const Mesh& mesh = scene.meshes[m];
            if (mesh.positions.empty() || l.written.mesh_node[m] >= 0) continue;
            const bool own_node = mesh.node >= 0 && static_cast<std::size_t>(mesh.node) < l.scene_nodes;
            // First pass: meshes their node names as its own, so a glTF input keeps its layout.
            if (pass == 0 && !(own_node && scene.nodes[mesh.node].mesh == static_cast<int>(m))) continue;
            if (own_node && holds[mesh.node] < 0) {
                holds[mesh.node] = static_cast<int>(m);
                l.written.mesh_node[m] = mesh.node;
            } else {
                l.written.mesh_node[m] = static_cast<int>(l.node_total());
                l.extra_parent.push_back(own_node ? mesh.node : -1);
                l.extra_mesh.push_back(static_cast<int>(m));
            }
        }
    }
    return l;
}

// The skins a written mesh uses, renumbered in the order meshes first use them.
struct SkinUse {
    std::vector<int> index;     // per scene skin: its glTF index, -1 when unused
    std::vector<bool> skinned;  // per mesh: written with its skin
    int count = 0;
};

SkinUse skins_used(const Scene& scene, const gltf::WrittenScene& written) {
    SkinUse u;
    u.index.assign(scene.skins.size(), -1);
    u.skinned.assign(scene.meshes.size(), false);
    for (std::size_t m = 0; m < scene.meshes.size(); ++m) {
        const Mesh& mesh = scene.meshes[m];
        if (written.mesh_node[m] < 0 || mesh.skin < 0 || mesh.influences.empty()) continue;
        if (static_cast<std::size_t>(mesh.skin) >= scene.skins.size()) throw std::invalid_argument(mesh_label(scene, static_cast<int>(m)) + ": skin out of range");
        if (mesh.influences.vertex_count() != mesh.vertex_count()) throw std::invalid_argument(mesh_label(scene, static_cast<int>(m)) + ": influences do not cover its vertices");
        u.skinned[m] = true;
        if (u.index[mesh.skin] < 0) u.index[mesh.skin] = u.count++;
    }
    return u;
}

// The glTF nodes before their meshes: names, rest transforms and children (the file's child
// order first, then children only their parent link names).
struct NodeTree {
    std::vector<json> nodes;
    std::vector<std::vector<int>> children;
};

NodeTree node_tree(const Scene& scene, const NodeLayout& l) {
    const std::size_t scene_nodes = l.scene_nodes;
    NodeTree t{std::vector<json>(l.node_total()), std::vector<std::vector<int>>(l.node_total())};
    for (std::size_t i = 0; i < scene_nodes; ++i) {
        t.nodes[i] = {{"name", scene.nodes[i].name}};
        put_transform(t.nodes[i], scene.nodes[i].rest);
        for (int c : scene.nodes[i].children)  // the file's child order first
            if (c >= 0 && static_cast<std::size_t>(c) < scene_nodes && l.parent[c] == static_cast<int>(i)) t.children[i].push_back(c);
    }
    for (std::size_t i = 0; i < scene_nodes; ++i) {
        if (l.parent[i] < 0) continue;
        std::vector<int>& siblings = t.children[l.parent[i]];
        if (std::find(siblings.begin(), siblings.end(), static_cast<int>(i)) == siblings.end()) siblings.push_back(static_cast<int>(i));
    }
    for (std::size_t e = 0; e < l.extra_mesh.size(); ++e) {
        t.nodes[scene_nodes + e] = {{"name", scene.meshes[l.extra_mesh[e]].name}};
        if (l.extra_parent[e] >= 0) t.children[l.extra_parent[e]].push_back(static_cast<int>(scene_nodes + e));
    }
    return t;
}

// The meshes, each on its node (with its skin's index), then the skins in their new order.
void append_meshes_and_skins(GlbBuilder& glb, const Scene& scene, const std::vector<std::vector<const VertexAttribute*>>& extra_of,
                             const gltf::WrittenScene& written, const SkinUse& skins, NodeTree& tree) {
    for (std::size_t m = 0; m < scene.meshes.size(); ++m) {
        if (written.mesh_node[m] < 0) continue;
        json& node = tree.nodes[written.mesh_node[m]];
        node["mesh"] = glb.append("meshes", write_mesh(glb, scene, static_cast<int>(m), skins.skinned[m], extra_of[m]));
        if (skins.skinned[m]) node["skin"] = skins.index[scene.meshes[m].skin];
    }
    std::vector<int> skin_order(skins.count);
    for (std::size_t s = 0; s < scene.skins.size(); ++s)
        if (skins.index[s] >= 0) skin_order[skins.index[s]] = static_cast<int>(s);
    for (int s : skin_order) glb.append("skins", write_skin(glb, scene, s));
}

// The nodes appended with their children, and the scene of their roots.
void append_nodes_and_scene(GlbBuilder& glb, const Scene& scene, const NodeLayout& l, NodeTree&& tree) {
    json roots = json::array();
    for (std::size_t i = 0; i < l.node_total(); ++i) {
        if (!tree.children[i].empty()) tree.nodes[i]["children"] = tree.children[i];
        if (l.root(i)) roots.push_back(i);
        glb.append("nodes", std::move(tree.nodes[i]));
    }
    // glTF is Y-up: a file with another up axis gets one more root that turns it, and its own
    // roots become that node's children. Vertex data and every node's transform stay as the file
    // has them, so a reader that undoes the turn gets the file's numbers back.
    if (!roots.empty() && !is_y_up(scene.up_axis)) {
        const Eigen::Quaterniond q = up_axis_to_y(scene.up_axis);
        json turn = {{"name", kUpAxisNodePrefix + scene.up_axis + "_to_Y"},
                     {"rotation", {q.x(), q.y(), q.z(), q.w()}},
                     {"children", std::move(roots)}};
        roots = json::array({glb.append("nodes", std::move(turn))});
    }
    if (!roots.empty()) {
        glb.append("scenes", {{"nodes", std::move(roots)}});
        glb.root()["scene"] = 0;
    }
}

void write_glb_checked(const Scene& scene, const std::vector<MeshAttributes>& extra, OutputFile& out) {
    refuse_shear(scene);
    const auto extra_of = check_extra(scene, extra);
    GlbBuilder glb;
    const NodeLayout layout = place_meshes(scene);
    const SkinUse skins = skins_used(scene, layout.written);
    NodeTree tree = node_tree(scene, layout);
    append_meshes_and_skins(glb, scene, extra_of, layout.written, skins, tree);
    append_nodes_and_scene(glb, scene, layout, std::move(tree));
    gltf::write_animations(glb, scene, layout.written);
    glb.write(out);
}

}  // namespace

void write_glb(const Scene& scene, const std::vector<MeshAttributes>& extra, OutputFile& out) {
    // What the writer refuses comes from the input (indices that contradict each other, values
    // that are not finite) or from the output's size: an error of that cause, never an internal
    // one.
    try {
        // glTF composes world = parent world x local alone: nodes that inherit scale otherwise
        // (FBX's Rrs and RrSs) are rewritten to give the same worlds, or refused.
        if (has_scale_inheritance(scene)) write_glb_checked(with_full_inheritance(scene), extra, out);
        else write_glb_checked(scene, extra, out);
    } catch (const std::invalid_argument& e) {
        throw bad_input(scene.source.empty() ? out.path() : scene.source, std::string("cannot be written as glTF: ") + e.what());
    } catch (const std::length_error& e) {
        throw Error(kExitCannotWrite, out.path() + ": " + e.what());
    }
}

}  // namespace rigscope
