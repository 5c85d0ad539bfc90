// region_sum's loop (rigscope/core/region_sum.h), built twice: as is in region_sum.cpp and with
// AVX2 in region_sum_avx2.cpp, both without FMA or contraction, so each operation rounds alone and
// the two give the same bits.
#pragma once

#include <algorithm>

#include "rigscope/core/region_sum.h"

namespace rigscope::detail {

// A block of the region's welded vertices' T gathered, mapped by the remap's vectorised loop
// (the one the writers run), then added in the region's order, which fixes the sum's bits. A
// float times a float is exact in double: the product's bits do not depend on how it is formed.
// Blocks of 64 keep a block's mapping and the previous block's additions (a chain of dependent
// adds, one latency each) in flight together.
inline double region_sum_body(const TensionRemap& remap, RegionMap map, const float* t, const std::uint32_t* welded, const float* weights,
                              std::size_t n) {
    constexpr std::size_t kBlock = 64;
    float ts[kBlock], values[kBlock];
    double products[kBlock];
    double sum = 0;
    for (std::size_t b = 0; b < n; b += kBlock) {
        const std::size_t m = std::min(kBlock, n - b);
        for (std::size_t i = 0; i < m; ++i) ts[i] = t[welded[b + i]];
        const float* v = ts;
        if (map == RegionMap::Compress) remap.compress(ts, m, values), v = values;
        else if (map == RegionMap::Stretch) remap.stretch(ts, m, values), v = values;
        // The products side by side, then the additions alone in the chain.
        for (std::size_t i = 0; i < m; ++i) products[i] = double(weights[b + i]) * double(v[i]);
        for (std::size_t i = 0; i < m; ++i) sum += products[i];
    }
    return sum;
}

// The AVX2 build (region_sum_avx2.cpp): the SSE2 build's remap, two doubles a step with a blend
// per clamp, was most of a regions frame's own time.
double region_sum_avx2(const TensionRemap& remap, RegionMap map, const float* t, const std::uint32_t* welded, const float* weights,
                       std::size_t n);

}  // namespace rigscope::detail
