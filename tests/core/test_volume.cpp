// Volumes (core/volume.h) on shapes whose answers are known by hand: a unit cube of quads (its
// faces as fans), the same split at every corner as exporters write it, opened, turned inside
// out or with a face running the wrong way; regions' swept volumes as cones from the joint; and
// the same bits for any thread count.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "rigscope/core/check_verdict.h"
#include "rigscope/core/error.h"
#include "rigscope/core/parallel.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/volume.h"

using namespace rigscope;

namespace {

// The unit cube [0,1]^3: 8 corners, 6 outward quads.
const float kCorners[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
const std::uint32_t kQuads[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};

Mesh cube(bool split = false, const Eigen::Vector3f& offset = Eigen::Vector3f::Zero(), float scale = 1) {
    Mesh m;
    m.name = "cube";
    auto corner = [&](std::uint32_t c) -> Eigen::Vector3f { return Eigen::Vector3f(kCorners[c][0], kCorners[c][1], kCorners[c][2]) * scale + offset; };
    if (!split)
        for (int c = 0; c < 8; ++c) m.positions.push_back(corner(c));
    for (const auto& q : kQuads) {
        for (std::uint32_t c : q) {
            if (split) {
                m.face_indices.push_back(static_cast<std::uint32_t>(m.positions.size()));
                m.positions.push_back(corner(c));
            } else {
                m.face_indices.push_back(c);
            }
        }
        m.face_offsets.push_back(static_cast<std::uint32_t>(m.face_indices.size()));
    }
    return m;
}

Scene scene_of(Mesh m) {
    Scene s;
    s.nodes.resize(1);
    s.nodes[0].name = "cube_node";
    s.nodes[0].mesh = 0;
    m.node = 0;
    s.meshes.push_back(std::move(m));
    return s;
}

VolumeLayout layout_of(const Scene& s, bool weld = true) { return volume_layout(s, 0, weld, s.meshes[0].positions); }

// The cube skinned to two joints: A (node 1, bound at the origin) holds the bottom corners,
// B (node 2, bound at the cube's centre) the top ones.
Scene skinned_cube() {
    Scene s = scene_of(cube());
    s.nodes.resize(3);
    s.nodes[1].name = "A";
    s.nodes[2].name = "B";
    s.nodes[2].parent = 1;
    s.nodes[1].children = {2};
    s.nodes[2].rest.translation = Eigen::Vector3d(0.5, 0.5, 0.5);
    Eigen::Matrix4d ib = Eigen::Matrix4d::Identity();
    ib.block<3, 1>(0, 3) = Eigen::Vector3d(-0.5, -0.5, -0.5);
    s.skins.push_back(Skin{"skin", {1, 2}, {Eigen::Matrix4d::Identity(), ib}});
    Mesh& m = s.meshes[0];
    m.skin = 0;
    for (int v = 0; v < 8; ++v) {
        m.influences.offsets.push_back(static_cast<std::uint32_t>(m.influences.joints.size()));
        m.influences.joints.push_back(v < 4 ? 0 : 1);
        m.influences.weights.push_back(1.0f);
    }
    m.influences.offsets.push_back(8);
    return s;
}

}  // namespace

TEST_CASE("volume: a unit cube of quads encloses 1, wherever it is and split at every corner", "[volume]") {
    const Scene s = scene_of(cube());
    const VolumeLayout L = layout_of(s);
    CHECK(L.closure.closed);
    CHECK(L.quads.size() == 6 * 4);  // each face's fan of two triangles as one quad
    CHECK(L.bind_volume == Approx(1.0).epsilon(1e-12));
    // Far from the origin, scaled by 2: 8, to the digits the floats hold.
    const Scene far = scene_of(cube(false, Eigen::Vector3f(1000, -2000, 500), 2));
    CHECK(layout_of(far).bind_volume == Approx(8.0).epsilon(1e-9));
    // Split as exporters write hard edges: closed once welded, open without the weld.
    const Scene split = scene_of(cube(true));
    const VolumeLayout W = layout_of(split);
    CHECK(W.closure.closed);
    CHECK(W.bind_volume == Approx(1.0).epsilon(1e-12));
    const VolumeLayout U = layout_of(split, false);
    CHECK(!U.closure.closed);
    CHECK(U.closure.boundary_edges == 24);
    CHECK(U.bind_volume == 0);
}

TEST_CASE("volume: an open, a misoriented and an inside-out cube, and a collapsed face is skipped", "[volume]") {
    {
        Mesh m = cube();
        m.face_indices.resize(20);  // the last quad gone: a square hole
        m.face_offsets.resize(6);
        const VolumeLayout L = layout_of(scene_of(m));
        CHECK(!L.closure.closed);
        CHECK(L.closure.boundary_edges == 4);
        CHECK(L.closure.misoriented_edges == 0);
    }
    {
        Mesh m = cube();
        std::reverse(m.face_indices.begin() + 4, m.face_indices.begin() + 8);  // the top quad faces in
        const VolumeLayout L = layout_of(scene_of(m));
        CHECK(!L.closure.closed);
        CHECK(L.closure.misoriented_edges == 4);
        CHECK(L.closure.boundary_edges == 0);
    }
    {
        Mesh m = cube();
        for (std::size_t f = 0; f < 6; ++f) std::reverse(m.face_indices.begin() + 4 * f, m.face_indices.begin() + 4 * f + 4);
        const VolumeLayout L = layout_of(scene_of(m));
        CHECK(L.closure.closed);
        CHECK(L.bind_volume == Approx(-1.0).epsilon(1e-12));  // signed: wound inward
    }
    {
        Mesh m = cube();
        m.face_indices.insert(m.face_indices.end(), {2, 2, 6});  // two corners one vertex: no face
        m.face_offsets.push_back(static_cast<std::uint32_t>(m.face_indices.size()));
        const VolumeLayout L = layout_of(scene_of(m));
        CHECK(L.degenerate_faces == 1);
        CHECK(L.closure.closed);
        CHECK(L.bind_volume == Approx(1.0).epsilon(1e-12));
    }
    {
        Mesh m = cube();
        m.face_indices.clear();
        m.face_offsets = {0};
        const VolumeLayout L = layout_of(scene_of(m));
        CHECK(!L.closure.closed);
        CHECK(L.quads.empty());
    }
}

TEST_CASE("volume: a region's measure is the volume swept from its joint over its faces", "[volume]") {
    const Scene s = skinned_cube();
    const VolumeLayout L = layout_of(s);
    REQUIRE(L.regions.size() == 2);
    // A: the bottom and the four sides (two corners each way: the tie goes to the lower joint).
    CHECK(L.regions[0].node == 1);
    CHECK(L.regions[0].faces == 5);
    CHECK(L.regions[1].node == 2);
    CHECK(L.regions[1].faces == 1);
    // Cones from A at the origin: the faces through it sweep nothing, x = 1 and y = 1 each a
    // third (height 1, base 1). From B at the centre the top sweeps 1/3 x 1/2 x 1.
    CHECK(L.regions[0].bind == Approx(2.0 / 3.0).epsilon(1e-12));
    CHECK(L.regions[1].bind == Approx(1.0 / 6.0).epsilon(1e-12));
    // A rigid turn of the whole rig keeps every measure.
    MeshVolume mv(s, 0, true);
    Pose pose = rest_pose(s);
    pose.local[1].rotation = Eigen::Quaterniond(Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 2, 3).normalized()));
    pose.local[1].translation = Eigen::Vector3d(4, -1, 2);
    pose_world(s, pose);
    mv.evaluate(s, pose);
    CHECK(mv.measures().volume == Approx(1.0).epsilon(1e-6));
    CHECK(mv.measures().regions[0] == Approx(2.0 / 3.0).epsilon(1e-6));
    CHECK(mv.measures().regions[1] == Approx(1.0 / 6.0).epsilon(1e-6));
    // B raised by 1 along z: the top rises, the box doubles; B's cone over the top is unchanged
    // (it moves with B) and A's sides x = 1 and y = 1 grow to 2/3 each (cones of base 1 x 2).
    Pose up = rest_pose(s);
    up.local[2].translation = Eigen::Vector3d(0.5, 0.5, 1.5);
    pose_world(s, up);
    mv.evaluate(s, up);
    CHECK(mv.measures().volume == Approx(2.0).epsilon(1e-6));
    CHECK(mv.measures().regions[0] == Approx(4.0 / 3.0).epsilon(1e-6));
    CHECK(mv.measures().regions[1] == Approx(1.0 / 6.0).epsilon(1e-6));
    CHECK(mv.joints()[1].z() == Approx(1.5));
}

TEST_CASE("volume: the heaviest influence names a vertex's region, a tie the lower joint", "[volume]") {
    Scene s = skinned_cube();
    Mesh& m = s.meshes[0];
    // The top corners now lean 0.5/0.5: the tie is A's, so every face is A's.
    m.influences = Influences{};
    for (int v = 0; v < 8; ++v) {
        m.influences.offsets.push_back(static_cast<std::uint32_t>(m.influences.joints.size()));
        if (v < 4) {
            m.influences.joints.push_back(0);
            m.influences.weights.push_back(1.0f);
        } else {
            m.influences.joints.insert(m.influences.joints.end(), {1, 0});
            m.influences.weights.insert(m.influences.weights.end(), {0.5f, 0.5f});
        }
    }
    m.influences.offsets.push_back(static_cast<std::uint32_t>(m.influences.joints.size()));
    const VolumeLayout L = layout_of(s);
    REQUIRE(L.regions.size() == 1);
    CHECK(L.regions[0].node == 1);
    CHECK(L.regions[0].faces == 6);
    CHECK(L.regions[0].bind == Approx(1.0).epsilon(1e-12));  // the whole closed cube from A
}

TEST_CASE("volume: the same bits for any thread count, several blocks a region", "[volume][threads]") {
    // A closed UV sphere of 400 x 200 quads (two triangles each, more than two blocks).
    const int nu = 400, nv = 200;
    Mesh m;
    m.name = "sphere";
    m.positions.push_back(Eigen::Vector3f(0, 0, -1));
    for (int j = 1; j < nv; ++j)
        for (int i = 0; i < nu; ++i) {
            const double th = M_PI * j / nv - M_PI / 2, ph = 2 * M_PI * i / nu;
            m.positions.push_back(Eigen::Vector3f(float(std::cos(th) * std::cos(ph)), float(std::cos(th) * std::sin(ph)), float(std::sin(th))));
        }
    m.positions.push_back(Eigen::Vector3f(0, 0, 1));
    auto ring = [&](int j, int i) { return std::uint32_t(1 + (j - 1) * nu + (i % nu)); };
    auto tri = [&](std::uint32_t a, std::uint32_t b, std::uint32_t c) {
        m.face_indices.insert(m.face_indices.end(), {a, b, c});
        m.face_offsets.push_back(static_cast<std::uint32_t>(m.face_indices.size()));
    };
    const std::uint32_t top = static_cast<std::uint32_t>(m.positions.size() - 1);
    for (int i = 0; i < nu; ++i) {
        tri(0, ring(1, i + 1), ring(1, i));
        tri(top, ring(nv - 1, i), ring(nv - 1, i + 1));
        for (int j = 1; j + 1 < nv; ++j) {
            tri(ring(j, i), ring(j, i + 1), ring(j + 1, i + 1));
            tri(ring(j, i), ring(j + 1, i + 1), ring(j + 1, i));
        }
    }
    const Scene s = scene_of(m);
    const VolumeLayout L = layout_of(s);
    REQUIRE(L.closure.closed);
    REQUIRE(L.quads.size() / 4 > 2 * MeshVolume::kBlock);
    // The AVX2 sums read whole 16 bytes below the highest vertex a quad reads: here the array's
    // last (the top pole), which the kernel must read within its own 12 bytes.
    CHECK(L.highest_vertex == *std::max_element(L.quads.begin(), L.quads.end()));
    CHECK(L.highest_vertex == top);
    CHECK(L.bind_volume == Approx(4.0 / 3.0 * M_PI).epsilon(2e-3));  // the inscribed polyhedron, a little less
    CHECK(L.bind_volume < 4.0 / 3.0 * M_PI);
    VolumeMeasures one, many;
    measure_volume(L, s.meshes[0].positions.data(), {}, one, nullptr);
    // The AVX2 kernel and its scalar twin: the same bits (where the CPU has AVX2).
    if (avx2_default()) {
        VolumeMeasures scalar;
        measure_volume(L, s.meshes[0].positions.data(), {}, scalar, nullptr, false);
        CHECK(std::memcmp(&one.volume, &scalar.volume, sizeof(double)) == 0);
    }
    for (unsigned threads : {2u, 3u, 5u}) {
        ThreadPool pool(threads);
        measure_volume(L, s.meshes[0].positions.data(), {}, many, &pool);
        CHECK(std::memcmp(&one.volume, &many.volume, sizeof(double)) == 0);
    }
}

TEST_CASE("volume: a position that is not finite is an error, and a ratio needs a bind measure", "[volume]") {
    Scene s = scene_of(cube());
    const VolumeLayout L = layout_of(s);
    std::vector<Eigen::Vector3f> p = s.meshes[0].positions;
    p[3].y() = std::numeric_limits<float>::quiet_NaN();
    VolumeMeasures out;
    try {
        measure_volume(L, p.data(), {}, out);
        FAIL("no error");
    } catch (const Error& e) {
        CHECK(e.code() == kExitBadInput);
        CHECK_THAT(e.what(), Catch::Contains("not finite"));
    }
    CHECK(volume_ratio(0.5, 1.0, 1.0) == 0.5);
    CHECK(std::isnan(volume_ratio(0.5, 1e-12, 1.0)));
    CHECK(volume_ratio(0.5, -0.25, 1.0) == -2.0);
}

TEST_CASE("volume: --max-volume-loss fails a volume whose loss passes the limit, at its worst frame", "[volume][check]") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    std::vector<Frame> frames{{false, 1, 0}, {false, 2, 0}, {false, 3, 0}};
    std::vector<VolumeSeries> s{{"Body", "*", {1.0, 0.8, 0.9}},      // loss 0.2 at frame 2
                                {"Body", "Elbow", {1.0, 0.7, 0.7}},  // 0.3, first at frame 2
                                {"Body", "Hand", {nan, nan, nan}},   // no bind measure
                                {"Body", "Knee", {1.0, 0.75, 1.1}}};  // exactly 0.25
    const VolumeLossVerdict v = judge_volume_loss(0.25, s, frames);
    CHECK(v.unjudged == 1);
    REQUIRE(v.failures.size() == 1);  // a loss equal to the limit passes
    CHECK(v.failures[0].series == 1);
    CHECK(v.failures[0].frame == 1);
    CHECK(v.failures[0].loss == Approx(0.3));
    CHECK(v.failed());
    const VolumeLossVerdict lower = judge_volume_loss(0.1, s, frames);
    REQUIRE(lower.failures.size() == 3);
    CHECK(lower.failures[0].series == 1);  // worst first
    CHECK(lower.failures[1].series == 3);
    CHECK(lower.failures[2].series == 0);
    CHECK_FALSE(judge_volume_loss(0.5, s, frames).failed());
    // Nothing judged never passes.
    CHECK(judge_volume_loss(0.5, {s[2]}, frames).failed());
    CHECK(judge_volume_loss(0.5, s, {}).failed());
}
