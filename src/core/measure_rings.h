// What the measures' setups share (measure_rings.cpp, measure_area.cpp, measure_principal.cpp):
// the one-ring of a welded mesh's triangles, in fans, and the rest positions in double. Only files
// compiled without -mavx2 include it (principal_layout.h says why).
#pragma once

#include <cstdint>
#include <vector>

#include "rigscope/core/error.h"
#include "rigscope/core/measure.h"
#include "simd_points.h"

namespace rigscope::detail {

// Reorders each vertex's entries into chains where an entry's second corner is the next entry's
// first (around an inner vertex of a consistently wound mesh: one closed fan). Chains that start
// at an open end (a border, or a corner no entry leads to) come first, then the closed ones, each
// from its first entry in the previous order, so the result depends only on the mesh.
void order_fans(OneRing& r);

// The one-ring of the triangles `keep` accepts; a vertex lists its triangles in fans (order_fans),
// each as its two other corners in the face's winding (b, c after a).
template <typename Keep>
OneRing one_ring(const std::vector<std::uint32_t>& tris, const Topology& topo, Keep keep) {
    OneRing r;
    const std::size_t wn = topo.welded_count();
    r.self = topo.representative;
    r.offsets.assign(wn + 1, 0);
    const std::size_t nt = tris.size() / 3;
    std::vector<std::uint8_t> kept(nt);
    for (std::size_t t = 0; t < nt; ++t) {
        kept[t] = keep(t) ? 1 : 0;
        if (kept[t])
            for (int k = 0; k < 3; ++k) ++r.offsets[tris[3 * t + k] + 1];
    }
    // Entries are counted in 32 bits, three per triangle: sum in 64 first.
    std::uint64_t total = 0;
    for (std::size_t w = 0; w < wn; ++w) total += r.offsets[w + 1];
    if (total > 0xFFFFFFFFull) throw Error(kExitBadInput, "mesh has too many triangles for the measures' one-rings (3 x triangles must fit 32 bits)");
    for (std::size_t w = 0; w < wn; ++w) r.offsets[w + 1] += r.offsets[w];
    r.corners.assign(2 * std::size_t(r.offsets[wn]), 0);
    std::vector<std::uint32_t> fill(r.offsets.begin(), r.offsets.end() - 1);
    for (std::size_t t = 0; t < nt; ++t) {
        if (!kept[t]) continue;
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t w = tris[3 * t + k];
            const std::uint32_t e = fill[w]++;
            r.corners[2 * std::size_t(e)] = topo.representative[tris[3 * t + (k + 1) % 3]];
            r.corners[2 * std::size_t(e) + 1] = topo.representative[tris[3 * t + (k + 2) % 3]];
        }
    }
    order_fans(r);
    return r;
}

inline Eigen::Vector3d rest_of(const std::vector<Eigen::Vector3f>& p, std::uint32_t v) { return p[v].cast<double>(); }

// Whether this build has the SIMD kernels (every x86-64 build unless RIGSCOPE_SIMD=OFF; elsewhere
// the scalar loops).
#if defined(RIGSCOPE_SSE_KERNELS)
constexpr bool kSimd = true;
#else
constexpr bool kSimd = false;
#endif

}  // namespace rigscope::detail
