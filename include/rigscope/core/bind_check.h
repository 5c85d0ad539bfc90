// Does skinning at the rest pose reproduce the mesh as stored? A pure check over the scene model.
//
// A skinned mesh's stored positions are its bind pose, where it sits in the world at bind (glTF's
// rule; the FBX reader moves the mesh node's placement into the positions), or, where the bind
// transforms are relative to a node (USD's skeleton space, Skin::bind_space), where that node's
// rest world and the geomBindTransform place them: a rig under a moved parent is compared with
// its points moved alike, in one space. Skinning them with
// every node at its rest transform (no animation: world(joint) x inverse_bind(joint)) should give
// them back. Where it does not, either the file's rest pose is not its bind pose (a joint was left
// posed when the file was written) or the reader built wrong inverse binds; the per-joint figures
// tell which joints are involved.
#pragma once

#include <vector>

#include "rigscope/core/scene.h"

namespace rigscope {

struct BindCheck {
    bool skinned = false;       // false: the mesh has no skin, the other fields stay zero
    double max_distance = 0.0;  // largest |rest-skinned - stored|, scene units
    double diagonal = 0.0;      // bounding-box diagonal of the stored mesh (unskinned: placed by its node)
    int worst_vertex = -1;
    // Per joint of the mesh's skin: the largest distance, over the vertices the joint influences,
    // between that joint's matrix alone applied to the vertex and the stored position.
    std::vector<double> joint_distance;
    // Per joint: the largest skinned distance (the one max_distance is the largest of) over the
    // vertices the joint influences. What info and lint state as how far the rest pose moves the
    // mesh: one figure, the mesh's, while joint_distance says which joints are posed.
    std::vector<double> joint_vertex_distance;
};

// Checks mesh `mesh_index` of `scene`. Nodes at their rest transforms; morph targets ignored.
BindCheck check_bind(const Scene& scene, int mesh_index);

}  // namespace rigscope
