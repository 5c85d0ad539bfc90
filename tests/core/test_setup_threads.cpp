// A mesh's set-up spread over a pool's threads (issue 62: the weld's edges, the edge batches,
// the rest lengths, the rest pose) gives the same bits as one thread, for 1, 2 and 3 threads:
// every count is a sum and every list sorted, whichever thread reached an entry first. The mesh
// is large enough for several chunks of faces and of vertices (32768 and 16384 a chunk), made
// here: a tube with a duplicated seam (welded), quads and triangles, a few collapsed faces, its
// faces in a scrambled order so that buckets fill out of order. The edges are also checked
// against a second, plain computation (a std::set of the faces' welded pairs).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <set>
#include <unordered_map>
#include <utility>

#include "same_bits.h"
#include "rigscope/core/parallel.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/skin.h"
#include "rigscope/core/tension_map.h"
#include "rigscope/core/topology.h"

using namespace rigscope;
using test::same_bits;

namespace {

// rings x (columns + 1) vertices around a wavy tube: column `columns` repeats column 0 (a seam
// the weld joins). Quads, every seventh split into two triangles, every 997th collapsed onto two
// corners; faces shuffled by a fixed generator.
Mesh tube(int rings, int columns) {
    Mesh m;
    m.name = "tube";
    const double pi = 3.14159265358979323846;
    for (int r = 0; r < rings; ++r)
        for (int c = 0; c <= columns; ++c) {
            const double a = 2 * pi * (c % columns) / columns, radius = 1 + 0.1 * std::sin(r * 0.05);
            m.positions.emplace_back(static_cast<float>(radius * std::cos(a)), static_cast<float>(r * 0.01),
                                     static_cast<float>(radius * std::sin(a)));
        }
    std::vector<std::vector<std::uint32_t>> faces;
    auto at = [&](int r, int c) { return static_cast<std::uint32_t>(r * (columns + 1) + c); };
    for (int r = 0; r + 1 < rings; ++r)
        for (int c = 0; c < columns; ++c) {
            const std::uint32_t a = at(r, c), b = at(r, c + 1), d = at(r + 1, c + 1), e = at(r + 1, c);
            const std::size_t k = faces.size();
            if (k % 997 == 5) faces.push_back({a, b, a});
            else if (k % 7 == 3) {
                faces.push_back({a, b, d});
                faces.push_back({a, d, e});
            } else faces.push_back({a, b, d, e});
        }
    std::uint64_t state = 0x9E3779B97F4A7C15ull;
    for (std::size_t i = faces.size(); i > 1; --i) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        std::swap(faces[i - 1], faces[(state >> 33) % i]);
    }
    m.face_offsets.push_back(0);
    for (const auto& f : faces) {
        m.face_indices.insert(m.face_indices.end(), f.begin(), f.end());
        m.face_offsets.push_back(static_cast<std::uint32_t>(m.face_indices.size()));
    }
    return m;
}

bool same_topology(const Topology& a, const Topology& b) {
    return same_bits(a.welded_of, b.welded_of) && same_bits(a.representative, b.representative) && same_bits(a.edges, b.edges) &&
           same_bits(a.neighbour_offsets, b.neighbour_offsets) && same_bits(a.neighbours, b.neighbours) &&
           a.degenerate_faces == b.degenerate_faces && a.unique_edges == b.unique_edges;
}

bool same_batches(const EdgeBatches& a, const EdgeBatches& b) {
    return a.lanes == b.lanes && a.welded == b.welded && same_bits(a.start, b.start) && same_bits(a.index, b.index) &&
           same_bits(a.degree, b.degree) &&
           same_bits(a.uniform_degree, b.uniform_degree) && same_bits(a.reads_last, b.reads_last);
}

Scene scene_of(Mesh m) {
    Scene s;
    s.meshes.push_back(std::move(m));
    return s;
}

}  // namespace

TEST_CASE("Topology and edge batches built on 1, 2 and 3 threads are the same bits", "[topology][threads]") {
    const Mesh mesh = tube(300, 320);  // 96,300 vertices, ~104,000 faces: several chunks of each
    const Topology one = build_topology(mesh, true, kWeldRelativeTolerance, true);
    REQUIRE(one.welded_count() == 300u * 320u);  // the seam column welded to column 0
    REQUIRE(one.degenerate_faces > 50);

    // The edges and neighbour lists against a plain computation of the same.
    std::set<std::pair<std::uint32_t, std::uint32_t>> pairs;
    for (std::size_t f = 0; f + 1 < mesh.face_offsets.size(); ++f)
        for (std::uint32_t k = mesh.face_offsets[f]; k < mesh.face_offsets[f + 1]; ++k) {
            const std::uint32_t n = k + 1 < mesh.face_offsets[f + 1] ? k + 1 : mesh.face_offsets[f];
            const std::uint32_t a = one.welded_of[mesh.face_indices[k]], c = one.welded_of[mesh.face_indices[n]];
            if (a != c) pairs.emplace(std::min(a, c), std::max(a, c));
        }
    std::vector<std::uint32_t> edges;
    std::vector<std::vector<std::uint32_t>> lists(one.welded_count());
    for (const auto& [a, c] : pairs) {
        edges.push_back(a);
        edges.push_back(c);
        lists[a].push_back(c);
        lists[c].push_back(a);
    }
    CHECK(same_bits(one.edges, edges));
    bool lists_match = true;
    for (std::size_t w = 0; w < lists.size(); ++w) {
        std::sort(lists[w].begin(), lists[w].end());
        const std::vector<std::uint32_t> got(one.neighbours.begin() + one.neighbour_offsets[w],
                                             one.neighbours.begin() + one.neighbour_offsets[w + 1]);
        lists_match = lists_match && got == lists[w];
    }
    CHECK(lists_match);

    for (unsigned threads : {1u, 2u, 3u}) {
        INFO(threads << " threads");
        ThreadPool pool(threads);
        REQUIRE(pool.size() == threads);
        for (bool weld : {true, false})
            for (bool edge_list : {true, false}) {
                INFO("weld " << weld << ", edge list " << edge_list);
                CHECK(same_topology(build_topology(mesh, weld, kWeldRelativeTolerance, edge_list),
                                    build_topology(mesh, weld, kWeldRelativeTolerance, edge_list, &pool)));
            }
        for (std::size_t lanes : {EdgeBatches::kLanes, EdgeBatches::kWideLanes, EdgeBatches::kWidestLanes}) {
            INFO(lanes << " lanes");
            CHECK(same_batches(edge_batches(one, lanes), edge_batches(one, lanes, &pool)));
        }
    }
}

// The weld's cell hashes are computed a chunk (32,768 vertices) ahead of the table's insertions,
// on a second thread with a pool. On 100,000 vertices (four chunks) with copies just inside and
// just outside the tolerance and a dense cluster that makes the grid finer (spread over the
// file: twice; only in its last chunk: once, after three chunks were inserted), the weld on 1,
// 2 and 3 threads against the rule itself: a vertex joins the first earlier representative
// within the tolerance (found here through slabs of x one tolerance wide), else starts one.
TEST_CASE("The weld on 1, 2 and 3 threads follows the first-representative rule", "[topology][weld][threads]") {
    const bool cluster_late = GENERATE(false, true);
    INFO("cluster " << (cluster_late ? "in the last chunk" : "spread"));
    std::mt19937 rng(62);
    std::uniform_real_distribution<float> spread(-50.0f, 50.0f), ball(-0.01f, 0.01f);
    Mesh mesh;
    mesh.name = "points";
    mesh.positions = {{-50, -50, -50}, {50, 50, 50}};  // the box: the tolerance is known ahead
    const double tol = std::sqrt(3.0) * 100.0 * kWeldRelativeTolerance;
    while (mesh.positions.size() < 100000) {
        const std::uint32_t r = rng() % 10;
        if (mesh.positions.size() > 10 && r < 3) {
            // A copy of an earlier point: exact, or moved along an axis by 0.9 or 1.1 tolerances.
            Eigen::Vector3f p = mesh.positions[2 + rng() % (mesh.positions.size() - 2)];
            if (rng() % 4) p[static_cast<int>(rng() % 3)] += static_cast<float>(tol) * (rng() % 2 ? 0.9f : 1.1f);
            mesh.positions.push_back(p);
        } else if (cluster_late ? mesh.positions.size() >= 3 * 32768 + 1000 && r < 8 : r < 4) {
            mesh.positions.emplace_back(1.0f + ball(rng), 1.0f + ball(rng), 1.0f + ball(rng));
        } else {
            mesh.positions.emplace_back(spread(rng), spread(rng), spread(rng));
        }
    }
    for (std::uint32_t v = 0; v + 2 < mesh.positions.size(); v += 3) mesh.face_indices.insert(mesh.face_indices.end(), {v, v + 1, v + 2});
    for (std::size_t f = 0; f <= mesh.face_indices.size() / 3; ++f) mesh.face_offsets.push_back(static_cast<std::uint32_t>(3 * f));

    // The rule, with the tolerance as the weld takes it (the box's diagonal, in double).
    const double want_tol = (mesh.positions[1] - mesh.positions[0]).cast<double>().norm() * kWeldRelativeTolerance;
    std::unordered_map<std::int64_t, std::vector<std::uint32_t>> slabs;  // representatives by floor(x / tol)
    std::vector<std::uint32_t> want(mesh.positions.size());
    std::uint32_t reps = 0;
    for (std::uint32_t v = 0; v < mesh.positions.size(); ++v) {
        const Eigen::Vector3f& p = mesh.positions[v];
        const auto slab = static_cast<std::int64_t>(std::floor(p.x() / want_tol));
        std::uint32_t first = std::numeric_limits<std::uint32_t>::max();
        for (std::int64_t s = slab - 1; s <= slab + 1; ++s) {
            const auto it = slabs.find(s);
            if (it == slabs.end()) continue;
            for (std::uint32_t r : it->second)
                if (r < first && (mesh.positions[r] - p).cast<double>().norm() <= want_tol) first = r;
        }
        if (first == std::numeric_limits<std::uint32_t>::max()) {
            want[v] = reps++;
            slabs[slab].push_back(v);
        } else {
            want[v] = want[first];
        }
    }
    REQUIRE(reps < mesh.positions.size() - 10000);  // many copies welded
    for (unsigned threads : {1u, 2u, 3u}) {
        INFO(threads << " threads");
        ThreadPool pool(threads);
        const Topology t = build_topology(mesh, true, kWeldRelativeTolerance, false, &pool);
        CHECK(t.welded_count() == reps);
        CHECK(same_bits(t.welded_of, want));
    }
}

TEST_CASE("A mesh's set-up and frames on 1, 2 and 3 threads are the same bits", "[tension][threads]") {
    const Scene scene = scene_of(tube(200, 256));  // 51,400 vertices
    const Pose pose = bind_pose(scene);
    std::vector<Eigen::Vector3f> rest;
    deform_mesh(scene, 0, pose, rest);
    // The rest pose moved a little (a point 1% further out): rest lengths that are not the
    // frame's, so that T varies.
    std::vector<Eigen::Vector3f> moved = rest;
    for (auto& p : moved) p *= 1.01f;
    const MeshTension one(scene, 0, true, moved);
    for (unsigned threads : {1u, 2u, 3u}) {
        INFO(threads << " threads");
        ThreadPool pool(threads);
        std::vector<Eigen::Vector3f> rest_many;
        deform_mesh(scene, 0, pose, rest_many, &pool);
        CHECK(same_bits(rest, rest_many));
        MeshTension many(scene, 0, true, moved, {}, &pool);
        CHECK(same_topology(one.topo, many.topo));
        CHECK(same_batches(one.batches, many.batches));
        CHECK(same_bits(one.rest_lengths, many.rest_lengths));
        CHECK(one.rest_degenerate == many.rest_degenerate);
        MeshTension a = one;
        a.evaluate(scene, pose, nullptr);
        many.evaluate(scene, pose, &pool);
        CHECK(same_bits(a.deformed, many.deformed));
        CHECK(same_bits(a.t, many.t));
        CHECK(a.degenerate == many.degenerate);
        CHECK(a.t.front() > 1.0f);  // rest 1.01 / frame 1: every edge shorter than at rest
    }
}

// value_extremes (a frame's lowest and highest T and the first index of each, which the JSON frame
// writes) against a plain branchy pass, on values with many ties, -0 against 0, extremes at the
// ends and in the middle of blocks, and ranges that start anywhere.
TEST_CASE("value_extremes finds the first index of each extreme, as a plain pass does", "[tension]") {
    std::uint64_t state = 12345;
    auto next = [&] {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<std::uint32_t>(state >> 33);
    };
    for (int round = 0; round < 200; ++round) {
        const std::size_t n = 1 + next() % 9000;
        std::vector<float> t(n);
        const std::uint32_t levels = 1 + next() % 5;  // few distinct values: many ties
        for (float& x : t) x = static_cast<float>(next() % levels) * 0.25f - 0.5f;
        if (round % 3 == 0) t[next() % n] = -0.0f;
        if (round % 5 == 1) t[n - 1] = -7.0f;  // the minimum at the very end
        if (round % 7 == 2) t[next() % n] = 9.0f;
        const std::size_t begin = next() % n, end = begin + next() % (n - begin + 1);
        INFO("round " << round << ", [" << begin << ", " << end << ")");
        const ValueExtremes got = value_extremes(t.data(), begin, end);
        ValueExtremes want;
        if (begin < end) {
            want = {t[begin], t[begin], static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(begin)};
            for (std::size_t i = begin; i < end; ++i) {
                if (t[i] < want.min) want.min = t[i], want.min_at = static_cast<std::uint32_t>(i);
                if (t[i] > want.max) want.max = t[i], want.max_at = static_cast<std::uint32_t>(i);
            }
        }
        CHECK(got.min == want.min);
        CHECK(got.max == want.max);
        CHECK(got.min_at == want.min_at);
        CHECK(got.max_at == want.max_at);
        // Folded into extremes found before (the tiled frame's ranges): the bits of folding the
        // range's own, whether the earlier ones win, lose or tie on value, with lower or higher
        // indices.
        for (int k = 0; k < 6; ++k) {
            ValueExtremes before;
            before.min = k == 0 ? std::numeric_limits<float>::infinity() : static_cast<float>(next() % (levels + 2)) * 0.25f - 0.75f;
            before.max = k == 0 ? -std::numeric_limits<float>::infinity() : static_cast<float>(next() % (levels + 2)) * 0.25f - 0.5f;
            if (k == 1) before.min = -0.0f, before.max = 0.0f;
            before.min_at = next() % static_cast<std::uint32_t>(n + 1);
            before.max_at = next() % static_cast<std::uint32_t>(n + 1);
            INFO("before: " << before.min << " at " << before.min_at << ", " << before.max << " at " << before.max_at);
            const ValueExtremes plain = fold_extremes(before, got), folded = fold_value_extremes(before, t.data(), begin, end);
            CHECK(std::memcmp(&plain.min, &folded.min, sizeof(float)) == 0);
            CHECK(std::memcmp(&plain.max, &folded.max, sizeof(float)) == 0);
            CHECK(plain.min_at == folded.min_at);
            CHECK(plain.max_at == folded.max_at);
        }
    }
}
