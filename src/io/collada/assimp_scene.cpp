// An Assimp aiScene into the plain scene model, for every format Assimp reads here: node tree,
// meshes with their unrolled corners folded back, skins. See assimp_scene.h for the hooks.
#include "io/collada/assimp_scene.h"

#include <assimp/scene.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>

#include "io/fbx/fbx_common.h"
#include "rigscope/core/error.h"

namespace rigscope::assimp {

namespace {

struct Converted {
    Mesh mesh;
    int skin = -1;
};

std::vector<Eigen::Matrix4d> rest_world(const Scene& scene) {
    // build_nodes emits parents before children.
    std::vector<Eigen::Matrix4d> world(scene.nodes.size());
    for (std::size_t i = 0; i < scene.nodes.size(); ++i) {
        const Node& n = scene.nodes[i];
        world[i] = n.parent >= 0 ? Eigen::Matrix4d(world[n.parent] * n.rest.matrix()) : n.rest.matrix();
    }
    return world;
}

void append_bytes(std::string& key, const void* p, std::size_t n) { key.append(static_cast<const char*>(p), n); }

// One influence: joint and weight.
using Influence = std::pair<std::uint16_t, float>;

// Skin influences per Assimp vertex, compressed rows: vertex v's are inf[count[v]..count[v+1]).
struct StagedSkin {
    Skin skin;
    std::vector<std::uint32_t> count;
    std::vector<Influence> inf;
};

// The mesh's bones as joints of a skin, and every vertex's influences, sorted per vertex.
StagedSkin stage_skin(const aiMesh& am, const NodeMap& map, const std::string& what, const std::string& path, const std::string& name) {
    const unsigned nv = am.mNumVertices;
    StagedSkin st;
    Skin& skin = st.skin;
    skin.name = name;
    std::vector<unsigned> joint_of_bone(am.mNumBones);
    std::vector<std::uint32_t>& count = st.count;
    count.assign(nv + 1, 0);
    if (am.mNumBones && !am.mBones) throw bad_input(path, what + " lists bones it does not hold");
    for (unsigned b = 0; b < am.mNumBones; ++b) {
        const aiBone* bone = am.mBones[b];
        if (!bone) throw bad_input(path, what + " has a null bone");
        auto it = map.by_name.find(bone->mName.C_Str());
        if (it == map.by_name.end())
            throw bad_input(path, what + " is skinned to bone '" + bone->mName.C_Str() + "', which names no node");
        auto j = std::find(skin.joints.begin(), skin.joints.end(), it->second);
        joint_of_bone[b] = static_cast<unsigned>(j - skin.joints.begin());
        if (j == skin.joints.end()) {
            if (skin.joints.size() > std::numeric_limits<std::uint16_t>::max())
                throw bad_input(path, what + " has more than 65536 joints");
            skin.joints.push_back(it->second);
            skin.inverse_bind.push_back(to_eigen(&bone->mOffsetMatrix));
        }
        if (bone->mNumWeights && !bone->mWeights) throw bad_input(path, what + ": bone '" + bone->mName.C_Str() + "' has no weight array");
        for (unsigned w = 0; w < bone->mNumWeights; ++w) {
            if (bone->mWeights[w].mVertexId >= nv)
                throw bad_input(path, what + ": bone '" + std::string(bone->mName.C_Str()) + "' weights a vertex past the mesh's end");
            ++count[bone->mWeights[w].mVertexId + 1];
        }
    }
    for (unsigned v = 0; v < nv; ++v) count[v + 1] += count[v];
    std::vector<Influence>& inf = st.inf;
    inf.resize(count[nv]);
    {
        std::vector<std::uint32_t> fill(count.begin(), count.end() - 1);
        for (unsigned b = 0; b < am.mNumBones; ++b)
            for (unsigned w = 0; w < am.mBones[b]->mNumWeights; ++w) {
                const aiVertexWeight& vw = am.mBones[b]->mWeights[w];
                inf[fill[vw.mVertexId]++] = {static_cast<std::uint16_t>(joint_of_bone[b]), vw.mWeight};
            }
    }
    // Canonical order per vertex, so identical corners give identical keys.
    for (unsigned v = 0; v < nv; ++v) std::sort(inf.begin() + count[v], inf.begin() + count[v + 1]);
    return st;
}

// Morph deltas per Assimp vertex: Assimp stores each target as full positions. The targets'
// names and default weights go to the mesh.
std::vector<std::vector<Eigen::Vector3f>> stage_deltas(const aiMesh& am, const MeshHooks& hooks, const std::string& what,
                                                       const std::string& path, Mesh& mesh) {
    const unsigned nv = am.mNumVertices;
    std::vector<std::vector<Eigen::Vector3f>> deltas;
    if (am.mNumAnimMeshes && !am.mAnimMeshes) throw bad_input(path, what + " lists morph targets it does not hold");
    for (unsigned t = 0; t < am.mNumAnimMeshes; ++t) {
        const aiAnimMesh* target = am.mAnimMeshes[t];
        if (!target) throw bad_input(path, what + " has a null morph target");
        MorphTarget mt;
        mt.name = target->mName.C_Str();
        const float weight = hooks.target ? hooks.target(mt) : 0.0f;
        std::vector<Eigen::Vector3f> d(nv, Eigen::Vector3f::Zero());
        if (target->mVertices) {
            if (target->mNumVertices != nv) throw bad_input(path, what + ": morph target '" + mt.name + "' has a different vertex count");
            for (unsigned v = 0; v < nv; ++v) {
                const aiVector3D e = target->mVertices[v] - am.mVertices[v];
                d[v] = Eigen::Vector3f(e.x, e.y, e.z);
            }
        }
        deltas.push_back(std::move(d));
        mesh.targets.push_back(std::move(mt));
        mesh.default_weights.push_back(weight);
    }
    return deltas;
}

// Fold the unrolled corners: equal position, influences and deltas -> one vertex. The faces go
// to the mesh over the folded vertices; returns the representative Assimp vertex per folded vertex.
std::vector<unsigned> fold_corners(const aiMesh& am, const StagedSkin& st, const std::vector<std::vector<Eigen::Vector3f>>& deltas,
                                   const std::string& what, const std::string& path, Mesh& mesh) {
    const unsigned nv = am.mNumVertices;
    const std::vector<std::uint32_t>& count = st.count;
    const std::vector<Influence>& inf = st.inf;
    std::vector<std::uint32_t> folded(nv, UINT32_MAX);
    std::vector<unsigned> first;  // representative Assimp vertex per folded vertex
    std::unordered_map<std::string, std::uint32_t> ids;
    std::string key;
    auto use = [&](unsigned v) {
        if (folded[v] != UINT32_MAX) return folded[v];
        key.clear();
        append_bytes(key, &am.mVertices[v], sizeof(aiVector3D));
        for (std::uint32_t k = count[v]; k < count[v + 1]; ++k) {
            append_bytes(key, &inf[k].first, sizeof(std::uint16_t));
            append_bytes(key, &inf[k].second, sizeof(float));
        }
        key.push_back('|');
        for (const auto& d : deltas) append_bytes(key, d[v].data(), 3 * sizeof(float));
        auto [it, inserted] = ids.emplace(key, static_cast<std::uint32_t>(first.size()));
        if (inserted) first.push_back(v);
        return folded[v] = it->second;
    };
    if (am.mNumFaces && !am.mFaces) throw bad_input(path, what + " lists faces it does not hold");
    mesh.face_offsets.assign(1, 0);
    mesh.face_indices.reserve(nv);
    for (unsigned f = 0; f < am.mNumFaces; ++f) {
        const aiFace& face = am.mFaces[f];
        if (face.mNumIndices && !face.mIndices) throw bad_input(path, what + " has a face without indices");
        for (unsigned c = 0; c < face.mNumIndices; ++c) {
            if (face.mIndices[c] >= nv) throw bad_input(path, what + " has a face index past its vertex count");
            mesh.face_indices.push_back(use(face.mIndices[c]));
        }
        mesh.face_offsets.push_back(static_cast<std::uint32_t>(mesh.face_indices.size()));
    }
    for (unsigned v = 0; v < nv; ++v) use(v);  // corners no face uses, if any, go last
    return first;
}

// UV sets, per face corner as Assimp unrolls them (bake, regions --by masks): the file's values,
// v up (row 0 of an image is v = 1, as Blender's Collada import).
void add_uv_sets(const aiMesh& am, Mesh& mesh) {
    for (unsigned set = 0; set < AI_MAX_NUMBER_OF_TEXTURECOORDS && am.mTextureCoords[set]; ++set) {
        UvSet uv;
        const aiString* name = am.GetTextureCoordsName(set);
        uv.name = name && name->length ? name->C_Str() : "UV" + std::to_string(set);
        uv.uv.reserve(mesh.face_indices.size());
        for (unsigned f = 0; f < am.mNumFaces; ++f)
            for (unsigned c = 0; c < am.mFaces[f].mNumIndices; ++c) {
                const aiVector3D& t = am.mTextureCoords[set][am.mFaces[f].mIndices[c]];
                uv.corners.push_back(static_cast<std::uint32_t>(uv.uv.size()));
                uv.uv.emplace_back(t.x, t.y);
            }
        mesh.uv_sets.push_back(std::move(uv));
    }
}

// Positions and target deltas of the folded vertices, from their representatives.
void add_folded_vertices(const aiMesh& am, const std::vector<unsigned>& first, const std::vector<std::vector<Eigen::Vector3f>>& deltas,
                         Mesh& mesh) {
    mesh.positions.reserve(first.size());
    for (unsigned v : first) mesh.positions.emplace_back(am.mVertices[v].x, am.mVertices[v].y, am.mVertices[v].z);
    for (std::size_t t = 0; t < deltas.size(); ++t) {
        mesh.targets[t].deltas.reserve(first.size());
        for (unsigned v : first) mesh.targets[t].deltas.push_back(deltas[t][v]);
    }
}

// The folded vertices' influences: weights that are not positive and finite dropped, a joint's
// repeats summed, each row normalised (its sum kept), with warnings for what was left out.
void add_influences(const std::vector<unsigned>& first, const StagedSkin& st, const std::string& what, Mesh& mesh,
                    std::vector<Warning>& warnings) {
    const std::vector<std::uint32_t>& count = st.count;
    const std::vector<Influence>& inf = st.inf;
    Influences& out = mesh.influences;
    out.offsets.assign(1, 0);
    std::size_t unweighted = 0, dropped = 0;
    for (unsigned v : first) {
        std::vector<Influence> row;
        for (std::uint32_t k = count[v]; k < count[v + 1]; ++k) {
            if (!(inf[k].second > 0.0f) || !std::isfinite(inf[k].second)) {
                ++dropped;
                continue;
            }
            if (!row.empty() && row.back().first == inf[k].first) row.back().second += inf[k].second;
            else row.push_back(inf[k]);
        }
        float sum = 0.0f;
        for (auto& r : row) sum += r.second;
        out.stored_sums.push_back(sum);
        if (row.empty() || !(sum > 0.0f)) ++unweighted;
        else
            for (auto& r : row) {
                out.joints.push_back(r.first);
                out.weights.push_back(sum == 1.0f ? r.second : r.second / sum);
            }
        out.offsets.push_back(static_cast<std::uint32_t>(out.joints.size()));
    }
    if (unweighted)
        warnings.push_back({WarningKind::SkinWeights, what + ": " + std::to_string(unweighted) +
                           " vertices have no skin weight and stay where they are stored"});
    if (dropped)
        warnings.push_back({WarningKind::SkinWeights, what + ": ignored " + std::to_string(dropped) + " zero, negative or non-finite skin weights"});
}

// The scene model follows glTF: a skinned mesh is stored where it sits at bind (world(joint) x
// inverse_bind = identity there) and its node's transform is ignored. Assimp's offsets map
// mesh-local space, so the mesh's placement B moves into the positions: v' = B v,
// inverse_bind' = inverse_bind B^-1, which skins every vertex to the same place.
void move_placement_into_positions(const MeshHooks& hooks, const Eigen::Matrix4d& place, const std::string& what, Mesh& mesh, Skin& skin,
                                   std::vector<Warning>& warnings) {
    const Eigen::Matrix4d unplace = place.inverse();
    if (!hooks.offsets_include_placement) {
        // Offsets already map the stored vertices to joint space: nothing to move.
    } else if (place.allFinite() && unplace.allFinite()) {
        const Eigen::Matrix3d linear = place.topLeftCorner<3, 3>();
        for (auto& p : mesh.positions) p = (place * p.cast<double>().homogeneous()).head<3>().cast<float>();
        for (auto& t : mesh.targets)
            for (auto& d : t.deltas) d = (linear * d.cast<double>()).cast<float>();
        for (auto& ib : skin.inverse_bind) ib = ib * unplace;
    } else {
        warnings.push_back({WarningKind::Transform, what + ": its node's matrix cannot be inverted; positions left in mesh space"});
    }
}

// One Assimp mesh, used by scene node ni, as a scene mesh; its skin, if any, is added to the scene.
Converted convert_mesh(const aiMesh& am, const NodeMap& map, const MeshHooks& hooks, const std::string& path, std::size_t ni,
                       const Eigen::Matrix4d& world, Scene& scene) {
    Converted cv;
    Mesh& mesh = cv.mesh;
    mesh.name = am.mName.length ? am.mName.C_Str() : scene.nodes[ni].name;
    const std::string what = "mesh '" + mesh.name + "'";
    if (am.mNumVertices && !am.mVertices) throw bad_input(path, what + " has vertices without positions");
    StagedSkin st = stage_skin(am, map, what, path, mesh.name);
    const std::vector<std::vector<Eigen::Vector3f>> deltas = stage_deltas(am, hooks, what, path, mesh);
    const std::vector<unsigned> first = fold_corners(am, st, deltas, what, path, mesh);
    add_uv_sets(am, mesh);
    add_folded_vertices(am, first, deltas, mesh);
    if (am.mNumBones) {
        add_influences(first, st, what, mesh, scene.warnings);
        if (hooks.inverse_binds) hooks.inverse_binds(*map.node[ni], world, what, mesh, st.skin, scene);
        move_placement_into_positions(hooks, world, what, mesh, st.skin, scene.warnings);
        cv.skin = static_cast<int>(scene.skins.size());
        scene.skins.push_back(std::move(st.skin));
    }
    return cv;
}

}  // namespace

Eigen::Matrix4d to_eigen(const void* p) {
    const aiMatrix4x4& a = *static_cast<const aiMatrix4x4*>(p);
    Eigen::Matrix4d m;
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) m(r, c) = a[r][c];
    return m;
}

NodeMap build_nodes(const aiScene& ai, Scene& scene, const std::function<bool(const std::string&)>& is_helper) {
    NodeMap map;
    if (!ai.mRootNode) return map;

    struct Item {
        const aiNode* node;
        int parent;                        // scene index of the nearest kept ancestor
        std::vector<const aiNode*> chain;  // folded helpers since that ancestor
        int depth;
    };
    // Assimp's artificial root (FBX's scene root, Collada's visual scene) is dropped unless it
    // carries something; its children become the roots.
    const aiNode* root = ai.mRootNode;
    const bool keep_root = root->mNumMeshes > 0 || !root->mTransformation.IsIdentity();
    std::vector<Item> stack;
    if (keep_root) {
        stack.push_back({root, -1, {}, 0});
    } else {
        for (unsigned i = root->mNumChildren; i-- > 0;)
            if (root->mChildren && root->mChildren[i]) stack.push_back({root->mChildren[i], -1, {}, 1});
    }

    while (!stack.empty()) {
        Item it = std::move(stack.back());
        stack.pop_back();
        if (it.depth > 4096) throw Error(kExitBadInput, "node tree deeper than 4096 levels");
        const aiNode* n = it.node;
        const std::string name = n->mName.C_Str();
        it.chain.push_back(n);
        int kept = it.parent;
        std::vector<const aiNode*> below;
        // A helper holding meshes stays a node of its own: folding it would misplace the mesh.
        if (!is_helper || !is_helper(name) || n->mNumMeshes > 0) {
            kept = static_cast<int>(scene.nodes.size());
            Node out;
            out.name = name;
            out.parent = it.parent;
            Eigen::Matrix4d local = Eigen::Matrix4d::Identity();
            for (const aiNode* c : it.chain) local = local * to_eigen(&c->mTransformation);
            out.rest = decompose(local);
            if (it.parent >= 0) scene.nodes[it.parent].children.push_back(kept);
            scene.nodes.push_back(std::move(out));
            map.path.push_back(it.chain);
            map.node.push_back(n);
            map.by_name.emplace(name, kept);
        } else {
            below = it.chain;
        }
        for (unsigned i = n->mNumChildren; i-- > 0;)
            if (n->mChildren && n->mChildren[i]) stack.push_back({n->mChildren[i], kept, below, it.depth + 1});
    }
    return map;
}

void build_meshes(const aiScene& ai, const NodeMap& map, const MeshHooks& hooks, const std::string& path, Scene& scene) {
    const std::vector<Eigen::Matrix4d> world = rest_world(scene);
    std::map<unsigned, Converted> cache;

    for (std::size_t ni = 0; ni < map.node.size(); ++ni) {
        const aiNode* node = map.node[ni];
        if (node->mNumMeshes && !node->mMeshes) throw bad_input(path, "node '" + scene.nodes[ni].name + "' lists meshes it does not hold");
        for (unsigned k = 0; k < node->mNumMeshes; ++k) {
            const unsigned mi = node->mMeshes[k];
            if (mi >= ai.mNumMeshes || !ai.mMeshes || !ai.mMeshes[mi])
                throw bad_input(path, "node '" + scene.nodes[ni].name + "' refers to a missing mesh");
            auto found = cache.find(mi);
            if (found == cache.end()) found = cache.emplace(mi, convert_mesh(*ai.mMeshes[mi], map, hooks, path, ni, world[ni], scene)).first;
            Mesh mesh = found->second.mesh;
            mesh.node = static_cast<int>(ni);
            mesh.skin = found->second.skin;
            if (scene.nodes[ni].mesh < 0) scene.nodes[ni].mesh = static_cast<int>(scene.meshes.size());
            scene.meshes.push_back(std::move(mesh));
        }
    }
}

std::uint64_t mesh_bytes(const aiScene& ai) {
    std::uint64_t bytes = 0;
    for (unsigned m = 0; m < ai.mNumMeshes && ai.mMeshes; ++m)
        if (const aiMesh* am = ai.mMeshes[m]) {
            std::uint64_t per_vertex = 12 + 12ull * am->mNumAnimMeshes;
            // A UV set: a value and a corner index per unrolled corner.
            for (unsigned set = 0; set < AI_MAX_NUMBER_OF_TEXTURECOORDS && am->mTextureCoords[set]; ++set) per_vertex += 12;
            bytes += per_vertex * am->mNumVertices;
            for (unsigned b = 0; b < am->mNumBones && am->mBones; ++b)
                if (am->mBones[b]) bytes += 8ull * am->mBones[b]->mNumWeights;
        }
    return bytes;
}

std::string one_line(std::string s) {
    // Assimp's messages may quote raw bytes of a broken file.
    for (char& c : s)
        if (c == '\n' || c == '\r' || c == '\t') c = ' ';
        else if ((c >= 0 && c < 0x20) || c == 0x7f) c = '?';
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s.empty() ? "Assimp could not read the file" : s;
}

}  // namespace rigscope::assimp
