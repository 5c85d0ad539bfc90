// Linear blend skinning's AVX2 kernel: what MeshDeformer runs for a run of vertices with a fixed
// influence count and no active morph target, on CPUs with AVX2 (chosen at run time, as the dual
// quaternion and principal kernels are). Compiled with -mavx2 -mno-fma -ffp-contract=off.
//
// Bit for bit the Eigen loop of skin.cpp (tests/core/test_skin_simd.cpp compares them): a joint
// matrix is two 8-float registers (columns 0-1 and 2-3), blended with the same multiplies and
// adds in influence order; the transform multiplies [c0 | c1] by [x | y] and [c2 | c3] by [z | 1]
// and adds the halves as ((c0 x + c1 y) + c2 z) + c3, the order Eigen's expression evaluates
// (c3 * 1 is c3 exactly). What it saves over Eigen's SSE code is half the blend's instructions
// and loads: the blend is most of the work per vertex.
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "skin_avx2.h"

namespace rigscope::detail {

namespace {

template <int K>  // K > 0: the influence count, unrolled; 0: `count` at run time
void run_linear(const float* J, const std::uint16_t* j, const float* w, std::uint32_t count, const float* base,
                std::size_t begin, std::size_t end, float* out) {
    const std::uint32_t n = K > 0 ? static_cast<std::uint32_t>(K) : count;
    const __m128 one = _mm_set1_ps(1.0f);
    for (std::size_t v = begin; v < end; ++v, j += n, w += n) {
        const float* m = J + 16 * std::size_t(j[0]);
        __m256 wk = _mm256_set1_ps(w[0]);
        __m256 c01 = _mm256_mul_ps(wk, _mm256_loadu_ps(m));
        __m256 c23 = _mm256_mul_ps(wk, _mm256_loadu_ps(m + 8));
        for (std::uint32_t k = 1; k < n; ++k) {
            m = J + 16 * std::size_t(j[k]);
            wk = _mm256_set1_ps(w[k]);
            c01 = _mm256_add_ps(c01, _mm256_mul_ps(wk, _mm256_loadu_ps(m)));
            c23 = _mm256_add_ps(c23, _mm256_mul_ps(wk, _mm256_loadu_ps(m + 8)));
        }
        const float* p = base + 3 * v;
        const __m256 xy = _mm256_set_m128(_mm_set1_ps(p[1]), _mm_set1_ps(p[0]));
        const __m256 z1 = _mm256_set_m128(one, _mm_set1_ps(p[2]));
        const __m256 a = _mm256_mul_ps(c01, xy), b = _mm256_mul_ps(c23, z1);
        __m128 r = _mm_add_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1));
        r = _mm_add_ps(r, _mm256_castps256_ps128(b));
        r = _mm_add_ps(r, _mm256_extractf128_ps(b, 1));
        // 12 bytes, never 16: the next vertex may be another thread's block.
        float* o = out + 3 * v;
        _mm_storel_pi(reinterpret_cast<__m64*>(o), r);
        _mm_store_ss(o + 2, _mm_movehl_ps(r, r));
    }
}

}  // namespace

void skin_linear_avx2(const float* joints, const std::uint16_t* j, const float* w, std::uint32_t count,
                      const float* base, std::size_t begin, std::size_t end, float* out) {
    switch (count) {
        case 1: run_linear<1>(joints, j, w, count, base, begin, end, out); break;
        case 2: run_linear<2>(joints, j, w, count, base, begin, end, out); break;
        case 3: run_linear<3>(joints, j, w, count, base, begin, end, out); break;
        case 4: run_linear<4>(joints, j, w, count, base, begin, end, out); break;
        default: run_linear<0>(joints, j, w, count, base, begin, end, out);
    }
}

}  // namespace rigscope::detail
