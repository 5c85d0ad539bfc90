// What `diff` needs to compare two versions of a mesh: vertices paired by rest position, the
// mesh's size, and each vertex's joint region.
#pragma once

#include <cstdint>
#include <vector>

#include "rigscope/core/scene.h"

namespace rigscope {

// Pairs every vertex of `a` with the vertex of `b` within `tolerance` of its position, through a
// uniform grid of cell `tolerance` (linear in the vertex counts). Vertices stored at exactly one
// position (seams) pair in index order when both sides have as many there. A vertex with no
// partner, or whose partners lie at more than one position, or whose group sizes differ, is not
// paired; unmatched counts those of a and b left without a partner, ambiguous the rest.
struct VertexMatch {
    std::vector<std::uint32_t> b_of_a;  // partner in b per vertex of a (valid when complete())
    std::size_t unmatched = 0, ambiguous = 0;
    bool complete() const { return unmatched == 0 && ambiguous == 0; }
};
VertexMatch match_by_position(const std::vector<Eigen::Vector3f>& a, const std::vector<Eigen::Vector3f>& b, double tolerance);

// The smallest tolerance within which every point of `a` has a point of `b` and every point of
// `b` one of `a` (the largest nearest-neighbour distance either way; 0 when both are empty,
// infinity when one side is). What a refused match_by_position would have needed.
double covering_distance(const std::vector<Eigen::Vector3f>& a, const std::vector<Eigen::Vector3f>& b);

// Length of the diagonal of the points' bounding box (0 for none).
double bounding_diagonal(const std::vector<Eigen::Vector3f>& points);

// Per file vertex, the node of its heaviest influence (the first listed on a tie), -1 without.
std::vector<int> heaviest_joint_nodes(const Scene& scene, const Mesh& mesh);

}  // namespace rigscope
