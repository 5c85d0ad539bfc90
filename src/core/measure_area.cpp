// The area measure's setup: each welded vertex's one-ring and its rest area (the per-frame
// kernels are in measure_sse.cpp and measure_scalar.cpp, chosen by measure_dispatch.cpp).
#include "measure_rings.h"

namespace rigscope {

using detail::one_ring;
using detail::rest_of;

AreaKernel::AreaKernel(const std::vector<std::uint32_t>& tris, const Topology& topo, const std::vector<Eigen::Vector3f>& rest_positions)
    : ring(one_ring(tris, topo, [](std::size_t) { return true; })) {
    const std::size_t wn = topo.welded_count();
    rest.assign(wn, 0.0f);
    for (std::size_t w = 0; w < wn; ++w) {
        const Eigen::Vector3d p = rest_of(rest_positions, ring.self[w]);
        double sum = 0;
        for (std::uint32_t e = ring.offsets[w]; e < ring.offsets[w + 1]; ++e)
            sum += (rest_of(rest_positions, ring.corners[2 * e]) - p).cross(rest_of(rest_positions, ring.corners[2 * e + 1]) - p).norm();
        rest[w] = static_cast<float>(sum);
    }
    fans = fan_batches(ring, static_cast<std::uint32_t>(topo.welded_of.size() - 1));
}

}  // namespace rigscope
