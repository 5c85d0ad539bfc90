// The edge T on AVX-512: the AVX2 loop sixteen lanes wide (the loop itself: edge_lanes.h).
// Compiled with -mavx512f and without FMA or contraction (CMakeLists.txt): each lane's operations
// are the SSE loop's, in its order, so a layout of 16 lanes gives the bits of one of 4. Only
// called after avx512_supported().
#include <immintrin.h>

// GCC 12 warns of the undefined source it gives AVX-512 intrinsics without a merge operand
// (_mm512_undefined_ps): nothing here reads it.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "edge_lanes.h"
#include "tension_avx2.h"

namespace rigscope::detail {

namespace {

// Sixteen consecutive vertices: their 48 floats in three loads. Component c of vertex i is float
// 3i + c: a two-register permute takes those below 32 from the first two loads, a masked one the
// rest from the third. Per component c: lane i's float 3i + c, below 32, as a two-register index
// (clamped to 31 where it is not), and, from 32 on, its index in the third register (lanes 11-15,
// for c = 2 lanes 10-15).
alignas(64) constexpr int kLow[3][16] = {{0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 31, 31, 31, 31, 31},
                                          {1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 31, 31, 31, 31, 31},
                                          {2, 5, 8, 11, 14, 17, 20, 23, 26, 29, 31, 31, 31, 31, 31, 31}};
alignas(64) constexpr int kHigh[3][16] = {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 4, 7, 10, 13},
                                           {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 5, 8, 11, 14},
                                           {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 6, 9, 12, 15}};
constexpr __mmask16 kThird[3] = {0xF800, 0xF800, 0xFC00};

struct V16 {
    using R = __m512;
    static constexpr std::size_t N = 16;  // EdgeBatches::kWidestLanes
    static R loadu(const float* p) { return _mm512_loadu_ps(p); }
    static R set1(float x) { return _mm512_set1_ps(x); }
    static R sqrt(R a) { return _mm512_sqrt_ps(a); }
    // kPair entries: one root for two slots (edge_lanes.h). shift_in(v, x): x, v0, ..., v14.
    static constexpr bool kPairs = true;
    static float root(float x) { return _mm_cvtss_f32(_mm_sqrt_ss(_mm_set_ss(x))); }
    static R shift_in(R v, float x) {
        return _mm512_castsi512_ps(_mm512_alignr_epi32(_mm512_castps_si512(v), _mm512_castps_si512(_mm512_set1_ps(x)), 15));
    }

    static R component(R r0, R r1, R r2, int c) {
        const R t = _mm512_permutex2var_ps(r0, _mm512_load_si512(kLow[c]), r1);
        return _mm512_mask_permutexvar_ps(t, kThird[c], _mm512_load_si512(kHigh[c]), r2);
    }
    static void run(const float* p, R& x, R& y, R& z) {
        const R r0 = _mm512_loadu_ps(p), r1 = _mm512_loadu_ps(p + 16), r2 = _mm512_loadu_ps(p + 32);
        x = component(r0, r1, r2, 0);
        y = component(r0, r1, r2, 1);
        z = component(r0, r1, r2, 2);
    }

    // Sixteen vertices anywhere: 16 bytes from each, vertices l, l + 4, l + 8, l + 12 in one
    // register, then the 4 x 4 transpose in each 128-bit block. Wide = false: lane by lane.
    template <bool Wide>
    static void points(const float* P, const std::uint32_t* i, R& x, R& y, R& z) {
        if (Wide) {
            auto four = [&](int l) {
                R r = _mm512_castps128_ps512(_mm_loadu_ps(P + 3 * std::size_t(i[l])));
                r = _mm512_insertf32x4(r, _mm_loadu_ps(P + 3 * std::size_t(i[l + 4])), 1);
                r = _mm512_insertf32x4(r, _mm_loadu_ps(P + 3 * std::size_t(i[l + 8])), 2);
                return _mm512_insertf32x4(r, _mm_loadu_ps(P + 3 * std::size_t(i[l + 12])), 3);
            };
            const R r0 = four(0), r1 = four(1), r2 = four(2), r3 = four(3);
            const R t0 = _mm512_unpacklo_ps(r0, r1), t1 = _mm512_unpacklo_ps(r2, r3);
            const R t2 = _mm512_unpackhi_ps(r0, r1), t3 = _mm512_unpackhi_ps(r2, r3);
            x = _mm512_shuffle_ps(t0, t1, _MM_SHUFFLE(1, 0, 1, 0));
            y = _mm512_shuffle_ps(t0, t1, _MM_SHUFFLE(3, 2, 3, 2));
            z = _mm512_shuffle_ps(t2, t3, _MM_SHUFFLE(1, 0, 1, 0));
        } else {
            alignas(64) float v[3][N];
            for (std::size_t l = 0; l < N; ++l)
                for (int c = 0; c < 3; ++c) v[c][l] = P[3 * std::size_t(i[l]) + c];
            x = _mm512_load_ps(v[0]);
            y = _mm512_load_ps(v[1]);
            z = _mm512_load_ps(v[2]);
        }
    }

    static __mmask16 mask(std::size_t lanes) { return static_cast<__mmask16>((1u << lanes) - 1); }
    static void store_lanes(R v, float* out, std::size_t lanes) { _mm512_mask_storeu_ps(out, mask(lanes), v); }
    static R load_lanes(const float* in, std::size_t lanes) { return _mm512_maskz_loadu_ps(mask(lanes), in); }

    static R tension(R r, R d, std::size_t lanes, std::size_t& degenerate) {
        const R zero = _mm512_setzero_ps();
        const R v = _mm512_div_ps(r, d);
        // r > 0, d > 0 and v finite (v - v is 0 only for a finite v): the SSE loop's test.
        const __mmask16 ok = _mm512_cmp_ps_mask(r, zero, _CMP_GT_OQ) & _mm512_cmp_ps_mask(d, zero, _CMP_GT_OQ) &
                             _mm512_cmp_ps_mask(_mm512_sub_ps(v, v), zero, _CMP_EQ_OQ);
        degenerate += static_cast<std::size_t>(__builtin_popcount(~static_cast<unsigned>(ok) & mask(lanes)));
        return _mm512_mask_blend_ps(ok, _mm512_set1_ps(1.0f), v);
    }
};

}  // namespace

RIGSCOPE_EDGE_LANE_KERNELS(V16, avx512)

}  // namespace rigscope::detail
