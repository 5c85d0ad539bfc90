// Interpenetration (src/core/intersect.cpp, tri_tri.cpp): the engine's face pairs against two
// oracles written here and sharing nothing with the product's code: a brute-force test of every
// face pair by the intervals where each triangle meets the other's plane, and every edge of
// every face shot at every face (Moller-Trumbore). Both in double, on generic made meshes where
// no pair is within rounding of touching. Then the rules: welded neighbours, fans, lengths by
// hand, the joint's tie rule, thread counts, zero-area faces and NaN.
#include <catch2/catch.hpp>

#include <Eigen/Geometry>
#include <algorithm>
#include <array>
#include <cstring>
#include <cmath>
#include <limits>
#include <random>
#include <set>
#include <tuple>

#include "rigscope/core/error.h"
#include "rigscope/core/intersect.h"
#include "rigscope/core/parallel.h"
#include "rigscope/core/tri_tri.h"
#include "intersect_oracle.h"

using namespace rigscope;

namespace {

using rigscope_test::V;
using rigscope_test::brute_cross;
using rigscope_test::edges_cross;
using PairKey = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t>;

// Every face pair of the scene's meshes by `cross` over their fans from the first corner;
// faces of one mesh that share a vertex of `same` (a weld written here: equal positions) skipped.
template <typename Cross>
std::set<PairKey> oracle_pairs(const Scene& scene, Cross cross) {
    std::set<PairKey> out;
    auto fans = [&](int m, std::uint32_t f) {
        const Mesh& mesh = scene.meshes[m];
        std::vector<std::array<V, 3>> t;
        const auto b = mesh.face_offsets[f], e = mesh.face_offsets[f + 1];
        for (auto k = b + 1; k + 1 < e; ++k)
            t.push_back({mesh.positions[mesh.face_indices[b]].cast<double>(), mesh.positions[mesh.face_indices[k]].cast<double>(),
                         mesh.positions[mesh.face_indices[k + 1]].cast<double>()});
        return t;
    };
    auto share = [&](const Mesh& mesh, std::uint32_t fa, std::uint32_t fb) {
        for (auto i = mesh.face_offsets[fa]; i < mesh.face_offsets[fa + 1]; ++i)
            for (auto k = mesh.face_offsets[fb]; k < mesh.face_offsets[fb + 1]; ++k)
                if (mesh.positions[mesh.face_indices[i]] == mesh.positions[mesh.face_indices[k]]) return true;
        return false;
    };
    for (int ma = 0; ma < int(scene.meshes.size()); ++ma)
        for (int mb = ma; mb < int(scene.meshes.size()); ++mb)
            for (std::uint32_t fa = 0; fa < scene.meshes[ma].face_count(); ++fa)
                for (std::uint32_t fb = (ma == mb ? fa + 1 : 0); fb < scene.meshes[mb].face_count(); ++fb) {
                    if (ma == mb && share(scene.meshes[ma], fa, fb)) continue;
                    bool hit = false;
                    for (const auto& p : fans(ma, fa))
                        for (const auto& q : fans(mb, fb)) hit = hit || cross(p.data(), q.data());
                    if (hit) out.insert({ma, fa, mb, fb});
                }
    return out;
}

std::set<PairKey> engine_pairs(const Scene& scene, bool weld = true, unsigned threads = 1, IntersectFrame* frame = nullptr) {
    std::vector<int> meshes;
    std::vector<std::vector<Eigen::Vector3f>> pos;
    for (int m = 0; m < int(scene.meshes.size()); ++m) {
        meshes.push_back(m);
        pos.push_back(scene.meshes[m].positions);
    }
    IntersectEngine engine(scene, meshes, weld);
    ThreadPool pool(threads);
    IntersectFrame f;
    engine.evaluate(pos, &pool, f);
    std::set<PairKey> out;
    for (const FacePair& p : f.pairs) out.insert({p.mesh_a, p.face_a, p.mesh_b, p.face_b});
    REQUIRE(out.size() == f.pairs.size());  // each pair once
    if (frame) *frame = f;
    return out;
}

void add_face(Mesh& m, std::initializer_list<std::uint32_t> corners) {
    m.face_indices.insert(m.face_indices.end(), corners);
    m.face_offsets.push_back(static_cast<std::uint32_t>(m.face_indices.size()));
}

// A scene with one skin of two joints (nodes "Root" and "Other") and no meshes yet.
Scene two_joint_scene() {
    Scene scene;
    scene.skins.resize(1);
    scene.skins[0].joints = {0, 1};
    scene.nodes.resize(2);
    scene.nodes[0].name = "Root";
    scene.nodes[1].name = "Other";
    return scene;
}

// A soup of `n` faces of `corners` corners each, corners random in a box (no shared vertices).
Mesh soup(std::mt19937& rng, int n, int corners, float size) {
    std::uniform_real_distribution<float> u(0.f, size);
    Mesh m;
    m.name = "soup";
    for (int f = 0; f < n; ++f) {
        const Eigen::Vector3f c(u(rng), u(rng), u(rng));
        std::vector<std::uint32_t> idx;
        for (int k = 0; k < corners; ++k) {
            idx.push_back(static_cast<std::uint32_t>(m.positions.size()));
            m.positions.push_back(c + Eigen::Vector3f(u(rng), u(rng), u(rng)) * 0.3f - Eigen::Vector3f::Constant(0.15f * size));
        }
        m.face_indices.insert(m.face_indices.end(), idx.begin(), idx.end());
        m.face_offsets.push_back(static_cast<std::uint32_t>(m.face_indices.size()));
    }
    return m;
}

}  // namespace

TEST_CASE("intersect: face pairs of triangle soups match both oracles", "[intersect]") {
    std::mt19937 rng(59);
    for (int round = 0; round < 6; ++round) {
        Scene scene;
        scene.meshes.push_back(soup(rng, 150, 3, 1.f));
        scene.meshes.push_back(soup(rng, 60, round % 2 ? 4 : 3, 1.f));  // quads as fans in odd rounds
        const auto brute = oracle_pairs(scene, [](const V* p, const V* q) { return brute_cross(p, q); });
        const auto edges = oracle_pairs(scene, edges_cross);
        REQUIRE(brute == edges);  // the oracles agree with each other
        REQUIRE(brute.size() > 20);  // and the soup has crossings to find
        CHECK(engine_pairs(scene) == brute);
    }
}

TEST_CASE("intersect: the result is the same on 1 and 2 threads, bit for bit", "[intersect]") {
    std::mt19937 rng(7);
    Scene scene;
    scene.meshes.push_back(soup(rng, 4000, 3, 4.f));
    scene.meshes.push_back(soup(rng, 3000, 4, 4.f));
    IntersectFrame one, two;
    const auto a = engine_pairs(scene, true, 1, &one);
    const auto b = engine_pairs(scene, true, 2, &two);
    REQUIRE(a == b);
    REQUIRE(one.pairs.size() > 100);
    CHECK(std::memcmp(&one.length, &two.length, sizeof(double)) == 0);
    for (std::size_t i = 0; i < one.pairs.size(); ++i) CHECK(one.pairs[i].length == two.pairs[i].length);
}

TEST_CASE("intersect: frames where part of a mesh stays put give what a fresh engine gives", "[intersect]") {
    // The engine keeps the boxes and flags of leaves whose corners did not move since the last
    // frame. Over six frames, a different half of the soup moves each time (the rest bitwise
    // where it was), and some moved triangles are flattened onto a line and back: every frame's
    // pairs, lengths and skipped count must be those of an engine that sees only that frame.
    std::mt19937 rng(29);
    Scene scene;
    scene.meshes.push_back(soup(rng, 3000, 3, 4.f));
    const std::vector<int> meshes{0};
    IntersectEngine kept(scene, meshes, true);
    ThreadPool pool(2);
    std::vector<std::vector<Eigen::Vector3f>> pos{scene.meshes[0].positions};
    std::uniform_real_distribution<float> shift(-0.2f, 0.2f);
    std::size_t flattened = 0;
    for (int frame = 0; frame < 6; ++frame) {
        std::vector<Eigen::Vector3f>& x = pos[0];
        for (std::size_t f = 0; f < scene.meshes[0].face_count(); ++f) {
            const std::uint32_t* c = &scene.meshes[0].face_indices[3 * f];
            if (f % 97 == std::size_t(frame)) {  // flattened: only the third corner moves, midway between the others
                x[c[2]] = (x[c[0]] + x[c[1]]) * 0.5f;
                ++flattened;
                continue;
            }
            if ((f / 500 + frame) % 2 == 0) continue;  // stays bitwise where it was
            const Eigen::Vector3f d(shift(rng), shift(rng), shift(rng));
            for (int k = 0; k < 3; ++k) x[c[k]] += d;
        }
        IntersectFrame a, b;
        kept.evaluate(pos, &pool, a);
        IntersectEngine fresh(scene, meshes, true);
        fresh.evaluate(pos, &pool, b);
        REQUIRE(a.pairs.size() == b.pairs.size());
        CHECK(a.pairs.size() > 50);
        for (std::size_t i = 0; i < a.pairs.size(); ++i) {
            CHECK(std::tie(a.pairs[i].face_a, a.pairs[i].face_b) == std::tie(b.pairs[i].face_a, b.pairs[i].face_b));
            CHECK(a.pairs[i].length == b.pairs[i].length);
        }
        CHECK(a.degenerate == b.degenerate);
    }
    CHECK(flattened > 150);
}

TEST_CASE("intersect: faces sharing a welded vertex are neighbours, and split seam vertices are welded", "[intersect]") {
    // Two triangles through each other at a shared corner: the second's edge pierces the first.
    Scene scene;
    Mesh m;
    m.name = "bowtie";
    m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0.3f, 0.3f, -1}, {0.3f, 0.3f, 1}};
    add_face(m, {0, 1, 2});
    add_face(m, {0, 3, 4});
    scene.meshes.push_back(m);
    CHECK(engine_pairs(scene).empty());
    // The same with the shared corner split (a UV seam: two file vertices, one position).
    scene.meshes[0].positions.push_back({0, 0, 0});
    scene.meshes[0].face_indices[3] = 5;
    CHECK(engine_pairs(scene, true).empty());
    CHECK(engine_pairs(scene, false) == std::set<PairKey>{{0, 0, 0, 1}});  // --weld off: not neighbours
    // Moved apart from the shared point, the crossing is a pair whatever the weld.
    scene.meshes[0].positions[5] = {-0.1f, -0.1f, 0.05f};
    CHECK(engine_pairs(scene, true) == std::set<PairKey>{{0, 0, 0, 1}});
}

TEST_CASE("intersect: the crossing's length by hand, and contact is not a crossing", "[intersect]") {
    Scene scene;
    Mesh a, b;
    a.positions = {{-1, -1, 0}, {3, -1, 0}, {-1, 3, 0}};
    add_face(a, {0, 1, 2});
    // In the plane x = 0, base at z = -1 (y from -0.5 to 0.5), apex at z = 1: 0.5 wide at z = 0.
    b.positions = {{0, -0.5f, -1}, {0, 0.5f, -1}, {0, 0, 1}};
    add_face(b, {0, 1, 2});
    scene.meshes = {a, b};
    IntersectFrame f;
    CHECK(engine_pairs(scene, true, 1, &f) == std::set<PairKey>{{0, 0, 1, 0}});
    CHECK(f.length == Approx(0.5).epsilon(1e-12));
    CHECK(f.pairs[0].length == Approx(0.5).epsilon(1e-12));
    // Resting on the plane (apex at z = 0, exactly): touching, not crossing.
    scene.meshes[1].positions = {{0, -0.5f, 1}, {0, 0.5f, 1}, {0, 0, 0}};
    CHECK(engine_pairs(scene).empty());
    // Coplanar and overlapping: contact, not crossing.
    scene.meshes[1].positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    CHECK(engine_pairs(scene).empty());
    // An edge lying exactly in the other's plane and across it: touching along a segment.
    scene.meshes[1].positions = {{-0.5f, 0, 0}, {0.5f, 0, 0}, {0, 0, 1}};
    CHECK(engine_pairs(scene).empty());
}

TEST_CASE("intersect: exact predicates decide what double rounding cannot", "[intersect]") {
    // d a float step above the plane of a, b, c, far from the origin: the double estimate's
    // bound is wider than the determinant, the exact sum still says which side.
    const Eigen::Vector3f a(1000.f, 1000.f, 1000.f), b(1001.f, 1000.f, 1000.f), c(1000.f, 1001.f, 1000.f);
    const Eigen::Vector3f up(1000.5f, 1000.5f, std::nextafter(1000.f, 2000.f)), on(1000.5f, 1000.5f, 1000.f);
    CHECK(orient3d(a, b, c, up) == 1);
    CHECK(orient3d(a, b, c, on) == 0);
    CHECK(orient3d(b, a, c, up) == -1);
    CHECK(collinear(a, b, Eigen::Vector3f(1002.f, 1000.f, 1000.f)));
    CHECK_FALSE(collinear(a, b, Eigen::Vector3f(1002.f, 1000.f, std::nextafter(1000.f, 2000.f))));
}

TEST_CASE("intersect: the joint is the heaviest influence over both faces, the first on a tie", "[intersect]") {
    Scene scene;
    scene.skins.resize(1);
    scene.skins[0].joints = {10, 11, 12};
    Mesh a, b;
    a.positions = {{-1, -1, 0}, {3, -1, 0}, {-1, 3, 0}};
    add_face(a, {0, 1, 2});
    b.positions = {{0, -0.5f, -1}, {0, 0.5f, -1}, {0, 0, 1}};
    add_face(b, {0, 1, 2});
    a.skin = b.skin = 0;
    auto skin = [](Mesh& m, std::vector<std::vector<std::pair<std::uint16_t, float>>> per_vertex) {
        m.influences = {};
        m.influences.offsets = {0};
        for (const auto& v : per_vertex) {
            for (const auto& [j, w] : v) {
                m.influences.joints.push_back(j);
                m.influences.weights.push_back(w);
            }
            m.influences.offsets.push_back(static_cast<std::uint32_t>(m.influences.joints.size()));
        }
    };
    skin(a, {{{0, 0.5f}, {1, 0.5f}}, {{0, 1.f}}, {{2, 1.f}}});
    skin(b, {{{1, 0.9f}, {2, 0.1f}}, {{1, 1.f}}, {{2, 1.f}}});
    scene.meshes = {a, b};
    IntersectFrame f;
    engine_pairs(scene, true, 1, &f);
    REQUIRE(f.pairs.size() == 1);
    CHECK(f.pairs[0].joint == 10);  // weight 1 first at face a's second corner (joint 0 -> node 10)
    skin(scene.meshes[0], {{{0, 0.5f}, {1, 0.5f}}, {{0, 0.6f}}, {{2, 0.7f}}});
    engine_pairs(scene, true, 1, &f);
    CHECK(f.pairs[0].joint == 11);  // face b's second corner, weight 1
    scene.meshes[0].skin = scene.meshes[1].skin = -1;
    engine_pairs(scene, true, 1, &f);
    CHECK(f.pairs[0].joint == -1);  // no skin, no joint
}

TEST_CASE("intersect: zero-area faces are skipped and counted, and a NaN position is an error", "[intersect]") {
    Scene scene;
    Mesh a;
    a.name = "body";
    a.positions = {{-1, -1, 0}, {3, -1, 0}, {-1, 3, 0}, {0, 0, -1}, {0, 0, 1}, {0, 0, 2}, {0.1f, -0.5f, -1}, {0.1f, 0.5f, -1}, {0.1f, 0, 1}};
    add_face(a, {0, 1, 2});
    add_face(a, {3, 4, 5});  // a sliver on one line through the first face
    add_face(a, {6, 7, 8});  // a real crossing
    scene.meshes = {a};
    IntersectFrame f;
    CHECK(engine_pairs(scene, true, 1, &f) == std::set<PairKey>{{0, 0, 0, 2}});
    CHECK(f.degenerate == 1);
    scene.meshes[0].positions[7].y() = std::nanf("");
    try {
        engine_pairs(scene);
        FAIL("no error");
    } catch (const Error& e) {
        CHECK(e.code() == kExitBadInput);
        CHECK(std::string(e.what()) == "mesh 'body': vertex 7's position is not finite");
    }
}

TEST_CASE("intersect: zero area is decided exactly at every scale, slivers one unit off a line included", "[intersect]") {
    // Corners k * 2^e with integer k (floats exactly): collinear ones on a lattice; collinear ones
    // on a line through the origin with one corner 2^20 to 2^28 times farther out, whose float
    // differences round (so the normal's float estimate is not zero); both moved by one unit off
    // their line; and generic ones. Whether each is flat by integer arithmetic. At the smallest
    // scales the float products underflow (to zero, or to coarse subnormals), at 2^90 they
    // overflow: the engine's float filter must leave those to the exact test.
    std::mt19937 rng(59);
    std::uniform_int_distribution<int> corner(-(1 << 18), 1 << 18), step(-(1 << 14), 1 << 14), times(-16, 16), sign(0, 1), far(20, 27),
        odd(-4, 3);
    using P = std::array<std::int64_t, 3>;
    for (int e : {-120, -100, -99, -98, -97, -89, -60, -10, 0, 40, 90}) {
        Scene scene;
        Mesh m;
        m.name = "slivers";
        std::size_t flat = 0;
        for (int t = 0; t < 1000; ++t) {
            P a, b, c;
            const std::int64_t i = times(rng), j = times(rng);
            if (t % 5 < 2) {  // a lattice line, then the same nudged
                const P o{corner(rng), corner(rng), corner(rng)}, d{step(rng), step(rng), step(rng)};
                for (int k = 0; k < 3; ++k) {
                    a[k] = o[k];
                    b[k] = o[k] + i * d[k];
                    c[k] = o[k] + j * d[k];
                }
            } else if (t % 5 < 4) {  // a far corner on a line through the origin, then the same nudged
                const P d{2 * odd(rng) + 1, 2 * odd(rng) + 1, 2 * odd(rng) + 1};
                // From 2^-100 to 2^-97 a far corner at 2^(125 + e) gives products of about 2^-145,
                // subnormal: their coarse rounding alone can make a flat triangle's normal nonzero.
                const std::int64_t s = std::int64_t(1) << (e >= -100 && e <= -97 ? 125 + e : far(rng));
                for (int k = 0; k < 3; ++k) {
                    a[k] = s * d[k];
                    b[k] = i * d[k];
                    c[k] = j * d[k];
                }
            } else {
                a = {corner(rng), corner(rng), corner(rng)};
                b = {corner(rng), corner(rng), corner(rng)};
                c = {corner(rng), corner(rng), corner(rng)};
            }
            if (t % 5 == 1) c[t % 3] += sign(rng) ? 1 : -1;
            if (t % 5 == 3) b[t % 3] += sign(rng) ? 1 : -1;
            const P u{b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v{c[0] - a[0], c[1] - a[1], c[2] - a[2]};
            flat += u[1] * v[2] == u[2] * v[1] && u[2] * v[0] == u[0] * v[2] && u[0] * v[1] == u[1] * v[0];
            for (const P& p : {a, b, c})
                m.positions.emplace_back(std::ldexp(float(p[0]), e), std::ldexp(float(p[1]), e), std::ldexp(float(p[2]), e));
            const auto n = static_cast<std::uint32_t>(m.positions.size());
            add_face(m, {n - 3, n - 2, n - 1});
        }
        scene.meshes = {m};
        IntersectFrame f;
        engine_pairs(scene, false, 1, &f);
        INFO("scale 2^" << e);
        CHECK(flat >= 400);  // the two collinear families, and nudged ones that stay flat (i = j = 0)
        CHECK(flat < 600);
        CHECK(f.degenerate == flat);
    }
}

TEST_CASE("intersect: a mesh without faces has no pairs", "[intersect]") {
    Scene scene;
    Mesh a;
    a.positions = {{0, 0, 0}};
    scene.meshes = {a};
    CHECK(engine_pairs(scene).empty());
}

TEST_CASE("intersect: orient3d's sign against integer arithmetic on coplanar and nearly coplanar points", "[intersect]") {
    // Coordinates k / 1024 with |k| < 2^20 are floats exactly; the determinant of their integer
    // numerators is exact in 128 bits, an oracle that rounds nothing.
    std::mt19937 rng(3);
    std::uniform_int_distribution<int> coord(-(1 << 19), 1 << 19), small(-3, 3), nudge(-1, 1);
    auto as_float = [](const std::array<long long, 3>& p) { return Eigen::Vector3f(p[0] / 1024.f, p[1] / 1024.f, p[2] / 1024.f); };
    int zeros = 0, nonzeros = 0;
    for (int i = 0; i < 20000; ++i) {
        std::array<long long, 3> a, b, c, d;
        for (int k = 0; k < 3; ++k) {
            a[k] = coord(rng) / 4;
            b[k] = a[k] + coord(rng) / 8;
            c[k] = a[k] + coord(rng) / 8;
        }
        // d on the plane abc (integer combination), then perhaps one unit off it.
        const int s = small(rng), t = small(rng);
        for (int k = 0; k < 3; ++k) d[k] = a[k] + s * (b[k] - a[k]) + t * (c[k] - a[k]) + (i % 2 ? nudge(rng) : 0);
        bool fits = true;
        for (long long x : {d[0], d[1], d[2]}) fits = fits && std::llabs(x) < (1LL << 23);
        if (!fits) continue;
        __int128 u[3], v[3], w[3];
        for (int k = 0; k < 3; ++k) {
            u[k] = b[k] - a[k];
            v[k] = c[k] - a[k];
            w[k] = d[k] - a[k];
        }
        const __int128 det = u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0]);
        const int expected = det > 0 ? 1 : det < 0 ? -1 : 0;
        (expected == 0 ? zeros : nonzeros)++;
        REQUIRE(orient3d(as_float(a), as_float(b), as_float(c), as_float(d)) == expected);
    }
    CHECK(zeros > 1000);
    CHECK(nonzeros > 1000);
}

TEST_CASE("intersect: orient3d is exact where float differences round in double", "[intersect]") {
    // 1 - 1e-30 is not a double: the sign comes from the products of the raw coordinates.
    const Eigen::Vector3f a(1e-30f, 0, 0), b(1, 0, 0), c(0, 1, 0);
    CHECK(orient3d(a, b, c, Eigen::Vector3f(0.25f, 0.5f, 0)) == 0);
    CHECK(orient3d(a, b, c, Eigen::Vector3f(0.25f, 0.5f, 1e-38f)) == 1);
    CHECK(orient3d(a, b, c, Eigen::Vector3f(0.25f, 0.5f, -1e-38f)) == -1);
    const Eigen::Vector3f e(1e-30f, 1e-30f, 1e-30f);
    CHECK(orient3d(e, b, c, Eigen::Vector3f(0, 0, 1)) == 1);
    CHECK(orient3d(Eigen::Vector3f(0, 0, 0), b, c, Eigen::Vector3f(1e-30f, 1e-30f, 1e-30f)) == 1);
}

TEST_CASE("intersect: pairs one joint alone moves are kept from the stored positions, as the full test finds them", "[intersect]") {
    // A soup skinned wholly to joint 0 of a skin, moved by a rotation and a translation (what
    // that joint's matrix does): kept pairs and lengths against the full test of the moved soup.
    std::mt19937 rng(11);
    Scene scene = two_joint_scene();
    scene.meshes.push_back(soup(rng, 600, 3, 2.f));
    Mesh& m = scene.meshes[0];
    m.skin = 0;
    m.influences.offsets = {0};
    for (std::size_t v = 0; v < m.vertex_count(); ++v) {
        m.influences.joints.push_back(0);
        m.influences.weights.push_back(1.f);
        m.influences.offsets.push_back(static_cast<std::uint32_t>(v + 1));
    }
    const Eigen::Matrix3f r = Eigen::AngleAxisf(0.7f, Eigen::Vector3f(1, 2, 3).normalized()).toRotationMatrix();
    std::vector<std::vector<Eigen::Vector3f>> moved(1);
    for (const Eigen::Vector3f& p : m.positions) moved[0].push_back(r * p + Eigen::Vector3f(0.5f, -1, 2));
    IntersectEngine full(scene, {0}, true), keeping(scene, {0}, true);
    IntersectFrame a, b;
    full.evaluate(moved, nullptr, a);
    const std::vector<std::vector<std::uint8_t>> ok{{1, 1}};
    keeping.evaluate(moved, nullptr, b, &ok);
    REQUIRE(a.pairs.size() > 20);
    REQUIRE(a.pairs.size() == b.pairs.size());
    for (std::size_t i = 0; i < a.pairs.size(); ++i) {
        CHECK(std::tie(a.pairs[i].face_a, a.pairs[i].face_b, a.pairs[i].joint) == std::tie(b.pairs[i].face_a, b.pairs[i].face_b, b.pairs[i].joint));
        CHECK(a.pairs[i].length == b.pairs[i].length);
    }
    // A joint scaled to nothing is not kept: its faces collapse to a point and cross nothing.
    std::vector<std::vector<Eigen::Vector3f>> collapsed{std::vector<Eigen::Vector3f>(m.vertex_count(), Eigen::Vector3f(1, 1, 1))};
    const std::vector<std::vector<std::uint8_t>> singular{{0, 1}};
    keeping.evaluate(collapsed, nullptr, b, &singular);
    CHECK(b.pairs.empty());
    CHECK(b.degenerate == m.face_count());
    // A vertex weighted below 1 (0.5 and 0.5) leaves its faces to the full test every frame.
    m.influences.joints.insert(m.influences.joints.begin() + 1, 1);
    m.influences.weights[0] = 0.5f;
    m.influences.weights.insert(m.influences.weights.begin() + 1, 0.5f);
    for (std::size_t v = 1; v < m.influences.offsets.size(); ++v) ++m.influences.offsets[v];
    IntersectEngine blended(scene, {0}, true);
    blended.evaluate(moved, nullptr, b, &ok);
    CHECK(b.pairs.size() == a.pairs.size());
}

TEST_CASE("intersect: triangles a kept joint moves still meet the others where their leaves touch", "[intersect]") {
    // Faces whose centre lies at x < 1 skinned wholly to joint 0 (kept: their leaves' boxes are
    // computed, their triangles' boxes only where the traversal meets another leaf), the rest
    // blended over joints 0 and 1 (tested every frame); all moved by one rotation and
    // translation. The kept engine's pairs against the full test's, with enough pairs across the
    // two groups that a leaf's triangle boxes computed wrongly would lose some.
    std::mt19937 rng(23);
    Scene scene = two_joint_scene();
    scene.meshes.push_back(soup(rng, 1500, 3, 2.f));
    Mesh& m = scene.meshes[0];
    m.skin = 0;
    m.influences.offsets = {0};
    std::vector<std::uint8_t> rigid_face(m.face_count());
    for (std::size_t f = 0; f < m.face_count(); ++f) {
        Eigen::Vector3f c = Eigen::Vector3f::Zero();
        for (std::uint32_t i = m.face_offsets[f]; i < m.face_offsets[f + 1]; ++i) c += m.positions[m.face_indices[i]] / 3.f;
        rigid_face[f] = c.x() < 1.f;
        for (std::uint32_t i = m.face_offsets[f]; i < m.face_offsets[f + 1]; ++i) {
            // The soup's faces have their own vertices, in face order.
            REQUIRE(m.face_indices[i] == m.influences.offsets.size() - 1);
            if (rigid_face[f]) {
                m.influences.joints.push_back(0);
                m.influences.weights.push_back(1.f);
            } else {
                m.influences.joints.insert(m.influences.joints.end(), {0, 1});
                m.influences.weights.insert(m.influences.weights.end(), {0.5f, 0.5f});
            }
            m.influences.offsets.push_back(static_cast<std::uint32_t>(m.influences.joints.size()));
        }
    }
    const Eigen::Matrix3f r = Eigen::AngleAxisf(-0.4f, Eigen::Vector3f(3, 1, 2).normalized()).toRotationMatrix();
    std::vector<std::vector<Eigen::Vector3f>> moved(1);
    for (const Eigen::Vector3f& p : m.positions) moved[0].push_back(r * p + Eigen::Vector3f(-1, 0.25f, 3));
    const std::vector<std::vector<std::uint8_t>> ok{{1, 1}};
    for (unsigned threads : {1u, 2u}) {
        ThreadPool pool(threads);
        IntersectEngine full(scene, {0}, true, &pool), keeping(scene, {0}, true, &pool);
        IntersectFrame a, b;
        full.evaluate(moved, &pool, a);
        // Twice: the second frame's positions are the first's (its leaves reused as they are).
        for (int frame = 0; frame < 2; ++frame) {
            keeping.evaluate(moved, &pool, b, &ok);
            std::size_t across = 0;
            for (const FacePair& p : a.pairs) across += rigid_face[p.face_a] != rigid_face[p.face_b];
            CHECK(across >= 20);
            REQUIRE(a.pairs.size() == b.pairs.size());
            for (std::size_t i = 0; i < a.pairs.size(); ++i) {
                CHECK(std::tie(a.pairs[i].face_a, a.pairs[i].face_b, a.pairs[i].joint) == std::tie(b.pairs[i].face_a, b.pairs[i].face_b, b.pairs[i].joint));
                CHECK(a.pairs[i].length == b.pairs[i].length);
            }
            CHECK(a.degenerate == b.degenerate);
        }
    }
}

TEST_CASE("intersect: a position not finite in a later frame is an error, and the frame after it is whole", "[intersect]") {
    // The later frames' finite test shares the pass that compares with the last frame's
    // positions (four at a time, then the rest one by one): a NaN or infinity in either part.
    Scene scene;
    Mesh a;
    a.name = "body";
    a.positions = {{-1, -1, 0}, {3, -1, 0}, {-1, 3, 0}, {0.1f, -0.5f, -1}, {0.1f, 0.5f, -1}, {0.1f, 0, 1}, {5, 5, 5}};
    add_face(a, {0, 1, 2});
    add_face(a, {3, 4, 5});
    add_face(a, {4, 5, 6});
    scene.meshes = {a};
    IntersectEngine engine(scene, {0}, true);
    const std::vector<std::vector<Eigen::Vector3f>> good{a.positions};
    IntersectFrame first;
    engine.evaluate(good, nullptr, first);
    REQUIRE(first.pairs.size() == 2);
    for (std::size_t v : {std::size_t(1), std::size_t(3), std::size_t(5), std::size_t(6)}) {
        for (float bad : {std::nanf(""), std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity()}) {
            for (int k = 0; k < 3; ++k) {
                std::vector<std::vector<Eigen::Vector3f>> x = good;
                x[0][v][k] = bad;
                IntersectFrame f;
                try {
                    engine.evaluate(x, nullptr, f);
                    FAIL("no error for vertex " << v);
                } catch (const Error& e) {
                    CHECK(std::string(e.what()) == "mesh 'body': vertex " + std::to_string(v) + "'s position is not finite");
                }
                IntersectFrame again;
                engine.evaluate(good, nullptr, again);
                REQUIRE(again.pairs.size() == first.pairs.size());
                for (std::size_t i = 0; i < first.pairs.size(); ++i) {
                    CHECK(std::tie(again.pairs[i].face_a, again.pairs[i].face_b) == std::tie(first.pairs[i].face_a, first.pairs[i].face_b));
                    CHECK(again.pairs[i].length == first.pairs[i].length);
                }
            }
        }
    }
}
