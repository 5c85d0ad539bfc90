// bake's gather on AVX2 (uv_gather_avx2.h). Compiled with -mavx2, without FMA or contraction
// (CMakeLists.txt): w0 a + w1 b, then + w2 c, in double, each operation rounded on its own, as
// uv_raster.cpp's SSE2 loop does two layers at a time.
#include <immintrin.h>

#include "uv_gather_avx2.h"

namespace rigscope::detail {

void bake_uv_covered_avx2(const UvTexel* first, const UvTexel* last, const float* values, std::size_t stride, float* const* out,
                          std::size_t layers, std::size_t first_texel) {
    if (first == last) return;
    const std::size_t groups = layers / 4;
    const std::size_t count = std::size_t(last - first);
    for (std::size_t k = 0; k < count; ++k) {
        const UvTexel* t = first + k;
        // (No std::min: a template this file instantiated could be the copy other files link.)
        _mm_prefetch(reinterpret_cast<const char*>(first + (k + kUvPrefetch < count ? k + kUvPrefetch : count - 1)), _MM_HINT_T0);
        const std::size_t x = t->texel - first_texel;
        const float* a = values + std::size_t(t->vertex[0]) * stride;
        const float* b = values + std::size_t(t->vertex[1]) * stride;
        const float* c = values + std::size_t(t->vertex[2]) * stride;
        const __m256d w0 = _mm256_set1_pd(double(t->weight[0])), w1 = _mm256_set1_pd(double(t->weight[1])),
                      w2 = _mm256_set1_pd(double(t->weight[2]));
        std::size_t l = 0;
        for (std::size_t g = 0; g < groups; ++g, l += 4) {
            const __m256d ab = _mm256_add_pd(_mm256_mul_pd(w0, _mm256_cvtps_pd(_mm_loadu_ps(a + l))),
                                             _mm256_mul_pd(w1, _mm256_cvtps_pd(_mm_loadu_ps(b + l))));
            const __m128 r = _mm256_cvtpd_ps(_mm256_add_pd(ab, _mm256_mul_pd(w2, _mm256_cvtps_pd(_mm_loadu_ps(c + l)))));
            _mm_store_ss(out[l] + x, r);
            _mm_store_ss(out[l + 1] + x, _mm_movehdup_ps(r));
            _mm_store_ss(out[l + 2] + x, _mm_movehl_ps(r, r));
            _mm_store_ss(out[l + 3] + x, _mm_shuffle_ps(r, r, 3));
        }
        for (; l < layers; ++l)
            out[l][x] = float(double(t->weight[0]) * a[l] + double(t->weight[1]) * b[l] + double(t->weight[2]) * c[l]);
    }
}

}  // namespace rigscope::detail
