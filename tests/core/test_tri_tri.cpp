// triangles_cross and CrossingTriangle (src/core/tri_tri.cpp) against the same rule written with nothing but the
// exact orient3d, predicate by predicate: the crossing test's own estimates (the shared plane
// of plane_signs, the shared differences of pierces) must never decide a sign that orient3d
// would not. Cases where rounding matters most: corners on or one float off the other's plane
// or edge, shared corners, near-coplanar pairs, scaled from 2^-60 to 2^60 and moved far from
// the origin, where the differences of floats round in double.
#include <catch2/catch.hpp>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cmath>
#include <random>

#include "rigscope/core/tri_tri.h"

namespace {

using rigscope::orient3d;
using V = Eigen::Vector3f;

// The header's rule from orient3d alone: an edge of one triangle with its ends strictly on both
// sides of the other's plane and the three tetrahedra over the other's edges of one sign.
bool edge_through(const V& u, const V& v, const V* t) {
    const int s0 = orient3d(u, v, t[0], t[1]);
    return s0 != 0 && orient3d(u, v, t[1], t[2]) == s0 && orient3d(u, v, t[2], t[0]) == s0;
}

bool reference_cross(const V* p, const V* q) {
    int sp[3], sq[3];
    for (int i = 0; i < 3; ++i) {
        sp[i] = orient3d(q[0], q[1], q[2], p[i]);
        sq[i] = orient3d(p[0], p[1], p[2], q[i]);
    }
    auto one_side = [](const int* s) { return (s[0] >= 0 && s[1] >= 0 && s[2] >= 0) || (s[0] <= 0 && s[1] <= 0 && s[2] <= 0); };
    if (one_side(sp) || one_side(sq)) return false;
    for (int i = 0; i < 3; ++i) {
        const int k = (i + 1) % 3;
        if (sp[i] * sp[k] < 0 && edge_through(p[i], p[k], q)) return true;
        if (sq[i] * sq[k] < 0 && edge_through(q[i], q[k], p)) return true;
    }
    return false;
}

// A point of triangle t's plane by barycentric weights, rounded to float: on it or a float off.
V on_plane(const V* t, float a, float b) { return t[0] + a * (t[1] - t[0]) + b * (t[2] - t[0]); }

V nudge(const V& x, std::mt19937& rng) {
    std::uniform_int_distribution<int> step(-2, 2);
    V y = x;
    for (int k = 0; k < 3; ++k)
        for (int s = step(rng); s != 0; s += s > 0 ? -1 : 1)
            y[k] = std::nextafter(y[k], s > 0 ? INFINITY : -INFINITY);
    return y;
}

bool zero_area(const V* t) { return rigscope::collinear(t[0], t[1], t[2]); }

}  // namespace

TEST_CASE("tri_tri: triangles_cross and CrossingTriangle decide as orient3d does, on random, touching and near-coplanar pairs", "[intersect]") {
    std::mt19937 rng(59);
    std::uniform_real_distribution<float> unit(-1.f, 1.f), weight(-0.5f, 1.5f);
    std::uniform_int_distribution<int> kind(0, 7), exponent(-60, 60), far(0, 3);
    long cases = 0, crossings = 0, by_kind[8] = {};
    for (int n = 0; n < 1500000; ++n) {
        V p[3], q[3];
        for (V& x : p) x = V(unit(rng), unit(rng), unit(rng));
        const int k = kind(rng);
        for (V& x : q) x = V(unit(rng), unit(rng), unit(rng));
        switch (k) {
        case 0: break;  // generic
        case 1:         // q's corners on p's plane, or a float or two off it
            for (V& x : q) x = nudge(on_plane(p, weight(rng), weight(rng)), rng);
            q[0] += V(0, 0, unit(rng));  // one corner off the plane, so q is not in it
            break;
        case 2:  // two corners of q on p's plane, rounded: the edge between lies nearly in it
            q[0] = on_plane(p, weight(rng), weight(rng));
            q[1] = nudge(on_plane(p, weight(rng), weight(rng)), rng);
            break;
        case 3:  // a shared corner, and q's edge through p's edge, nearly
            q[0] = p[0];
            q[1] = nudge(p[1] + unit(rng) * (p[2] - p[1]) * 0.5f + (p[2] - p[1]) * 0.5f, rng);
            break;
        case 4: {  // q's edge through a point of p's edge: the piercing point on the boundary
            const V m = nudge(p[1] + (0.5f + 0.5f * unit(rng)) * (p[2] - p[1]), rng);
            const V dir(unit(rng), unit(rng), unit(rng));
            q[1] = m + dir;
            q[2] = nudge(m - (0.5f + 0.5f * std::abs(unit(rng))) * dir, rng);
            break;
        }
        case 5:  // q's edge through p's corner
            q[0] = nudge(p[0] + (p[0] - q[2]) * (0.5f + 0.5f * std::abs(unit(rng))), rng);
            break;
        case 6: case 7: {
            // Integers below 2^23 (floats exactly), so a corner or an edge goes exactly through
            // the other's edge or plane, and the triple products (up to 2^72) round in double:
            // a zero determinant whose estimate need not be zero.
            std::uniform_int_distribution<int> big(-(1 << 20), 1 << 20), small(-2, 2);
            auto lattice = [&](int x, int y, int z) { return V(float(x), float(y), float(z)); };
            const Eigen::Vector3i a(big(rng), big(rng), big(rng)), e1(big(rng), big(rng), big(rng)), e2(big(rng), big(rng), big(rng));
            p[0] = lattice(a.x(), a.y(), a.z());
            p[1] = lattice(a.x() + 2 * e1.x(), a.y() + 2 * e1.y(), a.z() + 2 * e1.z());
            p[2] = lattice(a.x() + 2 * e2.x(), a.y() + 2 * e2.y(), a.z() + 2 * e2.z());
            const Eigen::Vector3i m = a + e1 + e2;  // the midpoint of p's edge p1 p2
            const Eigen::Vector3i dir(big(rng), big(rng), big(rng));
            if (k == 6) {  // q's edge through that midpoint, q's third corner anywhere
                q[0] = lattice(m.x() + dir.x(), m.y() + dir.y(), m.z() + dir.z());
                q[1] = lattice(m.x() - dir.x(), m.y() - dir.y(), m.z() - dir.z());
                q[2] = lattice(big(rng) * 2, big(rng) * 2, big(rng) * 2);
            } else {  // q's corners on p's plane (integer combinations), or one unit off
                for (V& x : q) {
                    const Eigen::Vector3i c = a + small(rng) * e1 + small(rng) * e2 + Eigen::Vector3i(small(rng) / 2, 0, small(rng) / 2);
                    x = lattice(c.x(), c.y(), c.z());
                }
            }
            break;
        }
        }
        // Scaled by a power of two (exact), then perhaps moved far off, where differences round.
        const float scale = std::ldexp(1.f, exponent(rng) - (k < 6 ? 0 : 20));
        const float offsets[4] = {0.f, 3.f, 1e4f, 1e7f};
        const V offset = V(unit(rng), unit(rng), unit(rng)) * (k < 6 ? offsets[far(rng)] : 0.f) * scale;
        for (V& x : p) x = x * scale + offset;
        for (V& x : q) x = x * scale + offset;
        if (zero_area(p) || zero_area(q)) continue;  // the engine skips these before the test
        const bool expected = reference_cross(p, q);
        REQUIRE(rigscope::triangles_cross(p, q) == expected);
        REQUIRE(rigscope::triangles_cross(q, p) == expected);
        // The engine's form: one triangle's plane set up once, against the other.
        REQUIRE(rigscope::CrossingTriangle(p).crosses(q) == expected);
        REQUIRE(rigscope::CrossingTriangle(q).crosses(p) == expected);
        ++cases;
        crossings += expected;
        by_kind[k] += expected;
    }
    CHECK(cases > 1400000);
    CHECK(crossings > 100000);
    for (long c : by_kind) CHECK(c > 1000);
    CHECK(by_kind[6] > 10000);
}

TEST_CASE("tri_tri: orient3d_signs is orient3d, down to products that underflow and up to ones that overflow in float", "[intersect]") {
    // A small lattice triangle a, a + u, a + v and points on its plane as far as 2^16 times its
    // size (a + (i u + j v) 2^s), or one unit off it: integers below 2^24, floats exactly. All
    // scaled by 2^e from 2^-126 to 2^100, so that the float estimate's triple products go from
    // underflowing to subnormals (about 2^-60) to overflowing (about 2^32); the sign is that of
    // the integer determinant, which a power-of-two scale does not change. One case in four puts
    // the triangle through the origin (a = 0) and its points up to 2^180 times farther out (to
    // 2^100), each scaled on its own: a tiny triangle's products round as subnormals while a far
    // point's difference is huge, which the float estimate must leave to the exact test.
    std::mt19937 rng(59);
    std::uniform_int_distribution<int> small(-8, 8), shift(0, 16), exponent(-126, 100), off(0, 5), mode(0, 3), farther(0, 180), tiny(-80, -70);
    using I = Eigen::Matrix<std::int64_t, 3, 1>;
    long cases = 0, zeros = 0;
    for (int n = 0; n < 600000; ++n) {
        const bool origin = mode(rng) == 0;
        const I a = origin ? I(0, 0, 0) : I(small(rng), small(rng), small(rng));
        const I u(small(rng), small(rng), small(rng)), v(small(rng), small(rng), small(rng));
        // Through the origin, half the time a triangle so small that its products round as subnormals.
        const int e = origin && mode(rng) < 2 ? tiny(rng) : exponent(rng);
        auto f = [](const I& x, int e) { return V(std::ldexp(float(x.x()), e), std::ldexp(float(x.y()), e), std::ldexp(float(x.z()), e)); };
        const V t[3] = {f(a, e), f(a + u, e), f(a + v, e)};
        I q[3];
        V p[3];
        for (int k = 0; k < 3; ++k) {
            q[k] = a + (small(rng) * u + small(rng) * v) * (std::int64_t(1) << (origin ? 0 : shift(rng)));
            const int o = off(rng);
            if (o < 3) q[k][o] += small(rng) < 0 ? -1 : 1;  // one unit off the plane, or on it
            p[k] = f(q[k], origin ? std::min(e + farther(rng), 100) : e);
        }
        int s[3];
        rigscope::orient3d_signs(t, p, s);
        for (int k = 0; k < 3; ++k) {
            // (u x v) . (q - a), |d| < 2^34: a positive power-of-two factor on q when a = 0.
            const std::int64_t d = u.cross(v).dot(q[k] - a);
            const int expected = (d > 0) - (d < 0);
            REQUIRE(s[k] == expected);
            REQUIRE(orient3d(t[0], t[1], t[2], p[k]) == expected);
            zeros += expected == 0;
        }
        ++cases;
    }
    CHECK(zeros > 100000);
    CHECK(cases == 600000);
}

TEST_CASE("tri_tri: line_through is orient3d's rule, down to products that underflow and up to ones that overflow in float", "[intersect]") {
    // A small lattice triangle (corners 2a, 2a + 2U, 2a + 2V) and a line through a point of its
    // plane on an edge, a corner, inside or outside (2a + iU + jV), in a lattice direction, ends
    // up to 2^16 direction steps away, perhaps one unit off: all scaled by 2^e from 2^-126 to
    // 2^100. One case in four: a triangle at the origin so small (2^-80 to 2^-70) that its
    // differences' products round as subnormals, one end of the line a few units from it, the
    // other up to 2^180 times farther (to 2^100): the float estimate must leave such signs to the
    // exact test. The rule from orient3d alone, which is exact.
    std::mt19937 rng(59);
    std::uniform_int_distribution<int> small(-8, 8), step(-1, 3), shift(0, 16), exponent(-126, 100), mode(0, 3), farther(0, 180), tiny(-80, -70),
        off(0, 5);
    using I = Eigen::Matrix<std::int64_t, 3, 1>;
    auto f = [](const I& x, int e) { return V(std::ldexp(float(x.x()), e), std::ldexp(float(x.y()), e), std::ldexp(float(x.z()), e)); };
    long through = 0, zeros = 0;
    for (int n = 0; n < 600000; ++n) {
        const I U(small(rng), small(rng), small(rng)), W(small(rng), small(rng), small(rng)), dir(small(rng), small(rng), small(rng));
        V q[3], u, v;
        if (mode(rng) != 0) {
            const I a(small(rng), small(rng), small(rng));
            const int e = exponent(rng);
            q[0] = f(2 * a, e);
            q[1] = f(2 * a + 2 * U, e);
            q[2] = f(2 * a + 2 * W, e);
            const I m = 2 * a + step(rng) * U + step(rng) * W;
            I x = m + dir * (std::int64_t(1) << shift(rng)), y = m - dir * (std::int64_t(1) << shift(rng));
            const int o = off(rng);
            if (o < 3) y[o] += small(rng) < 0 ? -1 : 1;
            u = f(x, e);
            v = f(y, e);
        } else {
            const int e = tiny(rng);
            q[0] = V(0, 0, 0);
            q[1] = f(U, e);
            q[2] = f(W, e);
            u = f(step(rng) * U + step(rng) * W + dir, e);
            v = f(I(small(rng), small(rng), small(rng)), std::min(e + farther(rng), 100));
        }
        const int s0 = orient3d(u, v, q[0], q[1]);
        const bool expected = s0 != 0 && orient3d(u, v, q[1], q[2]) == s0 && orient3d(u, v, q[2], q[0]) == s0;
        REQUIRE(rigscope::line_through(u, v, q) == expected);
        through += expected;
        zeros += s0 == 0;
    }
    CHECK(through > 10000);
    CHECK(zeros > 10000);
}

TEST_CASE("tri_tri: pairs whose segments on the planes' line share an end or are the same segment decide as orient3d does", "[intersect]") {
    // p in the plane y = 0 and q in z = 0, each straddling the other's plane, so each meets the
    // x axis in a segment: p's from -1/2 to 1/2, q's from shift - w to shift + w. With w = 1/2,
    // shifts of 0 (the same segment: edges meet edges, nothing passes strictly inside), 1 and -1
    // (the segments touch end to end), 1/4 and -3/4 (overlapping, no end shared) and 3/2 (apart);
    // with w = 1, shifts of 1/2 and -1/2 share one end and overlap. All exact in float; then q
    // tilted about the x axis and both scaled and moved by powers of two. Every corner order of
    // both, both ways round, against reference_cross.
    const float shifts[] = {-1.5f, -1.f, -0.75f, -0.5f, -0.25f, 0.f, 0.25f, 0.5f, 1.f, 1.5f};
    long crossing = 0, apart = 0;
    for (float w : {0.5f, 1.f})
        for (float shift : shifts)
            for (int tilt = 0; tilt < 3; ++tilt)
                for (int e = -20; e <= 20; e += 10) {
                    const float scale = std::ldexp(1.f, e), offset = tilt == 2 ? std::ldexp(1.f, e + 3) : 0.f;
                    const float lift = tilt == 0 ? 0.f : 0.5f;  // q's lone corner out of z = 0 (its edges still meet y = 0 on the axis)
                    const V p0[3] = {V(0, 0, 1), V(-1, 0, -1), V(1, 0, -1)};
                    const V q0[3] = {V(shift, 1, lift), V(shift - 2 * w, -1, -lift), V(shift + 2 * w, -1, -lift)};
                    for (int rp = 0; rp < 6; ++rp)
                        for (int rq = 0; rq < 6; ++rq) {
                            V p[3], q[3];
                            for (int i = 0; i < 3; ++i) {
                                // Rotations, then the same reflected (corners in the other order).
                                const int ip = rp < 3 ? (i + rp) % 3 : (rp - i + 3) % 3, iq = rq < 3 ? (i + rq) % 3 : (rq - i + 3) % 3;
                                p[i] = (p0[ip] + V(offset, offset, offset)) * scale;
                                q[i] = (q0[iq] + V(offset, offset, offset)) * scale;
                            }
                            const bool expected = reference_cross(p, q);
                            REQUIRE(rigscope::triangles_cross(p, q) == expected);
                            REQUIRE(rigscope::triangles_cross(q, p) == expected);
                            REQUIRE(rigscope::CrossingTriangle(p).crosses(q) == expected);
                            REQUIRE(rigscope::CrossingTriangle(q).crosses(p) == expected);
                            (expected ? crossing : apart) += 1;
                        }
                }
    CHECK(crossing > 1000);
    CHECK(apart > 1000);
}
