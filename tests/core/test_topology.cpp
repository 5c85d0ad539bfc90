// Welding: coincident vertices become one welded vertex only when their skin influences agree,
// so a seam between differently weighted parts (a cut between two bones) stays cut.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <utility>

#include "rigscope/core/parallel.h"
#include "rigscope/core/topology.h"

using namespace rigscope;

namespace {

// Two triangles sharing the edge x = 1 through duplicated vertices (a seam): vertices 1, 2 of
// the first and 3, 4 of the second lie at the same points.
Mesh seam_mesh() {
    Mesh m;
    m.positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {1, 0, 0}, {1, 1, 0}, {2, 0, 0}};
    m.face_indices = {0, 1, 2, 3, 5, 4};
    m.face_offsets = {0, 3, 6};
    return m;
}

void set_influences(Mesh& m, const std::vector<std::vector<std::pair<std::uint16_t, float>>>& per_vertex) {
    m.influences = {};
    m.influences.offsets.push_back(0);
    for (const auto& row : per_vertex) {
        for (const auto& [j, w] : row) {
            m.influences.joints.push_back(j);
            m.influences.weights.push_back(w);
        }
        m.influences.offsets.push_back(static_cast<std::uint32_t>(m.influences.joints.size()));
    }
}

}  // namespace

TEST_CASE("weld: coincident vertices with the same influences join, with other weights or joints they stay apart",
          "[topology]") {
    Mesh m = seam_mesh();
    SECTION("no skin: position alone decides") {
        const Topology t = build_topology(m);
        CHECK(t.welded_count() == 4);
        CHECK(t.welded_of[3] == t.welded_of[1]);
        CHECK(t.welded_of[4] == t.welded_of[2]);
    }
    SECTION("same influences, listed in another order: welded") {
        set_influences(m, {{{0, 1}}, {{0, 0.5f}, {1, 0.5f}}, {{0, 0.25f}, {1, 0.75f}},
                           {{1, 0.5f}, {0, 0.5f}}, {{1, 0.75f}, {0, 0.25f}}, {{1, 1}}});
        const Topology t = build_topology(m);
        CHECK(t.welded_count() == 4);
        CHECK(t.welded_of[3] == t.welded_of[1]);
        CHECK(t.welded_of[4] == t.welded_of[2]);
    }
    SECTION("same joints, different weights: apart") {
        set_influences(m, {{{0, 1}}, {{0, 0.5f}, {1, 0.5f}}, {{0, 0.25f}, {1, 0.75f}},
                           {{0, 0.6f}, {1, 0.4f}}, {{0, 0.25f}, {1, 0.75f}}, {{1, 1}}});
        const Topology t = build_topology(m);
        CHECK(t.welded_count() == 5);
        CHECK(t.welded_of[3] != t.welded_of[1]);
        CHECK(t.welded_of[4] == t.welded_of[2]);
    }
    SECTION("one joint each, different joints: apart") {
        set_influences(m, {{{0, 1}}, {{0, 1}}, {{0, 1}}, {{1, 1}}, {{1, 1}}, {{1, 1}}});
        const Topology t = build_topology(m);
        CHECK(t.welded_count() == 6);
        CHECK(t.welded_of[3] != t.welded_of[1]);
        CHECK(t.welded_of[4] != t.welded_of[2]);
    }
}

// The edge buckets (per smaller end, each sorted and its repeats dropped) hold from one entry to
// hundreds: small ones go through a sorting network, long ones through std::sort. Faces drawn
// at random over 20,000 vertices on a line (no two within the weld tolerance), a few hubs in
// many of them, triangles (some with a repeated corner), quads and a pentagon: the lists
// against a std::set of the faces' pairs, on 1, 2 and 3 threads.
TEST_CASE("edge lists match a plain computation for buckets of every size", "[topology]") {
    constexpr std::uint32_t kVertices = 20000;
    Mesh m;
    m.name = "random faces";
    for (std::uint32_t v = 0; v < kVertices; ++v) m.positions.emplace_back(static_cast<float>(v), 0.0f, 0.0f);
    std::uint64_t state = 7;
    auto next = [&state](std::uint32_t below) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<std::uint32_t>((state >> 33) % below);
    };
    m.face_offsets.push_back(0);
    for (int f = 0; f < 30000; ++f) {
        const std::uint32_t corners = f % 50 == 7 ? 5 : f % 9 == 4 ? 4 : 3;
        for (std::uint32_t k = 0; k < corners; ++k) {
            // Hubs 0, 1 and 9999 in about one face in 40, 70 and 250; neighbours often close by.
            const std::uint32_t r = next(1000);
            std::uint32_t v = r < 25 ? 0 : r < 40 ? 1 : r < 44 ? 9999 : next(kVertices);
            if (k > 0 && r % 3 == 0) v = std::min(kVertices - 1, m.face_indices.back() + 1 + next(4));
            if (f % 101 == 3 && k == 2) v = m.face_indices.back();  // a collapsed corner
            m.face_indices.push_back(v);
        }
        m.face_offsets.push_back(static_cast<std::uint32_t>(m.face_indices.size()));
    }
    std::set<std::pair<std::uint32_t, std::uint32_t>> pairs;
    std::size_t degenerate = 0;
    for (std::size_t f = 0; f + 1 < m.face_offsets.size(); ++f) {
        std::set<std::uint32_t> distinct;
        for (std::uint32_t k = m.face_offsets[f]; k < m.face_offsets[f + 1]; ++k) {
            const std::uint32_t n = k + 1 < m.face_offsets[f + 1] ? k + 1 : m.face_offsets[f];
            const std::uint32_t a = m.face_indices[k], c = m.face_indices[n];
            if (a != c) pairs.emplace(std::min(a, c), std::max(a, c)), distinct.insert(a), distinct.insert(c);
        }
        // Corners collapsed onto fewer than three points (a triangle with a repeated corner).
        if (distinct.size() < 3) ++degenerate;
    }
    std::vector<std::vector<std::uint32_t>> lists(kVertices);
    std::vector<std::uint32_t> edges;
    for (const auto& [a, c] : pairs) {
        lists[a].push_back(c);
        lists[c].push_back(a);
        edges.push_back(a);
        edges.push_back(c);
    }
    for (auto& l : lists) std::sort(l.begin(), l.end());
    REQUIRE(lists[0].size() > 1000);  // the hubs' buckets are long
    for (unsigned threads : {1u, 2u, 3u}) {
        INFO(threads << " threads");
        ThreadPool pool(threads);
        const Topology t = build_topology(m, true, kWeldRelativeTolerance, true, &pool);
        REQUIRE(t.welded_count() == kVertices);
        CHECK(t.edges == edges);
        CHECK(t.edge_count() == pairs.size());
        CHECK(t.degenerate_faces == degenerate);
        bool same = t.neighbour_offsets.size() == kVertices + 1;
        for (std::uint32_t w = 0; w < kVertices && same; ++w)
            same = std::equal(lists[w].begin(), lists[w].end(), t.neighbours.begin() + t.neighbour_offsets[w],
                              t.neighbours.begin() + t.neighbour_offsets[w + 1]);
        CHECK(same);
    }
}
