// rigscope/core/region_sum.h: the loop of region_sum_body.h, or its AVX2 build.
#include "rigscope/core/region_sum.h"

#include "region_sum_body.h"
#include "rigscope/core/simd.h"

namespace rigscope {

double region_sum(const TensionRemap& remap, RegionMap map, const float* t, const std::uint32_t* welded, const float* weights,
                  std::size_t n, bool avx2) {
#if defined(RIGSCOPE_AVX2_KERNEL)
    if (avx2 && avx2_supported()) return detail::region_sum_avx2(remap, map, t, welded, weights, n);
#else
    (void)avx2;
#endif
    return detail::region_sum_body(remap, map, t, welded, weights, n);
}

}  // namespace rigscope
