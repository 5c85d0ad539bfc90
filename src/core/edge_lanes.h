// The edge T's batch loop, written once for a register of V::N floats: V4 (SSE, tension.cpp), V8
// (AVX2, tension_avx2.cpp) and V16 (AVX-512, tension_avx512.cpp). Each lane subtracts, squares,
// sums, takes square roots and divides in one order, and every file is compiled without FMA or
// contraction, so every width gives the bits of the scalar loop (tension.cpp). Internal linkage
// and no library header: each file compiles its own copy (tension_avx2.h says why).
//
// The arithmetic is GCC's vector operators on the register types (__m128, __m256 and __m512 are
// vector types: a - b is one subps), so V holds only what differs by width: R (its register
// type), N; loadu(p), set1(x), sqrt(v), store_lanes(v, p, lanes) (the first `lanes` floats; a whole
// register when lanes == N), load_lanes(p, lanes) (the rest zero); run(p, x, y, z) (the N
// consecutive vertices from float p) and points<Wide>(P, idx, x, y, z) (those of N indices; Wide
// = false reads no float past a vertex); tension(r, d, lanes, degenerate): r / d where r > 0, d >
// 0 and the quotient finite, else 1, adding the bad lanes among the first `lanes` to `degenerate`.
#pragma once

#include <cstddef>
#include <cstdint>

#include "tension_avx2.h"

namespace rigscope::detail {
namespace {

// store_lanes and load_lanes for a lane type without masked loads and stores (V4, V8): through a
// register-sized buffer, the lanes copied one by one (V provides storeu(p, v)).
template <class V>
inline void store_lanes_copied(typename V::R v, float* out, std::size_t lanes) {
    if (lanes == V::N) return V::storeu(out, v);
    alignas(64) float tmp[V::N];
    V::storeu(tmp, v);
    for (std::size_t l = 0; l < lanes; ++l) out[l] = tmp[l];
}

template <class V>
inline typename V::R load_lanes_copied(const float* in, std::size_t lanes) {
    if (lanes == V::N) return V::loadu(in);
    alignas(64) float tmp[V::N] = {};
    for (std::size_t l = 0; l < lanes; ++l) tmp[l] = in[l];
    return V::loadu(tmp);
}

template <class V>
inline std::size_t lanes_at(const EdgeBatchView& eb, std::size_t b) {
    return eb.welded - b * V::N < V::N ? eb.welded - b * V::N : V::N;
}

// One group of a batch (its selves, or one neighbour slot); returns the next group.
template <class V, bool Wide>
inline const std::uint32_t* load_group(const float* P, const std::uint32_t* idx, typename V::R& x, typename V::R& y,
                                       typename V::R& z) {
    if (idx[0] & EdgeBatchView::kRun) {
        V::run(P + 3 * std::size_t(idx[0] & ~EdgeBatchView::kFlags), x, y, z);
        return idx + 1;
    }
    V::template points<Wide>(P, idx, x, y, z);
    return idx + V::N;
}

// Per lane, the mean distance to its neighbours: each neighbour's sqrt(dx^2 + dy^2 + dz^2) added
// in slot order, over the lane's degree.
template <class V, bool Wide>
inline typename V::R batch_lengths(const float* P, const std::uint32_t* idx, const std::uint32_t* end, const float* degree,
                                   std::uint8_t uniform) {
    typename V::R px, py, pz, qx, qy, qz;
    const std::uint32_t self = idx[0];  // the selves' entry: a run wherever a kPair follows
    idx = load_group<V, Wide>(P, idx, px, py, pz);
    typename V::R sum{};
    while (idx < end) {
        if constexpr (V::kPairs) {
            if (idx[0] & EdgeBatchView::kPair) {
                // Slots a - 1 and a + 1 around selves a, a + 1, ...: the upper edges' roots,
                // then the lower ones are the same roots a lane up, lane 0's edge (a - 1, a)
                // taken alone with the same operations (a difference and its negative square
                // alike). Added in slot order, as two slots.
                const std::size_t a = self & ~EdgeBatchView::kFlags;
                idx = load_group<V, Wide>(P, idx + 1, qx, qy, qz);
                const typename V::R dx = qx - px, dy = qy - py, dz = qz - pz;
                const typename V::R upper = V::sqrt((dx * dx + dy * dy) + dz * dz);
                const float* pa = P + 3 * a;
                const float ex = pa[-3] - pa[0], ey = pa[-2] - pa[1], ez = pa[-1] - pa[2];
                sum = sum + V::shift_in(upper, V::root((ex * ex + ey * ey) + ez * ez));
                sum = sum + upper;
                continue;
            }
        }
        idx = load_group<V, Wide>(P, idx, qx, qy, qz);
        const typename V::R dx = qx - px, dy = qy - py, dz = qz - pz;
        sum = sum + V::sqrt((dx * dx + dy * dy) + dz * dz);
    }
    // A batch of one degree divides by it broadcast (EdgeBatches::uniform_degree): its lanes'
    // floats stay unread in memory.
    return sum / (uniform ? V::set1(static_cast<float>(uniform)) : V::loadu(degree));
}

template <class V>
inline typename V::R lengths_of(const EdgeBatchView& eb, const float* P, std::size_t b) {
    const std::uint32_t* idx = eb.index + eb.start[b];
    const std::uint32_t* end = eb.index + eb.start[b + 1];
    const float* degree = &eb.degree[b * V::N];
    return eb.reads_last[b] ? batch_lengths<V, false>(P, idx, end, degree, eb.uniform_degree[b])
                            : batch_lengths<V, true>(P, idx, end, degree, eb.uniform_degree[b]);
}

template <class V>
void mean_edge_lengths_lanes(const EdgeBatchView& eb, const float* P, std::size_t begin, std::size_t end, float* out) {
    for (std::size_t b = begin; b < end; ++b) V::store_lanes(lengths_of<V>(eb, P, b), out + b * V::N, lanes_at<V>(eb, b));
}

template <class V>
std::size_t tension_block_lanes(const EdgeBatchView& eb, const float* P, const float* rest, std::size_t begin,
                                std::size_t end, float* lengths, float* t) {
    std::size_t degenerate = 0;
    for (std::size_t b = begin; b < end; ++b) {
        const std::size_t w = b * V::N, lanes = lanes_at<V>(eb, b);
        const typename V::R d = lengths_of<V>(eb, P, b);
        const typename V::R r = V::load_lanes(rest + w, lanes);  // zeros past the end, as the SSE loop
        if (lengths) V::store_lanes(d, lengths + w, lanes);
        V::store_lanes(V::tension(r, d, lanes, degenerate), t + w, lanes);
    }
    return degenerate;
}

}  // namespace
}  // namespace rigscope::detail

// A lane type's two entry points (tension_avx2.h), named by its file's suffix (avx2, avx512):
// written once here for every width, expanded in namespace rigscope::detail.
#define RIGSCOPE_EDGE_LANE_KERNELS(V, suffix)                                                                           \
    void mean_edge_lengths_##suffix(const EdgeBatchView& eb, const float* P, std::size_t begin, std::size_t end,       \
                                    float* out) {                                                                       \
        mean_edge_lengths_lanes<V>(eb, P, begin, end, out);                                                             \
    }                                                                                                                   \
    std::size_t tension_block_##suffix(const EdgeBatchView& eb, const float* P, const float* rest, std::size_t begin,   \
                                       std::size_t end, float* lengths, float* t) {                                     \
        return tension_block_lanes<V>(eb, P, rest, begin, end, lengths, t);                                            \
    }
