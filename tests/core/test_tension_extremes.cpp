// tension_extremes (src/io/writers/tension_csv.cpp): the blocked SSE pass against the plain
// branchy one it replaced: the same values and the first vertex holding each, where the
// extremes repeat, sit at block edges (2048), in the tail past the last 16, or at vertex 0.
#include <catch2/catch.hpp>
#include <random>

#include "corpus.h"
#include "rigscope/core/tension_map.h"
#include "rigscope/io/load.h"
#include "rigscope/io/tension_output.h"

using namespace rigscope;

namespace {

TensionExtremes plain(const MeshTension& mt) {
    TensionExtremes e;
    std::size_t lo = 0, hi = 0;
    for (std::size_t i = 1; i < mt.t.size(); ++i) {
        if (mt.t[i] < mt.t[lo]) lo = i;
        if (mt.t[i] > mt.t[hi]) hi = i;
    }
    e.min_t = mt.t[lo], e.max_t = mt.t[hi];
    e.min_index = mt.topo.representative[lo], e.max_index = mt.topo.representative[hi];
    return e;
}

}  // namespace

TEST_CASE("Per-frame extremes are the first vertex of each extreme, as one plain pass finds", "[tension_extremes]") {
    const Scene s = load_scene(test::corpus("bend_cylinder/bend_cylinder.glb"));
    std::vector<Eigen::Vector3f> rest;
    deform_mesh(s, 0, rest_pose(s), rest);
    MeshTension mt(s, 0, true, rest);
    // T arrays of several sizes; representative[] is the mesh's, so sizes stay within it by
    // reusing it modulo its length.
    const std::vector<std::uint32_t> reps = mt.topo.representative;
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> level(0, 40);
    std::size_t cases = 0;
    for (std::size_t n : {1u, 15u, 16u, 17u, 2047u, 2048u, 2049u, 5000u, 6161u}) {
        mt.topo.representative.resize(n);
        for (std::size_t i = 0; i < n; ++i) mt.topo.representative[i] = reps[i % reps.size()] + static_cast<std::uint32_t>(i / reps.size()) * 100000u;
        for (int trial = 0; trial < 40; ++trial) {
            mt.t.resize(n);
            // Few distinct levels, so that extremes repeat.
            for (float& v : mt.t) v = 0.5f + 0.025f * static_cast<float>(level(rng));
            if (trial % 4 == 1) mt.t[0] = 0.1f;                                  // at vertex 0
            if (trial % 4 == 2 && n > 2048) mt.t[2048] = 0.1f, mt.t[2047] = 9.f; // at a block edge
            if (trial % 4 == 3) mt.t[n - 1] = 9.f;                               // in the tail
            const TensionExtremes a = tension_extremes(mt), b = plain(mt);
            INFO("n " << n << ", trial " << trial);
            CHECK(a.min_t == b.min_t);
            CHECK(a.max_t == b.max_t);
            CHECK(a.min_index == b.min_index);
            CHECK(a.max_index == b.max_index);
            ++cases;
        }
    }
    CHECK(cases == 360);
}
