#include <algorithm>
#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
#include <emmintrin.h>
#endif

#include "rigscope/core/tension.h"

namespace rigscope {

namespace {

// The first index in [b, end) holding v (== as std::find: -0 equals 0), end if none: four SSE
// compares of 16 values at a time. std::find's scalar loop was a tenth of a frame's time
// (issue 62): each range's search reads up to a block, one value a cycle.
std::size_t first_equal(const float* t, std::size_t b, std::size_t end, float v) {
    std::size_t i = b;
#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
    const __m128 x = _mm_set1_ps(v);
    for (; i + 16 <= end; i += 16) {
        const int m = _mm_movemask_ps(_mm_cmpeq_ps(_mm_loadu_ps(t + i), x)) |
                      _mm_movemask_ps(_mm_cmpeq_ps(_mm_loadu_ps(t + i + 4), x)) << 4 |
                      _mm_movemask_ps(_mm_cmpeq_ps(_mm_loadu_ps(t + i + 8), x)) << 8 |
                      _mm_movemask_ps(_mm_cmpeq_ps(_mm_loadu_ps(t + i + 12), x)) << 12;
        if (m) return i + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(m)));
    }
#endif
    for (; i < end; ++i)
        if (t[i] == v) return i;
    return end;
}

// The lowest and highest of t[begin, end) (begin < end) and the first block holding each.
void block_extremes(const float* t, std::size_t begin, std::size_t end, float& lo, float& hi, std::size_t& blo, std::size_t& bhi) {
    // One pass in blocks, their min and max in SSE registers (T is never NaN), keeping the first
    // block that lowers the minimum (raises the maximum); the first index holding each value is
    // then looked for in that block alone. The same answer as one branchy pass; it runs per frame
    // and mesh, and two whole-array searches after the pass cost more than the pass.
    constexpr std::size_t kBlock = 2048;
    lo = hi = t[begin];
    blo = bhi = begin;
    for (std::size_t b = begin; b < end; b += kBlock) {
        const std::size_t stop = std::min(end, b + kBlock);
        float l = t[b], h = t[b];
        std::size_t i = b;
#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
        // Four registers of running values each, so that the compares do not wait on one
        // another (min and max are exact in any order). minps(x, m) is x < m ? x : m, the
        // scalar loop's rule: GCC does not vectorise that loop itself.
        __m128 ls[4], hs[4];
        for (int k = 0; k < 4; ++k) ls[k] = hs[k] = _mm_set1_ps(t[b]);
        for (; i + 16 <= stop; i += 16)
            for (int k = 0; k < 4; ++k) {
                const __m128 x = _mm_loadu_ps(t + i + 4 * k);
                ls[k] = _mm_min_ps(x, ls[k]);
                hs[k] = _mm_max_ps(x, hs[k]);
            }
        alignas(16) float lv[16], hv[16];
        for (int k = 0; k < 4; ++k) _mm_store_ps(lv + 4 * k, ls[k]), _mm_store_ps(hv + 4 * k, hs[k]);
        for (int k = 0; k < 16; ++k) {
            l = lv[k] < l ? lv[k] : l;
            h = hv[k] > h ? hv[k] : h;
        }
#endif
        for (; i < stop; ++i) {
            l = t[i] < l ? t[i] : l;
            h = t[i] > h ? t[i] : h;
        }
        if (l < lo) lo = l, blo = b;
        if (h > hi) hi = h, bhi = b;
    }
}

}  // namespace

ValueExtremes value_extremes(const float* t, std::size_t begin, std::size_t end) {
    ValueExtremes e;
    if (begin >= end) return e;
    std::size_t blo, bhi;
    block_extremes(t, begin, end, e.min, e.max, blo, bhi);
    e.min_at = static_cast<std::uint32_t>(first_equal(t, blo, end, e.min));
    e.max_at = static_cast<std::uint32_t>(first_equal(t, bhi, end, e.max));
    return e;
}

ValueExtremes fold_value_extremes(const ValueExtremes& a, const float* t, std::size_t begin, std::size_t end) {
    if (begin >= end) return fold_extremes(a, ValueExtremes{});
    // fold_extremes keeps a's side when the range's value is beyond it (higher min, lower max)
    // whatever its index: the index is looked for only where the range's value can win. A
    // frame's tiles fold a few hundred short ranges, most of which beat neither extreme so far,
    // and the two searches had cost as much as the pass.
    float lo, hi;
    std::size_t blo, bhi;
    block_extremes(t, begin, end, lo, hi, blo, bhi);
    // On a tie the range wins only with a lower index: none when it starts above a's (T is 1
    // exactly over whatever a pose leaves at rest, so ties are common).
    ValueExtremes e = a;
    if (lo < a.min || (lo == a.min && begin < a.min_at)) {
        const auto at = static_cast<std::uint32_t>(first_equal(t, blo, end, lo));
        if (lo < a.min || at < a.min_at) e.min = lo, e.min_at = at;
    }
    if (hi > a.max || (hi == a.max && begin < a.max_at)) {
        const auto at = static_cast<std::uint32_t>(first_equal(t, bhi, end, hi));
        if (hi > a.max || at < a.max_at) e.max = hi, e.max_at = at;
    }
    return e;
}

ValueExtremes fold_extremes(const ValueExtremes& a, const ValueExtremes& b) {
    ValueExtremes e = a;
    if (b.min < a.min || (b.min == a.min && b.min_at < a.min_at)) e.min = b.min, e.min_at = b.min_at;
    if (b.max > a.max || (b.max == a.max && b.max_at < a.max_at)) e.max = b.max, e.max_at = b.max_at;
    return e;
}

}  // namespace rigscope
