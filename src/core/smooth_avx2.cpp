// One Jacobi step of the smoother, eight welded vertices per AVX2 register (smooth_layout.h).
// Each lane does what smooth.cpp's scalar step does for its vertex: sums its neighbours in list
// order in float (cotan: each weight times the value, rounded, then added), then divides by the
// count or the weight sum, or keeps its value where that is not > 0. Padded slots add an exact
// +0, which leaves any sum as it is (a sum that starts at +0 is never -0). CMakeLists.txt compiles
// this file alone with -mavx2 -mno-fma -ffp-contract=off, and smooth.cpp calls it only on a CPU
// with AVX2.
#include <immintrin.h>

#include "smooth_layout.h"

namespace rigscope::detail {
namespace {

constexpr std::size_t L = SmoothLayout::kLanes;

// Per lane of batch b: its neighbour count.
inline __m256i counts(const SmoothLayout& k, std::size_t b) {
    const std::uint32_t* o = k.offsets + L * b;
    return _mm256_sub_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(o + 1)),
                            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(o)));
}

// The divisor per lane: the count (as static_cast<float>) or the weight sum.
template <bool Cotan>
inline __m256 divisor(const SmoothLayout& k, std::size_t b, __m256i n) {
    return Cotan ? _mm256_loadu_ps(k.weight_sum + L * b) : _mm256_cvtepi32_ps(n);
}

// out = sum > 0 ? acc / sum : in, per float.
inline __m256 finish(__m256 acc, __m256 sum, __m256 in) {
    return _mm256_blendv_ps(in, _mm256_div_ps(acc, sum), _mm256_cmp_ps(sum, _mm256_setzero_ps(), _CMP_GT_OQ));
}

// Eight values by their ids: one load each, faster here than a gather instruction (AMD Zen 3).
inline __m256 singles(const float* in, const std::uint32_t* i) {
    auto quad = [&](const std::uint32_t* j) {
        const __m128 ab = _mm_unpacklo_ps(_mm_load_ss(in + j[0]), _mm_load_ss(in + j[1]));
        const __m128 cd = _mm_unpacklo_ps(_mm_load_ss(in + j[2]), _mm_load_ss(in + j[3]));
        return _mm_movelh_ps(ab, cd);
    };
    return _mm256_insertf128_ps(_mm256_castps128_ps256(quad(i)), quad(i + 4), 1);
}

template <bool Cotan>
void step1(const SmoothLayout& k, const float* in, float* out, std::size_t b0, std::size_t b1) {
    for (std::size_t b = b0; b < b1; ++b) {
        const __m256i n = counts(k, b);
        __m256 acc = _mm256_setzero_ps();
        const std::uint32_t s0 = k.slot_start[b], s1 = k.slot_start[b + 1];
        const std::uint32_t* g = k.index + k.group_start[b];
        for (std::uint32_t s = s0; s < s1; ++s) {
            __m256 x;
            if (g[0] & SmoothLayout::kRun) {
                x = _mm256_loadu_ps(in + (g[0] & ~SmoothLayout::kRun));
                g += 1;
            } else {
                const __m256 live = _mm256_castsi256_ps(_mm256_cmpgt_epi32(n, _mm256_set1_epi32(static_cast<int>(s - s0))));
                x = _mm256_and_ps(singles(in, g), live);
                g += L;
            }
            acc = _mm256_add_ps(acc, Cotan ? _mm256_mul_ps(_mm256_loadu_ps(k.weight + L * s), x) : x);
        }
        _mm256_storeu_ps(out + L * b, finish(acc, divisor<Cotan>(k, b, n), _mm256_loadu_ps(in + L * b)));
    }
}

// Two fields: each register holds four vertices' (field 0, field 1) pairs, as they lie in memory,
// so the pairs load as 8 bytes each and the results store as they are.
inline __m256 pairs(const float* in, const std::uint32_t* i) {
    auto at = [&](int l) { return reinterpret_cast<const double*>(in + 2 * std::size_t(i[l])); };
    const __m128d lo = _mm_loadh_pd(_mm_load_sd(at(0)), at(1));
    const __m128d hi = _mm_loadh_pd(_mm_load_sd(at(2)), at(3));
    return _mm256_castpd_ps(_mm256_insertf128_pd(_mm256_castpd128_pd256(lo), hi, 1));
}

template <bool Cotan>
void step2(const SmoothLayout& k, const float* in, float* out, std::size_t b0, std::size_t b1) {
    const __m256i dup_lo = _mm256_setr_epi32(0, 0, 1, 1, 2, 2, 3, 3), dup_hi = _mm256_setr_epi32(4, 4, 5, 5, 6, 6, 7, 7);
    for (std::size_t b = b0; b < b1; ++b) {
        const __m256i n = counts(k, b);
        const __m256i n_lo = _mm256_permutevar8x32_epi32(n, dup_lo), n_hi = _mm256_permutevar8x32_epi32(n, dup_hi);
        __m256 acc_lo = _mm256_setzero_ps(), acc_hi = _mm256_setzero_ps();
        const std::uint32_t s0 = k.slot_start[b], s1 = k.slot_start[b + 1];
        const std::uint32_t* g = k.index + k.group_start[b];
        for (std::uint32_t s = s0; s < s1; ++s) {
            __m256 x_lo, x_hi;
            if (g[0] & SmoothLayout::kRun) {
                const float* p = in + 2 * std::size_t(g[0] & ~SmoothLayout::kRun);
                x_lo = _mm256_loadu_ps(p);
                x_hi = _mm256_loadu_ps(p + L);
                g += 1;
            } else {
                const __m256i slot = _mm256_set1_epi32(static_cast<int>(s - s0));
                x_lo = _mm256_and_ps(pairs(in, g), _mm256_castsi256_ps(_mm256_cmpgt_epi32(n_lo, slot)));
                x_hi = _mm256_and_ps(pairs(in, g + 4), _mm256_castsi256_ps(_mm256_cmpgt_epi32(n_hi, slot)));
                g += L;
            }
            if (Cotan) {
                const __m256 w = _mm256_loadu_ps(k.weight + L * s);
                x_lo = _mm256_mul_ps(_mm256_permutevar8x32_ps(w, dup_lo), x_lo);
                x_hi = _mm256_mul_ps(_mm256_permutevar8x32_ps(w, dup_hi), x_hi);
            }
            acc_lo = _mm256_add_ps(acc_lo, x_lo);
            acc_hi = _mm256_add_ps(acc_hi, x_hi);
        }
        const __m256 sum = divisor<Cotan>(k, b, n);
        const std::size_t v = 2 * L * b;
        _mm256_storeu_ps(out + v, finish(acc_lo, _mm256_permutevar8x32_ps(sum, dup_lo), _mm256_loadu_ps(in + v)));
        _mm256_storeu_ps(out + v + L, finish(acc_hi, _mm256_permutevar8x32_ps(sum, dup_hi), _mm256_loadu_ps(in + v + L)));
    }
}

}  // namespace

void smooth_avx2(const SmoothLayout& k, const float* in, float* out, std::size_t fields, std::size_t b0, std::size_t b1) {
    const bool cotan = k.weight != nullptr;
    if (fields == 1) cotan ? step1<true>(k, in, out, b0, b1) : step1<false>(k, in, out, b0, b1);
    else cotan ? step2<true>(k, in, out, b0, b1) : step2<false>(k, in, out, b0, b1);
}

}  // namespace rigscope::detail
