#include "rigscope/tension.h"

#include <algorithm>
#include <cmath>

namespace rigscope {

void mean_edge_lengths(const Topology& topo, const std::vector<Eigen::Vector3f>& positions, std::vector<float>& out) {
    const std::size_t wn = topo.welded_count();
    out.assign(wn, 0.0f);
    // Sum per vertex from its CSR neighbour list: each vertex is written by one iteration only,
    // which keeps the loop free of scatter conflicts (and parallel-safe by vertex blocks).
    for (std::size_t w = 0; w < wn; ++w) {
        const std::uint32_t b = topo.neighbour_offsets[w], e = topo.neighbour_offsets[w + 1];
        if (b == e) continue;
        const Eigen::Vector3f& p = positions[topo.representative[w]];
        double sum = 0;
        for (std::uint32_t k = b; k < e; ++k) sum += (positions[topo.representative[topo.neighbours[k]]] - p).norm();
        out[w] = static_cast<float>(sum / (e - b));
    }
}

std::size_t tension_values(const std::vector<float>& rest, const std::vector<float>& deformed, std::vector<float>& t) {
    t.resize(rest.size());
    std::size_t degenerate = 0;
    for (std::size_t i = 0; i < rest.size(); ++i) {
        const float r = rest[i], d = deformed[i];
        const float v = r / d;
        if (r > 0 && d > 0 && std::isfinite(v)) {
            t[i] = v;
        } else {
            t[i] = 1.0f;
            ++degenerate;
        }
    }
    return degenerate;
}

double smooth_min(double a, double b, double k) {
    if (k <= 0) return std::min(a, b);
    const double h = std::max(k - std::abs(a - b), 0.0) / k;
    return std::min(a, b) - h * h * h * k * (1.0 / 6.0);
}

double smooth_max(double a, double b, double k) { return -smooth_min(-a, -b, k); }

TensionRange tension_range(const TensionParams& p) {
    TensionRange r;
    r.t_s = smooth_min(p.stretch_area, 1.0, p.smooth_k);
    r.t_c = smooth_max(1.0 / std::max(p.compress_area, 0.001), 1.0, p.smooth_k);
    return r;
}

namespace {

float shape(double ramp, const TensionParams& p) {
    ramp = std::clamp(ramp, 0.0, 1.0);
    // falloff <= 0 would divide by zero; the CLI refuses it, the core treats it as a hard step.
    const double v = p.falloff > 0 ? std::pow(ramp, 1.0 / p.falloff) : (ramp > 0 ? 1.0 : 0.0);
    return static_cast<float>(p.weight_limit * v);
}

}  // namespace

float stretch_of(float t, const TensionRange& r, const TensionParams& p) {
    // With t_s at 1 the ramp has no width: any stretch at all is full stretch.
    const double den = 1.0 - r.t_s;
    const double ramp = den > 1e-12 ? (1.0 - t) / den : (t < 1.0f ? 1.0 : 0.0);
    return shape(ramp, p);
}

float compress_of(float t, const TensionRange& r, const TensionParams& p) {
    const double den = r.t_c - 1.0;
    const double ramp = den > 1e-12 ? (t - 1.0) / den : (t > 1.0f ? 1.0 : 0.0);
    return shape(ramp, p);
}

}  // namespace rigscope
