// Welding: coincident vertices become one welded vertex only when their skin influences agree,
// so a seam between differently weighted parts (a cut between two bones) stays cut.
#include <catch2/catch.hpp>

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
