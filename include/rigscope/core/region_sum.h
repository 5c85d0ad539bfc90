// A region's weighted sum of a frame's tension map (rigscope regions): sum over the region's
// vertices, in its order, of weight x map value, where the map is compress or stretch by the
// run's remap, or T itself. The order of the additions fixes the sum's bits; every path below
// gives the same bits.
#pragma once

#include <cstddef>
#include <cstdint>

#include "rigscope/core/tension.h"

namespace rigscope {

enum class RegionMap { Compress, Stretch, T };

// `t`: the frame's T per welded vertex (compress_t() or stretch_t() for those maps); `welded`
// and `weights`: the region's n welded vertices and their weights. `avx2`: the AVX2 build of the
// same loop (avx2_default()), where the CPU and the build have it.
double region_sum(const TensionRemap& remap, RegionMap map, const float* t, const std::uint32_t* welded, const float* weights,
                  std::size_t n, bool avx2);

}  // namespace rigscope
