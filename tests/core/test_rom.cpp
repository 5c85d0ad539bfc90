// The range-of-motion clip sampled at every frame against the angle asked for, the joint order,
// and vertex pairing by rest position (shuffled vertices, seams, a missing vertex).
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "rigscope/core/error.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/rom.h"
#include "rigscope/core/vertex_match.h"

using namespace rigscope;

namespace {

// root (0) -> a (2) -> b (1), with a rotated rest so local axes differ from world axes.
Scene chain() {
    Scene s;
    s.source = "chain";
    s.nodes.resize(3);
    s.nodes[0].name = "root";
    s.nodes[0].children = {2};
    s.nodes[2].name = "a";
    s.nodes[2].parent = 0;
    s.nodes[2].children = {1};
    s.nodes[2].rest.rotation = Eigen::Quaterniond(Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()));
    s.nodes[1].name = "b";
    s.nodes[1].parent = 2;
    Skin skin;
    skin.joints = {1, 2, 0};  // skin order is not the sweep order
    skin.inverse_bind.assign(3, Eigen::Matrix4d::Identity());
    s.skins.push_back(skin);
    return s;
}

}  // namespace

TEST_CASE("ROM sweeps joints parents first, each axis to +/- angle at every frame", "[rom]") {
    const Scene s = chain();
    RomOptions o;
    o.angle_deg = 40;
    o.frames_per_sweep = 8;
    const RomPlan plan = make_rom(s, o, 30.0);
    REQUIRE(plan.sweeps.size() == 9);
    CHECK(plan.sweeps[0].node == 0);
    CHECK(plan.sweeps[3].node == 2);
    CHECK(plan.sweeps[6].node == 1);
    Pose pose;
    for (long f = 0; f <= plan.sweeps.back().last; ++f) {
        sample_pose(s, &plan.clip, f / 30.0, pose);
        const RomSweep* w = rom_sweep_at(plan, f);
        REQUIRE(w);
        const double want = rom_angle_at(plan, *w, static_cast<double>(f));
        for (int n = 0; n < 3; ++n) {
            // The local rotation relative to rest, about the joint's own axis.
            const Eigen::Quaterniond rel = s.nodes[n].rest.rotation.conjugate() * pose.local[n].rotation;
            const Eigen::AngleAxisd aa(rel);
            const double got = aa.angle() * 180 / M_PI * (aa.angle() > 1e-9 ? aa.axis()[w->axis] : 0.0);
            // float keys and slerp: 1e-4 degrees.
            CHECK(got == Approx(n == w->node ? want : 0.0).margin(1e-4));
        }
    }
    CHECK(rom_angle_at(plan, plan.sweeps[0], 2) == Approx(40));
    CHECK(rom_angle_at(plan, plan.sweeps[0], 6) == Approx(-40));
    CHECK(rom_angle_at(plan, plan.sweeps[0], 1) == Approx(20));
}

TEST_CASE("ROM options out of range and unknown joints are refused", "[rom]") {
    const Scene s = chain();
    RomOptions o;
    o.frames_per_sweep = 6;
    CHECK_THROWS_AS(make_rom(s, o, 24), Error);
    o.frames_per_sweep = 8;
    o.angle_deg = 180;
    CHECK_THROWS_AS(make_rom(s, o, 24), Error);
    o.angle_deg = 30;
    o.joints = {"b", "root"};
    const RomPlan p = make_rom(s, o, 24);
    REQUIRE(p.sweeps.size() == 6);
    CHECK(p.sweeps[0].node == 0);  // parents first whatever the order asked
    o.joints = {"nope"};
    CHECK_THROWS_AS(make_rom(s, o, 24), Error);
    Scene bare = s;
    bare.skins.clear();
    CHECK_THROWS_AS(rom_joints(bare, {}), Error);
}

TEST_CASE("match_by_position pairs shuffled vertices and seams, counts the rest", "[rom][diff]") {
    std::vector<Eigen::Vector3f> a;
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1, 1);
    for (int i = 0; i < 500; ++i) a.emplace_back(u(rng), u(rng), u(rng));
    a.push_back(a[10]);  // a seam: two vertices at one point
    std::vector<std::uint32_t> perm(a.size());
    std::iota(perm.begin(), perm.end(), 0u);
    std::shuffle(perm.begin(), perm.end(), rng);
    std::vector<Eigen::Vector3f> b(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) b[perm[i]] = a[i] + Eigen::Vector3f(1e-7f, 0, 0);
    const VertexMatch m = match_by_position(a, b, 1e-5);
    REQUIRE(m.complete());
    for (std::size_t i = 0; i < a.size(); ++i) CHECK((b[m.b_of_a[i]] - a[i]).norm() < 1e-6f);
    CHECK(m.b_of_a[10] != m.b_of_a[500]);

    std::vector<Eigen::Vector3f> fewer(b.begin(), b.end() - 1);
    fewer.erase(fewer.begin() + perm[3]);  // a vertex with no partner
    fewer.push_back(b.back());
    const VertexMatch m2 = match_by_position(a, fewer, 1e-5);
    CHECK(m2.unmatched >= 1);
    CHECK(!m2.complete());
}
