// Area and principal-stretch measures and one-ring smoothing, against deformations whose answer
// is known in closed form. Positions are floats: tolerances of 1e-5 relative cover the float
// arithmetic of a few dozen operations on coordinates of order 1 (float epsilon is 1.2e-7).
#include <catch2/catch.hpp>
#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <cmath>
#include <cstring>
#include <numeric>

#include "core/simd_points.h"  // RIGSCOPE_SSE_KERNELS: whether this build has the SIMD kernels
#include "corpus.h"
#include "rigscope/io/load.h"
#include "rigscope/core/measure.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/skin.h"
#include "rigscope/core/smooth.h"
#include "rigscope/core/tension_map.h"

using namespace rigscope;

namespace {

constexpr double kPi = 3.14159265358979323846;

Mesh mesh_of(std::vector<Eigen::Vector3f> pts, const std::vector<std::vector<std::uint32_t>>& faces) {
    Mesh m;
    m.positions = std::move(pts);
    for (auto& f : faces) {
        m.face_indices.insert(m.face_indices.end(), f.begin(), f.end());
        m.face_offsets.push_back(static_cast<std::uint32_t>(m.face_indices.size()));
    }
    return m;
}

// An open cylinder of radius r along y, `around` x `rings` vertices, quads (as FBX stores them):
// the measures fan-triangulate them.
Mesh cylinder(int around, int rings, double r = 1.0, double height = 2.0) {
    std::vector<Eigen::Vector3f> p;
    std::vector<std::vector<std::uint32_t>> f;
    for (int j = 0; j < rings; ++j)
        for (int i = 0; i < around; ++i) {
            const double a = 2 * kPi * i / around;
            p.emplace_back(float(r * std::cos(a)), float(height * j / (rings - 1)), float(r * std::sin(a)));
        }
    for (int j = 0; j + 1 < rings; ++j)
        for (int i = 0; i < around; ++i) {
            const auto v = [&](int ii, int jj) { return std::uint32_t(jj * around + (ii % around)); };
            f.push_back({v(i, j), v(i + 1, j), v(i + 1, j + 1), v(i, j + 1)});
        }
    return mesh_of(p, f);
}

// A flat n x n grid in the xy plane, triangles alternating their diagonal.
Mesh grid(int n) {
    std::vector<Eigen::Vector3f> p;
    std::vector<std::vector<std::uint32_t>> f;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) p.emplace_back(float(i) / (n - 1), float(j) / (n - 1), 0.0f);
    for (int j = 0; j + 1 < n; ++j)
        for (int i = 0; i + 1 < n; ++i) {
            const std::uint32_t a = j * n + i, b = a + 1, c = a + n + 1, d = a + n;
            if ((i + j) % 2) {
                f.push_back({a, b, c});
                f.push_back({a, c, d});
            } else {
                f.push_back({a, b, d});
                f.push_back({b, c, d});
            }
        }
    return mesh_of(p, f);
}

struct Measured {
    std::vector<float> t_area, lmax, lmin, dir;
    std::size_t area_degenerate = 0, principal_degenerate = 0;
};

Measured measure(const Mesh& m, const std::vector<Eigen::Vector3f>& deformed) {
    const Topology topo = build_topology(m);
    const auto tris = welded_triangles(m, topo);
    const AreaKernel area(tris, topo, m.positions);
    const PrincipalKernel pk(tris, topo, m.positions);
    Measured r;
    const std::size_t n = topo.welded_count();
    r.t_area.resize(n);
    r.lmax.resize(n);
    r.lmin.resize(n);
    r.dir.resize(3 * n);
    r.area_degenerate = area.evaluate(deformed.data(), 0, n, r.t_area.data());
    r.principal_degenerate = pk.evaluate(deformed.data(), 0, n, r.lmax.data(), r.lmin.data(), r.dir.data());
    return r;
}

std::vector<Eigen::Vector3f> mapped(const Mesh& m, const std::function<Eigen::Vector3d(const Eigen::Vector3d&)>& f) {
    std::vector<Eigen::Vector3f> out;
    for (const auto& p : m.positions) out.push_back(f(p.cast<double>()).cast<float>());
    return out;
}

}  // namespace

TEST_CASE("Rigid motion: lambda = 1 and T_area = 1", "[measure]") {
    const Mesh m = cylinder(24, 6);
    const Eigen::Matrix3d R = Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, -0.5).normalized()).toRotationMatrix();
    const Measured r = measure(m, mapped(m, [&](const Eigen::Vector3d& p) { return Eigen::Vector3d(R * p + Eigen::Vector3d(3, -1, 2)); }));
    CHECK(r.area_degenerate == 0);
    CHECK(r.principal_degenerate == 0);
    for (std::size_t w = 0; w < r.lmax.size(); ++w) {
        CHECK(r.lmax[w] == Approx(1.0).epsilon(1e-5));
        CHECK(r.lmin[w] == Approx(1.0).epsilon(1e-5));
        CHECK(r.t_area[w] == Approx(1.0).epsilon(1e-5));
    }
}

TEST_CASE("Uniform scale s: lambda1 = lambda2 = s, T_area = 1/s^2", "[measure]") {
    const Mesh m = cylinder(16, 5);
    const double s = 1.7;
    const Measured r = measure(m, mapped(m, [&](const Eigen::Vector3d& p) { return Eigen::Vector3d(s * p); }));
    for (std::size_t w = 0; w < r.lmax.size(); ++w) {
        CHECK(r.lmax[w] == Approx(s).epsilon(1e-5));
        CHECK(r.lmin[w] == Approx(s).epsilon(1e-5));
        CHECK(r.t_area[w] == Approx(1 / (s * s)).epsilon(1e-5));
    }
}

TEST_CASE("Pure shear of a flat grid: the stretches and direction of C = F^T F", "[measure]") {
    // x' = x + g y: F = [[1, g], [0, 1]] everywhere, so every vertex, boundary included, sees it.
    const double g = 0.5;
    const Mesh m = grid(6);
    const Measured r = measure(m, mapped(m, [&](const Eigen::Vector3d& p) { return Eigen::Vector3d(p.x() + g * p.y(), p.y(), p.z()); }));
    Eigen::Matrix2d F;
    F << 1, g, 0, 1;
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> es(F.transpose() * F);  // ascending
    const double lmin = std::sqrt(es.eigenvalues()[0]), lmax = std::sqrt(es.eigenvalues()[1]);
    CHECK(lmin * lmax == Approx(1.0));  // a shear keeps area
    const Eigen::Vector2d d = (F * es.eigenvectors().col(0)).normalized();  // deformed direction of lambda_min
    for (std::size_t w = 0; w < r.lmax.size(); ++w) {
        CHECK(r.lmax[w] == Approx(lmax).epsilon(1e-5));
        CHECK(r.lmin[w] == Approx(lmin).epsilon(1e-5));
        CHECK(r.t_area[w] == Approx(1.0).epsilon(1e-5));
        // The direction is an eigenvector: either sign.
        CHECK(std::abs(r.dir[3 * w] * d.x() + r.dir[3 * w + 1] * d.y()) == Approx(1.0).epsilon(1e-5));
        CHECK(r.dir[3 * w + 2] == Approx(0.0).margin(1e-6));
    }
}

TEST_CASE("A cylinder compressed along its axis: lambda_min is the compression, its direction the axis", "[measure]") {
    const Mesh m = cylinder(20, 7);
    const double c = 0.6;
    // Axis along y, then the whole turned so the axis is not a coordinate axis.
    const Eigen::Matrix3d R = Eigen::AngleAxisd(0.9, Eigen::Vector3d(0, 0.3, 1).normalized()).toRotationMatrix();
    const Measured r = measure(m, mapped(m, [&](const Eigen::Vector3d& p) { return Eigen::Vector3d(R * Eigen::Vector3d(p.x(), c * p.y(), p.z())); }));
    const Eigen::Vector3d axis = R * Eigen::Vector3d::UnitY();
    for (std::size_t w = 0; w < r.lmax.size(); ++w) {
        CHECK(r.lmin[w] == Approx(c).epsilon(1e-5));
        CHECK(r.lmax[w] == Approx(1.0).epsilon(1e-5));
        CHECK(r.t_area[w] == Approx(1 / c).epsilon(1e-5));
        const Eigen::Vector3d d(r.dir[3 * w], r.dir[3 * w + 1], r.dir[3 * w + 2]);
        CHECK(d.norm() == Approx(1.0).epsilon(1e-5));
        CHECK(std::abs(d.dot(axis)) == Approx(1.0).epsilon(1e-5));
    }
}

TEST_CASE("Degenerate one-rings fall back to 1 and are counted", "[measure]") {
    // Vertex 3 is in no face; face (4, 5, 6) has no area at rest.
    const Mesh m = mesh_of({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {5, 5, 5}, {2, 2, 2}, {3, 3, 3}, {4, 4, 4}}, {{0, 1, 2}, {4, 5, 6}});
    std::vector<Eigen::Vector3f> moved = m.positions;
    moved[1] = moved[0];  // the triangle collapses when deformed
    const Measured r = measure(m, moved);
    for (float x : r.t_area) CHECK(std::isfinite(x));
    CHECK(r.t_area[3] == 1.0f);
    CHECK(r.t_area[0] == 1.0f);  // deformed one-ring of zero area
    CHECK(r.area_degenerate >= 4);
    CHECK(r.principal_degenerate == 4);  // 3 and the thin face's corners have no triangle
    CHECK(r.lmax[3] == 1.0f);
    float t = 0;
    CHECK(!t_of_lambda(0.0f, t));
    CHECK(t == 1.0f);
    CHECK(t_of_lambda(0.5f, t));
    CHECK(t == 2.0f);
}

namespace {

// An octahedron: closed, every vertex of valence 4, every angle 60 degrees.
Mesh octahedron() {
    return mesh_of({{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}},
                   {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4}, {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}});
}

}  // namespace

TEST_CASE("Smoothing keeps a constant field", "[measure][smooth]") {
    const Mesh m = cylinder(12, 5);
    const Topology topo = build_topology(m);
    const auto tris = welded_triangles(m, topo);
    for (SmoothWeights k : {SmoothWeights::uniform, SmoothWeights::cotan}) {
        const Smoother s(topo, k, tris, m.positions);
        std::vector<float> v(2 * topo.welded_count());
        for (std::size_t i = 0; i < v.size(); ++i) v[i] = i % 2 ? 0.75f : 1.25f;
        std::vector<float> scratch;
        s.smooth(v, 2, 7, scratch, nullptr, 5);
        for (std::size_t i = 0; i < v.size(); ++i) CHECK(v[i] == Approx(i % 2 ? 0.75 : 1.25).epsilon(1e-6));
    }
}

TEST_CASE("Smoothing converges to the mean on a closed mesh", "[measure][smooth]") {
    SECTION("octahedron: every vertex alike, the plain mean, uniform and cotan") {
        const Mesh m = octahedron();
        const Topology topo = build_topology(m);
        const auto tris = welded_triangles(m, topo);
        for (SmoothWeights k : {SmoothWeights::uniform, SmoothWeights::cotan}) {
            const Smoother s(topo, k, tris, m.positions);
            std::vector<float> v = {3, -1, 0.5f, 2, 7, 1}, scratch;
            const double mean = std::accumulate(v.begin(), v.end(), 0.0) / v.size();
            s.smooth(v, 1, 60, scratch, nullptr, 2);
            for (float x : v) CHECK(x == Approx(mean).epsilon(1e-5));
        }
    }
    SECTION("closed cylinder of uneven valence: the mean weighted by each vertex's weight sum") {
        // Jacobi steps with symmetric weights keep sum_i d_i x_i (d_i the weight sum), so that is
        // the mean they converge to. Caps: a centre vertex joined to each end ring.
        Mesh m = cylinder(8, 4);
        const std::uint32_t bottom = m.positions.size(), top = bottom + 1;
        m.positions.push_back({0, 0, 0});
        m.positions.push_back({0, 2, 0});
        for (std::uint32_t i = 0; i < 8; ++i) {
            for (std::uint32_t x : {bottom, (i + 1) % 8, i}) m.face_indices.push_back(x);
            m.face_offsets.push_back(m.face_indices.size());
            for (std::uint32_t x : {top, 24 + i, 24 + (i + 1) % 8}) m.face_indices.push_back(x);
            m.face_offsets.push_back(m.face_indices.size());
        }
        const Topology topo = build_topology(m);
        const auto tris = welded_triangles(m, topo);
        for (SmoothWeights k : {SmoothWeights::uniform, SmoothWeights::cotan}) {
            const Smoother s(topo, k, tris, m.positions);
            std::vector<float> v(topo.welded_count()), scratch;
            for (std::size_t i = 0; i < v.size(); ++i) v[i] = float(std::sin(1.3 * i) + 0.1 * i);
            double num = 0, den = 0;
            for (std::size_t i = 0; i < v.size(); ++i) {
                const double d = k == SmoothWeights::cotan ? s.weight_sum[i] : s.offsets[i + 1] - s.offsets[i];
                num += d * v[i];
                den += d;
            }
            s.smooth(v, 1, 400, scratch, nullptr, 3);
            for (float x : v) CHECK(x == Approx(num / den).epsilon(1e-4));
        }
    }
}

TEST_CASE("Measures and smoothing give the same bits for 1 and 3 threads", "[measure][threads][corpus]") {
    const Scene scene = load_scene(test::corpus("bend_cylinder/bend_cylinder.glb"));
    std::vector<Eigen::Vector3f> rest;
    deform_mesh(scene, 0, bind_pose(scene), rest);
    for (Measure kind : {Measure::area, Measure::principal}) {
        for (int smooth : {0, 3}) {
            std::vector<std::vector<float>> first;
            for (unsigned threads : {1u, 3u}) {
                ThreadPool pool(threads);
                MeshTension mt(scene, 0, true, rest, MeasureOptions{kind, smooth, SmoothWeights::cotan});
                mt.block_vertices = 37;
                Pose pose = rest_pose(scene);
                sample_pose(scene, &scene.clips[0], 0.5 * (scene.clips[0].start + scene.clips[0].end), pose);
                mt.evaluate(scene, pose, &pool);
                std::vector<std::vector<float>> got = {mt.t_area, mt.lambda_max, mt.lambda_min, mt.compress_dir, mt.compress_t(), mt.stretch_t()};
                if (first.empty()) first = got;
                else
                    for (std::size_t k = 0; k < got.size(); ++k)
                        // Empty fields (t_area under principal) have no data pointer to compare.
                        CHECK((got[k].size() == first[k].size() &&
                               (got[k].empty() ||
                                std::memcmp(got[k].data(), first[k].data(), got[k].size() * sizeof(float)) == 0)));
            }
        }
    }
}

TEST_CASE("Fans: broken chains (a bowtie vertex, a flipped triangle, borders) add nothing but their triangles",
          "[measure]") {
    // Vertex 0 is shared by two fans that touch only there (a bowtie), one of them with a
    // triangle wound the other way; the other vertices are on borders. The layout walks each
    // vertex's triangles as chains, joined through the vertex itself: those joins must add
    // nothing. Oracle: the one-ring area sums computed directly, and a uniform scale (lambda = s).
    const std::vector<Eigen::Vector3f> p = {
        {0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0.2f}, {-1, 0, 0.1f}, {-1, -1, 0}, {0, -1, 0}, {0.5f, -1.5f, 0.3f}};
    const Mesh m = mesh_of(p, {{0, 1, 2}, {0, 2, 3}, {0, 4, 5}, {0, 6, 5}, {0, 6, 7}});
    const Topology topo = build_topology(m);
    REQUIRE(topo.welded_count() == p.size());
    const auto tris = welded_triangles(m, topo);
    const AreaKernel area(tris, topo, m.positions);
    const PrincipalKernel pk(tris, topo, m.positions);
    // Vertex 0: four chains, 1-2-3, 4-5, 6-5 (the flipped triangle) and 6-7, joined through
    // itself: 5 triangles and 3 x 2 joining slots in its batch (vertices 0-3). The principal
    // layout, which also sums edges, starts the first chain from the vertex itself, so that a
    // slot reaches vertex 1: one more.
    REQUIRE(area.fans.slot_start[1] - area.fans.slot_start[0] == 11);
#if defined(RIGSCOPE_SSE_KERNELS)  // the edge sums are laid out only for the SIMD kernels
    REQUIRE(pk.fuses_edge_t());
    REQUIRE(pk.fans.slot_start[1] - pk.fans.slot_start[0] == 12);
#endif
    const auto deformed = mapped(m, [](const Eigen::Vector3d& x) {
        return Eigen::Vector3d(1.3 * x.x() + 0.2 * x.y(), 0.8 * x.y() + 0.1 * x.z(), x.z() + 0.3 * x.x());
    });
    const std::size_t n = topo.welded_count();
    std::vector<float> t(n);
    CHECK(area.evaluate(deformed.data(), 0, n, t.data()) == 0);
    for (std::size_t v = 0; v < n; ++v) {
        double rest = 0, now = 0;
        for (std::size_t k = 0; k < tris.size(); k += 3) {
            if (tris[k] != v && tris[k + 1] != v && tris[k + 2] != v) continue;
            auto twice_area = [&](const std::vector<Eigen::Vector3f>& q) {
                const Eigen::Vector3d a = q[tris[k]].cast<double>(), b = q[tris[k + 1]].cast<double>(), c = q[tris[k + 2]].cast<double>();
                return (b - a).cross(c - a).norm();
            };
            rest += twice_area(m.positions);
            now += twice_area(deformed);
        }
        CHECK(t[v] == Approx(rest / now).epsilon(1e-5));
    }
    std::vector<float> lmax(n), lmin(n), dir(3 * n);
    const float s = 1.7f;
    const auto scaled = mapped(m, [&](const Eigen::Vector3d& x) { return Eigen::Vector3d(s * x); });
    CHECK(pk.evaluate(scaled.data(), 0, n, lmax.data(), lmin.data(), dir.data()) == 0);
    for (std::size_t v = 0; v < n; ++v) {
        CHECK(lmax[v] == Approx(s).epsilon(1e-5));
        CHECK(lmin[v] == Approx(s).epsilon(1e-5));
    }
}

// Only where the SIMD kernels are built: the scalar loops take T from tension_block itself.
#if defined(RIGSCOPE_SSE_KERNELS)
TEST_CASE("Principal's pass gives tension_block's edge T on every kind of one-ring", "[measure]") {
    // The principal kernel takes each edge length from a fan slot; edges no kept triangle reaches
    // get slots of their own. Here: a quad fan (its diagonals are not edges), a rest-collinear
    // triangle (left out of the principal ring: its edges come from their own slots), a loose edge
    // (a two-corner face) and a vertex with only that edge, a fin (three triangles on one edge), a
    // bowtie vertex, an isolated vertex, a quad with a repeated corner, and a 70-triangle cone
    // apex (more slots than the kernel's buffer on the stack holds: run_principal's heap path). Oracle: tension_block on the same positions, bit for
    // bit, and the lambdas of a kernel laid out without the edge sums.
    std::vector<Eigen::Vector3f> p;
    std::vector<std::vector<std::uint32_t>> f;
    auto add = [&](float x, float y, float z) {
        p.emplace_back(x, y, z);
        return std::uint32_t(p.size() - 1);
    };
    const std::uint32_t q0 = add(0, 0, 0), q1 = add(1, 0, 0), q2 = add(1, 1, 0), q3 = add(0, 1, 0), q4 = add(2, 0, 0), q5 = add(2, 1, 0);
    f.push_back({q0, q1, q2, q3});
    f.push_back({q1, q4, q5, q2});
    const std::uint32_t c0 = add(3, 0, 0), c1 = add(4, 0, 0), c2 = add(5, 0, 0), c3 = add(4, 1, 0);
    f.push_back({c0, c1, c2});  // collinear at rest
    f.push_back({c0, c3, c1});
    const std::uint32_t l0 = add(6, 0, 0);
    f.push_back({c3, l0});  // a loose edge: l0 has no triangle
    const std::uint32_t n0 = add(7, 0, 0), n1 = add(7, 1, 0), n2 = add(8, 0.5f, 0), n3 = add(6.5f, 0.5f, 1), n4 = add(7.5f, 0.5f, -1);
    f.push_back({n0, n1, n2});
    f.push_back({n1, n0, n3});
    f.push_back({n0, n1, n4});  // the fin: a third triangle on edge n0-n1
    const std::uint32_t b0 = add(10, 0, 0), b1 = add(11, 0, 0), b2 = add(11, 1, 0), b3 = add(9, 0, 0), b4 = add(9, -1, 0);
    f.push_back({b0, b1, b2});
    f.push_back({b0, b3, b4});  // b0 is a bowtie
    add(20, 20, 20);            // isolated
    const std::uint32_t r0 = add(12, 0, 0), r1 = add(13, 0, 0), r2 = add(13, 1, 0);
    f.push_back({r0, r1, r1, r2});  // a repeated corner
    const std::uint32_t apex = add(15, 0, 2);
    std::vector<std::uint32_t> rim;
    for (int i = 0; i < 70; ++i) rim.push_back(add(15 + std::cos(2 * kPi * i / 70), std::sin(2 * kPi * i / 70), 0));
    for (int i = 0; i < 70; ++i) f.push_back({apex, rim[i], rim[(i + 1) % 70]});
    const Mesh m = mesh_of(p, f);
    const Topology topo = build_topology(m);
    const auto tris = welded_triangles(m, topo);
    const PrincipalKernel pk(tris, topo, m.positions);
    REQUIRE(pk.fuses_edge_t());
    REQUIRE(pk.fans.max_slots > 64);
    Topology no_lists = topo;
    no_lists.release_lists();
    PrincipalKernel plain(tris, no_lists, m.positions);
    REQUIRE_FALSE(plain.fuses_edge_t());
    // Irregular, so that a sum in another order would round differently.
    const auto deformed = mapped(m, [](const Eigen::Vector3d& x) {
        return Eigen::Vector3d(x.x() + 0.37 * std::sin(3.1 * x.y() + x.x()), 0.9 * x.y() + 0.21 * std::cos(2.3 * x.x()),
                               x.z() + 0.11 * x.x() * x.y());
    });
    const std::size_t n = topo.welded_count();
    const EdgeBatches eb = edge_batches(topo);
    std::vector<float> rest(n), t_ref(n);
    mean_edge_lengths(eb, m.positions.data(), 0, eb.batch_count(), rest.data());
    const std::size_t degenerate_ref = tension_block(eb, deformed.data(), rest.data(), 0, eb.batch_count(), nullptr, t_ref.data());
    CHECK(degenerate_ref == 1);  // the isolated vertex
    for (bool avx2 : {false, true}) {
        if (avx2 && !avx2_supported()) continue;
        INFO("avx2 " << avx2);
        PrincipalKernel k = pk;
        k.avx2 = plain.avx2 = avx2;
        for (std::size_t block : {std::size_t(1), std::size_t(5), n}) {
            INFO("block " << block);
            std::vector<float> lmax(n), lmin(n), dir(3 * n), tc(n), ts(n), t(n, -1), lmax0(n), lmin0(n), dir0(3 * n), tc0(n), ts0(n);
            std::size_t edge = 0, unmapped = 0, unmapped0 = 0;
            for (std::size_t b = 0; b < n; b += block) {
                const std::size_t e = std::min(n, b + block);
                const auto c = k.evaluate_with_t(deformed.data(), b, e, lmax.data(), lmin.data(), dir.data(), tc.data(), ts.data(),
                                                 rest.data(), t.data());
                edge += c.edge;
                unmapped += c.measure;
                unmapped0 += plain.evaluate_and_map(deformed.data(), b, e, lmax0.data(), lmin0.data(), dir0.data(), tc0.data(), ts0.data());
            }
            CHECK(std::memcmp(t.data(), t_ref.data(), n * sizeof(float)) == 0);
            CHECK(edge == degenerate_ref);
            CHECK(std::memcmp(lmax.data(), lmax0.data(), n * sizeof(float)) == 0);
            CHECK(std::memcmp(lmin.data(), lmin0.data(), n * sizeof(float)) == 0);
            CHECK(std::memcmp(dir.data(), dir0.data(), 3 * n * sizeof(float)) == 0);
            CHECK(std::memcmp(tc.data(), tc0.data(), n * sizeof(float)) == 0);
            CHECK(unmapped == unmapped0);
        }
    }
}
#endif

TEST_CASE("A principal run's t is the edge run's, bit for bit", "[measure][corpus]") {
    // MeshTension takes T from the principal kernel's pass in principal runs (the same positions,
    // the same sums): every mesh of three corpus files mid-clip, 1 and 3 threads.
    for (const char* file : {"bend_cylinder/bend_cylinder.fbx", "khronos/cesium_man.gltf", "pab/arnaud.fbx"}) {
        const Scene scene = load_scene(test::corpus(file));
        Pose pose = rest_pose(scene);
        if (!scene.clips.empty()) sample_pose(scene, &scene.clips[0], 0.5 * (scene.clips[0].start + scene.clips[0].end), pose);
        for (std::size_t mi = 0; mi < scene.meshes.size(); ++mi) {
            INFO(file << " mesh " << mi);
            std::vector<Eigen::Vector3f> rest;
            deform_mesh(scene, static_cast<int>(mi), bind_pose(scene), rest);
            MeshTension edge(scene, static_cast<int>(mi), true, rest);
            edge.evaluate(scene, pose);
            for (unsigned threads : {1u, 3u}) {
                ThreadPool pool(threads);
                MeshTension principal(scene, static_cast<int>(mi), true, rest, MeasureOptions{Measure::principal, 0, SmoothWeights::uniform});
                principal.block_vertices = 37;
                principal.evaluate(scene, pose, &pool);
                REQUIRE(principal.t.size() == edge.t.size());
                CHECK(std::memcmp(principal.t.data(), edge.t.data(), edge.t.size() * sizeof(float)) == 0);
                CHECK(principal.degenerate == edge.degenerate);
            }
        }
    }
}
