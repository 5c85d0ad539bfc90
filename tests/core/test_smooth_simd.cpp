// The smoother's AVX2 step against its scalar loop, bit for bit: each lane sums its vertex's
// neighbours in list order with the same float operations, so any difference is a bug, not
// rounding. One and two fields, uniform and cotan weights, over the whole range and over blocks
// of 37 vertices (batches of 8 split between a block's scalar ends and its AVX2 middle), on
// corpus meshes and the bench tube. The field is irregular (every value different, some
// negative, some zero) so that a lane reading another lane's neighbour, a slot out of order or
// a padded slot that adds something would change bits; vertex 0's first field is infinite.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>

#include "corpus.h"
#include "rigscope/core/measure.h"
#include "rigscope/core/smooth.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/skin.h"
#include "rigscope/io/load.h"

using namespace rigscope;

namespace {

// Three steps of `fields` values per vertex, in calls of `block` vertices.
std::vector<float> steps(const Smoother& s, std::size_t fields, std::size_t block) {
    const std::size_t n = s.size();
    std::vector<float> a(fields * n), b(fields * n, -7.0f);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = i % 13 == 5 ? 0.0f : float(std::sin(0.37 * i) * (1.0 + 0.01 * (i % 101)));
    // Vertex 0 is what padded lanes read: infinite, a padded lane that is not masked out adds
    // inf (uniform) or 0 * inf = NaN (cotan, whose padded weights are 0).
    a[0] = std::numeric_limits<float>::infinity();
    for (int it = 0; it < 3; ++it) {
        for (std::size_t v = 0; v < n; v += block) s.step(a.data(), b.data(), fields, v, std::min(n, v + block));
        std::swap(a, b);
    }
    return a;
}

bool same(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

// Both paths on one mesh, each weighting and field count; returns the vertices compared.
std::size_t compare_paths(const Mesh& mesh, const std::vector<Eigen::Vector3f>& rest) {
    const Topology topo = build_topology(mesh);
    const auto tris = welded_triangles(mesh, topo);
    std::size_t compared = 0;
    for (SmoothWeights k : {SmoothWeights::uniform, SmoothWeights::cotan}) {
        Smoother s(topo, k, tris, rest);
        for (std::size_t fields : {1, 2}) {
            INFO((k == SmoothWeights::cotan ? "cotan" : "uniform") << ", fields " << fields);
            s.avx2 = false;
            const std::vector<float> scalar = steps(s, fields, s.size());
            if (!avx2_supported()) continue;
            s.avx2 = true;
            CHECK(same(steps(s, fields, s.size()), scalar));
            CHECK(same(steps(s, fields, 37), scalar));
            compared += s.size();
        }
    }
    return compared;
}

std::size_t compare_file(const std::string& path) {
    const Scene scene = load_scene(path);
    std::size_t compared = 0;
    for (std::size_t m = 0; m < scene.meshes.size(); ++m) {
        if (scene.meshes[m].vertex_count() == 0) continue;
        std::vector<Eigen::Vector3f> rest;
        deform_mesh(scene, static_cast<int>(m), bind_pose(scene), rest);
        INFO(path << " mesh " << m);
        compared += compare_paths(scene.meshes[m], rest);
    }
    return compared;
}

}  // namespace

TEST_CASE("Smoothing: AVX2 and scalar steps give the same bits on corpus meshes", "[smooth][simd][corpus]") {
    if (!avx2_supported()) WARN("this CPU has no AVX2: only the scalar path runs");
    std::size_t compared = 0;
    for (const char* f : {"bend_cylinder/bend_cylinder.glb", "joystick_face/joystick_face.glb", "khronos/cesium_man.gltf",
                          "khronos/rigged_simple.gltf", "pab/arnaud.fbx", "assimp/FBX/spider.fbx"})
        compared += compare_file(test::corpus(f));
    if (avx2_supported()) CHECK(compared > 4 * 5000);  // about 7900 welded vertices, each compared 4 times
}

TEST_CASE("Smoothing: AVX2 and scalar steps give the same bits on the bench tube", "[smooth][simd][bench]") {
    const std::size_t compared = compare_file(test::bench_dir() + "/tube_262k.glb");
    if (avx2_supported()) CHECK(compared >= 4 * 262144);  // two weightings x one and two fields
}
