// Exact orientation predicates on float points, and the crossing test built on them
// (core/tri_tri.h). Compiled with -ffp-contract=off: the two-term sums below are exact only
// when each operation rounds on its own.
#include "rigscope/core/tri_tri.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <limits>
#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
#include <xmmintrin.h>
#include <emmintrin.h>
#endif

namespace rigscope {

namespace {

// A nonoverlapping expansion (Shewchuk's representation): the exact value is the sum of the
// terms, kept in increasing magnitude, so its sign is the sign of the last nonzero term.
struct Expansion {
    double term[64];
    int n = 0;

    // Adds b exactly: each term is swept into a running sum whose rounding errors stay terms.
    void add(double b) {
        int m = 0;
        double q = b;
        for (int i = 0; i < n; ++i) {
            const double x = q + term[i];
            const double bv = x - q;
            const double av = x - bv;
            const double err = (q - av) + (term[i] - bv);
            q = x;
            if (err != 0) term[m++] = err;
        }
        term[m++] = q;
        n = m;
    }
    // Adds x*y*z, where x*y is exact in double (two floats' product has 48 bits): the last
    // product is split into its rounded value and the exact remainder fma gives.
    void add_product(double x, double y, double z, double sign) {
        const double xy = x * y * sign;
        const double hi = xy * z;
        const double lo = std::fma(xy, z, -hi);
        add(lo);
        add(hi);
    }
    int sign() const {
        for (int i = n - 1; i >= 0; --i)
            if (term[i] != 0) return term[i] > 0 ? 1 : -1;
        return 0;
    }
};

// det3(u, v, w) = u . (v x w), as six signed triple products added to e with `sign`.
void add_det3(Expansion& e, const Eigen::Vector3f& u, const Eigen::Vector3f& v, const Eigen::Vector3f& w, double sign) {
    e.add_product(u.x(), v.y(), w.z(), sign);
    e.add_product(u.x(), v.z(), w.y(), -sign);
    e.add_product(u.y(), v.z(), w.x(), sign);
    e.add_product(u.y(), v.x(), w.z(), -sign);
    e.add_product(u.z(), v.x(), w.y(), sign);
    e.add_product(u.z(), v.y(), w.x(), -sign);
}

// ((b - a) x (c - a)) . (d - a) is the 4x4 determinant of the rows (p, 1) negated; expanded
// along the ones it is det3(b,c,d) - det3(a,c,d) + det3(a,b,d) - det3(a,b,c), every term a
// product of three input floats, so the sum is exact.
int orient3d_exact(const Eigen::Vector3f& a, const Eigen::Vector3f& b, const Eigen::Vector3f& c, const Eigen::Vector3f& d) {
    Expansion e;
    add_det3(e, b, c, d, 1);
    add_det3(e, a, c, d, -1);
    add_det3(e, a, b, d, 1);
    add_det3(e, a, b, c, -1);
    return e.sign();
}

// The same determinant in double and a bound on its rounding error: differences of floats
// rounded once, then products and sums. 8e-15 of the permanent is ten times Shewchuk's bound
// for this evaluation order; below it, or for tiny magnitudes, the exact sum decides.
double orient3d_estimate(const Eigen::Vector3f& a, const Eigen::Vector3f& b, const Eigen::Vector3f& c, const Eigen::Vector3f& d,
                         double& bound) {
    const double bx = double(b.x()) - a.x(), by = double(b.y()) - a.y(), bz = double(b.z()) - a.z();
    const double cx = double(c.x()) - a.x(), cy = double(c.y()) - a.y(), cz = double(c.z()) - a.z();
    const double dx = double(d.x()) - a.x(), dy = double(d.y()) - a.y(), dz = double(d.z()) - a.z();
    const double nx = by * cz - bz * cy, ny = bz * cx - bx * cz, nz = bx * cy - by * cx;
    const double px = std::abs(by * cz) + std::abs(bz * cy), py = std::abs(bz * cx) + std::abs(bx * cz),
                 pz = std::abs(bx * cy) + std::abs(by * cx);
    bound = 8e-15 * (px * std::abs(dx) + py * std::abs(dy) + pz * std::abs(dz));
    return nx * dx + ny * dy + nz * dz;
}

constexpr double kTiny = 1e-250;  // below this the estimate's bound could itself underflow

#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
// A point's x, y, z in the low lanes, the fourth zero (eight bytes and four: no read past it).
__m128 load3(const Eigen::Vector3f& v) {
    return _mm_movelh_ps(_mm_loadl_pi(_mm_setzero_ps(), reinterpret_cast<const __m64*>(v.data())), _mm_load_ss(v.data() + 2));
}
#endif

// The difference b - a of two floats in double, and whether it is exact (its rounding error,
// by Knuth's two-sum, is zero): close floats differ exactly, far apart ones may not.
bool exact_difference(float b, float a, double& d) {
    d = double(b) - double(a);
    const double bv = d - b;
    const double av = d - bv;
    return (double(b) - av) + (-double(a) - bv) == 0;
}

// The exact sign from the nine differences when they are exact and their pairwise products are
// too (fewer than 54 bits: the usual case of a mesh's nearby points): six triple products, each
// the exact sum of two doubles, summed as an expansion. Returns 2 when the shortcut does not apply.
int orient3d_differences(const Eigen::Vector3f& a, const Eigen::Vector3f& b, const Eigen::Vector3f& c, const Eigen::Vector3f& d) {
    double u[3], v[3], w[3];
    for (int k = 0; k < 3; ++k)
        if (!exact_difference(b[k], a[k], u[k]) || !exact_difference(c[k], a[k], v[k]) || !exact_difference(d[k], a[k], w[k])) return 2;
    // u . (v x w) = sum of u_i v_j w_k over the permutations (i, j, k), signed.
    static constexpr int kPerm[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {1, 0, 2}, {2, 1, 0}};
    Expansion e;
    for (int p = 0; p < 6; ++p) {
        const double x = u[kPerm[p][0]], y = v[kPerm[p][1]], z = w[kPerm[p][2]];
        const double xy = x * y;
        if (std::fma(x, y, -xy) != 0) return 2;
        const double sign = p < 3 ? 1.0 : -1.0;
        const double hi = xy * z;
        const double lo = std::fma(xy, z, -hi);
        e.add(sign * lo);
        e.add(sign * hi);
    }
    return e.sign();
}

// The exact sign, for a caller whose own estimate did not decide: the differences' expansion,
// else the inputs' products.
int orient3d_exact_sign(const Eigen::Vector3f& a, const Eigen::Vector3f& b, const Eigen::Vector3f& c, const Eigen::Vector3f& d) {
    const int s = orient3d_differences(a, b, c, d);
    return s != 2 ? s : orient3d_exact(a, b, c, d);
}

int orient3d_sign(const Eigen::Vector3f& a, const Eigen::Vector3f& b, const Eigen::Vector3f& c, const Eigen::Vector3f& d) {
    double bound;
    const double v = orient3d_estimate(a, b, c, d, bound);
    if (bound > kTiny) {
        if (v > bound) return 1;
        if (v < -bound) return -1;
    }
    return orient3d_exact_sign(a, b, c, d);
}

// Whether the 2D determinant | u 1; v 1; w 1 | over coordinates i, j is exactly zero.
bool det2_zero(const Eigen::Vector3f& u, const Eigen::Vector3f& v, const Eigen::Vector3f& w, int i, int j) {
    // Each term is a product of two floats, exact in double.
    Expansion e;
    e.add(double(u[i]) * v[j]);
    e.add(-double(u[j]) * v[i]);
    e.add(double(v[i]) * w[j]);
    e.add(-double(v[j]) * w[i]);
    e.add(double(w[i]) * u[j]);
    e.add(-double(w[j]) * u[i]);
    return e.sign() == 0;
}

// Whether segment uv passes strictly through the inside of triangle q (its ends already known
// to be strictly on both sides of q's plane): the three tetrahedra over q's edges agree in sign.
//
// orient3d(u, v, q_j, q_k) = ((v - u) x (q_j - u)) . (q_k - u) = d . (A_j x A_k) with d = v - u
// and A_j = q_j - u, so the three signs share twelve differences instead of taking 27. The bound
// on the estimate d . (A_j x A_k), in units of u = 2^-53 and with gamma_n = n u / (1 - n u):
// - each difference of two floats is rounded once: d_i(1 + e), |e| <= u;
// - each of the six terms x y z of the determinant is then its exact value times (1 + e)^3,
//   and the evaluation (x y rounded, the two products' difference rounded, times z rounded,
//   the three components' sum rounded twice) multiplies it by at most five more such factors,
//   so the computed value is sum_t T_t (1 + theta_t), |theta_t| <= gamma_8, T_t the exact terms;
// - |error| <= gamma_8 sum_t |T_t| = gamma_8 P, and the permanent P computed from the same
//   rounded differences is at least P (1 - gamma_8) (a product and sum of absolute values, same
//   roundings), so the error is below 8u/(1 - 16u) P_computed < 1e-15 P_computed, eight times
//   under the 8e-15 P_computed used (orient3d_estimate's bound: the same terms, another order).
// Floats' differences stay below 2^129, their triple products below 2^387: no overflow; a
// product that underflows errs by at most 2^-1074, against a bound over kTiny = 1e-250. Where
// the bound does not decide, the exact expansion does: each sign is orient3d's.
struct DoubleEdge {
    const Eigen::Vector3f& u;
    const Eigen::Vector3f& v;
    const Eigen::Vector3f* q;
    double d0, d1, d2, a[3][3];
    DoubleEdge(const Eigen::Vector3f& u_, const Eigen::Vector3f& v_, const Eigen::Vector3f* q_) : u(u_), v(v_), q(q_) {
        d0 = double(v.x()) - u.x();
        d1 = double(v.y()) - u.y();
        d2 = double(v.z()) - u.z();
        for (int j = 0; j < 3; ++j)
            for (int k = 0; k < 3; ++k) a[j][k] = double(q[j][k]) - u[k];
    }
    // orient3d(u, v, q_j, q_k).
    int sign(int j, int k) const {
        const double* x = a[j];
        const double* y = a[k];
        const double c0 = x[1] * y[2] - x[2] * y[1], c1 = x[2] * y[0] - x[0] * y[2], c2 = x[0] * y[1] - x[1] * y[0];
        const double p0 = std::abs(x[1] * y[2]) + std::abs(x[2] * y[1]), p1 = std::abs(x[2] * y[0]) + std::abs(x[0] * y[2]),
                     p2 = std::abs(x[0] * y[1]) + std::abs(x[1] * y[0]);
        const double value = d0 * c0 + d1 * c1 + d2 * c2;
        const double bound = 8e-15 * (std::abs(d0) * p0 + std::abs(d1) * p1 + std::abs(d2) * p2);
        if (bound > kTiny) {
            if (value > bound) return 1;
            if (value < -bound) return -1;
        }
        return orient3d_exact_sign(u, v, q[j], q[k]);
    }
};

// pierces' rule on the three signs, sign i being orient3d(u, v, q_i, q_(i+1)): bits of pos and
// neg where already known, DoubleEdge for the rest, in the rule's order.
bool pierces_from(const Eigen::Vector3f& u, const Eigen::Vector3f& v, const Eigen::Vector3f* q, int pos, int neg) {
    const DoubleEdge e(u, v, q);
    auto sign = [&](int i) { return (pos >> i & 1) ? 1 : (neg >> i & 1) ? -1 : e.sign(i, (i + 1) % 3); };
    const int s0 = sign(0);
    if (s0 == 0) return false;
    if (sign(1) != s0) return false;
    return sign(2) == s0;
}

#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
__attribute__((noinline)) bool pierces_left(const Eigen::Vector3f& u, const Eigen::Vector3f& v, const Eigen::Vector3f* q, int pos, int neg) {
    return pierces_from(u, v, q, pos, neg);
}

// The three signs first in single precision, side by side in SSE lanes: d . (A_j x A_k) in
// float, evaluated in the order above (the same eight roundings a term, now of u = 2^-24), so
// gamma_8 < 4.8e-7 and 4e-6 of the computed permanent is eight times the error. As in
// plane_signs, products that underflow err by at most 2^-150 each, carried by d (at most 2^40,
// checked) to at most 2^-106 in all, below a bound over 2^-90 (checked); what overflows gives
// an infinite or NaN value or bound, which no compare passes. Signs the float bound leaves go to
// DoubleEdge, out of line.
bool pierces(const Eigen::Vector3f& u, const Eigen::Vector3f& v, const Eigen::Vector3f* q) {
    const __m128 o = load3(u);
    const __m128 d = _mm_sub_ps(load3(v), o);
    const __m128 a0 = _mm_sub_ps(load3(q[0]), o), a1 = _mm_sub_ps(load3(q[1]), o), a2 = _mm_sub_ps(load3(q[2]), o);
    const __m128 magnitude = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
    // x cross y, and the magnitudes of its two products summed.
    auto cross = [&](__m128 x, __m128 y, __m128& c, __m128& perm) {
        const __m128 l = _mm_mul_ps(_mm_shuffle_ps(x, x, _MM_SHUFFLE(3, 0, 2, 1)), _mm_shuffle_ps(y, y, _MM_SHUFFLE(3, 1, 0, 2)));
        const __m128 r = _mm_mul_ps(_mm_shuffle_ps(x, x, _MM_SHUFFLE(3, 1, 0, 2)), _mm_shuffle_ps(y, y, _MM_SHUFFLE(3, 0, 2, 1)));
        c = _mm_sub_ps(l, r);
        perm = _mm_add_ps(_mm_and_ps(l, magnitude), _mm_and_ps(r, magnitude));
    };
    __m128 c0, c1, c2, p0, p1, p2, c3 = _mm_setzero_ps(), p3 = _mm_setzero_ps();
    cross(a0, a1, c0, p0);
    cross(a1, a2, c1, p1);
    cross(a2, a0, c2, p2);
    // Transposed: lane i of each is sign i's component.
    _MM_TRANSPOSE4_PS(c0, c1, c2, c3);
    _MM_TRANSPOSE4_PS(p0, p1, p2, p3);
    const __m128 ad = _mm_and_ps(d, magnitude);
    const __m128 value = _mm_add_ps(_mm_add_ps(_mm_mul_ps(_mm_shuffle_ps(d, d, 0x00), c0), _mm_mul_ps(_mm_shuffle_ps(d, d, 0x55), c1)),
                                    _mm_mul_ps(_mm_shuffle_ps(d, d, 0xaa), c2));
    const __m128 bound = _mm_mul_ps(_mm_set1_ps(4e-6f), _mm_add_ps(_mm_add_ps(_mm_mul_ps(_mm_shuffle_ps(ad, ad, 0x00), p0),
                                                                              _mm_mul_ps(_mm_shuffle_ps(ad, ad, 0x55), p1)),
                                                                   _mm_mul_ps(_mm_shuffle_ps(ad, ad, 0xaa), p2)));
    int pos = 0, neg = 0;
    if (_mm_movemask_ps(_mm_cmple_ps(ad, _mm_set1_ps(0x1p40f))) == 0xf) {
        const __m128 usable = _mm_cmpgt_ps(bound, _mm_set1_ps(0x1p-90f));
        pos = _mm_movemask_ps(_mm_and_ps(usable, _mm_cmpgt_ps(value, bound))) & 7;
        neg = _mm_movemask_ps(_mm_and_ps(usable, _mm_cmplt_ps(value, _mm_xor_ps(bound, _mm_set1_ps(-0.0f))))) & 7;
    }
    if ((pos | neg) == 7) return pos == 7 || neg == 7;
    return pierces_left(u, v, q, pos, neg);
}
#else
bool pierces(const Eigen::Vector3f& u, const Eigen::Vector3f& v, const Eigen::Vector3f* q) { return pierces_from(u, v, q, 0, 0); }
#endif

// Whether an edge of p pierces q, given the signs of p's corners against q's plane.
bool edge_pierces(const Eigen::Vector3f* p, const int* s, const Eigen::Vector3f* q) {
    for (int i = 0; i < 3; ++i) {
        const int k = (i + 1) % 3;
        if (s[i] * s[k] < 0 && pierces(p[i], p[k], q)) return true;
    }
    return false;
}

// The crossing rule where no corner lies in the other triangle's plane (every sign of sp and sq
// nonzero, each triple mixed), from two orientations instead of edge_pierces' one to four edge
// tests of three. Then p meets q's plane in a segment E of the line L where the planes meet,
// between the points e_k where p's two edges from its lone corner a (the one whose sign the
// other two do not share) to a_k cross q's plane; q likewise meets p's plane in F, between
// f_k on q's edges from its lone corner b to b_k. An edge of p passes strictly inside q exactly
// when its e_k lies strictly between F's ends (q's boundary meets L only there), and so on for q:
// the pair crosses when an end of one segment lies strictly inside the other, that is when the
// open segments overlap and are not the same segment.
// Along L's direction d = n_p x n_q (n_p = (p1 - p0) x (p2 - p0), n_q likewise; not zero, since
// p straddles q's plane), with sigma and tau the distances along n_q and n_p that sp and sq sign:
// - orient3d(u, v, s, t) = det(v - u, f - e, t - s) for e on edge uv in q's plane and f on edge
//   st in p's plane (column steps), = (d . (f - e)) / |d|^2 (n_p . (t - s)) (n_q . (v - u)) by
//   Binet-Cauchy with n_p . (v - u) = 0. For u = a, v = a_k, s = b, t = b_m the last two factors
//   have the signs of sq[b_m] = -sq[b] and sp[a_k] = -sp[a], so d . (f_m - e_k) has the sign of
//   sp[a] sq[b] orient3d(a, a_k, b, b_m), and is zero exactly when the orientation is.
// - With a_1, a_2 the corners after a in p's order, n_p . ((e_1 - a) x (e_2 - e_1)) > 0 and
//   expanding d x n_p gives d . (e_2 - e_1) the sign of -sp[a]; for q, d x n_q turns the other
//   way: d . (f_2 - f_1) has the sign of sq[b]. That orders each segment's ends.
// Every sign is orient3d's, exact: the answer is edge_pierces', which the tests check on the same
// degenerate pairs (ends shared, segments equal, points a float off).
#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
// The signs of the four orientations segments_cross may take, orient3d(a, b_i, c, d_j) for
// (i, j) = (0, 0), (1, 1), (1, 0), (0, 1) in lanes 0 to 3, first in single precision side by
// side: bits of pos (positive) and neg (negative) where the float estimate decides. The estimate
// is orient3d_estimate's determinant in float, n = (b_i - a) x (c - a), then n . (d_j - a), the
// same evaluation as plane_signs' float filter (there t0 = a, t1 = b_i, t2 = c, x = d_j), so
// the same bound holds (its proof beside plane_signs_left): each term rounded at most eight
// times, 4e-6 of the computed permanent eight times the error, the third differences at most
// 2^40 and the bound over 2^-90 (both checked), and what overflows passes no compare.
void orient4_float(const Eigen::Vector3f& a, const Eigen::Vector3f& b0, const Eigen::Vector3f& b1, const Eigen::Vector3f& c,
                   const Eigen::Vector3f& d0, const Eigen::Vector3f& d1, int& pos, int& neg) {
    const __m128 o = load3(a);
    const __m128 e2 = _mm_sub_ps(load3(c), o);
    const __m128 magnitude = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
    // (b_i - a) x (c - a) and its permanent, as float_plane computes t's normal.
    auto normal = [&](const Eigen::Vector3f& b, __m128& n, __m128& perm) {
        const __m128 e1 = _mm_sub_ps(load3(b), o);
        const __m128 l = _mm_mul_ps(_mm_shuffle_ps(e1, e1, _MM_SHUFFLE(3, 0, 2, 1)), _mm_shuffle_ps(e2, e2, _MM_SHUFFLE(3, 1, 0, 2)));
        const __m128 r = _mm_mul_ps(_mm_shuffle_ps(e1, e1, _MM_SHUFFLE(3, 1, 0, 2)), _mm_shuffle_ps(e2, e2, _MM_SHUFFLE(3, 0, 2, 1)));
        n = _mm_sub_ps(l, r);
        perm = _mm_add_ps(_mm_and_ps(l, magnitude), _mm_and_ps(r, magnitude));
    };
    __m128 n0, p0, n1, p1;
    normal(b0, n0, p0);
    normal(b1, n1, p1);
    const __m128 f0 = _mm_sub_ps(load3(d0), o), f1 = _mm_sub_ps(load3(d1), o);
    // Transposed: lane k of nx, ny, nz (px, py, pz; x, y, z) is orientation k's.
    __m128 nx = n0, ny = n1, nz = n1, nw = n0;
    _MM_TRANSPOSE4_PS(nx, ny, nz, nw);
    __m128 px = p0, py = p1, pz = p1, pw = p0;
    _MM_TRANSPOSE4_PS(px, py, pz, pw);
    __m128 x = f0, y = f1, z = f0, w = f1;
    _MM_TRANSPOSE4_PS(x, y, z, w);
    const __m128 ax = _mm_and_ps(x, magnitude), ay = _mm_and_ps(y, magnitude), az = _mm_and_ps(z, magnitude);
    const __m128 v = _mm_add_ps(_mm_add_ps(_mm_mul_ps(nx, x), _mm_mul_ps(ny, y)), _mm_mul_ps(nz, z));
    const __m128 bound = _mm_mul_ps(_mm_set1_ps(4e-6f), _mm_add_ps(_mm_add_ps(_mm_mul_ps(px, ax), _mm_mul_ps(py, ay)), _mm_mul_ps(pz, az)));
    const __m128 usable = _mm_and_ps(_mm_cmpgt_ps(bound, _mm_set1_ps(0x1p-90f)),
                                     _mm_cmple_ps(_mm_max_ps(_mm_max_ps(ax, ay), az), _mm_set1_ps(0x1p40f)));
    pos = _mm_movemask_ps(_mm_and_ps(usable, _mm_cmpgt_ps(v, bound)));
    neg = _mm_movemask_ps(_mm_and_ps(usable, _mm_cmplt_ps(v, _mm_xor_ps(bound, _mm_set1_ps(-0.0f)))));
}
#endif

bool segments_cross(const Eigen::Vector3f* p, const int* sp, const Eigen::Vector3f* q, const int* sq) {
    const int a = sp[0] == sp[1] ? 2 : sp[0] == sp[2] ? 1 : 0;
    const int b = sq[0] == sq[1] ? 2 : sq[0] == sq[2] ? 1 : 0;
    const Eigen::Vector3f &pa = p[a], &qb = q[b];
    // The corners whose edges from a (from b) end the segment at its high and low end along d.
    const Eigen::Vector3f &e_hi = p[sp[a] < 0 ? (a + 2) % 3 : (a + 1) % 3], &e_lo = p[sp[a] < 0 ? (a + 1) % 3 : (a + 2) % 3];
    const Eigen::Vector3f &f_hi = q[sq[b] > 0 ? (b + 2) % 3 : (b + 1) % 3], &f_lo = q[sq[b] > 0 ? (b + 1) % 3 : (b + 2) % 3];
    const int rho = sp[a] * sq[b];
#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
    // The four orientations' float filter at once; orient3d_sign (double, then exact) for a sign
    // it leaves, only where the rule reaches it.
    int pos, neg;
    orient4_float(pa, e_hi, e_lo, qb, f_lo, f_hi, pos, neg);
    auto sign = [&](int k, const Eigen::Vector3f& e, const Eigen::Vector3f& f) {
        return (pos >> k & 1) ? 1 : (neg >> k & 1) ? -1 : orient3d_sign(pa, e, qb, f);
    };
#else
    auto sign = [&](int, const Eigen::Vector3f& e, const Eigen::Vector3f& f) { return orient3d_sign(pa, e, qb, f); };
#endif
    if (rho * sign(0, e_hi, f_lo) >= 0) return false;  // F's low end not below E's high end
    if (rho * sign(1, e_lo, f_hi) <= 0) return false;  // E's low end not below F's high end
    return sign(2, e_lo, f_lo) != 0 || sign(3, e_hi, f_hi) != 0;
}

// Whether an edge of p passes strictly through q or one of q through p, given each triangle's
// corners' signs against the other's plane (neither all of one sign or zero).
bool edges_cross(const Eigen::Vector3f* p, const int* sp, const Eigen::Vector3f* q, const int* sq) {
    if (sp[0] != 0 && sp[1] != 0 && sp[2] != 0 && sq[0] != 0 && sq[1] != 0 && sq[2] != 0) return segments_cross(p, sp, q, sq);
    return edge_pierces(p, sp, q) || edge_pierces(q, sq, p);
}

// Whether the signs leave the triangle wholly on one side of the plane (or in it).
bool one_side(const int* s) {
    return (s[0] >= 0 && s[1] >= 0 && s[2] >= 0) || (s[0] <= 0 && s[1] <= 0 && s[2] <= 0);
}

// The ends of the segment where triangle p meets the plane of q, as positions along `dir`.
bool plane_interval(const Eigen::Vector3f* p, const Eigen::Vector3d& n, const Eigen::Vector3d& origin, const Eigen::Vector3d& dir,
                    double& lo, double& hi) {
    double dist[3];
    Eigen::Vector3d pd[3];
    for (int i = 0; i < 3; ++i) {
        pd[i] = p[i].cast<double>();
        dist[i] = n.dot(pd[i] - origin);
    }
    lo = std::numeric_limits<double>::infinity();
    hi = -lo;
    for (int i = 0; i < 3; ++i) {
        if (dist[i] == 0) {
            const double t = dir.dot(pd[i]);
            lo = std::min(lo, t);
            hi = std::max(hi, t);
        }
        const int k = (i + 1) % 3;
        if ((dist[i] < 0 && dist[k] > 0) || (dist[i] > 0 && dist[k] < 0)) {
            const Eigen::Vector3d x = pd[i] + (pd[k] - pd[i]) * (dist[i] / (dist[i] - dist[k]));
            const double t = dir.dot(x);
            lo = std::min(lo, t);
            hi = std::max(hi, t);
        }
    }
    return lo <= hi;
}

}  // namespace

int orient3d(const Eigen::Vector3f& a, const Eigen::Vector3f& b, const Eigen::Vector3f& c, const Eigen::Vector3f& d) {
    return orient3d_sign(a, b, c, d);
}

bool collinear(const Eigen::Vector3f& a, const Eigen::Vector3f& b, const Eigen::Vector3f& c) {
    // (b - a) x (c - a) = 0 exactly: each component is a 2D determinant of the three points.
    return det2_zero(a, b, c, 1, 2) && det2_zero(a, b, c, 2, 0) && det2_zero(a, b, c, 0, 1);
}

namespace {

// The sign of orient3d(t0, t1, t2, x) by the double estimate of t's plane (normal and bound
// factors computed once), the exact predicate where the estimate is within its bound.
struct DoublePlane {
    double x0, y0, z0, nx, ny, nz, px, py, pz;
    explicit DoublePlane(const Eigen::Vector3f* t) : x0(t[0].x()), y0(t[0].y()), z0(t[0].z()) {
        const double bx = double(t[1].x()) - x0, by = double(t[1].y()) - y0, bz = double(t[1].z()) - z0;
        const double cx = double(t[2].x()) - x0, cy = double(t[2].y()) - y0, cz = double(t[2].z()) - z0;
        nx = by * cz - bz * cy;
        ny = bz * cx - bx * cz;
        nz = bx * cy - by * cx;
        px = std::abs(by * cz) + std::abs(bz * cy);
        py = std::abs(bz * cx) + std::abs(bx * cz);
        pz = std::abs(bx * cy) + std::abs(by * cx);
    }
    int sign(const Eigen::Vector3f* t, const Eigen::Vector3f& x) const {
        const double dx = double(x.x()) - x0, dy = double(x.y()) - y0, dz = double(x.z()) - z0;
        const double v = nx * dx + ny * dy + nz * dz;
        const double bound = 8e-15 * (px * std::abs(dx) + py * std::abs(dy) + pz * std::abs(dz));
        if (bound > kTiny && v > bound) return 1;
        if (bound > kTiny && v < -bound) return -1;
        return orient3d_sign(t[0], t[1], t[2], x);
    }
};

#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)

// The signs of orient3d(t0, t1, t2, x) for the three corners x of `p`, first in single
// precision with the three corners side by side in SSE lanes (most pairs are decided here),
// then DoublePlane for the corners left. The estimate is the determinant evaluated as in
// orient3d_estimate, in float: n = (t1 - t0) x (t2 - t0), then n . (x - t0).
// Why its bound holds (u = 2^-24): each of the determinant's six terms, a product of three
// differences, is rounded at most eight times (three differences, the two factors' product, the
// two products' difference, the product with the third difference, two sums), so the estimate
// errs by at most gamma_8 = 8u/(1 - 8u) < 4.8e-7 of the terms' magnitudes summed, which the
// permanent computed from the same rounded values underestimates by at most a factor 1 - gamma_8:
// 4e-6 of the computed permanent is eight times the error, as for the double estimate. Products
// that underflow err by at most 2^-150 each, which the third difference (at most 2^40, checked)
// carries to at most 2^-106 in all, far below a bound over 2^-90 (checked). A difference or
// product that overflows gives an infinite or NaN estimate or bound, which no compare passes.
// plane_signs' corners that the float estimate left (bits of pos and neg clear), by DoublePlane:
// out of line, so the usual path saves no registers for it.
__attribute__((noinline)) void plane_signs_left(const Eigen::Vector3f* t, const Eigen::Vector3f* p, int pos, int neg, int* s) {
    const DoublePlane plane(t);
    for (int i = 0; i < 3; ++i) s[i] = (pos >> i & 1) ? 1 : (neg >> i & 1) ? -1 : plane.sign(t, p[i]);
}

// t's plane for the float filter: its first corner, and the normal's x, y, z and its
// permanent's, each in four lanes. The same operations wherever it is set up, so the same floats.
struct FloatPlane {
    __m128 t0, n[3], perm[3];
};

inline FloatPlane float_plane(const Eigen::Vector3f* t) {
    FloatPlane f;
    f.t0 = load3(t[0]);
    const __m128 e1 = _mm_sub_ps(load3(t[1]), f.t0), e2 = _mm_sub_ps(load3(t[2]), f.t0);
    const __m128 a = _mm_mul_ps(_mm_shuffle_ps(e1, e1, _MM_SHUFFLE(3, 0, 2, 1)), _mm_shuffle_ps(e2, e2, _MM_SHUFFLE(3, 1, 0, 2)));
    const __m128 b = _mm_mul_ps(_mm_shuffle_ps(e1, e1, _MM_SHUFFLE(3, 1, 0, 2)), _mm_shuffle_ps(e2, e2, _MM_SHUFFLE(3, 0, 2, 1)));
    const __m128 magnitude = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
    const __m128 n = _mm_sub_ps(a, b);
    const __m128 perm = _mm_add_ps(_mm_and_ps(a, magnitude), _mm_and_ps(b, magnitude));
    f.n[0] = _mm_shuffle_ps(n, n, 0x00);
    f.n[1] = _mm_shuffle_ps(n, n, 0x55);
    f.n[2] = _mm_shuffle_ps(n, n, 0xaa);
    f.perm[0] = _mm_shuffle_ps(perm, perm, 0x00);
    f.perm[1] = _mm_shuffle_ps(perm, perm, 0x55);
    f.perm[2] = _mm_shuffle_ps(perm, perm, 0xaa);
    return f;
}

// The corners of p that the float estimate puts strictly above the plane (bits of pos) and
// below it (bits of neg); a corner in neither is left to the double estimate.
inline void float_signs(const FloatPlane& f, const Eigen::Vector3f* p, int& pos, int& neg) {
    const __m128 magnitude = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
    // The corners' differences, transposed: lane i of x, y, z is corner i's.
    __m128 x = _mm_sub_ps(load3(p[0]), f.t0), y = _mm_sub_ps(load3(p[1]), f.t0), z = _mm_sub_ps(load3(p[2]), f.t0), w = _mm_setzero_ps();
    _MM_TRANSPOSE4_PS(x, y, z, w);
    const __m128 ax = _mm_and_ps(x, magnitude), ay = _mm_and_ps(y, magnitude), az = _mm_and_ps(z, magnitude);
    const __m128 v = _mm_add_ps(_mm_add_ps(_mm_mul_ps(f.n[0], x), _mm_mul_ps(f.n[1], y)), _mm_mul_ps(f.n[2], z));
    const __m128 bound = _mm_mul_ps(_mm_set1_ps(4e-6f), _mm_add_ps(_mm_add_ps(_mm_mul_ps(f.perm[0], ax), _mm_mul_ps(f.perm[1], ay)),
                                                                   _mm_mul_ps(f.perm[2], az)));
    const __m128 usable = _mm_and_ps(_mm_cmpgt_ps(bound, _mm_set1_ps(0x1p-90f)),
                                     _mm_cmple_ps(_mm_max_ps(_mm_max_ps(ax, ay), az), _mm_set1_ps(0x1p40f)));
    pos = _mm_movemask_ps(_mm_and_ps(usable, _mm_cmpgt_ps(v, bound)));
    neg = _mm_movemask_ps(_mm_and_ps(usable, _mm_cmplt_ps(v, _mm_xor_ps(bound, _mm_set1_ps(-0.0f)))));
}

void plane_signs(const Eigen::Vector3f* t, const Eigen::Vector3f* p, int* s) {
    int pos, neg;
    float_signs(float_plane(t), p, pos, neg);
    if (((pos | neg) & 7) == 7) {
        for (int i = 0; i < 3; ++i) s[i] = (pos >> i & 1) - (neg >> i & 1);
        return;
    }
    plane_signs_left(t, p, pos, neg, s);
}
#else
// The signs of orient3d(t0, t1, t2, x) for the three corners x of `p` (DoublePlane).
void plane_signs(const Eigen::Vector3f* t, const Eigen::Vector3f* p, int* s) {
    const DoublePlane plane(t);
    for (int i = 0; i < 3; ++i) s[i] = plane.sign(t, p[i]);
}
#endif

}  // namespace

void orient3d_signs(const Eigen::Vector3f* t, const Eigen::Vector3f* p, int* s) { plane_signs(t, p, s); }

bool line_through(const Eigen::Vector3f& u, const Eigen::Vector3f& v, const Eigen::Vector3f* q) { return pierces(u, v, q); }

bool triangles_cross(const Eigen::Vector3f* p, const Eigen::Vector3f* q) {
    int sp[3], sq[3];
    plane_signs(q, p, sp);
    if (one_side(sp)) return false;  // apart, touching q's plane, or coplanar
    plane_signs(p, q, sq);
    if (one_side(sq)) return false;
    return edges_cross(p, sp, q, sq);
}

CrossingTriangle::CrossingTriangle(const Eigen::Vector3f* p) : p_{p[0], p[1], p[2]} {
#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
    // plane_signs' set-up, kept.
    const FloatPlane f = float_plane(p);
    _mm_store_ps(plane_[0], f.t0);
    for (int k = 0; k < 3; ++k) {
        _mm_store_ps(plane_[1 + k], f.n[k]);
        _mm_store_ps(plane_[4 + k], f.perm[k]);
    }
#endif
}

bool CrossingTriangle::crosses(const Eigen::Vector3f* q) const {
    int sp[3], sq[3];
    // q's corners against p's plane first, from the kept set-up (plane_signs' float filter and
    // bound, then its DoublePlane for corners left); then as triangles_cross. Each sign is
    // exact, so the order of the two plane tests does not change the answer.
#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
    FloatPlane f;
    f.t0 = _mm_load_ps(plane_[0]);
    for (int k = 0; k < 3; ++k) {
        f.n[k] = _mm_load_ps(plane_[1 + k]);
        f.perm[k] = _mm_load_ps(plane_[4 + k]);
    }
    int pos, neg;
    float_signs(f, q, pos, neg);
    if (((pos | neg) & 7) == 7) {
        // Every sign decided, none zero: one side is all three of one sign (most pairs end here).
        if ((pos & 7) == 7 || (neg & 7) == 7) return false;
        for (int i = 0; i < 3; ++i) sq[i] = (pos >> i & 1) - (neg >> i & 1);
    } else {
        plane_signs_left(p_, q, pos, neg, sq);
        if (one_side(sq)) return false;
    }
#else
    plane_signs(p_, q, sq);
    if (one_side(sq)) return false;
#endif
    plane_signs(q, p_, sp);
    if (one_side(sp)) return false;
    return edges_cross(p_, sp, q, sq);
}

double crossing_length(const Eigen::Vector3f* p, const Eigen::Vector3f* q) {
    const Eigen::Vector3d p0 = p[0].cast<double>(), q0 = q[0].cast<double>();
    const Eigen::Vector3d np = (p[1].cast<double>() - p0).cross(p[2].cast<double>() - p0);
    const Eigen::Vector3d nq = (q[1].cast<double>() - q0).cross(q[2].cast<double>() - q0);
    const Eigen::Vector3d dir = np.cross(nq);
    const double norm = dir.norm();
    if (!(norm > 0)) return 0;  // planes parallel in double: a crossing too shallow to measure
    double alo, ahi, blo, bhi;
    if (!plane_interval(p, nq, q0, dir, alo, ahi) || !plane_interval(q, np, p0, dir, blo, bhi)) return 0;
    const double overlap = std::min(ahi, bhi) - std::max(alo, blo);
    return overlap > 0 ? overlap / norm : 0;
}

}  // namespace rigscope
