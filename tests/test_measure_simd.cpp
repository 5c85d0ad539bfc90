// The principal kernel's two register widths against each other, bit for bit: SSE (four lanes)
// and AVX2 (eight) run one template with the same IEEE operations per lane and no FMA, so any
// difference is a bug, not rounding. Also evaluate_and_map against evaluate then map_t, and calls
// over blocks that split batches against one call. On corpus meshes posed mid-clip and on the
// bench tube, each as posed and with an irregular jitter that gives every vertex a different,
// anisotropic tensor and collapses some triangles (lambda_min 0: the maps' fallback).
#include <catch2/catch.hpp>
#include <algorithm>
#include <cstring>

#include "corpus.h"
#include "rigscope/core/measure.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/skin.h"
#include "rigscope/io/load.h"

using namespace rigscope;

namespace {

struct Out {
    std::vector<float> lmax, lmin, dir, tc, ts;
    std::size_t degenerate = 0, unmapped = 0;
};

// The kernel over [0, n) in calls of `block` vertices; with `map`, evaluate_and_map.
Out run(const PrincipalKernel& pk, const std::vector<Eigen::Vector3f>& p, std::size_t n, std::size_t block, bool map) {
    Out o;
    o.lmax.assign(n, -1.0f);
    o.lmin.assign(n, -1.0f);
    o.dir.assign(3 * n, -1.0f);
    o.tc.assign(map ? n : 0, -1.0f);
    o.ts.assign(map ? n : 0, -1.0f);
    for (std::size_t b = 0; b < n; b += block) {
        const std::size_t e = std::min(n, b + block);
        if (map)
            o.unmapped += pk.evaluate_and_map(p.data(), b, e, o.lmax.data(), o.lmin.data(), o.dir.data(), o.tc.data(), o.ts.data());
        else
            o.degenerate += pk.evaluate(p.data(), b, e, o.lmax.data(), o.lmin.data(), o.dir.data());
    }
    return o;
}

bool same(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

void check_same(const Out& a, const Out& b) {
    CHECK(same(a.lmax, b.lmax));
    CHECK(same(a.lmin, b.lmin));
    CHECK(same(a.dir, b.dir));
    CHECK(same(a.tc, b.tc));
    CHECK(same(a.ts, b.ts));
    CHECK(a.degenerate == b.degenerate);
    CHECK(a.unmapped == b.unmapped);
}

// Every result of one width: one call, evaluate_and_map (against evaluate then map_t), and
// blocks of 37 vertices (batches of 8 split between calls).
struct Width {
    Out plain, mapped, blocks;
};

Width run_width(const PrincipalKernel& pk, const std::vector<Eigen::Vector3f>& p, std::size_t n) {
    Width w{run(pk, p, n, n, false), run(pk, p, n, n, true), run(pk, p, n, 37, true)};
    std::vector<float> tc(n), ts(n);
    const std::size_t unmapped = pk.map_t(w.plain.lmax.data(), w.plain.lmin.data(), 0, n, tc.data(), ts.data());
    CHECK(same(w.mapped.lmax, w.plain.lmax));
    CHECK(same(w.mapped.lmin, w.plain.lmin));
    CHECK(same(w.mapped.dir, w.plain.dir));
    CHECK(same(w.mapped.tc, tc));
    CHECK(same(w.mapped.ts, ts));
    CHECK(w.mapped.unmapped == unmapped);
    check_same(w.blocks, w.mapped);
    return w;
}

// Deterministic jitter of up to `amount` x the bounding box per coordinate; every 61st vertex
// moved onto vertex 0 (stretched and collapsed triangles).
std::vector<Eigen::Vector3f> jittered(const std::vector<Eigen::Vector3f>& p, float amount) {
    Eigen::Vector3f lo = p[0], hi = p[0];
    for (const auto& q : p) {
        lo = lo.cwiseMin(q);
        hi = hi.cwiseMax(q);
    }
    const float scale = amount * (hi - lo).norm();
    std::uint32_t state = 12345;
    auto next = [&] {
        state = state * 1664525u + 1013904223u;
        return static_cast<float>(state >> 8) / 16777216.0f - 0.5f;
    };
    std::vector<Eigen::Vector3f> out(p.size());
    for (std::size_t i = 0; i < p.size(); ++i) {
        const float x = next(), y = next(), z = next();
        out[i] = i % 61 == 60 ? p[0] : Eigen::Vector3f(p[i] + scale * Eigen::Vector3f(x, y, z));
    }
    return out;
}

// SSE and AVX2 on `deformed` (rest: the kernel's rest positions). Returns how many vertices were
// compared.
std::size_t compare_widths(const Mesh& mesh, const std::vector<Eigen::Vector3f>& rest, const std::vector<Eigen::Vector3f>& deformed) {
    const Topology topo = build_topology(mesh);
    const auto tris = welded_triangles(mesh, topo);
    PrincipalKernel pk(tris, topo, rest);
    const std::size_t n = topo.welded_count();
    pk.avx2 = false;
    const Width sse = run_width(pk, deformed, n);
    if (!principal_avx2_supported()) return 0;
    pk.avx2 = true;
    const Width avx = run_width(pk, deformed, n);
    check_same(avx.plain, sse.plain);
    check_same(avx.mapped, sse.mapped);
    check_same(avx.blocks, sse.blocks);
    return n;
}

// Every mesh of a file, posed mid-clip (rest pose without a clip), as posed and jittered.
std::size_t compare_file(const std::string& path) {
    const Scene scene = load_scene(path);
    Pose pose = rest_pose(scene);
    if (!scene.clips.empty()) {
        const Clip& c = scene.clips[0];
        sample_pose(scene, &c, 0.5 * (c.start + c.end), pose);
    }
    std::size_t compared = 0;
    for (std::size_t m = 0; m < scene.meshes.size(); ++m) {
        if (scene.meshes[m].vertex_count() == 0) continue;
        std::vector<Eigen::Vector3f> rest, posed;
        deform_mesh(scene, static_cast<int>(m), bind_pose(scene), rest);
        deform_mesh(scene, static_cast<int>(m), pose, posed);
        INFO(path << " mesh " << m);
        compared += compare_widths(scene.meshes[m], rest, posed);
        compared += compare_widths(scene.meshes[m], rest, jittered(posed, 0.01f));
    }
    return compared;
}

}  // namespace

TEST_CASE("Principal: SSE and AVX2 give the same bits on corpus meshes", "[measure][simd][corpus]") {
    if (!principal_avx2_supported()) WARN("this CPU has no AVX2: only the SSE path's own checks run");
    std::size_t compared = 0;
    for (const char* f : {"bend_cylinder/bend_cylinder.glb", "joystick_face/joystick_face.glb", "khronos/cesium_man.gltf",
                          "khronos/rigged_simple.gltf", "pab/arnaud.fbx", "assimp/FBX/spider.fbx"})
        compared += compare_file(test::corpus(f));
    if (principal_avx2_supported()) CHECK(compared > 10000);
}

TEST_CASE("Principal: SSE and AVX2 give the same bits on the bench tube", "[measure][simd][bench]") {
    const std::size_t compared = compare_file(test::bench_dir() + "/tube_262k.glb");
    if (principal_avx2_supported()) CHECK(compared >= 2 * 262144);  // each mesh as posed and jittered
}
