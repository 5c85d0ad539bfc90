#include <assimp/scene.h>

#include <cmath>

#include "io/fbx_common.h"
#include "io/fbx_internal.h"
#include "rigscope/core/error.h"

namespace rigscope::fbx {

bool is_helper_name(const std::string& name) { return name.find("_$AssimpFbx$_") != std::string::npos; }

Eigen::Matrix4d to_eigen(const void* p) {
    const aiMatrix4x4& a = *static_cast<const aiMatrix4x4*>(p);
    Eigen::Matrix4d m;
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) m(r, c) = a[r][c];
    return m;
}

NodeMap build_nodes(const aiScene& ai, Scene& scene) {
    NodeMap map;
    if (!ai.mRootNode) return map;

    struct Item {
        const aiNode* node;
        int parent;                        // scene index of the nearest kept ancestor
        std::vector<const aiNode*> chain;  // folded helpers since that ancestor
        int depth;
    };
    // Assimp's artificial root (FBX's scene root has no transform) is dropped unless it carries
    // something; its children become the roots.
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
        if (!is_helper_name(name) || n->mNumMeshes > 0) {
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

}  // namespace rigscope::fbx
