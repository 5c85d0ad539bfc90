// Whether two loads gave a mesh the same bytes: every array a reader fills, and the mesh's name,
// node and skin. The glTF tests hold a load on several threads (test_gltf_threads.cpp) and a
// load of the selected meshes alone (test_gltf_mesh_selection.cpp) to a plain full load.
#pragma once

#include <catch2/catch.hpp>

#include "rigscope/core/same_bytes.h"
#include "rigscope/core/scene.h"

namespace rigscope_test {

inline void check_same_mesh(const rigscope::Mesh& x, const rigscope::Mesh& y) {
    using rigscope::same_bytes;
    CHECK(x.name == y.name);
    CHECK(x.node == y.node);
    CHECK(x.skin == y.skin);
    CHECK(same_bytes(x.positions, y.positions));
    CHECK(same_bytes(x.normals, y.normals));
    CHECK(same_bytes(x.face_indices, y.face_indices));
    CHECK(same_bytes(x.face_offsets, y.face_offsets));
    CHECK(same_bytes(x.influences.offsets, y.influences.offsets));
    CHECK(same_bytes(x.influences.joints, y.influences.joints));
    CHECK(same_bytes(x.influences.weights, y.influences.weights));
    CHECK(same_bytes(x.influences.stored_sums, y.influences.stored_sums));
    REQUIRE(x.uv_sets.size() == y.uv_sets.size());
    for (std::size_t u = 0; u < x.uv_sets.size(); ++u) {
        CHECK(x.uv_sets[u].name == y.uv_sets[u].name);
        CHECK(same_bytes(x.uv_sets[u].uv, y.uv_sets[u].uv));
        CHECK(same_bytes(x.uv_sets[u].corners, y.uv_sets[u].corners));
    }
    REQUIRE(x.targets.size() == y.targets.size());
    for (std::size_t t = 0; t < x.targets.size(); ++t) CHECK(same_bytes(x.targets[t].deltas, y.targets[t].deltas));
}

}  // namespace rigscope_test
