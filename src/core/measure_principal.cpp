// The principal measure's setup: each welded vertex's one-ring of planar rest triangles, the
// per-triangle coefficients (sqrt(w) Dm^-1 in the vertex's rest tangent plane) and their layout
// per SIMD slot (the per-frame kernels are in measure_sse.cpp, measure_avx2.cpp and
// measure_scalar.cpp, chosen by measure_dispatch.cpp).
#include <algorithm>
#include <cmath>

#include "measure_rings.h"

namespace rigscope {

using detail::kSimd;
using detail::one_ring;
using detail::rest_of;

namespace {

// A rest triangle too thin to define a plane (area below 1e-12 of its longest edge squared) has
// no deformation gradient; it is left out of the principal one-ring.
bool plane_of(const std::vector<Eigen::Vector3f>& rest, const std::uint32_t* tri, const Topology& topo) {
    const Eigen::Vector3d a = rest_of(rest, topo.representative[tri[0]]);
    const Eigen::Vector3d e1 = rest_of(rest, topo.representative[tri[1]]) - a;
    const Eigen::Vector3d e2 = rest_of(rest, topo.representative[tri[2]]) - a;
    const double longest = std::max({e1.squaredNorm(), e2.squaredNorm(), (e2 - e1).squaredNorm()});
    return longest > 0 && e1.cross(e2).norm() > 1e-12 * longest;
}

// The rotation of least angle taking unit vector a to unit vector b, applied to x.
Eigen::Vector3d rotate_onto(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& x,
                            const Eigen::Vector3d& fallback_axis) {
    const double c = a.dot(b);
    if (c < -1 + 1e-9) {
        // Opposite normals (a fold): a half turn about an axis in the triangle's plane.
        return 2 * fallback_axis.dot(x) * fallback_axis - x;
    }
    const Eigen::Vector3d v = a.cross(b);
    return c * x + v.cross(x) + v * (v.dot(x) / (1 + c));
}

}  // namespace

PrincipalKernel::PrincipalKernel(const std::vector<std::uint32_t>& tris, const Topology& topo,
                                 const std::vector<Eigen::Vector3f>& rest_positions)
    : ring(one_ring(tris, topo, [&](std::size_t t) { return plane_of(rest_positions, &tris[3 * t], topo); })) {
    const std::size_t wn = topo.welded_count();
    coef.assign(kCoef * ring.entry_count(), 0.0f);
    for (std::size_t w = 0; w < wn; ++w) {
        const std::uint32_t e0 = ring.offsets[w], e1 = ring.offsets[w + 1];
        if (e0 == e1) continue;
        const Eigen::Vector3d p = rest_of(rest_positions, ring.self[w]);
        auto edges = [&](std::uint32_t e, Eigen::Vector3d& a, Eigen::Vector3d& b) {
            a = rest_of(rest_positions, ring.corners[2 * e]) - p;
            b = rest_of(rest_positions, ring.corners[2 * e + 1]) - p;
        };
        // The vertex's rest normal: area-weighted mean of its triangles' normals.
        Eigen::Vector3d n = Eigen::Vector3d::Zero(), a, b;
        double total = 0;
        for (std::uint32_t e = e0; e < e1; ++e) {
            edges(e, a, b);
            n += a.cross(b);
            total += a.cross(b).norm();
        }
        edges(e0, a, b);
        if (n.norm() <= 1e-9 * total) n = a.cross(b);  // the normals cancel (a pinched fan)
        n.normalize();
        const Eigen::Vector3d t1 = (a - n * n.dot(a)).norm() > 0 ? (a - n * n.dot(a)).normalized() : n.unitOrthogonal();
        const Eigen::Vector3d t2 = n.cross(t1);
        for (std::uint32_t e = e0; e < e1; ++e) {
            edges(e, a, b);
            const Eigen::Vector3d c = a.cross(b);
            const Eigen::Vector3d nt = c.normalized();
            const Eigen::Vector3d ra = rotate_onto(nt, n, a, a.normalized()), rb = rotate_onto(nt, n, b, a.normalized());
            // Dm: the rotated rest edges in (t1, t2); K = Dm^-1.
            const double d00 = t1.dot(ra), d01 = t1.dot(rb), d10 = t2.dot(ra), d11 = t2.dot(rb);
            const double det = d00 * d11 - d01 * d10;
            const double sw = std::sqrt(c.norm() / total);
            float* k = &coef[kCoef * e];
            k[0] = static_cast<float>(sw * d11 / det);
            k[1] = static_cast<float>(-sw * d01 / det);
            k[2] = static_cast<float>(-sw * d10 / det);
            k[3] = static_cast<float>(sw * d00 / det);
            k[4] = static_cast<float>(sw);
        }
    }
    // The edge measure's sums ride along where the SIMD kernel runs and the neighbour lists are
    // still there (MeshTension builds the kernel before it releases them).
    const bool edge_sums = kSimd && topo.neighbour_offsets.size() == wn + 1;
    fans = fan_batches(ring, static_cast<std::uint32_t>(topo.welded_of.size() - 1), kLanes, /*runs=*/true,
                       edge_sums ? &topo : nullptr);
    constexpr std::size_t L = kLanes;
    const std::size_t slots = fans.entry.size() / L;
    slot_coef.assign(kCoef * L * slots, 0.0f);
    for (std::size_t s = 0; s < slots; ++s)
        for (std::size_t l = 0; l < L; ++l) {
            const std::uint32_t e = fans.entry[L * s + l];
            if (e != FanBatches::kNone)
                for (std::size_t k = 0; k < kCoef; ++k) slot_coef[kCoef * L * s + k * L + l] = coef[kCoef * std::size_t(e) + k];
        }
}

}  // namespace rigscope
