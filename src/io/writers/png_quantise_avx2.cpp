// The PNG writer's quantisation on AVX2 (png_quantise.h). Compiled with -mavx2 and without
// FMA or contraction (CMakeLists.txt): c x 65535 + 0.5 in double, each operation rounded on its
// own (both exact here), truncated, as png_writer.cpp's SSE2 lanes do four at a time.
#include <immintrin.h>

#include "png_quantise.h"

namespace rigscope::detail {

std::size_t quantise_png16_avx2(const float* in, std::size_t groups, std::uint8_t* out) {
    // Bits set in a byte (no POPCNT in the build's baseline; AVX2 does not imply it to the compiler).
    static constexpr auto kBits = [] {
        struct Table {
            std::uint8_t b[256];
        } t{};
        for (int i = 1; i < 256; ++i) t.b[i] = std::uint8_t(t.b[i >> 1] + (i & 1));
        return t;
    }();
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
    const __m256d scale = _mm256_set1_pd(65535.0), half = _mm256_set1_pd(0.5);
    // Each 16-bit sample's two bytes swapped: big-endian.
    const __m128i swap = _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
    std::size_t clamped = 0;
    for (std::size_t x = 0; x < 8 * groups; x += 8) {
        __m256 v = _mm256_loadu_ps(in + x);
        // Inside 0..1 (false for NaN); max(v, 0) is 0 for NaN (maxps returns its second operand).
        const int inside = _mm256_movemask_ps(_mm256_and_ps(_mm256_cmp_ps(v, zero, _CMP_GE_OQ), _mm256_cmp_ps(v, one, _CMP_LE_OQ)));
        clamped += std::size_t(8 - kBits.b[inside]);
        v = _mm256_min_ps(_mm256_max_ps(v, zero), one);
        const __m128i lo = _mm256_cvttpd_epi32(_mm256_add_pd(_mm256_mul_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(v)), scale), half));
        const __m128i hi = _mm256_cvttpd_epi32(_mm256_add_pd(_mm256_mul_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)), scale), half));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 2 * x), _mm_shuffle_epi8(_mm_packus_epi32(lo, hi), swap));
    }
    return clamped;
}

}  // namespace rigscope::detail
