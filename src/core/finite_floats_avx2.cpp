// floats_finite on AVX2. A float is NaN or infinite when its exponent bits are all set, that is
// when ~bits & exponent is zero: the unsigned minimum of that over the array is zero exactly when
// one is. Two instructions for eight floats (andnot, min) and two running minima, against the
// portable loop's compare, mask and or.
#include <immintrin.h>

#include "finite_floats_avx2.h"

namespace rigscope::detail {

bool floats_finite_avx2(const float* p, std::size_t n) {
    const __m256i exponent = _mm256_set1_epi32(0x7f800000);
    __m256i m0 = exponent, m1 = exponent;
    std::size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        m0 = _mm256_min_epu32(m0, _mm256_andnot_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i)), exponent));
        m1 = _mm256_min_epu32(m1, _mm256_andnot_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 8)), exponent));
    }
    if (i + 8 <= n) {
        m0 = _mm256_min_epu32(m0, _mm256_andnot_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i)), exponent));
        i += 8;
    }
    const __m256i zero = _mm256_cmpeq_epi32(_mm256_min_epu32(m0, m1), _mm256_setzero_si256());
    bool finite = _mm256_testz_si256(zero, zero) != 0;
    for (; i < n; ++i) {
        unsigned bits;
        __builtin_memcpy(&bits, p + i, 4);
        finite &= (bits & 0x7f800000u) != 0x7f800000u;
    }
    return finite;
}

}  // namespace rigscope::detail
