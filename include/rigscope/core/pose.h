// Sampling a clip and posing a skeleton: local transforms per node at a time, then world matrices.
#pragma once

#include <vector>

#include "rigscope/core/scene.h"

namespace rigscope {

// A scene's state at one time: local transforms (rest, overwritten by animated channels), world
// matrices, and morph weights per mesh.
struct Pose {
    std::vector<Transform> local;
    // Per node, a full local matrix that replaces local[i] where has_matrix[i] (Node::rest_matrix,
    // a clip's LocalMatrices); both empty when no node of the scene or clip has one.
    std::vector<Eigen::Matrix4d> matrix;
    std::vector<char> has_matrix;
    std::vector<Eigen::Matrix4d> world;
    std::vector<std::vector<float>> morph_weights;  // per mesh, one per target
    // The bind pose: every joint at its bind transform, so skinned meshes are exactly as stored.
    bool bind = false;
    // The time sample_pose sampled (seconds): where a mesh's point cache is read (Mesh::cache).
    double time = 0.0;
};

// The rest pose: every node at its rest transform, morph weights at their defaults.
Pose rest_pose(const Scene& scene);

// Samples `clip` at `time` (seconds) over the rest pose with each channel's own interpolation,
// then computes world matrices. clip may be null (rest pose). Times outside the keys clamp.
void sample_pose(const Scene& scene, const Clip* clip, double time, Pose& pose);

// The bind pose of the file (the reference mesh by default): skinned meshes as stored, other
// meshes placed by their rest-pose node transforms.
Pose bind_pose(const Scene& scene);

// Recomputes pose.world from pose.local (parents before children, any node order).
void pose_world(const Scene& scene, Pose& pose);

// World matrices from local transforms (one per node), each node inheriting its parent's scale
// as its Node::inherit says. A bad parent index or a cycle (readers reject both) makes the node a
// root rather than looping.
// matrix / has_matrix (both sized as local, or null): full local matrices that replace local
// where set, as Pose holds them.
void world_matrices(const Scene& scene, const std::vector<Transform>& local, std::vector<Eigen::Matrix4d>& world,
                    const std::vector<Eigen::Matrix4d>* matrix = nullptr, const std::vector<char>* has_matrix = nullptr);

// Samples one channel at `time` into out (channel.width floats). Rotations are slerped (LINEAR)
// or normalised after the cubic Hermite (CUBICSPLINE).
void sample_channel(const Channel& channel, double time, float* out);

}  // namespace rigscope
