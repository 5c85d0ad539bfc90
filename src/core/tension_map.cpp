#include "rigscope/tension_map.h"

#include <algorithm>
#include <cmath>

#include "rigscope/skin.h"

namespace rigscope {

MeshTension::MeshTension(const Scene& scene, int mesh_index, bool weld, const std::vector<Eigen::Vector3f>& rest_positions)
    : mesh(mesh_index), topo(build_topology(scene.meshes[mesh_index], weld)) {
    mean_edge_lengths(topo, rest_positions, rest_lengths);
    for (float l : rest_lengths)
        if (!(l > 0)) ++rest_degenerate;
}

void MeshTension::evaluate(const Scene& scene, const Pose& pose) {
    deform_mesh(scene, mesh, pose, deformed);
    evaluate_positions(deformed);
}

void MeshTension::evaluate_positions(const std::vector<Eigen::Vector3f>& positions) {
    mean_edge_lengths(topo, positions, lengths);
    degenerate = tension_values(rest_lengths, lengths, t);
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
