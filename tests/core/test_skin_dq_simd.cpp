// Dual-quaternion skinning's AVX2 kernel (src/core/skin_dq_avx2.cpp) against its scalar twin in
// skin_dq.cpp, and whichever of the two this build runs against the same formulas in double.
//
// - AVX2 against scalar: bit for bit (memcmp). Each lane does the scalar loop's IEEE float
//   operations in the same order, no FMA (both files are compiled with -ffp-contract=off), and
//   the dot products and squared norm sum their four terms as Eigen's SSE reduction does, so
//   any difference is a bug, not rounding. Only where the build has the kernel and the CPU AVX2
//   (the case says so when it cannot compare).
// - Against double: in every build, also the scalar one (-DRIGSCOPE_SIMD=OFF, whose Eigen sums
//   the four terms in another order). Tolerance 2^-18 (64 float ulps) of the size of the
//   problem, the largest |coordinate| among the rest and deformed positions and the joints'
//   translations: a coordinate goes through about 30 float roundings, each at most half an ulp
//   of values no larger than that size (the blended quaternion is near unit length), and the
//   worst measured here is 1.8e-7 of it (2^-22.4); a wrong sign, weight, joint, scale or blend
//   moves points by 1e-3 of the size or more.
// Inputs: corpus rigs posed mid-clip with their skin set to DualQuaternion and to Blend (blend
// weights 0, 1/4 .. 1, the last vertices past the list: b = 0), once more with two joints scaled
// and sheared; and the tests/fbx_dq oracle rigs over their clips. Ranges that start and end off
// the eight-vertex batches (tails) and blocks of 13, with the influences regrouped per batch
// (DqLanes, as MeshDeformer runs it) and read from the compressed rows (as deform_mesh).
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "corpus.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/skin.h"
#include "rigscope/io/load.h"

using namespace rigscope;

namespace {

struct Rig {
    std::string name;
    Scene scene;
    int mesh;
    Pose pose;
};

std::vector<Eigen::Matrix4f> linear_of(const Rig& r) {
    std::vector<Affine3x4> a;
    skin_matrices(r.scene, r.scene.meshes[r.mesh], r.pose, a);
    std::vector<Eigen::Matrix4f> out(a.size(), Eigen::Matrix4f::Identity());
    for (std::size_t j = 0; j < a.size(); ++j)
        for (int row = 0; row < 3; ++row)
            for (int c = 0; c < 4; ++c) out[j](row, c) = a[j].m[row * 4 + c];
    return out;
}

MorphList morphs_of(const Rig& r) {
    MorphList out;
    const Mesh& mesh = r.scene.meshes[r.mesh];
    const std::vector<float>& w = r.pose.morph_weights[r.mesh];
    for (std::size_t t = 0; t < mesh.targets.size() && t < w.size(); ++t)
        if (w[t] != 0.0f) out.emplace_back(w[t], mesh.targets[t].deltas.data());
    return out;
}

std::size_t skinned_count(const Rig& r) {
    const Mesh& m = r.scene.meshes[r.mesh];
    return std::min(m.positions.size(), m.influences.vertex_count());
}

// skin_dq_range over [begin, end) in blocks, with the influences regrouped (as MeshDeformer
// passes them) or not; the rest of the output stays NaN.
std::vector<Eigen::Vector3f> skinned(const Rig& r, bool avx2, std::size_t begin, std::size_t end, std::size_t block,
                                     bool regrouped = false) {
    const Mesh& mesh = r.scene.meshes[r.mesh];
    const std::vector<Eigen::Matrix4f> lin = linear_of(r);
    DqFrame frame;
    frame.avx2 = avx2;
    frame.set(r.scene, mesh, r.pose, lin.data());
    const MorphList morphs = morphs_of(r);
    std::vector<Eigen::Vector3f> out(skinned_count(r), Eigen::Vector3f::Constant(std::numeric_limits<float>::quiet_NaN()));
    DqLanes lanes;
    if (regrouped) lanes.build(mesh.influences, out.size());
    for (std::size_t b = begin; b < end; b += block)
        skin_dq_range(r.scene.skins[mesh.skin], mesh.influences, frame, lin.data(), mesh.positions.data(), morphs, b,
                      std::min(end, b + block), out.data(), regrouped ? &lanes : nullptr);
    return out;
}

// The formulas of docs/methods.md in double, from the frame's float joint data.
std::vector<Eigen::Vector3d> reference(const Rig& r, double& size) {
    const Mesh& mesh = r.scene.meshes[r.mesh];
    const Skin& skin = r.scene.skins[mesh.skin];
    const Influences& inf = mesh.influences;
    const std::vector<Eigen::Matrix4f> lin = linear_of(r);
    DqFrame frame;
    frame.avx2 = false;
    frame.set(r.scene, mesh, r.pose, lin.data());
    const MorphList morphs = morphs_of(r);
    std::vector<Eigen::Vector3d> out(skinned_count(r));
    for (const auto& j : frame.joints) size = std::max(size, 2 * j.dual.cast<double>().cwiseAbs().maxCoeff());
    for (std::size_t v = 0; v < out.size(); ++v) {
        Eigen::Vector3d p = mesh.positions[v].cast<double>();
        for (const auto& [w, d] : morphs) p += double(w) * d[v].cast<double>();
        size = std::max(size, p.cwiseAbs().maxCoeff());
        const std::uint32_t b = inf.offsets[v], e = inf.offsets[v + 1];
        if (b == e) {
            out[v] = p;
            continue;
        }
        Eigen::Vector4d r0 = frame.joints[inf.joints[b]].real.cast<double>(), q = Eigen::Vector4d::Zero(), d = q;
        Eigen::Matrix4d s = Eigen::Matrix4d::Zero(), l = s;
        for (std::uint32_t k = b; k < e; ++k) {
            const DqFrame::Joint& J = frame.joints[inf.joints[k]];
            const double w = inf.weights[k], sw = r0.dot(J.real.cast<double>()) < 0 ? -w : w;
            q += sw * J.real.cast<double>();
            d += sw * J.dual.cast<double>();
            if (!frame.scale.empty()) s += w * frame.scale[inf.joints[k]].cast<double>();
            l += w * lin[inf.joints[k]].cast<double>();
        }
        const double n = q.norm();
        q /= n;
        d /= n;
        const Eigen::Quaterniond rot(q.w(), q.x(), q.y(), q.z());
        // t = 2 (d * conj(q)), vector part.
        const Eigen::Quaterniond dq(d.w(), d.x(), d.y(), d.z());
        const Eigen::Vector3d t = 2 * (dq * rot.conjugate()).vec();
        const Eigen::Vector3d x = frame.scale.empty() ? p : Eigen::Vector3d((s * p.homogeneous()).head<3>());
        Eigen::Vector3d o = rot * x + t;
        if (skin.method == SkinningMethod::Blend) {
            const double bw = v < skin.blend_weights.size() ? skin.blend_weights[v] : 0.0;
            o = (1 - bw) * (l * p.homogeneous()).head<3>() + bw * o;
        }
        size = std::max(size, o.cwiseAbs().maxCoeff());
        out[v] = o;
    }
    return out;
}

Rig posed(const std::string& path, SkinningMethod method, bool scale) {
    Rig r{path, load_scene(path), -1, {}};
    for (std::size_t m = 0; m < r.scene.meshes.size() && r.mesh < 0; ++m)
        if (r.scene.meshes[m].skin >= 0 && !r.scene.meshes[m].influences.empty()) r.mesh = static_cast<int>(m);
    REQUIRE(r.mesh >= 0);
    Skin& skin = r.scene.skins[r.scene.meshes[r.mesh].skin];
    skin.method = method;
    if (method == SkinningMethod::Blend) {
        const std::size_t n = r.scene.meshes[r.mesh].vertex_count();
        skin.blend_weights.resize(n > 3 ? n - 3 : 0);
        for (std::size_t v = 0; v < skin.blend_weights.size(); ++v) skin.blend_weights[v] = float(v % 5) / 4.0f;
    }
    r.pose = rest_pose(r.scene);
    if (!r.scene.clips.empty()) {
        const Clip& c = r.scene.clips[0];
        sample_pose(r.scene, &c, 0.5 * (c.start + c.end), r.pose);
    }
    if (scale) {
        // The first and last joints scaled unevenly: their children inherit it as shear.
        r.pose.local[skin.joints.front()].scale = Eigen::Vector3d(1.3, 0.8, 1.1);
        r.pose.local[skin.joints.back()].scale = Eigen::Vector3d(0.7, 1.2, 0.9);
        pose_world(r.scene, r.pose);
    }
    r.name += std::string(", ") + skinning_method_name(method) + (scale ? ", scaled" : "");
    return r;
}

std::vector<Rig> rigs() {
    std::vector<Rig> out;
    for (const char* f : {"bend_cylinder/bend_cylinder.glb", "joystick_face/joystick_face.glb", "khronos/cesium_man.gltf",
                          "khronos/rigged_simple.gltf", "pab/arnaud.fbx", "assimp/FBX/spider.fbx"}) {
        const std::string path = test::corpus(f);
        Scene s = load_scene(path);
        bool skinned = false;
        for (const Mesh& m : s.meshes) skinned = skinned || (m.skin >= 0 && !m.influences.empty());
        if (!skinned) continue;
        for (SkinningMethod m : {SkinningMethod::DualQuaternion, SkinningMethod::Blend})
            for (bool scale : {false, true}) out.push_back(posed(path, m, scale));
    }
    const std::string dir = test::source_dir() + "/tests/fbx_dq/";
    for (const char* name : {"dq_bend", "dq_blend", "dq_scale", "dq_twist"}) {
        Rig base{name, load_scene(dir + name + ".fbx"), 0, {}};
        REQUIRE(!base.scene.clips.empty());
        const Clip& c = base.scene.clips[0];
        for (int i = 0; i <= 4; ++i) {
            Rig r{base.name + " at " + std::to_string(i) + "/4", base.scene, 0, rest_pose(base.scene)};
            sample_pose(r.scene, &r.scene.clips[0], c.start + (c.end - c.start) * i / 4.0, r.pose);
            out.push_back(std::move(r));
        }
    }
    return out;
}

bool same(const std::vector<Eigen::Vector3f>& a, const std::vector<Eigen::Vector3f>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(a[0])) == 0;
}

}  // namespace

TEST_CASE("Dual-quaternion skinning's AVX2 kernel equals the scalar loop bit for bit", "[skin_dq][simd][scalar][corpus]") {
    if (!avx2_default()) {
        WARN("no AVX2 dual-quaternion kernel in this build or on this CPU: nothing to compare");
        return;
    }
    std::size_t compared = 0;
    for (const Rig& r : rigs()) {
        INFO(r.name);
        const std::size_t n = skinned_count(r);
        REQUIRE(n > 8);
        const std::vector<Eigen::Vector3f> scalar = skinned(r, false, 0, n, n), part = skinned(r, false, 1, n - 2, 13);
        CHECK(same(skinned(r, true, 0, n, n), scalar));
        CHECK(same(skinned(r, true, 0, n, n, true), scalar));
        // Off the batches: a range starting at 1 and ending 2 short, in blocks of 13.
        CHECK(same(skinned(r, true, 1, n - 2, 13), part));
        CHECK(same(skinned(r, true, 1, n - 2, 13, true), part));
        compared += n;
    }
    CHECK(compared > 20000);
}

TEST_CASE("Dual-quaternion skinning in this build's kernel matches the formulas in double", "[skin_dq][simd][scalar][corpus]") {
    std::size_t compared = 0;
    for (const Rig& r : rigs()) {
        INFO(r.name);
        const std::size_t n = skinned_count(r);
        double size = 0;
        const std::vector<Eigen::Vector3d> want = reference(r, size);
        const std::vector<Eigen::Vector3f> got = skinned(r, avx2_default(), 1, n - 2, 13, true);
        double worst = 0;
        for (std::size_t v = 1; v + 2 < n; ++v) worst = std::max(worst, (got[v].cast<double>() - want[v]).cwiseAbs().maxCoeff());
        INFO("worst " << worst << ", size " << size << ", ratio " << worst / size);
        CHECK(worst <= std::ldexp(size, -18));
        CHECK(std::isnan(got[0].x()));  // outside the range: untouched
        CHECK(std::isnan(got[n - 1].x()));
        compared += n;
    }
    CHECK(compared > 20000);
}
