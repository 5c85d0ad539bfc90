// A tiled frame after a tiled frame recomputes only what a moved joint reaches
// (MeshDeformer::moved_joints, MeshTension's batch_joints_): the positions, T, fall-back count
// and extremes it leaves must be a fresh evaluation's bits, whatever moved, for any thread count
// and tiling, with ranges that hold fall-backs, and after frames that break the chain.
#include <catch2/catch.hpp>
#include <cstring>
#include <memory>

#include "clip_poses.h"
#include "corpus.h"
#include "rigscope/core/parallel.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/tension_map.h"
#include "rigscope/io/load.h"

using namespace rigscope;

namespace {

Pose at(const Scene& s, double time) { return test::clip_pose(s, time); }
std::vector<Eigen::Vector3f> bind_of(const Scene& s, int mesh) { return test::bind_positions(s, mesh); }

bool same_frame(const MeshTension& a, const MeshTension& b) {
    return a.t.size() == b.t.size() && std::memcmp(a.t.data(), b.t.data(), a.t.size() * sizeof(float)) == 0 &&
           a.deformed.size() == b.deformed.size() &&
           std::memcmp(a.deformed.data(), b.deformed.data(), a.deformed.size() * sizeof(a.deformed[0])) == 0 &&
           a.degenerate == b.degenerate && a.t_extremes_set == b.t_extremes_set && a.t_extremes.min == b.t_extremes.min &&
           a.t_extremes.max == b.t_extremes.max && a.t_extremes.min_at == b.t_extremes.min_at && a.t_extremes.max_at == b.t_extremes.max_at;
}

// `p` with joint node `node`'s world matrix moved (its children not: only that joint's skinning
// matrix changes).
Pose nudged(Pose p, int node, float dx) {
    p.world[node](0, 3) += dx;
    p.world[node](1, 3) -= 0.5f * dx;
    return p;
}

// The blocks of the deformer's last pose that no moved joint reaches.
std::size_t still_blocks(const MeshDeformer& d) {
    std::size_t n = 0;
    for (std::uint64_t bits : d.block_joints()) n += (bits & d.moved_joints()) == 0;
    return n;
}

}  // namespace

TEST_CASE("A frame that holds some joints keeps the rest of the last frame, bit for bit", "[tension_map][still]") {
    const Scene s = load_scene(test::corpus("khronos/cesium_man.gltf"));
    REQUIRE(!s.clips.empty());
    const Clip& c = s.clips[0];
    const std::vector<int>& joints = s.skins[s.meshes[0].skin].joints;
    REQUIRE(joints.size() > 4);
    const Pose a = at(s, c.start + 0.3 * (c.end - c.start));
    // A sequence where one joint moves, then another, then two, then none, then all: each
    // frame only differs from the one before in those joints.
    std::vector<Pose> poses{a};
    poses.push_back(nudged(poses.back(), joints.back(), 0.01f));
    poses.push_back(nudged(poses.back(), joints[joints.size() / 2], 0.02f));
    poses.push_back(nudged(nudged(poses.back(), joints.back(), -0.01f), joints[1], 0.005f));
    poses.push_back(poses.back());
    poses.push_back(at(s, c.start + 0.6 * (c.end - c.start)));
    poses.push_back(nudged(poses.back(), joints[2], 0.03f));

    // The rest collapsed over the first vertices: their T falls back to 1 in every frame, so
    // some ranges hold fall-backs (recomputed whole) beside ranges that keep their still part.
    std::vector<Eigen::Vector3f> rest = bind_of(s, 0);
    for (std::size_t v = 1; v < 200; ++v) rest[v] = rest[0];

    for (unsigned threads : {1u, 2u, 3u})
        for (std::size_t tile : {std::size_t{16}, std::size_t{100}, std::size_t{4096}}) {
            INFO(threads << " threads, tiles of " << tile);
            ThreadPool pool(threads);
            MeshTension mt(s, 0, true, rest);
            mt.block_vertices = 301;
            mt.tile_vertices = tile;
            std::size_t kept = 0;
            for (std::size_t f = 0; f < poses.size(); ++f) {
                INFO("frame " << f);
                mt.evaluate(s, poses[f], &pool);
                MeshTension fresh(s, 0, true, rest);
                fresh.evaluate(s, poses[f]);
                REQUIRE(fresh.degenerate > 0);
                CHECK(same_frame(mt, fresh));
                if (!mt.deformer.all_moved()) kept += still_blocks(mt.deformer);
            }
            // The frames above did leave blocks as they were: the checks saw the kept path.
            CHECK(kept > 0);
        }
}

TEST_CASE("Frames that break the chain are computed whole", "[tension_map][still]") {
    const Scene s = load_scene(test::corpus("khronos/cesium_man.gltf"));
    const Clip& c = s.clips[0];
    const std::vector<int>& joints = s.skins[s.meshes[0].skin].joints;
    const std::vector<Eigen::Vector3f> rest = bind_of(s, 0);
    const Pose a = at(s, c.start + 0.3 * (c.end - c.start));
    const Pose b = nudged(a, joints.back(), 0.01f);
    auto fresh = [&](const Pose& p) {
        auto mt = std::make_unique<MeshTension>(s, 0, true, rest);
        mt->evaluate(s, p);
        return mt;
    };
    ThreadPool pool(2);

    SECTION("positions given by hand in between") {
        MeshTension mt(s, 0, true, rest);
        mt.evaluate(s, a, &pool);
        mt.evaluate_positions(rest, &pool);
        mt.evaluate(s, b, &pool);
        CHECK(same_frame(mt, *fresh(b)));
    }
    SECTION("a summary frame in windows in between") {
        MeshTension mt(s, 0, true, rest);
        mt.evaluate(s, a, &pool);
        mt.keep_frame = false;
        mt.window_vertices = 512;
        mt.evaluate(s, nudged(a, joints[1], 0.02f), &pool);
        mt.keep_frame = true;
        mt.evaluate(s, b, &pool);
        CHECK(same_frame(mt, *fresh(b)));
    }
    SECTION("the tiling changed in between") {
        MeshTension mt(s, 0, true, rest);
        mt.evaluate(s, a, &pool);
        mt.tile_vertices = 64;
        mt.evaluate(s, b, &pool);
        CHECK(same_frame(mt, *fresh(b)));
    }
    SECTION("smoothing leaves nothing to keep") {
        MeasureOptions smooth;
        smooth.smooth = 2;
        MeshTension mt(s, 0, true, rest, smooth);
        mt.evaluate(s, a, &pool);
        mt.evaluate(s, b, &pool);
        MeshTension f(s, 0, true, rest, smooth);
        f.evaluate(s, b);
        CHECK(std::memcmp(mt.t.data(), f.t.data(), mt.t.size() * sizeof(float)) == 0);
    }
}
