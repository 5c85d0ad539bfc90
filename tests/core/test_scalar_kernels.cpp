// The scalar loops that a build without the SIMD kernels runs (an ARM laptop or farm node, or
// RIGSCOPE_SIMD=OFF), against the SIMD kernels this build runs, both called explicitly here.
// Where the code promises the same bits (the edge lengths and T, area, principal and its maps:
// each lane does the scalar loop's IEEE operations in the same order, no FMA; the remap's
// vectorised loop and its value-by-value form) the comparison is memcmp: any difference is a
// bug, not rounding. Skinning's SIMD is Eigen's: the blend is element by element, so the test
// writes it out in plain float and compares bit for bit; the joint matrices' double products
// may be summed in another order by Eigen's scalar code, so those get a stated tolerance.
// On corpus meshes posed mid-clip, as posed and with an irregular jitter that collapses some
// triangles and edges (the fallbacks to T = 1).
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "corpus.h"
#include "rigscope/core/measure.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/skin.h"
#include "rigscope/core/tension.h"
#include "rigscope/io/load.h"

using namespace rigscope;

namespace {

const char* const kFiles[] = {"bend_cylinder/bend_cylinder.glb", "joystick_face/joystick_face.glb", "khronos/cesium_man.gltf",
                              "khronos/rigged_simple.gltf",      "pab/arnaud.fbx",                  "assimp/FBX/spider.fbx"};

template <class T>
bool same(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// Deterministic jitter of up to `amount` x the bounding box per coordinate; every 61st vertex
// moved onto vertex 0 (stretched and collapsed triangles and edges).
std::vector<Eigen::Vector3f> jittered(const std::vector<Eigen::Vector3f>& p, float amount) {
    Eigen::Vector3f lo = p[0], hi = p[0];
    for (const auto& q : p) {
        lo = lo.cwiseMin(q);
        hi = hi.cwiseMax(q);
    }
    const float scale = amount * (hi - lo).norm();
    std::uint32_t state = 987654321u;
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

// One mesh of a corpus file: its rest (bind) positions and two deformed sets.
struct Case {
    std::string name;
    const Mesh* mesh;
    std::vector<Eigen::Vector3f> rest;
    std::vector<std::vector<Eigen::Vector3f>> deformed;  // posed mid-clip, then jittered
};

struct File {
    Scene scene;
    Pose pose;
};

File load_posed(const std::string& relative) {
    File f{load_scene(test::corpus(relative)), Pose{}};
    f.pose = rest_pose(f.scene);
    if (!f.scene.clips.empty()) {
        const Clip& c = f.scene.clips[0];
        sample_pose(f.scene, &c, 0.5 * (c.start + c.end), f.pose);
    }
    return f;
}

// Every mesh with vertices of every file, with `each` called on it.
template <class Each>
void for_each_case(Each each) {
    for (const char* relative : kFiles) {
        const File f = load_posed(relative);
        for (std::size_t m = 0; m < f.scene.meshes.size(); ++m) {
            if (f.scene.meshes[m].vertex_count() == 0) continue;
            Case c{std::string(relative) + " mesh " + std::to_string(m), &f.scene.meshes[m], {}, {}};
            deform_mesh(f.scene, static_cast<int>(m), bind_pose(f.scene), c.rest);
            std::vector<Eigen::Vector3f> posed;
            deform_mesh(f.scene, static_cast<int>(m), f.pose, posed);
            c.deformed.push_back(jittered(posed, 0.01f));
            c.deformed.insert(c.deformed.begin(), std::move(posed));
            INFO(c.name);
            each(c);
        }
    }
}

}  // namespace

// Every layout: 4 lanes (the SSE loop), 8 and 16 (the AVX2 and AVX-512 loops where the CPU has
// them, else the scalar one) and 3 (no SIMD loop: the scalar one through tension_block too). Each against the scalar loop on the same
// layout, and each layout's lengths and T against the 4-lane layout's: a lane's sum is its own
// neighbours in their order whatever the lane count, so all are the same bits.
TEST_CASE("Scalar kernels: edge lengths and T equal the SIMD paths bit for bit, in every layout", "[scalar][simd][corpus]") {
    std::size_t compared = 0, fallbacks = 0, wide = 0;
    for_each_case([&](const Case& c) {
        const Topology topo = build_topology(*c.mesh);
        const std::size_t n = topo.welded_count();
        std::vector<float> rest4, t4, l4;
        for (std::size_t lanes : {EdgeBatches::kLanes, EdgeBatches::kWideLanes, EdgeBatches::kWidestLanes, std::size_t(3)}) {
            INFO("lanes " << lanes);
            const EdgeBatches eb = edge_batches(topo, lanes);
            REQUIRE(eb.lanes == lanes);
            const std::size_t batches = eb.batch_count();
            std::vector<float> rest_simd(n, -1.0f), rest_scalar(n, -2.0f);
            mean_edge_lengths(eb, c.rest.data(), 0, batches, rest_simd.data());
            mean_edge_lengths_scalar(eb, c.rest.data(), 0, batches, rest_scalar.data());
            CHECK(same(rest_simd, rest_scalar));
            if (lanes == EdgeBatches::kLanes) rest4 = rest_simd;
            CHECK(same(rest_simd, rest4));
            // Every 97th rest length 0: the fallback of a vertex without rest edges.
            for (std::size_t w = 0; w < n; w += 97) rest_simd[w] = 0.0f;
            for (const auto& p : c.deformed) {
                // With and without the lengths kept, in one call and in calls of 5 batches.
                for (bool keep : {true, false})
                    for (std::size_t block : {batches, std::size_t(5)}) {
                        std::vector<float> t1(n, -1.0f), t2(n, -2.0f), l1(keep ? n : 0, -1.0f), l2(keep ? n : 0, -2.0f);
                        std::size_t d1 = 0, d2 = 0;
                        for (std::size_t b = 0; b < batches; b += block) {
                            const std::size_t e = std::min(batches, b + block);
                            d1 += tension_block(eb, p.data(), rest_simd.data(), b, e, keep ? l1.data() : nullptr, t1.data());
                            d2 += tension_block_scalar(eb, p.data(), rest_simd.data(), b, e, keep ? l2.data() : nullptr, t2.data());
                        }
                        CHECK(same(t1, t2));
                        CHECK(same(l1, l2));
                        CHECK(d1 == d2);
                        if (keep && block == batches && &p == &c.deformed.front()) {
                            if (lanes == EdgeBatches::kLanes) t4 = t1, l4 = l1;
                            CHECK(same(t1, t4));
                            CHECK(same(l1, l4));
                        }
                        fallbacks += d1;
                    }
                compared += n;
            }
            if (lanes == EdgeBatches::kWideLanes) wide += batches;
        }
    });
    CHECK(compared > 10000);
    CHECK(fallbacks > 0);  // the fallback path was compared too
    CHECK(wide > 1000);    // the 8-lane layout was built and compared

}

// A grid stored row by row (the bench tube's columns, a strip-stored mesh): its selves and its
// neighbours a row apart are runs, and the slots to v - 1 and v + 1 are side by side in the
// ascending lists, the kPair entries whose upper roots the AVX-512 loop takes once for both.
// Rows of 37 vertices put batches across row ends too (no pair there: not runs).
TEST_CASE("Scalar kernels: a grid's paired slots (one root for two) equal the scalar loop bit for bit", "[scalar][simd]") {
    constexpr std::uint32_t kW = 37, kH = 29;
    Mesh mesh;
    for (std::uint32_t y = 0; y < kH; ++y)
        for (std::uint32_t x = 0; x < kW; ++x) mesh.positions.emplace_back(0.1f * x, 0.07f * y, 0.01f * ((x * 7 + y * 3) % 5));
    for (std::uint32_t y = 0; y + 1 < kH; ++y)
        for (std::uint32_t x = 0; x + 1 < kW; ++x) {
            const std::uint32_t a = y * kW + x;
            for (std::uint32_t v : {a, a + 1, a + kW + 1, a, a + kW + 1, a + kW}) mesh.face_indices.push_back(v);
            mesh.face_offsets.push_back(static_cast<std::uint32_t>(mesh.face_indices.size() - 3));
            mesh.face_offsets.push_back(static_cast<std::uint32_t>(mesh.face_indices.size()));
        }
    const Topology topo = build_topology(mesh);
    const std::size_t n = topo.welded_count();
    REQUIRE(n == kW * kH);
    const std::vector<Eigen::Vector3f> deformed = jittered(mesh.positions, 0.02f);
    std::vector<float> t4;
    for (std::size_t lanes : {EdgeBatches::kLanes, EdgeBatches::kWideLanes, EdgeBatches::kWidestLanes}) {
        INFO("lanes " << lanes);
        const EdgeBatches eb = edge_batches(topo, lanes);
        std::size_t pairs = 0;
        for (std::uint32_t e : eb.index) pairs += (e & EdgeBatches::kFlags) == EdgeBatches::kFlags;
        CHECK(pairs > n / lanes / 2);  // most batches lie inside a row
        std::vector<float> rest_simd(n, -1.0f), rest_scalar(n, -2.0f);
        mean_edge_lengths(eb, mesh.positions.data(), 0, eb.batch_count(), rest_simd.data());
        mean_edge_lengths_scalar(eb, mesh.positions.data(), 0, eb.batch_count(), rest_scalar.data());
        CHECK(same(rest_simd, rest_scalar));
        std::vector<float> t1(n, -1.0f), t2(n, -2.0f), l1(n, -1.0f), l2(n, -2.0f);
        const std::size_t d1 = tension_block(eb, deformed.data(), rest_simd.data(), 0, eb.batch_count(), l1.data(), t1.data());
        const std::size_t d2 = tension_block_scalar(eb, deformed.data(), rest_simd.data(), 0, eb.batch_count(), l2.data(), t2.data());
        CHECK(same(t1, t2));
        CHECK(same(l1, l2));
        CHECK(d1 == d2);
        if (lanes == EdgeBatches::kLanes) t4 = t1;
        CHECK(same(t1, t4));
    }
}

TEST_CASE("Scalar kernels: area equals the SSE path bit for bit", "[scalar][simd][corpus]") {
    std::size_t compared = 0;
    for_each_case([&](const Case& c) {
        const Topology topo = build_topology(*c.mesh);
        const AreaKernel ak(welded_triangles(*c.mesh, topo), topo, c.rest);
        const std::size_t n = topo.welded_count();
        for (const auto& p : c.deformed) {
            std::vector<float> simd(n, -1.0f), scalar(n, -2.0f), blocks(n, -3.0f);
            const std::size_t d1 = ak.evaluate(p.data(), 0, n, simd.data());
            const std::size_t d2 = ak.evaluate_scalar(p.data(), 0, n, scalar.data());
            // Blocks of 37 split the SIMD path's batches of 4 between calls.
            std::size_t d3 = 0;
            for (std::size_t b = 0; b < n; b += 37) d3 += ak.evaluate(p.data(), b, std::min(n, b + 37), blocks.data());
            CHECK(same(simd, scalar));
            CHECK(same(blocks, scalar));
            CHECK(d1 == d2);
            CHECK(d3 == d2);
            compared += n;
        }
    });
    CHECK(compared > 10000);
}

namespace {

struct Principal {
    std::vector<float> lmax, lmin, dir, tc, ts;
    std::size_t count = 0;
};

Principal principal_of(std::size_t n, bool map) {
    return {std::vector<float>(n, -1.0f), std::vector<float>(n, -1.0f), std::vector<float>(3 * n, -1.0f),
            std::vector<float>(map ? n : 0, -1.0f), std::vector<float>(map ? n : 0, -1.0f), 0};
}

void check_same(const Principal& a, const Principal& b) {
    CHECK(same(a.lmax, b.lmax));
    CHECK(same(a.lmin, b.lmin));
    CHECK(same(a.dir, b.dir));
    CHECK(same(a.tc, b.tc));
    CHECK(same(a.ts, b.ts));
    CHECK(a.count == b.count);
}

}  // namespace

TEST_CASE("Scalar kernels: principal and its maps equal the SSE and AVX2 paths bit for bit", "[scalar][simd][corpus]") {
    std::size_t compared = 0;
    for_each_case([&](const Case& c) {
        const Topology topo = build_topology(*c.mesh);
        PrincipalKernel pk(welded_triangles(*c.mesh, topo), topo, c.rest);
        const std::size_t n = topo.welded_count();
        for (const auto& p : c.deformed) {
            Principal scalar = principal_of(n, false), scalar_map = principal_of(n, true);
            scalar.count = pk.evaluate_scalar(p.data(), 0, n, scalar.lmax.data(), scalar.lmin.data(), scalar.dir.data());
            scalar_map.count = pk.evaluate_and_map_scalar(p.data(), 0, n, scalar_map.lmax.data(), scalar_map.lmin.data(),
                                                          scalar_map.dir.data(), scalar_map.tc.data(), scalar_map.ts.data());
            std::vector<bool> widths{false};
            if (avx2_supported()) widths.push_back(true);
            for (bool avx2 : widths) {
                INFO((avx2 ? "AVX2" : "SSE"));
                pk.avx2 = avx2;
                Principal simd = principal_of(n, false), map = principal_of(n, true), blocks = principal_of(n, true);
                simd.count = pk.evaluate(p.data(), 0, n, simd.lmax.data(), simd.lmin.data(), simd.dir.data());
                map.count = pk.evaluate_and_map(p.data(), 0, n, map.lmax.data(), map.lmin.data(), map.dir.data(), map.tc.data(),
                                                map.ts.data());
                for (std::size_t b = 0; b < n; b += 37)
                    blocks.count += pk.evaluate_and_map(p.data(), b, std::min(n, b + 37), blocks.lmax.data(), blocks.lmin.data(),
                                                        blocks.dir.data(), blocks.tc.data(), blocks.ts.data());
                check_same(simd, scalar);
                check_same(map, scalar_map);
                check_same(blocks, scalar_map);
                compared += n;
            }
            // map_t's SSE loop against its scalar loop on the same lambdas.
            std::vector<float> tc1(n), ts1(n), tc2(n), ts2(n);
            const std::size_t bad1 = pk.map_t(scalar.lmax.data(), scalar.lmin.data(), 0, n, tc1.data(), ts1.data());
            const std::size_t bad2 = pk.map_t_scalar(scalar.lmax.data(), scalar.lmin.data(), 0, n, tc2.data(), ts2.data());
            CHECK(same(tc1, tc2));
            CHECK(same(ts1, ts2));
            CHECK(bad1 == bad2);
            CHECK(same(tc2, scalar_map.tc));
        }
    });
    CHECK(compared > 10000);
}

TEST_CASE("Scalar kernels: the remap's vectorised loop equals the value-by-value path bit for bit", "[scalar][simd][tension]") {
    // T across both ramps: exact thresholds, 1, 0, values far past either end, and a fine sweep.
    std::vector<float> t{0.0f, 1e-30f, 0.5f, 0.75f, 0.9999999f, 1.0f, 1.0000001f, 1.6666666f, 1.6666667f, 2.0f, 1e30f};
    for (int i = 0; i <= 3000; ++i) t.push_back(0.001f * static_cast<float>(i));
    const std::size_t n = t.size();
    std::size_t cases = 0;
    for (double falloff : {1.0, 2.0, 0.5, 0.0})
        for (double limit : {1.0, 0.5, 0.0})
            for (double stretch_area : {0.75, 1.0})
                for (double compress_area : {0.6, 1.0}) {
                    TensionParams p;
                    p.falloff = falloff;
                    p.weight_limit = limit;
                    p.stretch_area = stretch_area;
                    p.compress_area = compress_area;
                    const TensionRemap remap(tension_range(p), p);
                    std::vector<float> s(n), c(n), s1(n), c1(n);
                    remap.stretch(t.data(), n, s.data());
                    remap.compress(t.data(), n, c.data());
                    for (std::size_t i = 0; i < n; ++i) {
                        s1[i] = remap.stretch(t[i]);
                        c1[i] = remap.compress(t[i]);
                    }
                    INFO("falloff " << falloff << ", weight limit " << limit << ", stretch area " << stretch_area
                                    << ", compress area " << compress_area);
                    CHECK(same(s, s1));
                    CHECK(same(c, c1));
                    // Both maps reach the weight limit on this sweep, so a dropped limit shows.
                    CHECK(*std::max_element(s1.begin(), s1.end()) == static_cast<float>(limit));
                    CHECK(*std::max_element(c1.begin(), c1.end()) == static_cast<float>(limit));
                    ++cases;
                }
    CHECK(cases == 48);
}

namespace {

// Linear blend skinning in plain float, in the order skin.cpp documents (morph deltas in target
// order, the joint matrices blended in influence order, then c0 x + c1 y + c2 z + c3): what
// Eigen's operations compute element by element, whether in SIMD registers or not.
std::vector<Eigen::Vector3f> plain_skin(const Scene& scene, int mesh_index, const Pose& pose) {
    const Mesh& mesh = scene.meshes[mesh_index];
    std::vector<Affine3x4> joints;
    skin_matrices(scene, mesh, pose, joints);
    const std::vector<float>& weights = pose.morph_weights[mesh_index];
    const std::size_t nv = mesh.positions.size();
    const bool skinned = mesh.skin >= 0 && !mesh.influences.empty();
    // An unskinned mesh: its node's world matrix as one joint of weight 1.
    if (!skinned) {
        Affine3x4 world{};
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 4; ++c)
                world.m[r * 4 + c] = mesh.node >= 0 ? static_cast<float>(pose.world[mesh.node](r, c)) : float(r == c);
        joints.assign(1, world);
    }
    const Influences& inf = mesh.influences;
    const std::size_t ni = skinned ? std::min(nv, inf.vertex_count()) : 0;
    std::vector<Eigen::Vector3f> out(nv);
    for (std::size_t v = 0; v < nv; ++v) {
        float p[3] = {mesh.positions[v].x(), mesh.positions[v].y(), mesh.positions[v].z()};
        for (std::size_t t = 0; t < mesh.targets.size() && t < weights.size(); ++t)
            if (weights[t] != 0.0f)
                for (int k = 0; k < 3; ++k) p[k] = p[k] + weights[t] * mesh.targets[t].deltas[v][k];
        float m[12];
        if (!skinned) {
            std::copy_n(joints[0].m, 12, m);
        } else {
            const std::uint32_t b = v < ni ? inf.offsets[v] : 0, e = v < ni ? inf.offsets[v + 1] : 0;
            if (b == e) {
                out[v] = Eigen::Vector3f(p[0], p[1], p[2]);
                continue;
            }
            for (int i = 0; i < 12; ++i) m[i] = inf.weights[b] * joints[inf.joints[b]].m[i];
            for (std::uint32_t k = b + 1; k < e; ++k)
                for (int i = 0; i < 12; ++i) m[i] = m[i] + inf.weights[k] * joints[inf.joints[k]].m[i];
        }
        for (int r = 0; r < 3; ++r) out[v][r] = ((m[4 * r] * p[0] + m[4 * r + 1] * p[1]) + m[4 * r + 2] * p[2]) + m[4 * r + 3];
    }
    return out;
}

}  // namespace

TEST_CASE("Scalar kernels: skinning equals its blend in plain float bit for bit", "[scalar][simd][skin][corpus]") {
    std::size_t compared = 0, morphed = 0, joint_entries = 0;
    for (const char* relative : kFiles) {
        File f = load_posed(relative);
        // Every morph target in the blend (the corpus clips leave joystick_face's at 0), each with
        // its own weight.
        for (std::size_t m = 0; m < f.scene.meshes.size(); ++m)
            for (std::size_t t = 0; t < f.pose.morph_weights[m].size(); ++t) f.pose.morph_weights[m][t] = 0.3f + 0.07f * t;
        for (std::size_t m = 0; m < f.scene.meshes.size(); ++m) {
            const Mesh& mesh = f.scene.meshes[m];
            if (mesh.vertex_count() == 0) continue;
            INFO(relative << " mesh " << m);
            const std::vector<Eigen::Vector3f> want = plain_skin(f.scene, static_cast<int>(m), f.pose);
            std::vector<Eigen::Vector3f> one, many;
            deform_mesh(f.scene, static_cast<int>(m), f.pose, one);
            MeshDeformer(f.scene, static_cast<int>(m)).deform(f.scene, f.pose, many);
            CHECK(std::memcmp(one.data(), want.data(), want.size() * sizeof(want[0])) == 0);
            CHECK(std::memcmp(many.data(), want.data(), want.size() * sizeof(want[0])) == 0);
            compared += want.size();
            for (float w : f.pose.morph_weights[m]) morphed += w != 0.0f;
            // The joint matrices, world x inverse bind in double then rounded to float. Eigen's
            // scalar code may sum each entry's four products in another order than its SIMD code:
            // a difference of a few double ulps of the sum of |products| (S), which moves the
            // float by at most one float ulp (<= 2^-23 |entry| <= 2^-23 S). Tolerance 2^-22 S.
            if (mesh.skin < 0) continue;
            std::vector<Affine3x4> joints;
            skin_matrices(f.scene, mesh, f.pose, joints);
            const Skin& skin = f.scene.skins[mesh.skin];
            for (std::size_t j = 0; j < joints.size(); ++j) {
                const Eigen::Matrix4d& W = f.pose.world[skin.joints[j]];
                const Eigen::Matrix4d& B = skin.inverse_bind[j];
                for (int r = 0; r < 3; ++r)
                    for (int c = 0; c < 4; ++c) {
                        double sum = 0, s = 0;
                        for (int k = 0; k < 4; ++k) {
                            sum += W(r, k) * B(k, c);
                            s += std::abs(W(r, k) * B(k, c));
                        }
                        CHECK(std::abs(joints[j].m[r * 4 + c] - static_cast<float>(sum)) <= std::ldexp(s, -22));
                        ++joint_entries;
                    }
            }
        }
    }
    CHECK(compared > 10000);
    CHECK(morphed > 0);        // joystick_face's morph targets were in the blend
    CHECK(joint_entries > 0);  // and skinned meshes
}
