#include "rigscope/tension_map.h"

#include <algorithm>
#include <cmath>

#include "rigscope/skin.h"

namespace rigscope {

MeshTension::MeshTension(const Scene& scene, int mesh_index, bool weld, const std::vector<Eigen::Vector3f>& rest_positions)
    : mesh(mesh_index),
      topo(build_topology(scene.meshes[mesh_index], weld, kWeldRelativeTolerance, /*edge_list=*/false)),
      deformer(scene, mesh_index),
      batches(edge_batches(topo)) {
    // The batches hold the neighbour lists in the loop's layout; the lists themselves would be a
    // second copy of the largest arrays (~13 MB of a 262k-vertex mesh).
    topo.release_lists();
    rest_lengths.assign(topo.welded_count(), 0.0f);
    mean_edge_lengths(batches, rest_positions.data(), 0, batches.batch_count(), rest_lengths.data());
    for (float l : rest_lengths)
        if (!(l > 0)) ++rest_degenerate;
}

void MeshTension::evaluate(const Scene& scene, const Pose& pose, ThreadPool* pool) {
    deformer.deform(scene, pose, deformed, pool, block_vertices);
    evaluate_positions(deformed, pool);
}

void MeshTension::evaluate_positions(const std::vector<Eigen::Vector3f>& positions, ThreadPool* pool) {
    t.resize(topo.welded_count());
    const std::size_t nb = batches.batch_count();
    const std::size_t per_task = std::max<std::size_t>(block_vertices / EdgeBatches::kLanes, 1);
    const std::size_t tasks = (nb + per_task - 1) / per_task;
    // Integer counts per task, summed after: the same total for any thread count.
    block_degenerate.resize(tasks);
    run_tasks(pool, tasks, [&](std::size_t i) {
        const std::size_t b = i * per_task, e = std::min(nb, b + per_task);
        block_degenerate[i] = tension_block(batches, positions.data(), rest_lengths.data(), b, e, nullptr, t.data());
    });
    degenerate = 0;
    for (std::size_t i = 0; i < tasks; ++i) degenerate += block_degenerate[i];
}

namespace {

// Linear interpolation between order statistics (numpy's default "linear" method).
double percentile_of(std::vector<float> v, double p) {
    if (v.empty()) return 1.0;
    std::sort(v.begin(), v.end());
    const double pos = std::clamp(p, 0.0, 100.0) / 100.0 * (v.size() - 1);
    const std::size_t lo = static_cast<std::size_t>(std::floor(pos));
    const std::size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (pos - lo);
}

}  // namespace

TensionRange auto_tension_range(const std::vector<float>& vmin, const std::vector<float>& vmax, double percentile,
                                const TensionRange& fallback) {
    TensionRange r = fallback;
    // Stretch is T below 1: the low tail of the per-vertex minima; compression the high tail of
    // the maxima. percentile 100 takes the most extreme vertex on each side.
    const double t_s = percentile_of(vmin, 100.0 - percentile);
    const double t_c = percentile_of(vmax, percentile);
    if (t_s < 1.0) r.t_s = t_s;
    if (t_c > 1.0) r.t_c = t_c;
    return r;
}

}  // namespace rigscope
