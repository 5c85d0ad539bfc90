// The edge T on AVX2: tension.cpp's SSE loop eight lanes wide (the loop itself: edge_lanes.h).
// Compiled with -mavx2 and without FMA or contraction (CMakeLists.txt): each lane's operations
// are the SSE loop's, in its order, so a layout of 8 lanes gives the bits of one of 4. Only
// called after avx2_supported().
#include <immintrin.h>

#include "edge_lanes.h"
#include "tension_avx2.h"

namespace rigscope::detail {

namespace {

struct V8 {
    using R = __m256;
    static constexpr std::size_t N = 8;  // EdgeBatches::kWideLanes
    static R loadu(const float* p) { return _mm256_loadu_ps(p); }
    static R set1(float x) { return _mm256_set1_ps(x); }
    static R sqrt(R a) { return _mm256_sqrt_ps(a); }
    // kPair entries: one root for two slots (edge_lanes.h). shift_in(v, x): x, v0, ..., v6.
    static constexpr bool kPairs = true;
    static float root(float x) { return _mm_cvtss_f32(_mm_sqrt_ss(_mm_set_ss(x))); }
    static R shift_in(R v, float x) {
        return _mm256_blend_ps(_mm256_permutevar8x32_ps(v, _mm256_setr_epi32(0, 0, 1, 2, 3, 4, 5, 6)), _mm256_set1_ps(x), 1);
    }

    // Eight consecutive vertices: their 24 floats in three loads. Component c of vertex i is float
    // 3i + c, in register (3i + c) / 8 at lane (3i + c) % 8; for one c those lanes are all
    // different, so two blends gather a component's eight floats into one register and a permute
    // orders them.
    static void run(const float* p, R& x, R& y, R& z) {
        const R r0 = _mm256_loadu_ps(p), r1 = _mm256_loadu_ps(p + 8), r2 = _mm256_loadu_ps(p + 16);
        const R bx = _mm256_blend_ps(_mm256_blend_ps(r0, r1, 0b10010010), r2, 0b00100100);
        const R by = _mm256_blend_ps(_mm256_blend_ps(r0, r1, 0b00100100), r2, 0b01001001);
        const R bz = _mm256_blend_ps(_mm256_blend_ps(r0, r1, 0b01001001), r2, 0b10010010);
        x = _mm256_permutevar8x32_ps(bx, _mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5));
        y = _mm256_permutevar8x32_ps(by, _mm256_setr_epi32(1, 4, 7, 2, 5, 0, 3, 6));
        z = _mm256_permutevar8x32_ps(bz, _mm256_setr_epi32(2, 5, 0, 3, 6, 1, 4, 7));
    }

    // Eight vertices anywhere: 16 bytes from each (x, y, z and the next float), vertex l beside
    // vertex l + 4 in one register, then the 4 x 4 transpose of simd_points.h in both halves.
    // Wide = false (the batch reads the mesh's last vertex, which has no float after it): lane by lane.
    template <bool Wide>
    static void points(const float* P, const std::uint32_t* i, R& x, R& y, R& z) {
        if (Wide) {
            auto pair = [&](int l) {
                return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(P + 3 * std::size_t(i[l]))),
                                            _mm_loadu_ps(P + 3 * std::size_t(i[l + 4])), 1);
            };
            const R r0 = pair(0), r1 = pair(1), r2 = pair(2), r3 = pair(3);
            const R t0 = _mm256_unpacklo_ps(r0, r1);  // x0 x1 y0 y1 | x4 x5 y4 y5
            const R t1 = _mm256_unpacklo_ps(r2, r3);  // x2 x3 y2 y3 | x6 x7 y6 y7
            const R t2 = _mm256_unpackhi_ps(r0, r1);  // z0 z1 . .   | z4 z5 . .
            const R t3 = _mm256_unpackhi_ps(r2, r3);  // z2 z3 . .   | z6 z7 . .
            x = _mm256_shuffle_ps(t0, t1, _MM_SHUFFLE(1, 0, 1, 0));
            y = _mm256_shuffle_ps(t0, t1, _MM_SHUFFLE(3, 2, 3, 2));
            z = _mm256_shuffle_ps(t2, t3, _MM_SHUFFLE(1, 0, 1, 0));
        } else {
            float v[3][N];
            for (std::size_t l = 0; l < N; ++l)
                for (int c = 0; c < 3; ++c) v[c][l] = P[3 * std::size_t(i[l]) + c];
            x = _mm256_loadu_ps(v[0]);
            y = _mm256_loadu_ps(v[1]);
            z = _mm256_loadu_ps(v[2]);
        }
    }

    static void storeu(float* p, R v) { _mm256_storeu_ps(p, v); }
    static void store_lanes(R v, float* out, std::size_t lanes) { store_lanes_copied<V8>(v, out, lanes); }
    static R load_lanes(const float* in, std::size_t lanes) { return load_lanes_copied<V8>(in, lanes); }

    static R tension(R r, R d, std::size_t lanes, std::size_t& degenerate) {
        const R zero = _mm256_setzero_ps();
        const R v = _mm256_div_ps(r, d);
        // r > 0, d > 0 and v finite (v - v is 0 only for a finite v): the SSE loop's test.
        const R ok = _mm256_and_ps(_mm256_and_ps(_mm256_cmp_ps(r, zero, _CMP_GT_OQ), _mm256_cmp_ps(d, zero, _CMP_GT_OQ)),
                                   _mm256_cmp_ps(_mm256_sub_ps(v, v), zero, _CMP_EQ_OQ));
        const unsigned bad = ~static_cast<unsigned>(_mm256_movemask_ps(ok)) & ((1u << lanes) - 1);
        degenerate += static_cast<std::size_t>(__builtin_popcount(bad));
        return _mm256_blendv_ps(_mm256_set1_ps(1.0f), v, ok);
    }
};

}  // namespace

RIGSCOPE_EDGE_LANE_KERNELS(V8, avx2)

}  // namespace rigscope::detail
