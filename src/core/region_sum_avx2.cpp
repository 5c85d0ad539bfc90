// region_sum_body.h's loop built with -mavx2 (no FMA, no contraction: the same bits as the other
// build), chosen at run time by region_sum.
#include "region_sum_body.h"

namespace rigscope::detail {

double region_sum_avx2(const TensionRemap& remap, RegionMap map, const float* t, const std::uint32_t* welded, const float* weights,
                       std::size_t n) {
    return region_sum_body(remap, map, t, welded, weights, n);
}

}  // namespace rigscope::detail
