// The patch test that lets intersect skip a BVH node's self-test (src/core/intersect_patch.h): a
// node is skipped when its triangles all face one axis (proved) and its boundary, seen along it,
// is a star winding once. Each part is held to something computed here: the facing bits to
// exact integer determinants, the boundary chains' merge to the chain of the union, and the
// engine's pairs to a brute-force test of every triangle pair on made surfaces that face one
// axis everywhere and still pass through themselves (so that a patch test missing its winding
// or its star check would skip them and lose their pairs), and on smooth ones it must accept.
#include <catch2/catch.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "core/intersect_patch.h"
#include "intersect_oracle.h"
#include "rigscope/core/intersect.h"
#include "rigscope/core/parallel.h"

using namespace rigscope;

namespace {

using Pairs = std::set<std::pair<std::uint32_t, std::uint32_t>>;

// A mesh of triangles from a grid of points p(i, j), 0 <= i <= n, 0 <= j <= m, each cell split
// in two with the cell's corners in counter-clockwise order of (i, j).
template <typename Point>
Mesh grid_mesh(int n, int m, Point p) {
    Mesh mesh;
    mesh.name = "patch";
    for (int i = 0; i <= n; ++i)
        for (int j = 0; j <= m; ++j) mesh.positions.push_back(p(i, j));
    auto at = [&](int i, int j) { return static_cast<std::uint32_t>(i * (m + 1) + j); };
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < m; ++j) {
            for (auto t : {std::array<std::uint32_t, 3>{at(i, j), at(i + 1, j), at(i + 1, j + 1)},
                           std::array<std::uint32_t, 3>{at(i, j), at(i + 1, j + 1), at(i, j + 1)}}) {
                mesh.face_indices.insert(mesh.face_indices.end(), t.begin(), t.end());
                mesh.face_offsets.push_back(static_cast<std::uint32_t>(mesh.face_indices.size()));
            }
        }
    return mesh;
}

// Every pair of triangles sharing no vertex (the made meshes weld nothing: no two vertices
// are near) that tests/intersect_oracle.h's two oracles say cross (the meshes are jittered so
// that no pair is within rounding of touching, where the oracles would not be the rule).
Pairs oracle_pairs(const Mesh& m) {
    Pairs out;
    const std::size_t n = m.face_count();
    for (std::uint32_t a = 0; a < n; ++a)
        for (std::uint32_t b = a + 1; b < n; ++b) {
            const std::uint32_t* fa = &m.face_indices[3 * a];
            const std::uint32_t* fb = &m.face_indices[3 * b];
            bool share = false;
            for (int i = 0; i < 3; ++i)
                for (int k = 0; k < 3; ++k) share = share || fa[i] == fb[k];
            if (share) continue;
            rigscope_test::V p[3], q[3];
            for (int i = 0; i < 3; ++i) {
                p[i] = m.positions[fa[i]].cast<double>();
                q[i] = m.positions[fb[i]].cast<double>();
            }
            const bool brute = rigscope_test::brute_cross(p, q);
            REQUIRE(brute == rigscope_test::edges_cross(p, q));  // generic: the two oracles agree
            if (brute) out.insert({a, b});
        }
    return out;
}

Pairs engine_pairs(const Mesh& m, unsigned threads) {
    Scene scene;
    scene.meshes.push_back(m);
    ThreadPool pool(threads);
    IntersectEngine engine(scene, {0}, true, &pool);
    IntersectFrame f;
    engine.evaluate({m.positions}, &pool, f);
    Pairs out;
    for (const FacePair& p : f.pairs) out.insert({p.face_a, p.face_b});
    return out;
}

// The facing mask every triangle of m has in common, by both of the product's filters.
std::uint32_t common_facing(const Mesh& m) {
    std::uint32_t all = patch::kAllAxes;
    for (std::size_t f = 0; f < m.face_count(); ++f) {
        const std::uint32_t* c = &m.face_indices[3 * f];
        all &= patch::facing(m.positions[c[0]], m.positions[c[1]], m.positions[c[2]]);
#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
        auto load = [](const Eigen::Vector3f& v) { return _mm_setr_ps(v.x(), v.y(), v.z(), 0.f); };
        all &= patch::facing_mask(load(m.positions[c[0]]), load(m.positions[c[1]]), load(m.positions[c[2]]));
#endif
    }
    return all;
}

std::vector<patch::Edge> rim_of(const Mesh& m) {
    std::vector<patch::Edge> rim;
    patch::boundary(m.face_indices.data(), 0, static_cast<std::uint32_t>(m.face_count()), rim);
    return rim;
}

// The disk |z| <= 1 in polar cells (sectors offset by half a cell, so that no two vertices meet)
// mapped by w = z^2 + 0.15 z^3 and lifted to height h Re z: every triangle faces +z (the map
// keeps orientation, and about doubles the centre's 11.25-degree angles), its boundary circles
// the origin twice, edge after edge counter-clockwise, and the sheets over z and about -z cross
// near Re z = 0. (The cubic term keeps the two sheets' corners apart: over w = z^2 alone they
// would stand over the same points, and their triangles would meet edge against edge, which is
// contact, not crossing, for the product and not for the oracle.)
Mesh double_cover(int rings, int sectors, float h) {
    std::mt19937 rng(2010);
    auto jitter = [&](float size) -> Eigen::Vector3f {
        std::uniform_real_distribution<float> u(-size, size);
        return Eigen::Vector3f(u(rng), u(rng), u(rng));
    };
    auto point = [&](int i, int j) -> Eigen::Vector3f {
        const double r = double(i) / rings, phi = (j + 0.5) * 2 * M_PI / sectors;
        const std::complex<double> z = std::polar(r, phi), w = z * z + 0.15 * z * z * z;
        return Eigen::Vector3f(float(w.real()), float(w.imag()), float(h * z.real())) + jitter(0.003f * float(r * r));
    };
    // Polar cells: sector j + sectors is sector j, and ring 0 is one point.
    Mesh out;
    out.name = "double cover";
    out.positions.push_back(point(0, 0));
    for (int i = 1; i <= rings; ++i)
        for (int j = 0; j < sectors; ++j) out.positions.push_back(point(i, j));
    auto at = [&](int i, int j) { return i == 0 ? 0u : static_cast<std::uint32_t>(1 + (i - 1) * sectors + j % sectors); };
    auto tri = [&](std::uint32_t a, std::uint32_t b, std::uint32_t c) {
        out.face_indices.insert(out.face_indices.end(), {a, b, c});
        out.face_offsets.push_back(static_cast<std::uint32_t>(out.face_indices.size()));
    };
    for (int j = 0; j < sectors; ++j) tri(at(0, 0), at(1, j), at(1, j + 1));
    for (int i = 1; i < rings; ++i)
        for (int j = 0; j < sectors; ++j) {
            tri(at(i, j), at(i + 1, j), at(i + 1, j + 1));
            tri(at(i, j), at(i + 1, j + 1), at(i, j + 1));
        }
    return out;
}

// A strip r in [1, 2] winding 1.25 turns around the z axis, its height a (r - 1.5)(theta - c):
// over the overlap, the second turn's slope in r differs from the first's, so the turns cross
// along r = 1.5, while every triangle faces +z. Its boundary is no star (the inner edge runs
// clockwise), and its winding number about most points is 0 or 1.
Mesh winding_strip() {
    const int nr = 7, nt = 150;
    const double turns = 2 * M_PI + 0.5 * M_PI;
    std::mt19937 rng(1994);
    std::uniform_real_distribution<float> u(-0.003f, 0.003f);
    return grid_mesh(nr, nt, [&](int i, int j) -> Eigen::Vector3f {
        const double r = 1 + double(i) / nr, t = turns * j / nt;
        return Eigen::Vector3f(float(r * std::cos(t)) + u(rng), float(r * std::sin(t)) + u(rng), float(0.2 * (r - 1.5) * (t - M_PI)) + u(rng));
    });
}

// A smooth cap of a sphere (polar angle up to 60 degrees): faces +z, boundary a circle.
Mesh cap() {
    const int n = 24, m = 40;
    return grid_mesh(n, m, [&](int i, int j) -> Eigen::Vector3f {
        // Square grid mapped to the disk by a gentle radial squash, then lifted onto the sphere.
        const double u = 2.0 * i / n - 1, v = 2.0 * j / m - 1;
        const double x = u * std::sqrt(1 - v * v / 2), y = v * std::sqrt(1 - u * u / 2);
        const double s = std::sin(M_PI / 3);
        return Eigen::Vector3f(float(s * x), float(s * y), float(std::sqrt(1 - s * s * (x * x + y * y))));
    });
}

}  // namespace

TEST_CASE("intersect patches: a double cover that faces one axis and crosses itself is not skipped", "[intersect]") {
    const Mesh m = double_cover(12, 32, 0.6f);
    REQUIRE(m.face_count() == 32 + 2 * 11 * 32);
    REQUIRE((common_facing(m) & 4u) != 0);  // every triangle faces +z, so only the boundary can refuse it
    const std::vector<patch::Edge> rim = rim_of(m);
    REQUIRE(rim.size() == 32);  // the outer ring, once around in z, twice around in w
    CHECK_FALSE(patch::untangled(rim, m.positions.data(), 4u));
    // And end to end: the engine (whose jobs test the nodes under its split) against the oracle.
    const Pairs oracle = oracle_pairs(m);
    REQUIRE(oracle.size() > 20);
    for (unsigned threads : {1u, 2u}) {
        const Pairs e = engine_pairs(m, threads);
        INFO("engine " << e.size() << " oracle " << oracle.size());
        CHECK(e == oracle);
    }
}

TEST_CASE("intersect patches: a strip winding past one turn through itself is not skipped", "[intersect]") {
    const Mesh m = winding_strip();
    REQUIRE(m.face_count() < 4096);
    REQUIRE((common_facing(m) & 4u) != 0);
    CHECK_FALSE(patch::untangled(rim_of(m), m.positions.data(), common_facing(m)));
    const Pairs oracle = oracle_pairs(m);
    REQUIRE(oracle.size() > 20);
    CHECK(engine_pairs(m, 1) == oracle);
}

TEST_CASE("intersect patches: a smooth cap is proved untangled, and so is each half of it", "[intersect]") {
    const Mesh m = cap();
    const std::uint32_t axes = common_facing(m);
    REQUIRE((axes & 4u) != 0);
    CHECK(patch::untangled(rim_of(m), m.positions.data(), axes));
    // The first and last halves of its triangles (strips of the grid), by merge of their chains.
    const std::uint32_t n = static_cast<std::uint32_t>(m.face_count()), half = n / 2;
    std::vector<patch::Edge> a, b, both;
    patch::boundary(m.face_indices.data(), 0, half, a);
    patch::boundary(m.face_indices.data(), half, n - half, b);
    CHECK(patch::untangled(a, m.positions.data(), axes));
    CHECK(patch::untangled(b, m.positions.data(), axes));
    patch::merge(a, b, both);
    CHECK(both == rim_of(m));
    // Seen along an axis it does not face, it is not.
    CHECK_FALSE(patch::untangled(rim_of(m), m.positions.data(), 8u | 1u));
    CHECK(oracle_pairs(m).empty());
    CHECK(engine_pairs(m, 2).empty());
}

TEST_CASE("intersect patches: merged boundary chains equal the union's, edges counted with their direction", "[intersect]") {
    std::mt19937 rng(59);
    std::uniform_int_distribution<std::uint32_t> vertex(0, 11);
    for (int round = 0; round < 2000; ++round) {
        // Random triangles over few vertices: repeated, opposite and degenerate edges abound.
        std::vector<std::uint32_t> corners;
        const std::uint32_t n = 1 + rng() % 12;
        for (std::uint32_t k = 0; k < 3 * n; ++k) corners.push_back(vertex(rng));
        const std::uint32_t cut = rng() % (n + 1);
        std::vector<patch::Edge> a, b, merged, whole;
        patch::boundary(corners.data(), 0, cut, a);
        patch::boundary(corners.data(), cut, n - cut, b);
        patch::merge(a, b, merged);
        patch::boundary(corners.data(), 0, n, whole);
        REQUIRE(merged == whole);
        // The chain by counting here: net count per directed pair of distinct vertices.
        std::vector<int> net(144, 0);
        for (std::uint32_t t = 0; t < n; ++t)
            for (int e = 0; e < 3; ++e) {
                const std::uint32_t u = corners[3 * t + e], v = corners[3 * t + (e + 1) % 3];
                if (u == v) continue;
                ++net[u * 12 + v];
                --net[v * 12 + u];
            }
        std::vector<int> got(144, 0);
        for (const patch::Edge& e : whole) ++got[patch::from(e) * 12 + patch::to(e)];
        for (std::uint32_t u = 0; u < 12; ++u)
            for (std::uint32_t v = 0; v < 12; ++v) REQUIRE(got[u * 12 + v] == std::max(0, net[u * 12 + v]));
    }
}

TEST_CASE("intersect patches: a facing bit is the exact sign of the normal's component", "[intersect]") {
    // Corners with 24 significant bits (exact in float) on a grid of 2^-8, up to 2^61 before
    // the scale: the exact components as 128-bit integers. Nearly collinear triangles at every
    // scale, where the double and float estimates go wrong without their bounds.
    std::mt19937_64 rng(33);
    auto coordinate = [&](int bits) { return static_cast<std::int64_t>(rng() % (std::uint64_t(1) << bits)) - (std::int64_t(1) << (bits - 1)); };
    // To 24 significant bits, toward minus infinity: still on the grid.
    auto round24 = [](__int128 c) {
        const __int128 mag = c < 0 ? -c : c;
        int shift = 0;
        while ((mag >> shift) >= (__int128(1) << 24)) ++shift;
        return static_cast<std::int64_t>((c >> shift) * (__int128(1) << shift));
    };
    std::size_t proved_double = 0, proved_float = 0, cases = 0;
    for (int round = 0; round < 300000; ++round) {
        const int e = static_cast<int>(rng() % 38);  // the corners' scale: 2^(e - 8)
        // A product, not a shift: a negative value shifted left is undefined before C++20.
        const std::int64_t scale = std::int64_t(1) << e;
        std::int64_t p[3][3];
        // A third of them with the second corner near the origin: differences then carry both
        // scales' bits, more than a double holds.
        for (int k = 0; k < 3; ++k) {
            p[0][k] = coordinate(24) * scale;
            p[1][k] = round % 3 == 1 ? coordinate(24) : coordinate(24) * scale;
        }
        // The third corner on or near the line through the first two.
        const int num = static_cast<int>(rng() % 64) - 16;
        for (int k = 0; k < 3; ++k) {
            const __int128 d = __int128(p[1][k]) - p[0][k];
            p[2][k] = round24(p[0][k] + d * num / 16 + (round % 3 == 0 ? coordinate(3) * scale : 0));
        }
        if (round % 3 == 2 && e >= 31) {
            // Exactly collinear through the origin: p, -p and p / 2^s, whose differences from p
            // need 24 + s bits, so the double estimate of a zero determinant need not be zero.
            const int shift = 30 + static_cast<int>(rng() % std::uint64_t(e - 29));
            for (int k = 0; k < 3; ++k) {
                p[1][k] = -p[0][k];
                p[2][k] = p[0][k] >> shift;
            }
        }
        Eigen::Vector3f v[3];
        for (int i = 0; i < 3; ++i)
            for (int k = 0; k < 3; ++k) {
                v[i][k] = std::ldexp(float(p[i][k]), -8);
                REQUIRE(double(v[i][k]) == std::ldexp(double(p[i][k]), -8));  // exact in float
            }
        std::uint32_t exact = 0;
        for (int k = 0; k < 3; ++k) {
            const int i = (k + 1) % 3, j = (k + 2) % 3;
            const __int128 det = __int128(p[1][i] - p[0][i]) * (p[2][j] - p[0][j]) - __int128(p[1][j] - p[0][j]) * (p[2][i] - p[0][i]);
            if (det > 0) exact |= 1u << k;
            if (det < 0) exact |= 8u << k;
        }
        ++cases;
        const std::uint32_t d = patch::facing(v[0], v[1], v[2]);
        REQUIRE((d & ~exact) == 0);  // no bit the exact signs do not have
        proved_double += d != 0;
#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
        auto load = [](const Eigen::Vector3f& x) { return _mm_setr_ps(x.x(), x.y(), x.z(), 0.f); };
        const std::uint32_t f = patch::facing_mask(load(v[0]), load(v[1]), load(v[2]));
        REQUIRE((f & ~exact) == 0);
        proved_float += f != 0;
#else
        proved_float = proved_double;
#endif
    }
    // Many are proved (the test is not vacuous) and some are left to the traversal.
    CHECK(proved_double > cases / 3);
    CHECK(proved_float > cases / 10);
    CHECK(proved_double < cases);
}
