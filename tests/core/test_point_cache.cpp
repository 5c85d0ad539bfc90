// Point caches in the core (core/point_cache.h, the per-frame hook in skin.cpp): a mesh with a
// cache takes the cache's positions at the frame's time, whatever its skin says.
//
// The oracle is the skin itself: bend_cylinder.glb's skinned positions, sampled into an in-memory
// cache, must come back bit for bit at the sample times (the cache copies floats, nothing is
// recomputed), so tension from the cache equals tension from the skin exactly. Between samples
// the expected position is the linear blend (1 - u) a + u b computed here in double: the core
// blends in float, so they agree to float rounding of positions ~1 m (tolerance 1e-6 m, a few
// ulps; a wrong u or a wrong sample is off by centimetres).
#include <catch2/catch.hpp>

#include "corpus.h"
#include "rigscope/core/error.h"
#include "rigscope/core/parallel.h"
#include "rigscope/core/point_cache.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/skin.h"
#include "rigscope/core/tension_map.h"
#include "rigscope/io/load.h"

using namespace rigscope;

namespace {

struct Skinned {
    Scene scene;
    std::vector<double> times;
    std::vector<std::vector<Eigen::Vector3f>> samples;
};

// bend_cylinder.glb's skinned positions at frames 1, 11, ..., 91 (24 fps).
Skinned skinned_samples() {
    Skinned s;
    s.scene = load_scene(test::corpus("bend_cylinder/bend_cylinder.glb"));
    Pose pose = rest_pose(s.scene);
    for (int f = 1; f <= 91; f += 10) {
        s.times.push_back(f / 24.0);
        sample_pose(s.scene, &s.scene.clips[0], f / 24.0, pose);
        s.samples.emplace_back();
        deform_mesh(s.scene, 0, pose, s.samples.back());
    }
    return s;
}

}  // namespace

TEST_CASE("a mesh with a point cache deforms to the cache's samples, the skin ignored", "[point_cache][corpus]") {
    Skinned s = skinned_samples();
    const Scene skinned = s.scene;
    const auto cache = std::make_shared<MemoryPointCache>("bend.cache", s.times, s.samples);
    Scene cached = s.scene;
    // The skin stays on the mesh (it is what the warning is about); the clip is dropped so that
    // only the cache can move the mesh.
    cached.clips.clear();
    const auto warnings = attach_point_cache(cached, 0, cache);
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].kind == WarningKind::Replaced);
    CHECK(warnings[0].message.find("skin is ignored") != std::string::npos);

    std::vector<Eigen::Vector3f> rest;
    deform_mesh(cached, 0, bind_pose(cached), rest);
    CHECK(rest == cached.meshes[0].positions);  // the bind pose is the base mesh as stored

    MeshTension from_skin(skinned, 0, true, rest), from_cache(cached, 0, true, rest);
    from_cache.block_vertices = 64;  // several blocks over the pool: set_pose reads once for all
    ThreadPool pool(2);
    Pose ps = rest_pose(skinned), pc = rest_pose(cached);
    for (std::size_t i = 0; i < s.times.size(); ++i) {
        sample_pose(skinned, &skinned.clips[0], s.times[i], ps);
        sample_pose(cached, nullptr, s.times[i], pc);
        std::vector<Eigen::Vector3f> got;
        deform_mesh(cached, 0, pc, got);
        CHECK(got == s.samples[i]);
        from_skin.evaluate(skinned, ps);
        from_cache.evaluate(cached, pc, &pool);
        CHECK(from_cache.deformed == s.samples[i]);
        CHECK(from_cache.t == from_skin.t);
    }
}

TEST_CASE("a time between two samples blends them linearly and outside the samples it clamps", "[point_cache][corpus]") {
    Skinned s = skinned_samples();
    Scene cached = s.scene;
    attach_point_cache(cached, 0, std::make_shared<MemoryPointCache>("bend.cache", s.times, s.samples));
    Pose pose = rest_pose(cached);
    MeshDeformer deformer(cached, 0);
    // Frame 14 lies 3/10 of the way from sample 1 (frame 11) to sample 2 (frame 21).
    const double u = 0.3;
    sample_pose(cached, nullptr, 14 / 24.0, pose);
    std::vector<Eigen::Vector3f> got, looped;
    deform_mesh(cached, 0, pose, got);
    deformer.deform(cached, pose, looped);
    CHECK(looped == got);
    double worst = 0, moved = 0;
    for (std::size_t v = 0; v < got.size(); ++v) {
        const Eigen::Vector3d a = s.samples[1][v].cast<double>(), b = s.samples[2][v].cast<double>();
        worst = std::max(worst, (got[v].cast<double>() - ((1 - u) * a + u * b)).norm());
        moved = std::max(moved, (a - b).norm());
    }
    INFO("worst " << worst << " m; the samples differ by up to " << moved << " m");
    CHECK(worst < 1e-6);
    CHECK(moved > 0.1);  // the blend is not trivially right because the samples are the same

    sample_pose(cached, nullptr, -1.0, pose);
    deform_mesh(cached, 0, pose, got);
    CHECK(got == s.samples.front());
    sample_pose(cached, nullptr, 100.0, pose);
    deform_mesh(cached, 0, pose, got);
    CHECK(got == s.samples.back());
    // Within kSampleSnap of an interval from a sample: the sample itself, not a blend.
    sample_pose(cached, nullptr, 21 / 24.0 + 1e-9, pose);
    deform_mesh(cached, 0, pose, got);
    CHECK(got == s.samples[2]);
}

TEST_CASE("a cache of the welded vertices reaches every file vertex through cache_points", "[point_cache][corpus]") {
    Skinned s = skinned_samples();
    const Topology topo = build_topology(s.scene.meshes[0]);
    REQUIRE(topo.welded_count() == 544);
    std::vector<std::vector<Eigen::Vector3f>> welded(s.samples.size());
    for (std::size_t i = 0; i < s.samples.size(); ++i)
        for (const std::uint32_t r : topo.representative) welded[i].push_back(s.samples[i][r]);
    Scene cached = s.scene;
    const auto cache = std::make_shared<MemoryPointCache>("welded.cache", s.times, welded);
    CHECK_THROWS_AS(attach_point_cache(cached, 0, cache), Error);  // 544 points for 625 vertices
    attach_point_cache(cached, 0, cache, topo.welded_of);
    Pose pose = rest_pose(cached);
    sample_pose(cached, nullptr, s.times[5], pose);
    std::vector<Eigen::Vector3f> got;
    deform_mesh(cached, 0, pose, got);
    // Seam copies share their weights, so the skin moved them to the same bits as their
    // representative: the welded cache gives back the whole skinned frame.
    CHECK(got == s.samples[5]);
}

TEST_CASE("an unskinned mesh with a cache is placed by its node's world matrix", "[point_cache]") {
    Scene scene;
    scene.source = "tri";
    Node node;
    node.name = "n";
    node.rest.translation = Eigen::Vector3d(1, 2, 3);
    node.mesh = 0;
    scene.nodes.push_back(node);
    Mesh mesh;
    mesh.name = "tri";
    mesh.node = 0;
    mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    mesh.face_offsets = {0, 3};
    mesh.face_indices = {0, 1, 2};
    scene.meshes.push_back(mesh);
    const std::vector<Eigen::Vector3f> sample = {{0, 0, 1}, {2, 0, 0}, {0, 3, 0}};
    CHECK_THROWS_AS(attach_point_cache(scene, 0, std::make_shared<MemoryPointCache>("c", std::vector<double>{0.0},
                                                                                   std::vector<std::vector<Eigen::Vector3f>>{{sample[0]}})),
                    Error);
    CHECK(attach_point_cache(scene, 0, std::make_shared<MemoryPointCache>("c", std::vector<double>{0.0},
                                                                         std::vector<std::vector<Eigen::Vector3f>>{sample}))
              .empty());
    Pose pose = rest_pose(scene);
    sample_pose(scene, nullptr, 0.0, pose);
    std::vector<Eigen::Vector3f> got;
    deform_mesh(scene, 0, pose, got);
    REQUIRE(got.size() == 3);
    for (int v = 0; v < 3; ++v) CHECK(got[v] == sample[v] + Eigen::Vector3f(1, 2, 3));
}
