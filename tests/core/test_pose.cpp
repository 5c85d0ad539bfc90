// Clip sampling against values computed by hand from the keys of Khronos' interpolation test.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "corpus.h"
#include "rigscope/io/load.h"
#include "rigscope/core/local_matrices.h"
#include "rigscope/core/pose.h"

using namespace rigscope;

namespace {

const Clip& clip_named(const Scene& s, const std::string& name) {
    for (const Clip& c : s.clips)
        if (c.name == name) return c;
    FAIL("no clip " << name);
    throw;
}

// Value element i of key k (CUBICSPLINE keys hold in-tangent, value, out-tangent).
std::vector<float> key(const Channel& ch, std::size_t k, int part = 1) {
    const bool cubic = ch.interpolation == Interpolation::CubicSpline;
    const std::size_t stride = (cubic ? 3 : 1) * ch.width;
    const std::size_t at = k * stride + (cubic ? part * ch.width : 0);
    return std::vector<float>(ch.values.begin() + at, ch.values.begin() + at + ch.width);
}

std::vector<float> sample(const Channel& ch, double t) {
    std::vector<float> out(ch.width);
    sample_channel(ch, t, out.data());
    return out;
}

}  // namespace

TEST_CASE("interpolation_test.gltf: the file's own interpolation modes are kept", "[pose][corpus]") {
    const Scene s = load_scene(test::corpus("khronos/interpolation_test.gltf"));
    CHECK(clip_named(s, "Step Scale").channels[0].interpolation == Interpolation::Step);
    CHECK(clip_named(s, "Linear Rotation").channels[0].interpolation == Interpolation::Linear);
    CHECK(clip_named(s, "CubicSpline Translation").channels[0].interpolation == Interpolation::CubicSpline);
    // The sample's "Linear Scale" sampler is in fact CUBICSPLINE; the reader must say what the file says.
    CHECK(clip_named(s, "Linear Scale").channels[0].interpolation == Interpolation::CubicSpline);
    // The texture is missing on purpose: a warning, not a failure, of the kind that says so.
    REQUIRE_FALSE(s.warnings.empty());
    CHECK(std::any_of(s.warnings.begin(), s.warnings.end(),
                      [](const Warning& w) { return w.kind == WarningKind::Skipped && w.message.find("l.jpg") != std::string::npos; }));
}

TEST_CASE("STEP holds each key's value until the next key", "[pose][corpus]") {
    const Scene s = load_scene(test::corpus("khronos/interpolation_test.gltf"));
    for (const char* name : {"Step Scale", "Step Rotation", "Step Translation"}) {
        const Channel& ch = clip_named(s, name).channels[0];
        for (std::size_t k = 0; k + 1 < ch.times.size(); ++k) {
            const double t = ch.times[k] + 0.9 * (ch.times[k + 1] - ch.times[k]);
            const auto expect = key(ch, k);
            const auto got = sample(ch, t);
            for (int i = 0; i < ch.width; ++i) CHECK(got[i] == Approx(expect[i]).margin(1e-7));
        }
    }
}

TEST_CASE("LINEAR interpolates translations and slerps rotations", "[pose][corpus]") {
    const Scene s = load_scene(test::corpus("khronos/interpolation_test.gltf"));
    const Channel& tr = clip_named(s, "Linear Translation").channels[0];
    for (std::size_t k = 0; k + 1 < tr.times.size(); ++k) {
        const double u = 0.25;
        const double t = tr.times[k] + u * (tr.times[k + 1] - tr.times[k]);
        const auto a = key(tr, k), b = key(tr, k + 1), got = sample(tr, t);
        for (int i = 0; i < 3; ++i) CHECK(got[i] == Approx(a[i] + u * (b[i] - a[i])).margin(1e-5));
    }
    const Channel& rot = clip_named(s, "Linear Rotation").channels[0];
    for (std::size_t k = 0; k + 1 < rot.times.size(); ++k) {
        const double u = 0.3;
        const double t = rot.times[k] + u * (rot.times[k + 1] - rot.times[k]);
        auto a = key(rot, k), b = key(rot, k + 1);
        double dot = 0;
        for (int i = 0; i < 4; ++i) dot += double(a[i]) * b[i];
        if (dot < 0) {  // the shorter arc
            for (auto& x : b) x = -x;
            dot = -dot;
        }
        const double theta = std::acos(std::min(1.0, dot));
        const double wa = std::sin((1 - u) * theta) / std::sin(theta), wb = std::sin(u * theta) / std::sin(theta);
        const auto got = sample(rot, t);
        // Either sign of a quaternion is the same rotation.
        double sign = (got[3] * (wa * a[3] + wb * b[3]) < 0) ? -1 : 1;
        for (int i = 0; i < 4; ++i) CHECK(sign * got[i] == Approx(wa * a[i] + wb * b[i]).margin(1e-5));
    }
}

TEST_CASE("CUBICSPLINE follows glTF's Hermite form with tangents scaled by the key interval", "[pose][corpus]") {
    const Scene s = load_scene(test::corpus("khronos/interpolation_test.gltf"));
    for (const char* name : {"CubicSpline Translation", "CubicSpline Scale"}) {
        const Channel& ch = clip_named(s, name).channels[0];
        for (std::size_t k = 0; k + 1 < ch.times.size(); ++k) {
            const double dt = ch.times[k + 1] - ch.times[k];
            const double t = ch.times[k] + 0.5 * dt;
            // At u = 1/2 the Hermite basis is (1/2, 1/8, 1/2, -1/8).
            const auto p0 = key(ch, k, 1), m0 = key(ch, k, 2), p1 = key(ch, k + 1, 1), m1 = key(ch, k + 1, 0);
            const auto got = sample(ch, t);
            for (int i = 0; i < ch.width; ++i)
                CHECK(got[i] == Approx(0.5 * p0[i] + 0.125 * dt * m0[i] + 0.5 * p1[i] - 0.125 * dt * m1[i]).margin(1e-5));
        }
    }
}

TEST_CASE("CUBICSPLINE rotation: non-zero tangents scaled by a 2 s key interval, then normalised", "[pose]") {
    // Keys at 0.5 s and 2.5 s (dt = 2), sampled at 1.0 s: u = 1/4, where the Hermite basis is
    // h00 = 27/32, h10 = 9/64, h01 = 5/32, h11 = -3/64 (2u^3-3u^2+1, u^3-2u^2+u, -2u^3+3u^2, u^3-u^2).
    // Key 0: value (0,0,0,1), out-tangent (0.2,0,0.5,0); key 1: in-tangent (0,0,0.5,0), value (0,0,1,0).
    //   x = h10*dt*0.2 = 9/160;  z = h10*dt*0.5 + h01 + h11*dt*0.5 = 9/64 + 10/64 - 3/64 = 1/4;
    //   w = h00 = 27/32; then the quaternion is normalised.
    // Unscaled tangents would give x = 9/320 and z = 13/64 instead.
    Channel ch;
    ch.node = 0;
    ch.path = ChannelPath::Rotation;
    ch.interpolation = Interpolation::CubicSpline;
    ch.width = 4;
    ch.times = {0.5f, 2.5f};
    ch.values = {0, 0, 0, 0,     0, 0, 0, 1,   0.2f, 0, 0.5f, 0,
                 0, 0, 0.5f, 0,  0, 0, 1, 0,   0, 0, 0, 0};
    const double x = 9.0 / 160, z = 0.25, w = 27.0 / 32;
    const double norm = std::sqrt(x * x + z * z + w * w);
    const auto got = sample(ch, 1.0);
    // Float arithmetic on values of order 1: a few ulps (1e-7) at most; 1e-6 is a margin of ten.
    CHECK(got[0] == Approx(x / norm).margin(1e-6));
    CHECK(got[1] == Approx(0).margin(1e-6));
    CHECK(got[2] == Approx(z / norm).margin(1e-6));
    CHECK(got[3] == Approx(w / norm).margin(1e-6));
}

TEST_CASE("Sampling outside the keys clamps to the first and last value", "[pose][corpus]") {
    const Scene s = load_scene(test::corpus("khronos/interpolation_test.gltf"));
    const Channel& ch = clip_named(s, "Linear Translation").channels[0];
    const auto first = key(ch, 0), last = key(ch, ch.times.size() - 1);
    const auto before = sample(ch, -10.0), after = sample(ch, 100.0);
    for (int i = 0; i < 3; ++i) {
        CHECK(before[i] == first[i]);
        CHECK(after[i] == last[i]);
    }
}

TEST_CASE("World matrices compose parents before children", "[pose]") {
    Scene s;
    s.nodes.resize(2);
    // Child listed first: pose_world must not depend on array order.
    s.nodes[0].parent = 1;
    s.nodes[0].rest.translation = Eigen::Vector3d(1, 0, 0);
    s.nodes[1].children = {0};
    s.nodes[1].rest.rotation = Eigen::Quaterniond(Eigen::AngleAxisd(M_PI / 2, Eigen::Vector3d::UnitZ()));
    s.nodes[1].rest.translation = Eigen::Vector3d(0, 0, 2);
    const Pose p = rest_pose(s);
    const Eigen::Vector3d origin = p.world[0].topRightCorner<3, 1>();
    CHECK(origin.x() == Approx(0).margin(1e-12));
    CHECK(origin.y() == Approx(1));
    CHECK(origin.z() == Approx(2));
}

namespace {

// Local matrices given by a function of time, as a reader's own evaluator gives them.
class TimedMatrix final : public LocalMatrices {
public:
    TimedMatrix(int node, Eigen::Matrix4d (*f)(double)) : LocalMatrices({node}), f_(f) {}
    void at(double seconds, Eigen::Matrix4d* out) const override { out[0] = f_(seconds); }
    std::vector<double> sample_times() const override { return {0.0, 1.0}; }
    std::string name(std::size_t) const override { return "/Sheared"; }

private:
    Eigen::Matrix4d (*f_)(double);
};

// A rotation by `degrees` about z followed by the scale (1, 3, 1): a shear no TRS holds.
Eigen::Matrix4d sheared(double degrees) {
    Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
    m.topLeftCorner<3, 3>() = Eigen::Vector3d(1, 3, 1).asDiagonal() *
                              Eigen::AngleAxisd(degrees * M_PI / 180, Eigen::Vector3d::UnitZ()).toRotationMatrix();
    m(0, 3) = 0.5;
    return m;
}

}  // namespace

TEST_CASE("A node's rest matrix and a clip's local matrices replace its TRS in world matrices", "[pose]") {
    Scene s;
    s.nodes.resize(2);
    s.nodes[0].children = {1};
    s.nodes[0].rest.translation = Eigen::Vector3d(0, 0, 2);
    s.nodes[1].parent = 0;
    s.nodes[1].rest = decompose(sheared(30));  // loses the shear
    s.nodes[1].rest_matrix = std::make_shared<const Eigen::Matrix4d>(sheared(30));
    Eigen::Matrix4d parent = Eigen::Matrix4d::Identity();
    parent(2, 3) = 2;

    // At rest: parent world x the whole matrix, which the TRS alone is far from.
    const Pose rest = rest_pose(s);
    CHECK((rest.world[1] - parent * sheared(30)).norm() < 1e-12);
    CHECK((parent * s.nodes[1].rest.matrix() - parent * sheared(30)).norm() > 0.1);

    // A clip's LocalMatrices win over the node's channel at every time, not only at keys.
    Clip clip;
    Channel ch{1, ChannelPath::Translation, Interpolation::Linear, 3, {0.0f, 1.0f}, {9, 9, 9, 9, 9, 9}};
    clip.channels.push_back(ch);
    clip.matrices.push_back(std::make_shared<TimedMatrix>(1, [](double t) { return sheared(90 * t); }));
    Pose p = rest_pose(s);
    sample_pose(s, &clip, 0.25, p);
    CHECK((p.world[1] - parent * sheared(22.5)).norm() < 1e-12);

    // Without them, a channel replaces the rest matrix (a retargeted clip keys the node's TRS).
    clip.matrices.clear();
    sample_pose(s, &clip, 0.5, p);
    CHECK(p.world[1].topRightCorner<3, 1>().isApprox(Eigen::Vector3d(9, 9, 11)));
    // And the rest pose again takes the rest matrix.
    sample_pose(s, nullptr, 0.0, p);
    CHECK((p.world[1] - parent * sheared(30)).norm() < 1e-12);
}
