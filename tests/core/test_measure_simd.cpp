// The principal kernel's two register widths against each other, bit for bit: SSE (four lanes)
// and AVX2 (eight) run one template with the same IEEE operations per lane and no FMA, so any
// difference is a bug, not rounding. Also evaluate_and_map against evaluate then map_t, calls
// over blocks that split batches against one call, and evaluate_with_t's edge T against
// tension_block's (the same sums in the same order, so the same bits). On corpus meshes posed
// mid-clip and on the bench tube, each as posed and with an irregular jitter that gives every
// vertex a different, anisotropic tensor and collapses some triangles (lambda_min 0: the maps'
// fallback).
#include <catch2/catch.hpp>
#include <algorithm>
#include <cstring>

#include "corpus.h"
#include "rigscope/core/measure.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/skin.h"
#include "rigscope/core/tension.h"
#include "rigscope/io/load.h"
#include "core/simd_points.h"

// Only where the SIMD kernels are built: a RIGSCOPE_SIMD=OFF build has neither width (the
// scalar loop it runs is compared with both in test_scalar_kernels, in the normal build).
#if defined(RIGSCOPE_SSE_KERNELS)

using namespace rigscope;

namespace {

struct Out {
    std::vector<float> lmax, lmin, dir, tc, ts, t;
    std::size_t degenerate = 0, unmapped = 0, edge_degenerate = 0;
};

// The kernel over [0, n) in calls of `block` vertices; with `map`, evaluate_and_map; with
// rest_lengths, evaluate_with_t.
Out run(const PrincipalKernel& pk, const std::vector<Eigen::Vector3f>& p, std::size_t n, std::size_t block, bool map,
        const std::vector<float>* rest_lengths = nullptr) {
    Out o;
    o.lmax.assign(n, -1.0f);
    o.lmin.assign(n, -1.0f);
    o.dir.assign(3 * n, -1.0f);
    o.tc.assign(map ? n : 0, -1.0f);
    o.ts.assign(map ? n : 0, -1.0f);
    o.t.assign(rest_lengths ? n : 0, -1.0f);
    for (std::size_t b = 0; b < n; b += block) {
        const std::size_t e = std::min(n, b + block);
        if (rest_lengths) {
            const PrincipalKernel::Counts c = pk.evaluate_with_t(p.data(), b, e, o.lmax.data(), o.lmin.data(), o.dir.data(),
                                                                 map ? o.tc.data() : nullptr, map ? o.ts.data() : nullptr,
                                                                 rest_lengths->data(), o.t.data());
            (map ? o.unmapped : o.degenerate) += c.measure;
            o.edge_degenerate += c.edge;
        } else if (map) {
            o.unmapped += pk.evaluate_and_map(p.data(), b, e, o.lmax.data(), o.lmin.data(), o.dir.data(), o.tc.data(), o.ts.data());
        } else {
            o.degenerate += pk.evaluate(p.data(), b, e, o.lmax.data(), o.lmin.data(), o.dir.data());
        }
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
    CHECK(same(a.t, b.t));
    CHECK(a.degenerate == b.degenerate);
    CHECK(a.unmapped == b.unmapped);
    CHECK(a.edge_degenerate == b.edge_degenerate);
}

// tension_block's T of `deformed` (rest lengths from `rest`), the reference for evaluate_with_t.
struct EdgeT {
    std::vector<float> rest_lengths, t;
    std::size_t degenerate = 0;
};

EdgeT edge_t(const Topology& topo, const std::vector<Eigen::Vector3f>& rest, const std::vector<Eigen::Vector3f>& deformed) {
    const EdgeBatches eb = edge_batches(topo);
    EdgeT r;
    r.rest_lengths.assign(topo.welded_count(), 0.0f);
    r.t.assign(topo.welded_count(), -1.0f);
    mean_edge_lengths(eb, rest.data(), 0, eb.batch_count(), r.rest_lengths.data());
    r.degenerate = tension_block(eb, deformed.data(), r.rest_lengths.data(), 0, eb.batch_count(), nullptr, r.t.data());
    return r;
}

// Every result of one width: one call, evaluate_and_map (against evaluate then map_t), blocks of
// 37 vertices (batches of 8 split between calls), and each with the edge T (against `ref` and
// the same calls without it).
struct Width {
    Out plain, mapped, blocks, plain_t, mapped_t, blocks_t;
};

void check_edge_t(const Out& with_t, const Out& without, const EdgeT& ref) {
    Out lambdas = with_t;
    lambdas.t.clear();
    lambdas.edge_degenerate = 0;
    check_same(lambdas, without);
    CHECK(same(with_t.t, ref.t));
    CHECK(with_t.edge_degenerate == ref.degenerate);
}

Width run_width(const PrincipalKernel& pk, const std::vector<Eigen::Vector3f>& p, std::size_t n, const EdgeT& ref) {
    Width w{run(pk, p, n, n, false),
            run(pk, p, n, n, true),
            run(pk, p, n, 37, true),
            run(pk, p, n, n, false, &ref.rest_lengths),
            run(pk, p, n, n, true, &ref.rest_lengths),
            run(pk, p, n, 37, true, &ref.rest_lengths)};
    check_edge_t(w.plain_t, w.plain, ref);
    check_edge_t(w.mapped_t, w.mapped, ref);
    check_edge_t(w.blocks_t, w.blocks, ref);
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
    REQUIRE(pk.fuses_edge_t());
    const EdgeT ref = edge_t(topo, rest, deformed);
    const std::size_t n = topo.welded_count();
    pk.avx2 = false;
    const Width sse = run_width(pk, deformed, n, ref);
    if (!avx2_supported()) return 0;
    pk.avx2 = true;
    const Width avx = run_width(pk, deformed, n, ref);
    check_same(avx.plain, sse.plain);
    check_same(avx.mapped, sse.mapped);
    check_same(avx.blocks, sse.blocks);
    check_same(avx.blocks_t, sse.blocks_t);
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
    if (!avx2_supported()) WARN("this CPU has no AVX2: only the SSE path's own checks run");
    std::size_t compared = 0;
    for (const char* f : {"bend_cylinder/bend_cylinder.glb", "joystick_face/joystick_face.glb", "khronos/cesium_man.gltf",
                          "khronos/rigged_simple.gltf", "pab/arnaud.fbx", "assimp/FBX/spider.fbx"})
        compared += compare_file(test::corpus(f));
    if (avx2_supported()) CHECK(compared > 10000);
}

TEST_CASE("Principal: SSE and AVX2 give the same bits on the bench tube", "[measure][simd][bench]") {
    const std::size_t compared = compare_file(test::bench_dir() + "/tube_262k.glb");
    if (avx2_supported()) CHECK(compared >= 2 * 262144);  // each mesh as posed and jittered
}

#endif
