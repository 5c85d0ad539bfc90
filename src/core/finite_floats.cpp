#include "rigscope/core/finite_floats.h"

#include <cstdint>
#include <cstring>
#include <limits>

#if defined(RIGSCOPE_AVX2_KERNEL)
#include "finite_floats_avx2.h"
#endif

namespace rigscope {

bool floats_finite(const float* p, std::size_t n, bool avx2) {
#if defined(RIGSCOPE_AVX2_KERNEL)
    if (avx2 && avx2_supported()) return detail::floats_finite_avx2(p, n);
#else
    (void)avx2;
#endif
    // Without an early exit, so that the compiler vectorises it (the arrays are sound nearly
    // always), and on the bits: GCC 12 left a float comparison ANDed into a bool scalar.
    constexpr std::uint32_t kExponent = 0x7f800000u;
    static_assert(sizeof(float) == sizeof(std::uint32_t) && std::numeric_limits<float>::is_iec559);
    std::uint32_t not_finite = 0;
    for (std::size_t i = 0; i < n; ++i) {
        std::uint32_t bits;
        std::memcpy(&bits, p + i, sizeof bits);
        not_finite |= static_cast<std::uint32_t>((bits & kExponent) == kExponent);
    }
    return not_finite == 0;
}

}  // namespace rigscope
