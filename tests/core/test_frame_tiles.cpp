// FrameTiles (src/core/frame_tiles.cpp) and MeshTension's tiled frame: skinning a task's vertices
// a tile at a time and running the edge T's batches as soon as what they read is done gives the
// bits of skinning the whole mesh first, for any thread count, block and tile size, and the
// frame's extremes found range by range are one plain pass's; and the plan runs every batch
// exactly once, inside a task only where all it reads is that task's and done.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>

#include "corpus.h"
#include "same_bits.h"
#include "rigscope/core/frame_tiles.h"
#include "rigscope/core/parallel.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/skin.h"
#include "rigscope/core/tension_map.h"
#include "rigscope/io/load.h"

using namespace rigscope;

namespace {

using Frames = test::FrameSeries;
using test::same_bits;

Frames run(const Scene& scene, int mesh, bool tiled, unsigned threads, std::size_t block, std::size_t tile) {
    ThreadPool pool(threads);
    std::vector<Eigen::Vector3f> rest;
    deform_mesh(scene, mesh, bind_pose(scene), rest);
    MeshTension mt(scene, mesh, true, rest);
    mt.tiled = tiled;
    mt.block_vertices = block;
    mt.tile_vertices = tile;
    Frames out;
    Pose pose = rest_pose(scene);
    const Clip* clip = scene.clips.empty() ? nullptr : &scene.clips[0];
    for (int f = 0; f < 5; ++f) {
        sample_pose(scene, clip, clip ? clip->start + (clip->end - clip->start) * f / 4 : 0.0, pose);
        mt.evaluate(scene, pose, &pool);
        // The tiled frame's extremes, found range by range, are one plain pass's: the lowest and
        // highest T and the first welded vertex holding each.
        if (tiled && !mt.t.empty()) {
            REQUIRE(mt.t_extremes_set);
            std::size_t lo = 0, hi = 0;
            for (std::size_t w = 1; w < mt.t.size(); ++w) {
                if (mt.t[w] < mt.t[lo]) lo = w;
                if (mt.t[w] > mt.t[hi]) hi = w;
            }
            CHECK(mt.t_extremes.min == mt.t[lo]);
            CHECK(mt.t_extremes.min_at == lo);
            CHECK(mt.t_extremes.max == mt.t[hi]);
            CHECK(mt.t_extremes.max_at == hi);
        }
        if (!tiled) CHECK_FALSE(mt.t_extremes_set);
        out.deformed.push_back(mt.deformed);
        out.t.push_back(mt.t);
        out.degenerate.push_back(mt.degenerate);
    }
    return out;
}

// The file vertices batch b reads (a scattered one's 16-byte load includes the next vertex).
void reads(const EdgeBatches& eb, std::size_t b, std::uint32_t& lo, std::uint32_t& hi) {
    lo = 0xFFFFFFFFu;
    hi = 0;
    for (std::uint32_t k = eb.start[b]; k < eb.start[b + 1];) {
        const std::uint32_t e = eb.index[k];
        const bool r = e & EdgeBatches::kRun;
        const std::size_t n = r ? 1 : eb.lanes;
        for (std::size_t l = 0; l < eb.lanes; ++l) {
            const std::uint32_t v = r ? (e & ~EdgeBatches::kFlags) + static_cast<std::uint32_t>(l) : eb.index[k + l];
            lo = std::min(lo, v);
            hi = std::max(hi, v + (r ? 0u : 1u));
        }
        k += static_cast<std::uint32_t>(n);
    }
}

// A tube of `rings` rings of `around` vertices, ring after ring, each quad two triangles: the
// vertex order of a generated or cache-optimised mesh, where a vertex's neighbours are near it.
Mesh tube(std::size_t around, std::size_t rings) {
    Mesh m;
    m.name = "tube";
    for (std::size_t r = 0; r < rings; ++r)
        for (std::size_t a = 0; a < around; ++a) {
            const double phi = 6.283185307179586 * double(a) / double(around);
            m.positions.emplace_back(float(std::cos(phi)), float(std::sin(phi)), 0.1f * float(r));
        }
    auto at = [&](std::size_t r, std::size_t a) { return static_cast<std::uint32_t>(r * around + a % around); };
    for (std::size_t r = 0; r + 1 < rings; ++r)
        for (std::size_t a = 0; a < around; ++a)
            for (std::uint32_t v : {at(r, a), at(r, a + 1), at(r + 1, a + 1), at(r, a), at(r + 1, a + 1), at(r + 1, a)}) {
                m.face_indices.push_back(v);
                if (m.face_indices.size() % 3 == 0) m.face_offsets.push_back(static_cast<std::uint32_t>(m.face_indices.size()));
            }
    return m;
}

}  // namespace

TEST_CASE("A tiled frame gives the bits of skinning the whole mesh first", "[tension][threads][corpus]") {
    for (const char* file : {"khronos/cesium_man.gltf", "bend_cylinder/bend_cylinder.glb", "pab/arnaud.fbx",
                             "assimp/glTF2/MorphStressTest/glTF/MorphStressTest.gltf"}) {
        INFO(file);
        const Scene scene = load_scene(test::corpus(file));
        for (std::size_t m = 0; m < scene.meshes.size(); ++m) {
            INFO("mesh " << m);
            const Frames whole = run(scene, static_cast<int>(m), false, 1, MeshDeformer::kBlock, 4096);
            for (unsigned threads : {1u, 2u, 3u})
                for (std::size_t block : {std::size_t{64}, std::size_t{301}, MeshDeformer::kBlock})
                    for (std::size_t tile : {std::size_t{16}, std::size_t{100}, std::size_t{4096}}) {
                        INFO(threads << " threads, blocks of " << block << ", tiles of " << tile);
                        const Frames tiled = run(scene, static_cast<int>(m), true, threads, block, tile);
                        for (std::size_t f = 0; f < whole.t.size(); ++f) {
                            CHECK(same_bits(whole.deformed[f], tiled.deformed[f]));
                            CHECK(same_bits(whole.t[f], tiled.t[f]));
                            CHECK(whole.degenerate[f] == tiled.degenerate[f]);
                        }
                    }
        }
    }
}

TEST_CASE("A tiled frame of dual-quaternion skinning gives the bits of the whole mesh first", "[tension][threads][corpus]") {
    // Tiles end anywhere, not on the dual-quaternion kernel's batches of eight vertices.
    Scene scene = load_scene(test::corpus("khronos/cesium_man.gltf"));
    for (Skin& skin : scene.skins) skin.method = SkinningMethod::DualQuaternion;
    const Frames whole = run(scene, 0, false, 1, MeshDeformer::kBlock, 4096);
    for (unsigned threads : {1u, 2u})
        for (std::size_t tile : {std::size_t{13}, std::size_t{100}}) {
            INFO(threads << " threads, tiles of " << tile);
            const Frames tiled = run(scene, 0, true, threads, 301, tile);
            for (std::size_t f = 0; f < whole.t.size(); ++f) {
                CHECK(same_bits(whole.deformed[f], tiled.deformed[f]));
                CHECK(same_bits(whole.t[f], tiled.t[f]));
            }
        }
}

TEST_CASE("FrameTiles runs every batch once, in a task only when its reads are that task's and done", "[tension]") {
    std::vector<Mesh> meshes{tube(64, 48)};
    for (const char* file : {"khronos/cesium_man.gltf", "bend_cylinder/bend_cylinder.glb", "pab/arnaud.fbx"})
        meshes.push_back(load_scene(test::corpus(file)).meshes[0]);
    for (const Mesh& mesh : meshes) {
        INFO(mesh.name);
        const Topology topo = build_topology(mesh, true, kWeldRelativeTolerance, false);
        for (std::size_t lanes : {4, 8, 16}) {
            INFO(lanes << " lanes");
            const EdgeBatches eb = edge_batches(topo, lanes);
            const std::size_t n = mesh.positions.size(), task = 1024, tile = 128;
            const FrameTiles ft = frame_tiles(eb, n, task, tile, 7, 12);
            REQUIRE(ft.tasks() == (n + task - 1) / task);
            std::vector<int> runs(eb.batch_count(), 0);
            for (std::size_t i = 0; i < ft.tasks(); ++i) {
                std::uint32_t need = 0;
                for (std::uint32_t r = ft.task_ranges[i]; r < ft.task_ranges[i + 1]; ++r) {
                    const FrameTiles::Range& range = ft.ranges[r];
                    CHECK(range.need >= need);  // by need: the tile loop runs them in order
                    need = range.need;
                    CHECK((range.end - range.begin) * lanes <= tile);
                    for (std::uint32_t b = range.begin; b < range.end; ++b) {
                        ++runs[b];
                        std::uint32_t lo, hi;
                        reads(eb, b, lo, hi);
                        hi = std::min<std::uint32_t>(hi, static_cast<std::uint32_t>(n - 1));
                        CHECK(lo >= i * task);
                        CHECK(hi <= range.need);
                        CHECK(range.need < std::min(n, (i + 1) * task));
                    }
                }
            }
            for (const FrameTiles::Range& range : ft.deferred) {
                CHECK(range.end - range.begin <= 7);
                for (std::uint32_t b = range.begin; b < range.end; ++b) ++runs[b];
            }
            // The deferred pass's tasks: consecutive ranges, each range in one task, at most 12
            // batches a task, and no task that could have taken its successor's first range.
            REQUIRE(!ft.deferred_tasks.empty());
            CHECK(ft.deferred_tasks.front() == 0);
            CHECK(ft.deferred_tasks.back() == ft.deferred.size());
            for (std::size_t i = 0; i + 1 < ft.deferred_tasks.size(); ++i) {
                CHECK(ft.deferred_tasks[i] < ft.deferred_tasks[i + 1]);
                std::size_t held = 0;
                for (std::uint32_t r = ft.deferred_tasks[i]; r < ft.deferred_tasks[i + 1]; ++r) held += ft.deferred[r].end - ft.deferred[r].begin;
                CHECK(held <= 12);
                if (i + 2 < ft.deferred_tasks.size()) {
                    const FrameTiles::Range& next = ft.deferred[ft.deferred_tasks[i + 1]];
                    CHECK(held + (next.end - next.begin) > 12);
                }
            }
            for (std::size_t b = 0; b < runs.size(); ++b) CHECK(runs[b] == 1);
            // The tube: all but the batches that read across a task's end (a ring or two of each
            // 1024 vertices) run inside the tasks. Not a speed test: that the plan fuses at all.
            if (mesh.name == "tube") CHECK(ft.fused_batches() * 10 > eb.batch_count() * 8);
        }
    }
}
