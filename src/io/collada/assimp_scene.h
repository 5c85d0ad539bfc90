// An Assimp aiScene into the plain scene model, for the format read through Assimp (Collada; FBX
// no longer is). What is particular to one format comes in through the hooks; nothing here knows
// Collada's XML. Assimp types are only forward-declared, so tests may include it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "rigscope/core/scene.h"

struct aiScene;
struct aiNode;

namespace rigscope::assimp {

// Assimp's node tree mapped onto Scene::nodes, with the nodes a format's hook calls helpers folded
// into the nearest kept descendant.
struct NodeMap {
    // Per scene node: the Assimp nodes whose transforms compose its local transform, outermost
    // first (the helpers between it and its scene parent, then the node itself).
    std::vector<std::vector<const aiNode*>> path;
    std::vector<const aiNode*> node;                          // the Assimp node holding the name and meshes
    std::unordered_map<std::string, int> by_name;             // node name -> scene node
};

Eigen::Matrix4d to_eigen(const void* ai_matrix4x4);  // aiMatrix4x4 (float) -> double

// Fills scene.nodes (file units) and returns the mapping. Assimp's root is dropped when it has no
// meshes and an identity transform. `is_helper` names the nodes folded away (none when empty).
NodeMap build_nodes(const aiScene& ai, Scene& scene, const std::function<bool(const std::string&)>& is_helper = {});

struct MeshHooks {
    // Assimp's bone offsets map the mesh node's local space, which holds the mesh's bind
    // placement (FBX): the placement moves into the positions. False where the offsets map the
    // stored vertices straight to joint space and the node's transform is left out of skinning
    // (Collada: joint x inverse bind x bind shape x v): positions and offsets stay as read.
    bool offsets_include_placement = true;
    // Per morph target as Assimp names it: may rename it and returns its weight without animation.
    std::function<float(MorphTarget& target)> target;
    // Per skinned mesh, after the inverse binds are Assimp's offset matrices (mesh-local space)
    // and before the mesh's placement moves into its positions: may correct the inverse binds,
    // adding warnings to the scene. `world` is the mesh node's rest world transform.
    std::function<void(const aiNode& node, const Eigen::Matrix4d& world, const std::string& what, const Mesh& mesh,
                       Skin& skin, Scene& scene)>
        inverse_binds;
};

// Fills scene.meshes and scene.skins (file units), one Mesh per aiMesh instance, with Assimp's
// unrolled corners folded back to one vertex per position, influences and morph deltas.
void build_meshes(const aiScene& ai, const NodeMap& map, const MeshHooks& hooks, const std::string& path, Scene& scene);

// Fills scene.clips (file units), times in seconds.
void build_clips(const aiScene& ai, const NodeMap& map, double fallback_ticks_per_second, Scene& scene);

// Bytes the scene model will need for the meshes' positions, morph deltas and skin weights, to
// check against the memory budget before converting.
std::uint64_t mesh_bytes(const aiScene& ai);

// Assimp's messages on one line, control bytes of a broken file replaced.
std::string one_line(std::string message);

}  // namespace rigscope::assimp
