#include <assimp/scene.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>

#include "io/fbx_internal.h"
#include "rigscope/core/error.h"

namespace rigscope::fbx {

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

}  // namespace

bool inverse_bind_from_link(const Eigen::Matrix4d& assimp, const RawCluster& cluster, const Eigen::Matrix4d& mesh_bind,
                            const Eigen::Vector3d& lo, const Eigen::Vector3d& hi, Eigen::Matrix4d& out) {
    if (!cluster.has_link) return false;
    const Eigen::Matrix4d expected = cluster.transform_link.inverse() * mesh_bind;
    if (!expected.allFinite()) return false;
    // Compared by where the two matrices take the mesh's bounding box, relative to the box's
    // size in bone space, so neither the unit nor the skeleton's scale sets the tolerance.
    double gap = 0.0;
    for (int c = 0; c < 8; ++c) {
        const Eigen::Vector4d p((c & 1) ? hi.x() : lo.x(), (c & 2) ? hi.y() : lo.y(), (c & 4) ? hi.z() : lo.z(), 1.0);
        gap = std::max(gap, ((assimp - expected) * p).head<3>().norm());
    }
    const double size = (expected.topLeftCorner<3, 3>() * (hi - lo)).norm();
    if (!(gap > 1e-4 * std::max(size, 1e-12))) return false;
    out = expected;
    return true;
}

void build_meshes(const aiScene& ai, const NodeMap& map, const RawFbx& raw, const std::string& path,
                  Scene& scene) {
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
            if (found == cache.end()) {
                const aiMesh& am = *ai.mMeshes[mi];
                Converted cv;
                Mesh& mesh = cv.mesh;
                mesh.name = am.mName.length ? am.mName.C_Str() : scene.nodes[ni].name;
                const std::string what = "mesh '" + mesh.name + "'";
                const unsigned nv = am.mNumVertices;
                if (nv && !am.mVertices) throw bad_input(path, what + " has vertices without positions");

                // Skin influences per Assimp vertex, compressed rows.
                Skin skin;
                skin.name = mesh.name;
                std::vector<unsigned> joint_of_bone(am.mNumBones);
                std::vector<std::uint32_t> count(nv + 1, 0);
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
                std::vector<std::pair<std::uint16_t, float>> inf(count[nv]);
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

                // Morph deltas per Assimp vertex: Assimp stores each target as full positions.
                std::vector<std::vector<Eigen::Vector3f>> deltas;
                if (am.mNumAnimMeshes && !am.mAnimMeshes) throw bad_input(path, what + " lists morph targets it does not hold");
                for (unsigned t = 0; t < am.mNumAnimMeshes; ++t) {
                    const aiAnimMesh* target = am.mAnimMeshes[t];
                    if (!target) throw bad_input(path, what + " has a null morph target");
                    MorphTarget mt;
                    mt.name = target->mName.C_Str();
                    float weight = 0.0f;
                    if (auto ch = raw.shape_channels.find(mt.name); ch != raw.shape_channels.end()) {
                        mt.name = ch->second.name;  // the blend-shape channel's name, not its shape's
                        weight = static_cast<float>(ch->second.deform_percent / 100.0);
                    }
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

                // Fold the unrolled corners: equal position, influences and deltas -> one vertex.
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

                mesh.positions.reserve(first.size());
                for (unsigned v : first) mesh.positions.emplace_back(am.mVertices[v].x, am.mVertices[v].y, am.mVertices[v].z);
                for (std::size_t t = 0; t < deltas.size(); ++t) {
                    mesh.targets[t].deltas.reserve(first.size());
                    for (unsigned v : first) mesh.targets[t].deltas.push_back(deltas[t][v]);
                }

                if (am.mNumBones) {
                    Influences& out = mesh.influences;
                    out.offsets.assign(1, 0);
                    std::size_t unweighted = 0, dropped = 0;
                    for (unsigned v : first) {
                        std::vector<std::pair<std::uint16_t, float>> row;
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
                        if (row.empty() || !(sum > 0.0f)) ++unweighted;
                        else
                            for (auto& r : row) {
                                out.joints.push_back(r.first);
                                out.weights.push_back(sum == 1.0f ? r.second : r.second / sum);
                            }
                        out.offsets.push_back(static_cast<std::uint32_t>(out.joints.size()));
                    }
                    if (unweighted)
                        scene.warnings.push_back(what + ": " + std::to_string(unweighted) +
                                                 " vertices have no skin weight and stay where they are stored");
                    if (dropped)
                        scene.warnings.push_back(what + ": ignored " + std::to_string(dropped) + " zero, negative or non-finite skin weights");

                    // Assimp 5.2.4+ takes the inverse bind from the cluster's Transform alone. Where
                    // the file also has TransformLink, check it against TransformLink^-1 x the mesh's
                    // bind placement and rebuild the inverse binds that disagree.
                    if (raw.parsed && !mesh.positions.empty()) {
                        Eigen::Vector3d lo = mesh.positions[0].cast<double>(), hi = lo;
                        for (const auto& p : mesh.positions) {
                            lo = lo.cwiseMin(p.cast<double>());
                            hi = hi.cwiseMax(p.cast<double>());
                        }
                        const std::string mesh_node = node->mName.C_Str();
                        auto bp = raw.bind_pose.find(mesh_node);
                        const Eigen::Matrix4d mesh_bind = bp != raw.bind_pose.end() ? bp->second : world[ni];
                        std::vector<std::string> rebuilt;
                        for (std::size_t j = 0; j < skin.joints.size(); ++j) {
                            const std::string& bone = scene.nodes[skin.joints[j]].name;
                            for (const RawCluster& cl : raw.clusters) {
                                if (cl.bone != bone || !cl.has_link ||
                                    std::find(cl.meshes.begin(), cl.meshes.end(), mesh_node) == cl.meshes.end())
                                    continue;
                                if (inverse_bind_from_link(skin.inverse_bind[j], cl, mesh_bind, lo, hi, skin.inverse_bind[j]))
                                    rebuilt.push_back(bone);
                                break;
                            }
                        }
                        if (!rebuilt.empty()) {
                            std::string names;
                            for (const auto& r : rebuilt) names += (names.empty() ? "" : ", ") + r;
                            scene.warnings.push_back(what + ": Assimp's inverse binds for " + names +
                                                     " disagree with the file's cluster TransformLink and bind pose; rebuilt from those");
                        }
                    }
                    // The scene model follows glTF: a skinned mesh is stored where it sits at bind
                    // (world(joint) x inverse_bind = identity there) and its node's transform is
                    // ignored. Assimp's offsets map mesh-local space, so the mesh's placement B
                    // moves into the positions: v' = B v, inverse_bind' = inverse_bind B^-1, which
                    // skins every vertex to the same place.
                    const Eigen::Matrix4d place = world[ni];
                    const Eigen::Matrix4d unplace = place.inverse();
                    if (place.allFinite() && unplace.allFinite()) {
                        const Eigen::Matrix3d linear = place.topLeftCorner<3, 3>();
                        for (auto& p : mesh.positions) p = (place * p.cast<double>().homogeneous()).head<3>().cast<float>();
                        for (auto& t : mesh.targets)
                            for (auto& d : t.deltas) d = (linear * d.cast<double>()).cast<float>();
                        for (auto& ib : skin.inverse_bind) ib = ib * unplace;
                    } else {
                        scene.warnings.push_back(what + ": its node's matrix cannot be inverted; positions left in mesh space");
                    }
                    cv.skin = static_cast<int>(scene.skins.size());
                    scene.skins.push_back(std::move(skin));
                }
                found = cache.emplace(mi, std::move(cv)).first;
            }
            Mesh mesh = found->second.mesh;
            mesh.node = static_cast<int>(ni);
            mesh.skin = found->second.skin;
            if (scene.nodes[ni].mesh < 0) scene.nodes[ni].mesh = static_cast<int>(scene.meshes.size());
            scene.meshes.push_back(std::move(mesh));
        }
    }
}

}  // namespace rigscope::fbx
