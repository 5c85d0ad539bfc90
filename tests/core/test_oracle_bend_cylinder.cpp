// Acceptance against Blender: deformed positions and T of bend_cylinder (glb: triangles, FBX:
// quads and n-gons) at every frame of the oracles.
//
// Tolerances: 1e-5 (m for positions) near the measured error. Blender evaluates in float, as we
// do, and both orders of summation differ by a few ulps. Measured (GCC 12, x86-64 SSE2 path):
// rest match 0 (glb) and 3.1e-7 m (FBX), positions 7.5e-7 m (glb) and 1.0e-6 m (FBX), T 1.9e-6
// (glb) and 2.3e-6 (FBX). 1e-5 leaves a margin of 4x to 10x for other compilers and SIMD paths;
// any real error in a formula (a dropped influence, a wrong tangent) is orders larger.
#include <catch2/catch.hpp>

#include "corpus.h"
#include "oracle.h"
#include "rigscope/io/load.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/skin.h"
#include "rigscope/core/tension_map.h"

using namespace rigscope;

namespace {

struct Case {
    const char* file;
    const char* oracle;
    double time_offset_frames;  // oracle frame f is file time (f + offset) / 24
    std::size_t vertices, edges;
};

// glb: Blender writes frame f at f / fps. FBX via Assimp: the take is rebased to 0, so oracle
// frame f is time (f - 1) / fps (corpus README).
const Case kCases[] = {
    {"bend_cylinder/bend_cylinder.glb", "bend_cylinder/blender_oracle_glb.json", 0.0, 544, 1626},
    {"bend_cylinder/bend_cylinder.fbx", "bend_cylinder/blender_oracle_fbx.json", -1.0, 544, 1056},
};

}  // namespace

TEST_CASE("bend_cylinder deform and T equal Blender's at every oracle frame", "[oracle][corpus]") {
    for (const Case& c : kCases) {
        SECTION(c.file) {
            const Scene scene = load_scene(test::corpus(c.file));
            const auto oracle = test::load_json(test::corpus(c.oracle));
            REQUIRE(scene.meshes.size() == 1);
            REQUIRE(!scene.clips.empty());

            std::vector<Eigen::Vector3f> rest;
            deform_mesh(scene, 0, bind_pose(scene), rest);
            double worst_rest = 0;
            const auto idx = test::match_nearest(test::points(oracle["rest"]), rest, &worst_rest);
            CHECK(worst_rest < 1e-5);

            MeshTension mt(scene, 0, true, rest);
            CHECK(mt.topo.welded_count() == c.vertices);
            CHECK(mt.topo.edge_count() == c.edges);
            CHECK(oracle["edge_count"].get<std::size_t>() == c.edges);

            Pose pose = rest_pose(scene);
            double worst_pos = 0, worst_t = 0;
            for (const auto& fr : oracle["frames"]) {
                const double f = fr["frame"].get<double>();
                sample_pose(scene, &scene.clips[0], (f + c.time_offset_frames) / 24.0, pose);
                mt.evaluate(scene, pose);
                const auto pos = test::points(fr["positions"]);
                const auto& t = fr["t"];
                for (std::size_t i = 0; i < pos.size(); ++i) {
                    worst_pos = std::max<double>(worst_pos, (mt.deformed[idx[i]] - pos[i]).norm());
                    worst_t = std::max<double>(worst_t, std::abs(mt.t[mt.topo.welded_of[idx[i]]] - t[i].get<double>()));
                }
            }
            INFO(c.file << ": worst position error " << worst_pos << " m, worst T error " << worst_t);
            CHECK(worst_pos < 1e-5);
            CHECK(worst_t < 1e-5);
        }
    }
}

TEST_CASE("bend_cylinder welds its 625 file vertices to 544, each copy at its representative's position", "[topology][corpus]") {
    const Scene scene = load_scene(test::corpus("bend_cylinder/bend_cylinder.glb"));
    const Mesh& mesh = scene.meshes[0];
    CHECK(mesh.vertex_count() == 625);
    const Topology topo = build_topology(mesh);
    CHECK(topo.welded_count() == 544);
    std::size_t copies = 0;
    for (std::size_t v = 0; v < mesh.vertex_count(); ++v) {
        const std::uint32_t r = topo.representative[topo.welded_of[v]];
        if (r == v) continue;
        ++copies;
        CHECK((mesh.positions[v] - mesh.positions[r]).norm() < 1e-6f);
    }
    CHECK(copies == 625 - 544);
    // --weld off keeps the file's vertices apart: the seams then cut the neighbourhoods.
    const Topology apart = build_topology(mesh, false);
    CHECK(apart.welded_count() == 625);
    CHECK(apart.edge_count() > topo.edge_count());
}
