// Patches of a mesh that cannot cross themselves, for intersect's self-tests (a BVH node against
// itself): on the bench tube most node pairs a frame opens are a smooth patch's triangles against
// their own neighbours, boxes that overlap because the surface is continuous, not because it
// folds. A node whose triangles all face one side of an axis, and whose boundary, seen along that
// axis, winds once around a point it is star-shaped from, is skipped with everything under it
// (Volino and Thalmann 1994 for the normal cone; Schvartzman, Perez and Otaduy 2010, "Star-Contours
// for Efficient Hierarchical Self-Collision Detection", for the contour). Both tests are decided
// on the float positions with proved rounding bounds; where a bound does not decide, the node is
// not skipped, so the answer stays the exact one.
//
// Why it is exact. Project along axis k onto the other two coordinates. Let C be the 2-chain of the
// node's triangles, each oriented by its stored corner order, and Z its boundary chain (each
// directed edge counted +1, its reverse -1: what `boundary` and `merge` compute, over file
// vertices, so a seam the file splits stays a slit). For a point y of the plane off the projected
// edges, the triangles covering y, each counted with the sign of its projected orientation, add up
// to the winding number of the projected Z around y (a property of chains: no manifold needed).
// When every triangle's projection has the orientation s (+1 or -1) and every edge of Z is seen
// from a point c strictly with orientation s, each closed walk of Z turns around c a positive
// number of times in direction s; a crossing count of exactly s along the ray from c leaves one
// walk turning once: a simple star-shaped polygon, whose winding number is s inside and 0
// outside. So no point is covered twice: the projected interiors of any two triangles are
// disjoint, and a line of the plane separates them. Over that line stands a plane with one
// triangle on each closed side; were the two to cross, the crossing would hold a point strictly
// inside one of them lying in that plane with the whole triangle on one side, so that triangle
// would lie in the plane and project to a line, against its orientation (BvhBox's argument for
// open boxes). Hence no two triangles of the node cross, neighbours or not.
#pragma once

#include <cstdint>
#include <vector>

#include <Eigen/Core>
#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
#include <emmintrin.h>
#endif

namespace rigscope::patch {

// A directed edge between two file vertices below 2^31, packed for merges that compare one
// integer: the smaller vertex, the larger, and a bit for the direction (1: from the larger).
// Chains in key order (boundary's and merge's) are sorted by this value.
using Edge = std::uint64_t;
constexpr std::uint32_t kMaxVertex = 0x7fffffff;
inline Edge edge(std::uint32_t from, std::uint32_t to) {
    const std::uint32_t lo = from < to ? from : to, hi = from < to ? to : from;
    return std::uint64_t(lo) << 33 | std::uint64_t(hi) << 1 | std::uint64_t(from > to);
}
inline std::uint32_t from(Edge e) { return static_cast<std::uint32_t>(e & 1 ? (e >> 1) & 0xffffffffu : e >> 33); }
inline std::uint32_t to(Edge e) { return static_cast<std::uint32_t>(e & 1 ? e >> 33 : (e >> 1) & 0xffffffffu); }

// Bits of a facing mask: bit k (0-2) when every triangle's normal has a component along axis k
// proved positive, bit 3 + k when proved negative.
constexpr std::uint32_t kAllAxes = 0x3f;

// The boundary chain of triangles first .. first + count of `corners` (three file vertices each):
// each directed edge as many times as its net count, reversed where that is negative. False (and
// `out` empty) for a vertex above kMaxVertex.
bool boundary(const std::uint32_t* corners, std::uint32_t first, std::uint32_t count, std::vector<Edge>& out);

// The boundary chain of the union of two sets of triangles from theirs (edges that cancel dropped).
void merge(const std::vector<Edge>& a, const std::vector<Edge>& b, std::vector<Edge>& out);

#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
// The facing mask of the triangle with corners a, b, c (x, y, z in the low lanes, the fourth
// zero) from its normal (b - a) x (c - a) in float, each component against 1e-6 of its two
// products' magnitudes; a nonzero mask is also what proves the triangle's area nonzero, so
// frame_boxes takes its zero-area flag from the same computation (only a zero mask goes on to the
// double estimate and exact test).
// Why the bound holds (u = 2^-24, gamma_3 = 3u/(1 - 3u) < 1.8e-7): a component is t1 - t2, each
// product of two rounded differences rounded once, so t = T(1 + theta), |theta| <= gamma_3, with
// T the exact product, plus at most 2^-150 where the product is subnormal. Whatever the exact
// component T1 - T2, the computed one is (T1 - T2 + E)(1 + delta), |delta| <= u, with
// (1 + u)|E| <= (1 + u)(gamma_3 (|t1| + |t2| + 2^-149) / (1 - gamma_3) + 2^-149)
// < 1.81e-7 (|t1| + |t2|) + 2^-148, below the bound 1e-6 (|t1| + |t2|) (rounded twice) whenever
// that bound exceeds 2^-100. So a computed component beyond the bound has |T1 - T2 + E| > |E|:
// the exact component is not zero and has the computed one's sign. A difference or product that
// overflows gives an infinite or NaN component or bound, which no compare passes: no bit.
inline std::uint32_t facing_mask(__m128 a, __m128 b, __m128 c) {
    const __m128 e1 = _mm_sub_ps(b, a), e2 = _mm_sub_ps(c, a);
    const __m128 t1 = _mm_mul_ps(_mm_shuffle_ps(e1, e1, _MM_SHUFFLE(3, 0, 2, 1)), _mm_shuffle_ps(e2, e2, _MM_SHUFFLE(3, 1, 0, 2)));
    const __m128 t2 = _mm_mul_ps(_mm_shuffle_ps(e1, e1, _MM_SHUFFLE(3, 1, 0, 2)), _mm_shuffle_ps(e2, e2, _MM_SHUFFLE(3, 0, 2, 1)));
    const __m128 magnitude = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
    const __m128 signed_n = _mm_sub_ps(t1, t2);
    const __m128 n = _mm_and_ps(signed_n, magnitude);
    const __m128 bound = _mm_mul_ps(_mm_set1_ps(1e-6f), _mm_add_ps(_mm_and_ps(t1, magnitude), _mm_and_ps(t2, magnitude)));
    // 2^-100: the bound is a normal float and the products' underflow is far below it.
    const __m128 proved = _mm_and_ps(_mm_cmpgt_ps(n, bound), _mm_cmpgt_ps(bound, _mm_set1_ps(0x1p-100f)));
    const int negative = _mm_movemask_ps(signed_n);  // a proved component is not zero: its sign bit is its sign
    const int m = _mm_movemask_ps(proved) & 7;
    return static_cast<std::uint32_t>((m & ~negative) | (m & negative) << 3);
}
#endif

// The facing mask of triangle a, b, c in double with Shewchuk's orient2d bound (the build
// without SIMD's; either may leave a bit unset that facing_mask sets, never a wrong one).
std::uint32_t facing(const Eigen::Vector3f& a, const Eigen::Vector3f& b, const Eigen::Vector3f& c);

// Whether triangles whose facing masks all contain `axes` and whose boundary chain is `rim`
// (positions x per file vertex) are proved not to cross one another: for some axis of `axes`, the
// star test around the boundary's centroid as the header comment states. False when unsure.
bool untangled(const std::vector<Edge>& rim, const Eigen::Vector3f* x, std::uint32_t axes);

}  // namespace rigscope::patch
