// The principal kernel eight lanes per AVX2 register: principal_lanes.h's arithmetic, as
// measure_sse.cpp's SSE path runs it four lanes at a time. CMakeLists.txt compiles this file alone
// with -mavx2 -ffp-contract=off (no FMA: every lane does the SSE path's operations, so the same
// bits), and measure_dispatch.cpp calls it only on a CPU with AVX2. Nothing here may come from a header
// that other files compile too (principal_layout.h says why).
#include <immintrin.h>

#include "principal_lanes.h"

namespace rigscope::detail {
namespace {

struct V8 {
    __m256 v;
    static constexpr std::size_t N = 8;
    static V8 zero() { return {_mm256_setzero_ps()}; }
    static V8 set1(float x) { return {_mm256_set1_ps(x)}; }
    static V8 load(const float* p) { return {_mm256_loadu_ps(p)}; }
    void store(float* p) const { _mm256_storeu_ps(p, v); }
    // As simd_points.h for four: 16 bytes from each vertex's x (Wide: the layout never reads the
    // mesh's last vertex this way), two vertices per load pair, then the same transpose in each
    // 128-bit half; lane by lane otherwise.
    template <bool Wide>
    static void points(const float* P, const std::uint32_t* i, V8& x, V8& y, V8& z) {
        if (Wide) {
            auto pair = [&](int a, int b) { return _mm256_loadu2_m128(P + 3 * std::size_t(i[b]), P + 3 * std::size_t(i[a])); };
            const __m256 r0 = pair(0, 4), r1 = pair(1, 5), r2 = pair(2, 6), r3 = pair(3, 7);
            const __m256 t0 = _mm256_unpacklo_ps(r0, r1);  // x0 x1 y0 y1 | x4 x5 y4 y5
            const __m256 t1 = _mm256_unpacklo_ps(r2, r3);  // x2 x3 y2 y3 | x6 x7 y6 y7
            const __m256 t2 = _mm256_unpackhi_ps(r0, r1);  // z0 z1 . .   | z4 z5 . .
            const __m256 t3 = _mm256_unpackhi_ps(r2, r3);  // z2 z3 . .   | z6 z7 . .
            x.v = _mm256_shuffle_ps(t0, t1, _MM_SHUFFLE(1, 0, 1, 0));
            y.v = _mm256_shuffle_ps(t0, t1, _MM_SHUFFLE(3, 2, 3, 2));
            z.v = _mm256_shuffle_ps(t2, t3, _MM_SHUFFLE(1, 0, 1, 0));
        } else {
            const float* p[8];
            for (int l = 0; l < 8; ++l) p[l] = P + 3 * std::size_t(i[l]);
            x.v = _mm256_setr_ps(p[0][0], p[1][0], p[2][0], p[3][0], p[4][0], p[5][0], p[6][0], p[7][0]);
            y.v = _mm256_setr_ps(p[0][1], p[1][1], p[2][1], p[3][1], p[4][1], p[5][1], p[6][1], p[7][1]);
            z.v = _mm256_setr_ps(p[0][2], p[1][2], p[2][2], p[3][2], p[4][2], p[5][2], p[6][2], p[7][2]);
        }
    }
    // Eight consecutive vertices: their 24 floats in three loads, then each coordinate from the
    // three (lane i of load i % 3 holds one, for x; shifted by one for y and two for z) and put
    // in order.
    template <bool>
    static void run(const float* P, std::uint32_t v, V8& x, V8& y, V8& z) {
        const float* p = P + 3 * std::size_t(v);
        const __m256 r0 = _mm256_loadu_ps(p), r1 = _mm256_loadu_ps(p + 8), r2 = _mm256_loadu_ps(p + 16);
        x.v = _mm256_permutevar8x32_ps(_mm256_blend_ps(_mm256_blend_ps(r0, r1, 0x92), r2, 0x24), _mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5));
        y.v = _mm256_permutevar8x32_ps(_mm256_blend_ps(_mm256_blend_ps(r2, r0, 0x92), r1, 0x24), _mm256_setr_epi32(1, 4, 7, 2, 5, 0, 3, 6));
        z.v = _mm256_permutevar8x32_ps(_mm256_blend_ps(_mm256_blend_ps(r1, r2, 0x92), r0, 0x24), _mm256_setr_epi32(2, 5, 0, 3, 6, 1, 4, 7));
    }
    // The inverse of run: eight points' x y z interleaved.
    static void store3(float* p, V8 x, V8 y, V8 z) {
        const __m256 bx = _mm256_permutevar8x32_ps(x.v, _mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5));
        const __m256 by = _mm256_permutevar8x32_ps(y.v, _mm256_setr_epi32(5, 0, 3, 6, 1, 4, 7, 2));
        const __m256 bz = _mm256_permutevar8x32_ps(z.v, _mm256_setr_epi32(2, 5, 0, 3, 6, 1, 4, 7));
        _mm256_storeu_ps(p, _mm256_blend_ps(_mm256_blend_ps(bx, by, 0x92), bz, 0x24));
        _mm256_storeu_ps(p + 8, _mm256_blend_ps(_mm256_blend_ps(bz, bx, 0x92), by, 0x24));
        _mm256_storeu_ps(p + 16, _mm256_blend_ps(_mm256_blend_ps(by, bz, 0x92), bx, 0x24));
    }
};
inline V8 operator+(V8 a, V8 b) { return {_mm256_add_ps(a.v, b.v)}; }
inline V8 operator-(V8 a, V8 b) { return {_mm256_sub_ps(a.v, b.v)}; }
inline V8 operator*(V8 a, V8 b) { return {_mm256_mul_ps(a.v, b.v)}; }
inline V8 operator/(V8 a, V8 b) { return {_mm256_div_ps(a.v, b.v)}; }
inline V8 sqrt(V8 a) { return {_mm256_sqrt_ps(a.v)}; }
inline V8 max(V8 a, V8 b) { return {_mm256_max_ps(a.v, b.v)}; }
inline V8 abs(V8 a) { return {_mm256_and_ps(a.v, _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF)))}; }
inline V8 gt(V8 a, V8 b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_GT_OS)}; }
inline V8 ge(V8 a, V8 b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_GE_OS)}; }
inline V8 select(V8 m, V8 a, V8 b) { return {_mm256_blendv_ps(b.v, a.v, m.v)}; }
inline V8 keep(V8 m, V8 a) { return {_mm256_and_ps(m.v, a.v)}; }
inline V8 eq(V8 a, V8 b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_EQ_OQ)}; }
inline V8 both(V8 a, V8 b) { return {_mm256_and_ps(a.v, b.v)}; }
inline int mask_bits(V8 m) { return _mm256_movemask_ps(m.v); }
inline std::size_t popcount(V8 m) { return static_cast<std::size_t>(__builtin_popcount(static_cast<unsigned>(mask_bits(m)))); }

}  // namespace

PrincipalCounts principal_avx2(const PrincipalLayout& k, std::size_t begin, std::size_t end, const PrincipalOut& out) {
    return principal_lanes<V8>(k, begin, end, out);
}

}  // namespace rigscope::detail
