// MeshTension's summary frames (keep_frame = false, src/core/frame_windows.cpp): skinning into a
// thread's window and folding T into the extremes step by step gives the degenerate count and
// the lowest and highest T (and the first welded vertex holding each) of the full frame, bit for
// bit, for any thread count, task, tile and window size, a frame at a time or in groups of poses
// (src/core/tension_summaries.cpp); a vertex order whose reads do not fit a window keeps the full
// frame; and the plan reads nothing outside what its window holds.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>

#include "corpus.h"
#include "rigscope/core/frame_tiles.h"
#include "rigscope/core/frame_windows.h"
#include "rigscope/core/parallel.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/skin.h"
#include "rigscope/core/tension_map.h"
#include "rigscope/io/load.h"

using namespace rigscope;

namespace {

// A tube of `rings` rings of `around` vertices, ring after ring (the bench tube's order), skinned
// to two joints: A at the bottom, B halfway up, the weights blending over the middle third. With
// `shuffled`, the vertices are numbered in a scattered order instead (every vertex's neighbours
// far from it), which no window holds.
Scene skinned_tube(std::size_t around, std::size_t rings, bool shuffled = false) {
    const std::size_t n = around * rings;
    std::vector<std::uint32_t> number(n);
    for (std::size_t v = 0; v < n; ++v) number[v] = static_cast<std::uint32_t>(shuffled ? (v * 7919) % n : v);
    Scene s;
    s.nodes.resize(3);
    s.nodes[0].name = "tube";
    s.nodes[0].mesh = 0;
    s.nodes[1].name = "A";
    s.nodes[2].name = "B";
    s.nodes[2].parent = 1;
    s.nodes[1].children = {2};
    const double half = 0.05 * double(rings - 1) / 2;
    s.nodes[2].rest.translation = Eigen::Vector3d(0, 0, half);
    Eigen::Matrix4d ib = Eigen::Matrix4d::Identity();
    ib(2, 3) = -half;
    s.skins.push_back(Skin{"skin", {1, 2}, {Eigen::Matrix4d::Identity(), ib}});
    Mesh m;
    m.name = shuffled ? "shuffled tube" : "tube";
    m.node = 0;
    m.skin = 0;
    m.positions.resize(n);
    std::vector<float> w(n);
    for (std::size_t r = 0; r < rings; ++r)
        for (std::size_t a = 0; a < around; ++a) {
            const double phi = 6.283185307179586 * double(a) / double(around);
            m.positions[number[r * around + a]] = Eigen::Vector3f(float(std::cos(phi)), float(std::sin(phi)), 0.05f * float(r));
            w[number[r * around + a]] = float(std::clamp(3.0 * double(r) / double(rings - 1) - 1.0, 0.0, 1.0));
        }
    for (std::size_t v = 0; v < n; ++v) {
        m.influences.offsets.push_back(static_cast<std::uint32_t>(m.influences.joints.size()));
        m.influences.joints.insert(m.influences.joints.end(), {0, 1});
        m.influences.weights.insert(m.influences.weights.end(), {1.0f - w[v], w[v]});
    }
    m.influences.offsets.push_back(static_cast<std::uint32_t>(m.influences.joints.size()));
    auto at = [&](std::size_t r, std::size_t a) { return number[r * around + a % around]; };
    for (std::size_t r = 0; r + 1 < rings; ++r)
        for (std::size_t a = 0; a < around; ++a)
            for (std::uint32_t v : {at(r, a), at(r, a + 1), at(r + 1, a + 1), at(r, a), at(r + 1, a + 1), at(r + 1, a)}) {
                m.face_indices.push_back(v);
                if (m.face_indices.size() % 3 == 0) m.face_offsets.push_back(static_cast<std::uint32_t>(m.face_indices.size()));
            }
    s.meshes.push_back(std::move(m));
    return s;
}

// Poses of a scene: its clip's, or B bent by growing angles where it has no clip.
std::vector<Pose> poses(const Scene& scene) {
    std::vector<Pose> out;
    const Clip* clip = scene.clips.empty() ? nullptr : &scene.clips[0];
    for (int f = 0; f < 5; ++f) {
        Pose pose = rest_pose(scene);
        if (clip) {
            sample_pose(scene, clip, clip->start + (clip->end - clip->start) * f / 4, pose);
        } else if (scene.nodes.size() > 2) {
            pose.local[2].rotation = Eigen::Quaterniond(Eigen::AngleAxisd(0.3 * f, Eigen::Vector3d::UnitX()));
            pose_world(scene, pose);
        }
        out.push_back(pose);
    }
    return out;
}

// The poses a run evaluates: poses(scene) with held poses (a pose the same as the one before it
// keeps that one's summary, also across a group's edge) and a return to the first.
std::vector<Pose> sequence(const Scene& scene) {
    const std::vector<Pose> p = poses(scene);
    return {p[0], p[1], p[1], p[2], p[3], p[3], p[3], p[4], p[0], p[0]};
}

struct Summary {
    std::vector<std::size_t> degenerate;
    std::vector<ValueExtremes> extremes;
    std::size_t windowed = 0;  // frames that ran in windows
};

bool same_extremes(const ValueExtremes& a, const ValueExtremes& b) {
    return std::memcmp(&a.min, &b.min, sizeof(float)) == 0 && std::memcmp(&a.max, &b.max, sizeof(float)) == 0 &&
           a.min_at == b.min_at && a.max_at == b.max_at;
}

// group > 0: summary frames (keep_frame false) in groups of that many poses, as the run's frame
// loop takes them (evaluate_summaries, then show_summary of each), where the mesh can group.
Summary run(const Scene& scene, int mesh, bool keep_frame, unsigned threads, std::size_t block, std::size_t tile,
            std::size_t window, std::size_t group = 0) {
    ThreadPool pool(threads);
    std::vector<Eigen::Vector3f> rest;
    deform_mesh(scene, mesh, bind_pose(scene), rest);
    MeshTension mt(scene, mesh, true, rest);
    mt.keep_frame = keep_frame;
    mt.block_vertices = block;
    mt.tile_vertices = tile;
    mt.window_vertices = window;
    Summary out;
    const std::vector<Pose> seq = sequence(scene);
    mt.group_frames = group;
    if (group > 0 && mt.summary_frames(scene) == group) {
        REQUIRE(!keep_frame);
        for (std::size_t f0 = 0; f0 < seq.size(); f0 += group) {
            const std::size_t count = std::min(group, seq.size() - f0);
            mt.evaluate_summaries(scene, seq.data() + f0, count, &pool);
            for (std::size_t j = 0; j < count; ++j) {
                mt.show_summary(j);
                out.degenerate.push_back(mt.degenerate);
                REQUIRE(mt.t_extremes_set);
                out.extremes.push_back(mt.t_extremes);
                ++out.windowed;
            }
            CHECK(mt.t.empty());  // nothing mesh-sized written
            CHECK(mt.deformed.empty());
        }
        return out;
    }
    for (const Pose& pose : seq) {
        mt.evaluate(scene, pose, &pool);
        out.degenerate.push_back(mt.degenerate);
        if (keep_frame) {
            // The full frame's extremes by one plain pass over T.
            ValueExtremes e{1, 1, 0, 0};
            for (std::size_t w = 0; w < mt.t.size(); ++w) {
                if (w == 0 || mt.t[w] < e.min) e.min = mt.t[w], e.min_at = static_cast<std::uint32_t>(w);
                if (w == 0 || mt.t[w] > e.max) e.max = mt.t[w], e.max_at = static_cast<std::uint32_t>(w);
            }
            out.extremes.push_back(e);
        } else {
            REQUIRE(mt.t_extremes_set == (mt.topo.welded_count() > 0));
            out.extremes.push_back(mt.t_extremes);
            if (mt.last_frame_windowed()) {
                ++out.windowed;
                CHECK(mt.t.empty());  // nothing mesh-sized written
                CHECK(mt.deformed.empty());
            }
        }
    }
    return out;
}

void check_same(const Summary& full, const Summary& summary) {
    REQUIRE(full.degenerate.size() == summary.degenerate.size());
    for (std::size_t f = 0; f < full.degenerate.size(); ++f) {
        INFO("frame " << f);
        CHECK(full.degenerate[f] == summary.degenerate[f]);
        CHECK(same_extremes(full.extremes[f], summary.extremes[f]));
    }
}

}  // namespace

TEST_CASE("A summary frame in windows gives the full frame's extremes and count", "[tension][threads]") {
    for (bool shuffled : {false, true}) {
        INFO((shuffled ? "shuffled" : "ring after ring"));
        const Scene scene = skinned_tube(40, 60, shuffled);
        const Summary full = run(scene, 0, true, 1, MeshDeformer::kBlock, 4096, 32768);
        // The bend moves T off 1 on both sides, so the extremes compared are not the rest's
        // (frame 7: poses(scene)'s last).
        CHECK(full.extremes[7].min < 0.99f);
        CHECK(full.extremes[7].max > 1.01f);
        for (unsigned threads : {1u, 2u, 3u})
            for (std::size_t block : {std::size_t{64}, std::size_t{301}, MeshDeformer::kBlock})
                for (std::size_t tile : {std::size_t{16}, std::size_t{100}, std::size_t{4096}})
                    for (std::size_t window : {std::size_t{120}, std::size_t{300}, std::size_t{32768}}) {
                        INFO(threads << " threads, blocks of " << block << ", tiles of " << tile << ", windows of " << window);
                        const Summary s = run(scene, 0, false, threads, block, tile, window);
                        check_same(full, s);
                        // Ring after ring, one task (blocks of kBlock) holds every read in a
                        // window of 32768, and in one of 300 with steps of a batch (tiles of 16);
                        // shuffled, a window of a few rings holds none (every frame the full one).
                        const bool one_task = block == MeshDeformer::kBlock;
                        if (!shuffled && one_task && (window == 32768 || (tile == 16 && window >= 300)))
                            CHECK(s.windowed == full.degenerate.size());
                        if (shuffled && window <= 300) CHECK(s.windowed == 0);
                    }
    }
}

TEST_CASE("Summary frames of the corpus give the full frames' extremes and counts", "[tension][threads][corpus]") {
    for (const char* file : {"khronos/cesium_man.gltf", "bend_cylinder/bend_cylinder.glb", "pab/arnaud.fbx",
                             "assimp/glTF2/MorphStressTest/glTF/MorphStressTest.gltf"}) {
        INFO(file);
        Scene scene = load_scene(test::corpus(file));
        for (bool dq : {false, true}) {
            if (dq) for (Skin& skin : scene.skins) skin.method = SkinningMethod::DualQuaternion;
            for (std::size_t m = 0; m < scene.meshes.size(); ++m) {
                INFO("mesh " << m << (dq ? ", dual quaternions" : ""));
                const Summary full = run(scene, static_cast<int>(m), true, 1, MeshDeformer::kBlock, 4096, 32768);
                for (unsigned threads : {1u, 2u, 3u})
                    for (std::size_t window : {std::size_t{500}, std::size_t{32768}})
                        check_same(full, run(scene, static_cast<int>(m), false, threads, 301, 100, window));
            }
        }
    }
}

TEST_CASE("Summary frames in groups give each frame's full extremes and count", "[tension][threads]") {
    const Scene scene = skinned_tube(40, 60);
    const Summary full = run(scene, 0, true, 1, MeshDeformer::kBlock, 4096, 32768);
    for (unsigned threads : {1u, 2u, 3u})
        for (std::size_t group : {std::size_t{2}, std::size_t{3}, std::size_t{4}, std::size_t{16}})
            for (std::size_t window : {std::size_t{300}, std::size_t{32768}}) {
                INFO(threads << " threads, groups of " << group << ", windows of " << window);
                // Tasks of 600 vertices: four, each skinning its neighbour rings twice at most.
                const Summary s = run(scene, 0, false, threads, 600, 100, window, group);
                CHECK(s.windowed == full.degenerate.size());  // every frame in a group
                check_same(full, s);
            }
    // A vertex order no window holds cannot group: its frames are the full ones.
    const Scene shuffled = skinned_tube(40, 60, true);
    MeshTension mt(shuffled, 0, true, shuffled.meshes[0].positions);
    mt.keep_frame = false;
    mt.window_vertices = 300;
    CHECK(mt.summary_frames(shuffled) == 1);
    MeshTension kept(scene, 0, true, scene.meshes[0].positions);
    CHECK(kept.summary_frames(scene) == 1);  // a frame kept whole is not a summary
}

TEST_CASE("Summary frames of the corpus in groups give the full frames' extremes and counts", "[tension][threads][corpus]") {
    for (const char* file : {"khronos/cesium_man.gltf", "pab/arnaud.fbx", "assimp/glTF2/MorphStressTest/glTF/MorphStressTest.gltf"}) {
        INFO(file);
        Scene scene = load_scene(test::corpus(file));
        std::size_t grouped = 0;
        for (bool dq : {false, true}) {
            if (dq) for (Skin& skin : scene.skins) skin.method = SkinningMethod::DualQuaternion;
            for (std::size_t m = 0; m < scene.meshes.size(); ++m) {
                INFO("mesh " << m << (dq ? ", dual quaternions" : ""));
                const Summary full = run(scene, static_cast<int>(m), true, 1, MeshDeformer::kBlock, 4096, 32768);
                for (unsigned threads : {1u, 3u}) {
                    const Summary s = run(scene, static_cast<int>(m), false, threads, MeshDeformer::kBlock, 100, 32768, 3);
                    grouped += s.windowed == full.degenerate.size();
                    check_same(full, s);
                }
            }
        }
        CHECK(grouped > 0);  // some mesh of the file ran in groups
    }
}

TEST_CASE("Groups of summary frames and single frames of one mesh stand on each other's summaries", "[tension][unchanged]") {
    const Scene scene = skinned_tube(40, 60);
    std::vector<Eigen::Vector3f> rest;
    deform_mesh(scene, 0, bind_pose(scene), rest);
    const std::vector<Pose> p = poses(scene);
    MeshTension whole(scene, 0, true, rest);
    MeshTension mt(scene, 0, true, rest);
    mt.keep_frame = false;
    mt.block_vertices = 600;
    mt.tile_vertices = 100;
    REQUIRE(mt.summary_frames(scene) > 1);
    auto same_as_whole = [&](const Pose& pose) {
        whole.evaluate(scene, pose);
        ValueExtremes e{1, 1, 0, 0};
        for (std::size_t w = 0; w < whole.t.size(); ++w) {
            if (w == 0 || whole.t[w] < e.min) e.min = whole.t[w], e.min_at = static_cast<std::uint32_t>(w);
            if (w == 0 || whole.t[w] > e.max) e.max = whole.t[w], e.max_at = static_cast<std::uint32_t>(w);
        }
        CHECK(mt.degenerate == whole.degenerate);
        CHECK(same_extremes(mt.t_extremes, e));
    };
    const Pose group1[] = {p[1], p[2], p[3]};
    mt.evaluate_summaries(scene, group1, 3);
    same_as_whole(p[3]);       // the last pose shown: the mesh as evaluate() would leave it
    mt.evaluate(scene, p[3]);  // the same pose: the group's summary stands
    CHECK(mt.deformer.pose_unchanged());
    same_as_whole(p[3]);
    // A group evaluated, then each of its poses shown in order against the whole frame.
    auto group_as_whole = [&](const std::vector<Pose>& group) {
        mt.evaluate_summaries(scene, group.data(), group.size());
        for (std::size_t j = 0; j < group.size(); ++j) {
            mt.show_summary(j);
            same_as_whole(group[j]);
        }
    };
    group_as_whole({p[3], p[4]});  // its first pose held from the frame before the group
    mt.evaluate(scene, p[1]);      // a single frame after a group, then a group after it
    same_as_whole(p[1]);
    group_as_whole({p[1], p[0]});
    mt.show_summary(0);  // shown out of order: the fields hold p[1]'s, not the last pose's
    group_as_whole({p[0], p[2]});
}

TEST_CASE("A frame kept after summary frames of the same pose is evaluated again", "[tension][unchanged]") {
    const Scene scene = skinned_tube(40, 60);
    std::vector<Eigen::Vector3f> rest;
    deform_mesh(scene, 0, bind_pose(scene), rest);
    const Pose pose = poses(scene).back();
    MeshTension whole(scene, 0, true, rest);
    whole.evaluate(scene, pose);
    MeshTension mt(scene, 0, true, rest);
    mt.keep_frame = false;
    mt.evaluate(scene, pose);
    REQUIRE(mt.last_frame_windowed());
    mt.evaluate(scene, pose);  // the same pose: nothing to do, the summary stands
    CHECK(mt.deformer.pose_unchanged());
    CHECK(mt.t.empty());
    mt.keep_frame = true;
    mt.evaluate(scene, pose);  // the same pose again, but its arrays were never written
    CHECK_FALSE(mt.last_frame_windowed());
    REQUIRE(mt.t.size() == whole.t.size());
    CHECK(std::memcmp(mt.t.data(), whole.t.data(), mt.t.size() * sizeof(float)) == 0);
    CHECK(std::memcmp(mt.deformed.data(), whole.deformed.data(), mt.deformed.size() * sizeof(mt.deformed[0])) == 0);
}

TEST_CASE("FrameWindows runs every batch once, each step's reads inside what its window holds", "[tension]") {
    for (bool shuffled : {false, true}) {
        const Scene scene = skinned_tube(40, 60, shuffled);
        const Mesh& mesh = scene.meshes[0];
        const Topology topo = build_topology(mesh, true, kWeldRelativeTolerance, false);
        for (std::size_t lanes : {4, 8, 16}) {
            INFO(lanes << " lanes" << (shuffled ? ", shuffled" : ""));
            const EdgeBatches eb = edge_batches(topo, lanes);
            const std::size_t n = mesh.positions.size();
            const FrameWindows fw = frame_windows(eb, n, 150, 5, 200);
            CHECK(fw.usable() == !shuffled);
            if (!fw.usable()) continue;
            REQUIRE(fw.tasks() == (eb.batch_count() + 149) / 150);
            for (std::size_t i = 0; i < fw.tasks(); ++i) {
                std::uint32_t b = static_cast<std::uint32_t>(i * 150), keep = 0, skin = 0;
                for (std::uint32_t s = fw.task_steps[i]; s < fw.task_steps[i + 1]; ++s) {
                    const FrameWindows::Step& step = fw.steps[s];
                    CHECK(step.batch_end > b);
                    CHECK(step.batch_end - b <= 5);
                    CHECK(step.keep_from >= keep);  // a window only moves up
                    CHECK(step.skin_to >= skin);
                    CHECK(step.skin_to - step.keep_from <= 200);
                    keep = step.keep_from;
                    skin = step.skin_to;
                    for (; b < step.batch_end; ++b) {
                        std::uint32_t lo, need;
                        batch_reads(eb, b, n, lo, need);
                        CHECK(lo >= step.keep_from);
                        CHECK(need < step.skin_to);
                    }
                }
                CHECK(b == std::min<std::size_t>(eb.batch_count(), (i + 1) * 150));
            }
        }
    }
}
