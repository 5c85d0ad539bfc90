// Linear blend skinning's AVX2 kernel: what MeshDeformer runs for a run of vertices with a fixed
// influence count and no active morph target, on CPUs with AVX2 (chosen at run time, as the dual
// quaternion and principal kernels are). Compiled with -mavx2 -mno-fma -ffp-contract=off.
//
// Bit for bit the Eigen loop of skin.cpp (tests/core/test_skin_simd.cpp compares them): each
// vertex's matrix is blended with the same multiplies and adds in influence order, and the
// transform adds as ((c0 x + c1 y) + c2 z) + c3, the order Eigen's expression evaluates (c3 * 1
// is c3 exactly). Two ways, the same operations per vertex:
// - Eight consecutive vertices bound to the same joints in the same order (a ring of a limb, a
//   region painted to one bone: most groups of a skinned mesh's vertex order) go one vertex a
//   lane: each of the 12 matrix entries a vertex needs is a register of 8 blends against one
//   broadcast joint entry, and the positions come in and go out as three loads and three stores
//   (deinterleaved and interleaved by blends and permutes). The bottom row of the 4 x 4, which
//   the transform throws away, is never blended, and no lane sums halves of a register.
// - Any other vertex alone: a joint matrix is two 8-float registers (columns 0-1 and 2-3).
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "skin_avx2.h"

namespace rigscope::detail {

namespace {

constexpr std::size_t kGroup = 8;

// One vertex: its blended 4 x 4 (columns 0-1 and 2-3) applied to base[v], written to out[v].
template <int K>
inline void vertex_alone(const float* J, const std::uint16_t* j, const float* w, std::uint32_t count, const float* p,
                         float* o) {
    const std::uint32_t n = K > 0 ? static_cast<std::uint32_t>(K) : count;
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
    const __m256 xy = _mm256_set_m128(_mm_set1_ps(p[1]), _mm_set1_ps(p[0]));
    const __m256 z1 = _mm256_set_m128(_mm_set1_ps(1.0f), _mm_set1_ps(p[2]));
    const __m256 a = _mm256_mul_ps(c01, xy), b = _mm256_mul_ps(c23, z1);
    __m128 r = _mm_add_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1));
    r = _mm_add_ps(r, _mm256_castps256_ps128(b));
    r = _mm_add_ps(r, _mm256_extractf128_ps(b, 1));
    // 12 bytes, never 16: the next vertex may be another thread's block.
    _mm_storel_pi(reinterpret_cast<__m64*>(o), r);
    _mm_store_ss(o + 2, _mm_movehl_ps(r, r));
}

// Whether the eight vertices from j on (n influences each) list the same joints in one order.
inline bool same_joints(const std::uint16_t* j, std::uint32_t n) {
    for (std::size_t l = 1; l < kGroup; ++l)
        for (std::uint32_t k = 0; k < n; ++k)
            if (j[l * n + k] != j[k]) return false;
    return true;
}

// Eight consecutive vertices' floats (24 from p) as x, y, z registers: float 3i + c of the run is
// in load (3i + c) / 8 at lane (3i + c) % 8, different lanes for one c, so two blends collect a
// component and a permute puts it in vertex order. interleave() is the inverse, for the stores.
// Plain arrays, not __m256i constants: a namespace-scope vector would be made at start-up with
// AVX instructions, before anyone asked whether the CPU has them.
alignas(32) constexpr int kX[8] = {0, 3, 6, 1, 4, 7, 2, 5}, kY[8] = {1, 4, 7, 2, 5, 0, 3, 6}, kZ[8] = {2, 5, 0, 3, 6, 1, 4, 7};
alignas(32) constexpr int kYInv[8] = {5, 0, 3, 6, 1, 4, 7, 2};  // kX and kZ are their own inverses
inline __m256i order(const int* i) { return _mm256_load_si256(reinterpret_cast<const __m256i*>(i)); }

inline void deinterleave(const float* p, __m256& x, __m256& y, __m256& z) {
    const __m256 r0 = _mm256_loadu_ps(p), r1 = _mm256_loadu_ps(p + 8), r2 = _mm256_loadu_ps(p + 16);
    x = _mm256_permutevar8x32_ps(_mm256_blend_ps(_mm256_blend_ps(r0, r1, 0b10010010), r2, 0b00100100), order(kX));
    y = _mm256_permutevar8x32_ps(_mm256_blend_ps(_mm256_blend_ps(r0, r1, 0b00100100), r2, 0b01001001), order(kY));
    z = _mm256_permutevar8x32_ps(_mm256_blend_ps(_mm256_blend_ps(r0, r1, 0b01001001), r2, 0b10010010), order(kZ));
}

inline void interleave(__m256 x, __m256 y, __m256 z, float* o) {
    const __m256 bx = _mm256_permutevar8x32_ps(x, order(kX)), by = _mm256_permutevar8x32_ps(y, order(kYInv)),
                 bz = _mm256_permutevar8x32_ps(z, order(kZ));
    _mm256_storeu_ps(o, _mm256_blend_ps(_mm256_blend_ps(bx, by, 0b10010010), bz, 0b00100100));
    _mm256_storeu_ps(o + 8, _mm256_blend_ps(_mm256_blend_ps(bz, bx, 0b10010010), by, 0b00100100));
    _mm256_storeu_ps(o + 16, _mm256_blend_ps(_mm256_blend_ps(by, bz, 0b10010010), bx, 0b00100100));
}

// Influence k's weights of the eight vertices from w (n each): lane l is w[l n + k].
template <int K>
inline __m256 weights_of(const float* w, std::uint32_t n, std::uint32_t k) {
    if (K == 1) return _mm256_loadu_ps(w);
    if (K == 2) {  // w0 w1 of vertices 0-3, then of 4-7: the even or odd floats, in lane order
        const __m256 a = _mm256_loadu_ps(w), b = _mm256_loadu_ps(w + 8);
        const __m256 s = k == 0 ? _mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)) : _mm256_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1));
        return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(s), _MM_SHUFFLE(3, 1, 2, 0)));
    }
    return _mm256_i32gather_ps(w + k, _mm256_mullo_epi32(_mm256_set1_epi32(static_cast<int>(n)),
                                                         _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7)), 4);
}

// Eight vertices' blends m[4 r + c] (row r 0-2, column c 0-3, a lane a vertex) applied to their
// positions from p, written to o: ((c0 x + c1 y) + c2 z) + c3 lane-wise.
inline void transform_eight(const __m256* m, const float* p, float* o) {
    __m256 x, y, z;
    deinterleave(p, x, y, z);
    __m256 out[3];
    for (int r = 0; r < 3; ++r) {
        const __m256* e = m + 4 * r;
        out[r] = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(e[0], x), _mm256_mul_ps(e[1], y)),
                                             _mm256_mul_ps(e[2], z)), e[3]);
    }
    interleave(out[0], out[1], out[2], o);
}

// Eight vertices sharing joints j[0..n): entry (row r, column c) of each lane's blend, then the
// transform, all lane-wise.
template <int K>
inline void group_of_eight(const float* J, const std::uint16_t* j, const float* w, std::uint32_t count, const float* p,
                           float* o) {
    const std::uint32_t n = K > 0 ? static_cast<std::uint32_t>(K) : count;
    __m256 m[12];  // m[4 r + c]: row r (0-2) of column c (0-3)
    {
        const float* a = J + 16 * std::size_t(j[0]);
        const __m256 wk = weights_of<K>(w, n, 0);
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 3; ++r) m[4 * r + c] = _mm256_mul_ps(wk, _mm256_broadcast_ss(a + 4 * c + r));
    }
    for (std::uint32_t k = 1; k < n; ++k) {
        const float* a = J + 16 * std::size_t(j[k]);
        const __m256 wk = weights_of<K>(w, n, k);
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 3; ++r)
                m[4 * r + c] = _mm256_add_ps(m[4 * r + c], _mm256_mul_ps(wk, _mm256_broadcast_ss(a + 4 * c + r)));
    }
    transform_eight(m, p, o);
}

template <int K>  // K > 0: the influence count, unrolled; 0: `count` at run time
void run_linear(const float* J, const std::uint16_t* j, const float* w, std::uint32_t count, const float* base,
                std::size_t begin, std::size_t end, float* out) {
    const std::uint32_t n = K > 0 ? static_cast<std::uint32_t>(K) : count;
    std::size_t v = begin;
    for (; v + kGroup <= end; v += kGroup, j += kGroup * n, w += kGroup * n) {
        if (same_joints(j, n)) {
            group_of_eight<K>(J, j, w, n, base + 3 * v, out + 3 * v);
        } else {
            for (std::size_t l = 0; l < kGroup; ++l)
                vertex_alone<K>(J, j + l * n, w + l * n, n, base + 3 * (v + l), out + 3 * (v + l));
        }
    }
    for (; v < end; ++v, j += n, w += n) vertex_alone<K>(J, j, w, n, base + 3 * v, out + 3 * v);
}

// A run whose vertices all list j[0..n): no joint compared or read per vertex. w null (n = 1,
// every weight 1): each lane's blend is the joint's matrix broadcast, which 1.0f times it is,
// made once for the run; the loop then reads the positions alone.
template <int K>
void run_shared(const float* J, const std::uint16_t* j, const float* w, std::uint32_t count, const float* base,
                std::size_t begin, std::size_t end, float* out) {
    const std::uint32_t n = K > 0 ? static_cast<std::uint32_t>(K) : count;
    std::size_t v = begin;
    if (!w) {
        static const float kOne = 1.0f;  // the tail's weight: vertex_alone multiplies by it
        const float* a = J + 16 * std::size_t(j[0]);
        __m256 m[12];
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 3; ++r) m[4 * r + c] = _mm256_broadcast_ss(a + 4 * c + r);
        for (; v + kGroup <= end; v += kGroup) transform_eight(m, base + 3 * v, out + 3 * v);
        for (; v < end; ++v) vertex_alone<1>(J, j, &kOne, 1, base + 3 * v, out + 3 * v);
        return;
    }
    for (; v + kGroup <= end; v += kGroup, w += kGroup * n) group_of_eight<K>(J, j, w, n, base + 3 * v, out + 3 * v);
    for (; v < end; ++v, w += n) vertex_alone<K>(J, j, w, n, base + 3 * v, out + 3 * v);
}

}  // namespace

void skin_shared_avx2(const float* joints, const std::uint16_t* j, const float* w, std::uint32_t count,
                      const float* base, std::size_t begin, std::size_t end, float* out) {
    switch (count) {
        case 1: run_shared<1>(joints, j, w, count, base, begin, end, out); break;
        case 2: run_shared<2>(joints, j, w, count, base, begin, end, out); break;
        case 3: run_shared<3>(joints, j, w, count, base, begin, end, out); break;
        case 4: run_shared<4>(joints, j, w, count, base, begin, end, out); break;
        default: run_shared<0>(joints, j, w, count, base, begin, end, out);
    }
}

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
