// The edge T on AVX2: tension.cpp's SSE loop eight lanes wide. Compiled with -mavx2 and without
// FMA or contraction (CMakeLists.txt): each lane's subtractions, products, sums, square roots and
// divides are the SSE loop's, in its order, so a layout of 8 lanes gives the bits of one of 4.
// Only called after avx2_supported().
#include "tension_avx2.h"

#include <immintrin.h>

namespace rigscope::detail {

namespace {

constexpr std::size_t L = 8;  // EdgeBatches::kWideLanes

// Lanes of batch b that hold welded vertices (all but in the last batch).
inline std::size_t lanes_at(const EdgeBatchView& eb, std::size_t b) { return eb.welded - b * L < L ? eb.welded - b * L : L; }

// Eight consecutive vertices: their 24 floats in three loads. Component c of vertex i is float
// 3i + c, in register (3i + c) / 8 at lane (3i + c) % 8; for one c those lanes are all different,
// so two blends gather a component's eight floats into one register and a permute orders them.
inline void load_run(const float* p, __m256& x, __m256& y, __m256& z) {
    const __m256 r0 = _mm256_loadu_ps(p), r1 = _mm256_loadu_ps(p + 8), r2 = _mm256_loadu_ps(p + 16);
    const __m256 bx = _mm256_blend_ps(_mm256_blend_ps(r0, r1, 0b10010010), r2, 0b00100100);
    const __m256 by = _mm256_blend_ps(_mm256_blend_ps(r0, r1, 0b00100100), r2, 0b01001001);
    const __m256 bz = _mm256_blend_ps(_mm256_blend_ps(r0, r1, 0b01001001), r2, 0b10010010);
    x = _mm256_permutevar8x32_ps(bx, _mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5));
    y = _mm256_permutevar8x32_ps(by, _mm256_setr_epi32(1, 4, 7, 2, 5, 0, 3, 6));
    z = _mm256_permutevar8x32_ps(bz, _mm256_setr_epi32(2, 5, 0, 3, 6, 1, 4, 7));
}

// Eight vertices anywhere: 16 bytes from each (x, y, z and the next float), vertex l beside
// vertex l + 4 in one register, then the 4 x 4 transpose of simd_points.h in both halves.
// Wide = false (the batch reads the mesh's last vertex, which has no float after it): lane by lane.
template <bool Wide>
inline void load_points(const float* P, const std::uint32_t* i, __m256& x, __m256& y, __m256& z) {
    if (Wide) {
        auto pair = [&](int l) {
            return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(P + 3 * std::size_t(i[l]))),
                                        _mm_loadu_ps(P + 3 * std::size_t(i[l + 4])), 1);
        };
        const __m256 r0 = pair(0), r1 = pair(1), r2 = pair(2), r3 = pair(3);
        const __m256 t0 = _mm256_unpacklo_ps(r0, r1);  // x0 x1 y0 y1 | x4 x5 y4 y5
        const __m256 t1 = _mm256_unpacklo_ps(r2, r3);  // x2 x3 y2 y3 | x6 x7 y6 y7
        const __m256 t2 = _mm256_unpackhi_ps(r0, r1);  // z0 z1 . .   | z4 z5 . .
        const __m256 t3 = _mm256_unpackhi_ps(r2, r3);  // z2 z3 . .   | z6 z7 . .
        x = _mm256_shuffle_ps(t0, t1, _MM_SHUFFLE(1, 0, 1, 0));
        y = _mm256_shuffle_ps(t0, t1, _MM_SHUFFLE(3, 2, 3, 2));
        z = _mm256_shuffle_ps(t2, t3, _MM_SHUFFLE(1, 0, 1, 0));
    } else {
        float v[3][L];
        for (std::size_t l = 0; l < L; ++l)
            for (int c = 0; c < 3; ++c) v[c][l] = P[3 * std::size_t(i[l]) + c];
        x = _mm256_loadu_ps(v[0]);
        y = _mm256_loadu_ps(v[1]);
        z = _mm256_loadu_ps(v[2]);
    }
}

// One group of a batch (its selves, or one neighbour slot); returns the next group.
template <bool Wide>
inline const std::uint32_t* load_group(const float* P, const std::uint32_t* idx, __m256& x, __m256& y, __m256& z) {
    if (idx[0] & EdgeBatchView::kRun) {
        load_run(P + 3 * std::size_t(idx[0] & ~EdgeBatchView::kRun), x, y, z);
        return idx + 1;
    }
    load_points<Wide>(P, idx, x, y, z);
    return idx + L;
}

template <bool Wide>
inline __m256 batch_lengths(const float* P, const std::uint32_t* idx, const std::uint32_t* end, const float* degree) {
    __m256 px, py, pz, qx, qy, qz;
    idx = load_group<Wide>(P, idx, px, py, pz);
    __m256 sum = _mm256_setzero_ps();
    while (idx < end) {
        idx = load_group<Wide>(P, idx, qx, qy, qz);
        const __m256 dx = _mm256_sub_ps(qx, px), dy = _mm256_sub_ps(qy, py), dz = _mm256_sub_ps(qz, pz);
        const __m256 d2 =
            _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy)), _mm256_mul_ps(dz, dz));
        sum = _mm256_add_ps(sum, _mm256_sqrt_ps(d2));
    }
    return _mm256_div_ps(sum, _mm256_loadu_ps(degree));
}

inline __m256 lengths_of(const EdgeBatchView& eb, const float* P, std::size_t b) {
    const std::uint32_t* idx = eb.index + eb.start[b];
    const std::uint32_t* end = eb.index + eb.start[b + 1];
    return eb.reads_last[b] ? batch_lengths<false>(P, idx, end, &eb.degree[b * L])
                            : batch_lengths<true>(P, idx, end, &eb.degree[b * L]);
}

inline void store_lanes(__m256 v, float* out, std::size_t lanes) {
    if (lanes == L) {
        _mm256_storeu_ps(out, v);
    } else {
        alignas(32) float tmp[L];
        _mm256_store_ps(tmp, v);
        for (std::size_t l = 0; l < lanes; ++l) out[l] = tmp[l];
    }
}

inline __m256 load_lanes(const float* in, std::size_t lanes) {
    if (lanes == L) return _mm256_loadu_ps(in);
    alignas(32) float tmp[L] = {};
    for (std::size_t l = 0; l < lanes; ++l) tmp[l] = in[l];
    return _mm256_load_ps(tmp);
}

}  // namespace

void mean_edge_lengths_avx2(const EdgeBatchView& eb, const float* P, std::size_t begin, std::size_t end, float* out) {
    for (std::size_t b = begin; b < end; ++b) store_lanes(lengths_of(eb, P, b), out + b * L, lanes_at(eb, b));
}

std::size_t tension_block_avx2(const EdgeBatchView& eb, const float* P, const float* rest, std::size_t begin,
                               std::size_t end, float* lengths, float* t) {
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
    std::size_t degenerate = 0;
    for (std::size_t b = begin; b < end; ++b) {
        const std::size_t w = b * L, lanes = lanes_at(eb, b);
        const __m256 d = lengths_of(eb, P, b);
        const __m256 r = load_lanes(rest + w, lanes);
        const __m256 v = _mm256_div_ps(r, d);
        // r > 0, d > 0 and v finite (v - v is 0 only for a finite v): the SSE loop's test.
        const __m256 ok = _mm256_and_ps(_mm256_and_ps(_mm256_cmp_ps(r, zero, _CMP_GT_OQ), _mm256_cmp_ps(d, zero, _CMP_GT_OQ)),
                                        _mm256_cmp_ps(_mm256_sub_ps(v, v), zero, _CMP_EQ_OQ));
        const __m256 tv = _mm256_blendv_ps(one, v, ok);
        const unsigned bad = ~static_cast<unsigned>(_mm256_movemask_ps(ok)) & ((1u << lanes) - 1);
        degenerate += static_cast<std::size_t>(__builtin_popcount(bad));
        if (lengths) store_lanes(d, lengths + w, lanes);
        store_lanes(tv, t + w, lanes);
    }
    return degenerate;
}

}  // namespace rigscope::detail
