// The tension map (methods.md section 1): T per welded vertex, the ratio of mean connected edge
// length at rest to the same when deformed, and the node group's remap of T into compress and
// stretch maps in [0, 1].
#pragma once

#include <cstddef>
#include <vector>

#include "rigscope/topology.h"

namespace rigscope {

// Mean connected edge length per welded vertex; positions are per file vertex and each welded
// vertex reads its representative's. A vertex without edges gets 0.
void mean_edge_lengths(const Topology& topo, const std::vector<Eigen::Vector3f>& positions, std::vector<float>& out);

// T = rest / deformed per welded vertex. Where either length is 0 (isolated vertex, collapsed
// edges) T is 1 and the vertex is counted in the return value: never NaN or infinity.
std::size_t tension_values(const std::vector<float>& rest_lengths, const std::vector<float>& deformed_lengths,
                           std::vector<float>& t);

// The node group's inputs, under its own names.
struct TensionParams {
    double falloff = 1.0;
    double stretch_area = 0.75;
    double compress_area = 0.6;
    double weight_limit = 1.0;
    double smooth_k = 0.1;  // smoothing distance of the smooth min / max
};

// T at which each map reaches full strength.
struct TensionRange {
    double t_s = 0.75;  // stretch is full at T <= t_s
    double t_c = 1.0 / 0.6;  // compress is full at T >= t_c
};

// Blender's Math node: polynomial smooth minimum / maximum with smoothing distance k (k = 0 is
// the plain min / max).
double smooth_min(double a, double b, double k);
double smooth_max(double a, double b, double k);

TensionRange tension_range(const TensionParams& p);

// stretch and compress for one T value; both in [0, weight_limit].
float stretch_of(float t, const TensionRange& r, const TensionParams& p);
float compress_of(float t, const TensionRange& r, const TensionParams& p);

}  // namespace rigscope
