// The per-frame loop gives the same bits for any thread count: every vertex is computed the same
// way by exactly one thread, and per-block counts are summed in block order. Blocks are shrunk
// here so these small meshes split into many of them, as the 262k-vertex bench mesh does.
#include <catch2/catch.hpp>
#include <cstring>

#include "corpus.h"
#include "same_bits.h"
#include "rigscope/io/load.h"
#include "rigscope/core/parallel.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/skin.h"
#include "rigscope/core/tension_map.h"

using namespace rigscope;

namespace {

using Run = test::FrameSeries;
using test::same_bits;

// Every mesh of the file at `frames` frames spread over the clip, with `threads` threads.
Run evaluate(const Scene& scene, unsigned threads, std::size_t block, int frames) {
    ThreadPool pool(threads);
    REQUIRE(pool.size() == threads);
    Run run;
    for (std::size_t m = 0; m < scene.meshes.size(); ++m) {
        std::vector<Eigen::Vector3f> rest;
        deform_mesh(scene, static_cast<int>(m), bind_pose(scene), rest);
        MeshTension mt(scene, static_cast<int>(m), true, rest);
        mt.block_vertices = block;
        Pose pose = rest_pose(scene);
        const Clip* clip = scene.clips.empty() ? nullptr : &scene.clips[0];
        for (int f = 0; f < frames; ++f) {
            const double time = clip ? clip->start + (clip->end - clip->start) * f / (frames - 1) : 0.0;
            sample_pose(scene, clip, time, pose);
            mt.evaluate(scene, pose, &pool);
            run.deformed.push_back(mt.deformed);
            run.t.push_back(mt.t);
            run.degenerate.push_back(mt.degenerate);
            // The loop's own layout gives deform_mesh's result to the bit.
            std::vector<Eigen::Vector3f> reference;
            deform_mesh(scene, static_cast<int>(m), pose, reference);
            CHECK(same_bits(reference, mt.deformed));
        }
    }
    return run;
}

}  // namespace

TEST_CASE("Tension output is the same bits for 1, 2 and 3 threads", "[tension][threads][corpus]") {
    const char* files[] = {"khronos/cesium_man.gltf", "bend_cylinder/bend_cylinder.glb", "bend_cylinder/bend_cylinder.fbx",
                           "assimp/glTF2/MorphStressTest/glTF/MorphStressTest.gltf"};
    for (const char* file : files) {
        SECTION(file) {
            const Scene scene = load_scene(test::corpus(file));
            // Blocks of 64 vertices: cesium_man's 3273 vertices make 52 tasks per phase.
            const Run one = evaluate(scene, 1, 64, 7);
            for (unsigned threads : {2u, 3u}) {
                INFO(threads << " threads");
                const Run many = evaluate(scene, threads, 64, 7);
                REQUIRE(many.deformed.size() == one.deformed.size());
                for (std::size_t i = 0; i < one.deformed.size(); ++i) {
                    CHECK(same_bits(one.deformed[i], many.deformed[i]));
                    CHECK(same_bits(one.t[i], many.t[i]));
                    CHECK(one.degenerate[i] == many.degenerate[i]);
                }
            }
            // Block size is a tunable, not part of the result either.
            const Run big = evaluate(scene, 2, MeshDeformer::kBlock, 7);
            for (std::size_t i = 0; i < one.t.size(); ++i) CHECK(same_bits(one.t[i], big.t[i]));
        }
    }
}

TEST_CASE("The pool runs every task once and passes an exception on", "[threads]") {
    ThreadPool pool(3);
    std::vector<int> hits(1000, 0);
    for (int round = 0; round < 20; ++round) pool.run(hits.size(), [&](std::size_t i) { ++hits[i]; });
    for (int h : hits) CHECK(h == 20);
    CHECK_THROWS_AS(pool.run(10, [](std::size_t i) { if (i == 7) throw std::runtime_error("task 7"); }), std::runtime_error);
    pool.run(4, [&](std::size_t i) { hits[i] = -1; });  // still usable afterwards
    CHECK(hits[3] == -1);
}
