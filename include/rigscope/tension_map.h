// Per-frame tension of one mesh: the state a tension run keeps for a mesh (topology and rest
// lengths, computed once) and the evaluation of T at a pose.
#pragma once

#include <vector>

#include "rigscope/pose.h"
#include "rigscope/tension.h"
#include "rigscope/topology.h"

namespace rigscope {

struct MeshTension {
    int mesh = -1;
    Topology topo;
    std::vector<float> rest_lengths;             // per welded vertex, from the reference
    std::size_t rest_degenerate = 0;             // welded vertices with no edge or zero rest length

    // Filled by evaluate(): the deformed file vertices, their mean edge lengths and T per
    // welded vertex, and how many vertices fell back to T = 1.
    std::vector<Eigen::Vector3f> deformed;
    std::vector<float> lengths;
    std::vector<float> t;
    std::size_t degenerate = 0;

    // Topology of scene.meshes[mesh]; rest lengths from `rest_positions` (file vertices).
    MeshTension(const Scene& scene, int mesh, bool weld, const std::vector<Eigen::Vector3f>& rest_positions);

    void evaluate(const Scene& scene, const Pose& pose);
    // T per welded vertex from already deformed positions (file vertices).
    void evaluate_positions(const std::vector<Eigen::Vector3f>& positions);
};

// Thresholds from observed T: per-vertex extremes over the frames, and the percentile of them
// at which both maps should reach full strength (100: the absolute extremes). A side that never
// leaves T = 1 keeps the parameters' threshold.
TensionRange auto_tension_range(const std::vector<float>& vertex_min_t, const std::vector<float>& vertex_max_t,
                                double percentile, const TensionRange& fallback);

}  // namespace rigscope
