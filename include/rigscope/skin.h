// Morph targets and linear blend skinning of one mesh.
#pragma once

#include <vector>

#include "rigscope/pose.h"
#include "rigscope/scene.h"

namespace rigscope {

// Row-major 3x4 affine matrix: the skinning kernel's joint matrix (joint world x inverse bind).
struct Affine3x4 {
    float m[12];
};

// Joint matrices of mesh's skin under pose: world(joint) * inverse_bind(joint). Empty when the
// mesh has no skin.
void skin_matrices(const Scene& scene, const Mesh& mesh, const Pose& pose, std::vector<Affine3x4>& out);

// Base positions plus sum of weight x delta for targets with a non-zero weight.
void morph_positions(const Mesh& mesh, const std::vector<float>& weights, std::vector<Eigen::Vector3f>& out);

// Linear blend skinning of `in` (file vertices) with the mesh's influences. A vertex with no
// influence keeps its position.
void skin_positions(const Influences& influences, const std::vector<Affine3x4>& joints,
                    const std::vector<Eigen::Vector3f>& in, std::vector<Eigen::Vector3f>& out);

// The deformed mesh in world space at `pose`: morph, then skin with the glTF rule (the skinned
// mesh node's own transform is ignored). An unskinned mesh is placed by its node's world matrix.
void deform_mesh(const Scene& scene, int mesh_index, const Pose& pose, std::vector<Eigen::Vector3f>& out);

}  // namespace rigscope
