// Per-frame tension of one mesh: the state a tension run keeps for a mesh (topology and rest
// lengths, computed once) and the evaluation of T at a pose.
#pragma once

#include <vector>

#include "rigscope/parallel.h"
#include "rigscope/pose.h"
#include "rigscope/skin.h"
#include "rigscope/tension.h"
#include "rigscope/topology.h"

namespace rigscope {

struct MeshTension {
    int mesh = -1;
    Topology topo;  // welding and counts; its edge and neighbour lists live on as `batches`
    std::vector<float> rest_lengths;             // per welded vertex, from the reference
    std::size_t rest_degenerate = 0;             // welded vertices with no edge or zero rest length

    // Filled by evaluate(): the deformed file vertices, T per welded vertex, and how many
    // vertices fell back to T = 1. (The deformed mean lengths are not kept: no output uses
    // them, and storing them cost a megabyte per 262k vertices, written every frame.)
    std::vector<Eigen::Vector3f> deformed;
    std::vector<float> t;
    std::size_t degenerate = 0;

    // Topology of scene.meshes[mesh]; rest lengths from `rest_positions` (file vertices).
    MeshTension(const Scene& scene, int mesh, bool weld, const std::vector<Eigen::Vector3f>& rest_positions);

    // With a pool, vertex blocks are spread over its threads; the result is the same for any
    // thread count (every vertex is computed the same way, by one thread). No allocation after
    // the first frame.
    void evaluate(const Scene& scene, const Pose& pose, ThreadPool* pool = nullptr);
    // T per welded vertex from already deformed positions (file vertices).
    void evaluate_positions(const std::vector<Eigen::Vector3f>& positions, ThreadPool* pool = nullptr);

    // The loop's own layouts of the mesh: influences grouped by count, neighbours in batches.
    MeshDeformer deformer;
    EdgeBatches batches;

    // Vertices per task when spread over threads (a tunable, not a result: tests shrink it to
    // split small meshes into many blocks).
    std::size_t block_vertices = MeshDeformer::kBlock;
    std::vector<std::size_t> block_degenerate;  // per task of the last frame, kept to reuse
};

// Thresholds from observed T: per-vertex extremes over the frames, and the percentile of them
// at which both maps should reach full strength (100: the absolute extremes). A side that never
// leaves T = 1 keeps the parameters' threshold.
TensionRange auto_tension_range(const std::vector<float>& vertex_min_t, const std::vector<float>& vertex_max_t,
                                double percentile, const TensionRange& fallback);

}  // namespace rigscope
