// lint's weld and degenerate_face against independent, brute-force counts: the checks bucket
// face sides by their lower point and weld on a grid, so a mesh with seam copies, fins, collapsed
// faces and long polygons (the cases those fast paths treat apart) must give exactly what a
// quadratic weld and a map of every edge give.
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <tuple>

#include "corpus.h"
#include "rigscope/core/lint.h"
#include "rigscope/io/load.h"

using namespace rigscope;

namespace {

// The weld's rule done the slow way: each vertex joins the first earlier representative within
// 1e-6 of the diagonal (the same float difference, measured in double), else starts one.
std::vector<std::uint32_t> weld_by_pairs(const std::vector<Eigen::Vector3f>& p) {
    Eigen::Vector3f lo = p[0], hi = p[0];
    for (const auto& q : p) lo = lo.cwiseMin(q), hi = hi.cwiseMax(q);
    const double diag = (hi - lo).cast<double>().norm();
    const double tol = diag > 0 ? diag * kWeldRelativeTolerance : 1e-12;
    std::vector<std::uint32_t> reps, first(p.size());
    for (std::uint32_t v = 0; v < p.size(); ++v) {
        first[v] = v;
        for (std::uint32_t u : reps)
            if ((p[u] - p[v]).cast<double>().norm() <= tol) {
                first[v] = u;
                break;
            }
        if (first[v] == v) reps.push_back(v);
    }
    return first;
}

using Edge = std::tuple<std::int64_t, std::int64_t, double>;  // lower point, higher point, faces

// Every edge over the welded points counted once per face that has it, in a map.
std::vector<Edge> shared_edges_by_map(const Mesh& m, const std::vector<std::uint32_t>& first) {
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> count;
    for (std::size_t f = 0; f < m.face_count(); ++f) {
        std::set<std::pair<std::uint32_t, std::uint32_t>> sides;
        const std::uint32_t b = m.face_offsets[f], e = m.face_offsets[f + 1];
        for (std::uint32_t k = b; k < e; ++k) {
            const std::uint32_t a = first[m.face_indices[k]], c = first[m.face_indices[k + 1 < e ? k + 1 : b]];
            if (a != c) sides.insert({std::min(a, c), std::max(a, c)});
        }
        for (const auto& s : sides) ++count[s];
    }
    std::vector<Edge> out;
    for (const auto& [s, n] : count)
        if (n > 2) out.emplace_back(s.first, s.second, n);
    return out;
}

std::vector<Edge> shared_edges_by_lint(const Scene& s, int mesh, const std::vector<std::uint32_t>& first) {
    std::vector<Finding> all;
    lint_faces(s, mesh, first, LintParams{}, all);
    std::vector<Edge> out;
    for (const Finding& f : all)
        if (f.face < 0) out.emplace_back(f.vertex, f.partner, f.value);
    return out;
}

void add_face(Mesh& m, std::initializer_list<std::uint32_t> corners) {
    for (std::uint32_t v : corners) m.face_indices.push_back(v);
    m.face_offsets.push_back(static_cast<std::uint32_t>(m.face_indices.size()));
}

}  // namespace

TEST_CASE("lint weld and non-manifold edges equal a brute-force count on a crafted mesh", "[lint]") {
    Scene s;
    s.meshes.emplace_back();
    Mesh& m = s.meshes[0];
    m.name = "crafted";
    // A 12 x 12 grid over the unit square, gently curved, as triangles.
    const int n = 12;
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x)
            m.positions.emplace_back(x / float(n - 1), y / float(n - 1), 0.1f * std::sin(float(x + 2 * y)));
    m.face_offsets.push_back(0);
    auto at = [&](int x, int y) { return static_cast<std::uint32_t>(y * n + x); };
    for (int y = 0; y + 1 < n; ++y)
        for (int x = 0; x + 1 < n; ++x) {
            add_face(m, {at(x, y), at(x + 1, y), at(x + 1, y + 1)});
            add_face(m, {at(x, y), at(x + 1, y + 1), at(x, y + 1)});
        }
    const double diag = std::sqrt(2.0 + 0.04);
    const float tol = static_cast<float>(diag * kWeldRelativeTolerance);
    // Seam copies: exact, inside the weld tolerance, and far outside it (kept apart; the tolerance
    // grows with the finished bounding box, under 6 times this one); faces switched
    // onto them, so only the weld joins their edges.
    std::mt19937 rng(30);
    std::vector<std::uint32_t> copies;
    for (int i = 0; i < 40; ++i) {
        const std::uint32_t v = rng() % (n * n);
        const float shift = i % 3 == 0 ? 0.0f : i % 3 == 1 ? 0.4f * tol : 50.0f * tol;
        m.positions.push_back(m.positions[v] + Eigen::Vector3f(shift, 0, 0));
        const auto copy = static_cast<std::uint32_t>(m.positions.size() - 1);
        copies.push_back(copy);
        for (std::uint32_t& c : m.face_indices)
            if (c == v && rng() % 2) c = copy;
        // A third face over one of v's edges, through the copy.
        const std::uint32_t w = v + 1 < static_cast<std::uint32_t>(n * n) ? v + 1 : v - 1;
        if (i % 4 == 0) add_face(m, {copy, w, static_cast<std::uint32_t>(rng() % (n * n))});
    }
    // A fin: three triangles over one edge whose lower point has no other edge to a higher one
    // (its bucket holds exactly those three sides).
    const auto base = static_cast<std::uint32_t>(m.positions.size());
    for (int k = 0; k < 3; ++k) m.positions.emplace_back(2.0f + k, 0.5f, 1.0f);  // the fins' tips, lower
    m.positions.emplace_back(2.0f, 0.0f, 0.0f);                                   // lower end of the edge
    m.positions.emplace_back(2.0f, 1.0f, 0.0f);                                   // its higher end
    for (std::uint32_t k = 0; k < 3; ++k) add_face(m, {base + 3, base + 4, base + k});
    // Collapsed faces: (a, b, a's copy) has the side a-b twice, and counts once on it.
    add_face(m, {copies[0], at(5, 5), copies[0]});
    add_face(m, {at(3, 3), at(4, 3), at(3, 3)});
    // A 20-corner polygon going twice round a ring of ten points (more sides than the per-face
    // scan keeps, so they are sorted), plus two triangles on one ring edge: three faces there.
    const auto ring = static_cast<std::uint32_t>(m.positions.size());
    for (int k = 0; k < 10; ++k) m.positions.emplace_back(std::cos(k * 0.628f) - 3, std::sin(k * 0.628f), 0.0f);
    m.face_indices.reserve(m.face_indices.size() + 20);
    for (int k = 0; k < 20; ++k) m.face_indices.push_back(ring + k % 10);
    m.face_offsets.push_back(static_cast<std::uint32_t>(m.face_indices.size()));
    add_face(m, {ring + 2, ring + 3, at(0, 0)});
    add_face(m, {ring + 3, ring + 2, at(1, 0)});

    const std::vector<std::uint32_t> first = coincident_vertices(m.positions);
    const std::vector<std::uint32_t> expected_weld = weld_by_pairs(m.positions);
    REQUIRE(first == expected_weld);
    // The planted joins happened: some copies weld, the far ones do not.
    std::size_t welded = 0;
    for (std::uint32_t c : copies) welded += first[c] != c;
    CHECK(welded > 10);
    CHECK(welded < copies.size());

    const std::vector<Edge> expected = shared_edges_by_map(m, first);
    // The fin, the ring edge and several edges through the copies.
    CHECK(std::find(expected.begin(), expected.end(), Edge{base + 3, base + 4, 3.0}) != expected.end());
    CHECK(std::find(expected.begin(), expected.end(), Edge{ring + 2, ring + 3, 3.0}) != expected.end());
    CHECK(expected.size() >= 5);
    CHECK(shared_edges_by_lint(s, 0, first) == expected);
}

TEST_CASE("lint weld and non-manifold edges equal a brute-force count on cesium_man", "[lint][corpus]") {
    Scene s = load_scene(test::corpus("khronos/cesium_man.gltf"));
    REQUIRE(!s.meshes.empty());
    Mesh& m = s.meshes[0];
    const std::vector<std::uint32_t> first = coincident_vertices(m.positions);
    REQUIRE(first == weld_by_pairs(m.positions));
    // Its own seams: some file vertices share a position.
    std::size_t copies = 0;
    for (std::uint32_t v = 0; v < first.size(); ++v) copies += first[v] != v;
    REQUIRE(copies > 0);
    CHECK(shared_edges_by_lint(s, 0, first) == shared_edges_by_map(m, first));
    // Planted: faces repeated through a seam copy (only the weld makes them the same edge), and
    // one face three times more (four faces and more on its edges).
    const std::size_t faces = m.face_count();
    std::size_t planted = 0;
    for (std::size_t f = 0; f < faces && planted < 6; f += 97) {
        std::vector<std::uint32_t> corners(m.face_indices.begin() + m.face_offsets[f], m.face_indices.begin() + m.face_offsets[f + 1]);
        bool through_copy = false;
        for (std::uint32_t& c : corners)
            for (std::uint32_t v = 0; v < first.size() && !through_copy; ++v)
                if (v != c && first[v] == first[c]) c = v, through_copy = true;
        if (!through_copy) continue;
        m.face_indices.insert(m.face_indices.end(), corners.begin(), corners.end());
        m.face_offsets.push_back(static_cast<std::uint32_t>(m.face_indices.size()));
        ++planted;
    }
    REQUIRE(planted > 0);
    for (int k = 0; k < 3; ++k) add_face(m, {m.face_indices[0], m.face_indices[1], m.face_indices[2]});
    const std::vector<Edge> expected = shared_edges_by_map(m, first);
    CHECK(expected.size() >= 3);
    CHECK(shared_edges_by_lint(s, 0, first) == expected);
}

namespace {

// Twice a face's area the definition's way: Newell's normal summed in double.
double area_by_newell(const Mesh& m, std::size_t f) {
    const std::uint32_t b = m.face_offsets[f], e = m.face_offsets[f + 1];
    Eigen::Vector3d twice = Eigen::Vector3d::Zero();
    for (std::uint32_t k = b; k < e; ++k)
        twice += m.positions[m.face_indices[k]].cast<double>().cross(m.positions[m.face_indices[k + 1 < e ? k + 1 : b]].cast<double>());
    return 0.5 * twice.norm();
}

}  // namespace

TEST_CASE("lint zero-area verdicts on slivers near the threshold equal a double Newell area, near the origin and far from it",
          "[lint]") {
    // lint screens triangle areas in float and confirms in double only near the threshold. Here
    // every triangle is a sliver (edges about 1, normal offset tiny) whose area lies within 20% of
    // the threshold, where float's cross product is off by several percent (cancellation): a
    // screen without its error bound passes some faces whose double area is at or below it.
    std::mt19937 rng(3030);
    std::uniform_real_distribution<double> unit(-1.0, 1.0), spread(0.8, 1.2);
    Scene s;
    // (offset of the mesh from the origin, threshold area): float's spacing at 1000 is 6e-5, so the
    // far mesh's threshold is larger for its slivers to have areas near it at all.
    const std::pair<double, double> groups[] = {{0.0, 1e-6}, {1000.0, 2e-3}};
    for (const auto& [offset, threshold] : groups) {
        Mesh& m = s.meshes.emplace_back();
        m.name = "slivers";
        m.face_offsets.push_back(0);
        for (int f = 0; f < 3000; ++f) {
            const Eigen::Vector3d p0(offset + unit(rng), offset + unit(rng), offset + unit(rng));
            const Eigen::Vector3d u = Eigen::Vector3d(unit(rng), unit(rng), unit(rng)).normalized();
            const Eigen::Vector3d side = u.unitOrthogonal();
            const double height = 2 * threshold * spread(rng);  // twice the area over an edge of 1
            for (const Eigen::Vector3d& p : {p0, Eigen::Vector3d(p0 + u), Eigen::Vector3d(p0 + 0.5 * u + height * side)})
                m.positions.push_back(p.cast<float>());
            add_face(m, {3u * f, 3u * f + 1, 3u * f + 2});
        }
        // Exact zeros too: a repeated corner and three collinear corners.
        add_face(m, {0, 1, 0});
        m.positions.push_back(m.positions[0] + Eigen::Vector3f(0.25f, 0.5f, 0.125f));
        m.positions.push_back(m.positions[0] + Eigen::Vector3f(0.5f, 1.0f, 0.25f));
        add_face(m, {0, static_cast<std::uint32_t>(m.positions.size() - 2), static_cast<std::uint32_t>(m.positions.size() - 1)});
    }
    for (int mesh = 0; mesh < 2; ++mesh) {
        const Mesh& m = s.meshes[mesh];
        Eigen::Vector3f lo = m.positions[0], hi = m.positions[0];
        for (const auto& p : m.positions) lo = lo.cwiseMin(p), hi = hi.cwiseMax(p);
        const double diag = (hi - lo).cast<double>().norm();
        LintParams params;
        params.area_tolerance = groups[mesh].second / (diag * diag);
        const double zero_area = params.area_tolerance * diag * diag;
        std::vector<std::pair<std::int64_t, double>> expected, found;
        for (std::size_t f = 0; f < m.face_count(); ++f)
            if (area_by_newell(m, f) <= zero_area) expected.emplace_back(f, area_by_newell(m, f));
        std::vector<std::uint32_t> apart(m.positions.size());  // no weld: only the areas matter here
        for (std::uint32_t v = 0; v < apart.size(); ++v) apart[v] = v;
        std::vector<Finding> all;
        lint_faces(s, mesh, apart, params, all);
        for (const Finding& f : all)
            if (f.face >= 0) found.emplace_back(f.face, f.value);
        // Both verdicts are common: the slivers straddle the threshold.
        CHECK(expected.size() > 500);
        CHECK(expected.size() < m.face_count() - 500);
        CHECK(found == expected);
    }
}

TEST_CASE("lint non-manifold edges at points with more sides than their inline slots equal a brute-force count", "[lint]") {
    // Two fan centres with the lowest indices, each with 20 higher neighbours (40 sides: 8 kept
    // inline, the rest overflow), with extra faces on their edges added last, so that counts mix
    // inline and overflow sides; a point between them has overflow but no shared edge.
    Scene s;
    Mesh& m = s.meshes.emplace_back();
    m.name = "fans";
    m.face_offsets.push_back(0);
    const std::uint32_t centres[] = {0, 1, 2};
    for (std::uint32_t c : centres) m.positions.emplace_back(3.0f * c, 0.0f, 0.0f);
    std::vector<std::uint32_t> rim_start;
    for (std::uint32_t c : centres) {
        rim_start.push_back(static_cast<std::uint32_t>(m.positions.size()));
        for (int k = 0; k < 20; ++k) m.positions.emplace_back(3.0f * c + std::cos(k * 0.314f), std::sin(k * 0.314f), 0.2f);
    }
    for (std::size_t i = 0; i < 3; ++i)
        for (std::uint32_t k = 0; k < 20; ++k) add_face(m, {centres[i], rim_start[i] + k, rim_start[i] + (k + 1) % 20});
    // Centre 0: its first edge (inline) gains a third and fourth face; its last one (overflow) a third.
    add_face(m, {0, rim_start[0], rim_start[0] + 7});
    add_face(m, {rim_start[0], 0, rim_start[0] + 9});
    add_face(m, {0, rim_start[0] + 19, rim_start[0] + 5});
    // Centre 2: a middle edge gains a third face.
    add_face(m, {2, rim_start[2] + 11, rim_start[2] + 3});
    std::vector<std::uint32_t> apart(m.positions.size());
    for (std::uint32_t v = 0; v < apart.size(); ++v) apart[v] = v;
    const std::vector<Edge> expected = shared_edges_by_map(m, apart);
    CHECK(std::find(expected.begin(), expected.end(), Edge{0, rim_start[0], 4.0}) != expected.end());
    CHECK(std::find(expected.begin(), expected.end(), Edge{0, rim_start[0] + 19, 3.0}) != expected.end());
    CHECK(std::find(expected.begin(), expected.end(), Edge{2, rim_start[2] + 11, 3.0}) != expected.end());
    CHECK(shared_edges_by_lint(s, 0, apart) == expected);
}
