// Linear blend skinning's AVX2 kernel (src/core/skin_avx2.cpp) against the Eigen loop of skin.cpp
// that it replaces (MeshDeformer::avx2 false), and whichever of the two this build runs against
// the formula in double.
//
// - AVX2 against Eigen: bit for bit (memcmp). The kernel does the loop's float multiplies and
//   adds in the same order with no FMA (both files are compiled with -ffp-contract=off), so any
//   difference is a bug, not rounding. Only where the build has the kernel and the CPU AVX2.
// - Against double, in every build (the scalar CI pass too): p' = sum_k w_k (M_k p) with the
//   frame's float joint matrices. Tolerance 2^-20 of the problem's size (the largest |coordinate|
//   of rest and deformed positions and joint translations): a coordinate goes through about a
//   dozen float roundings of values no larger than that (weights sum to about 1), and a wrong
//   joint, weight or column moves points by 1e-3 of the size or more.
// Inputs: corpus rigs posed mid-clip, once more with two joints scaled unevenly (shear in their
// children); and the first of them with its influences rewritten to 0-7 per vertex, so that the
// unrolled counts (1-4), the run-time count (5-7) and unskinned vertices all run; and the first two
// with bands of 12 vertices that list the same joints (weights still per vertex), so the kernel's
// eight-vertex groups run, beside groups that straddle two bands; and with bands of 37, long
// enough for the runs that read their joints once (and one-influence weights of 1 not at all,
// 1.0f * x being x). Ranges off the block starts
// (1 to n - 2, in blocks of 13 and of 1000), the rest of the output left NaN.
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
    int mesh = -1;
    Pose pose;
};

Rig posed(const std::string& path, bool scale) {
    Rig r{path, load_scene(path), -1, {}};
    for (std::size_t m = 0; m < r.scene.meshes.size() && r.mesh < 0; ++m)
        if (r.scene.meshes[m].skin >= 0 && !r.scene.meshes[m].influences.empty()) r.mesh = static_cast<int>(m);
    REQUIRE(r.mesh >= 0);
    r.scene.skins[r.scene.meshes[r.mesh].skin].method = SkinningMethod::Linear;
    r.pose = rest_pose(r.scene);
    if (!r.scene.clips.empty()) {
        const Clip& c = r.scene.clips[0];
        sample_pose(r.scene, &c, 0.5 * (c.start + c.end), r.pose);
    }
    if (scale) {
        const Skin& skin = r.scene.skins[r.scene.meshes[r.mesh].skin];
        r.pose.local[skin.joints.front()].scale = Eigen::Vector3d(1.3, 0.8, 1.1);
        r.pose.local[skin.joints.back()].scale = Eigen::Vector3d(0.7, 1.2, 0.9);
        pose_world(r.scene, r.pose);
    }
    // Morph targets take the Eigen loop either way; the kernel is what is under test.
    for (auto& w : r.pose.morph_weights) std::fill(w.begin(), w.end(), 0.0f);
    r.name += scale ? ", scaled" : "";
    return r;
}

// The rig with influences rewritten: vertex v gets count(v) of them, influence k on joint
// joint(v, k) (modulo the skin's joints) with weight part(v, k) / the sum of v's parts.
template <class Count, class Joint, class Part>
Rig rewritten(Rig r, const char* label, Count count, Joint joint, Part part) {
    Mesh& mesh = r.scene.meshes[r.mesh];
    const std::size_t joints = r.scene.skins[mesh.skin].joints.size();
    Influences inf;
    inf.offsets.push_back(0);
    for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
        const std::uint32_t n = count(v);
        float total = 0;
        for (std::uint32_t k = 0; k < n; ++k) total += part(v, k);
        for (std::uint32_t k = 0; k < n; ++k) {
            inf.joints.push_back(static_cast<std::uint16_t>(joint(v, k) % joints));
            inf.weights.push_back(part(v, k) / total);
        }
        inf.offsets.push_back(static_cast<std::uint32_t>(inf.joints.size()));
    }
    mesh.influences = std::move(inf);
    r.name += label;
    return r;
}

// Vertex v gets v % 8 influences (0: unskinned), joints spread over the skin, weights summing to
// about 1 in unequal parts.
Rig rewired(Rig r) {
    return rewritten(
        std::move(r), ", 0-7 influences", [](std::size_t v) { return static_cast<std::uint32_t>(v % 8); },
        [](std::size_t v, std::uint32_t k) { return v * 7 + k * 3; }, [](std::size_t, std::uint32_t k) { return float(k + 1); });
}

// Bands of 12 vertices share a joint list (count 1-6 by band, joints by band); each vertex's
// weights are its own. A group of eight inside a band takes the kernel's group path, one across
// two bands the path of a vertex alone.
Rig banded(Rig r) {
    return rewritten(
        std::move(r), ", bands of 12 sharing joints", [](std::size_t v) { return static_cast<std::uint32_t>(1 + v / 12 % 6); },
        [](std::size_t v, std::uint32_t k) { return v / 12 * 5 + k * 3; },
        [](std::size_t v, std::uint32_t k) { return float(k + 1 + v % 5); });
}

// Bands of 37 vertices share a joint list (count 1-3 by band): at least MeshDeformer::kSharedMin
// in a row, so the runs that read a band's joints once (and, with one influence of weight 1, no
// weight) run, 37 leaving each band a group that straddles the next and a tail. Every fourth
// band of one influence has weight 0.75 (a shared run that still reads its weights); one vertex
// in each band of 111 lists another joint, cutting its band in two.
Rig shared_bands(Rig r) {
    auto count = [](std::size_t v) { return static_cast<std::uint32_t>(1 + v / 37 % 3); };
    r = rewritten(
        std::move(r), ", bands of 37 sharing joints", count,
        [](std::size_t v, std::uint32_t k) { return v / 37 * 5 + k * 3 + (v % 111 == 50 ? 1 : 0); },
        [](std::size_t v, std::uint32_t k) { return float(k + 1 + v % 5); });
    Influences& inf = r.scene.meshes[r.mesh].influences;
    for (std::size_t v = 0; v < inf.vertex_count(); ++v)
        if (count(v) == 1 && v / 37 % 4 == 3) inf.weights[inf.offsets[v]] = 0.75f;
    return r;
}

std::vector<Rig> rigs() {
    std::vector<Rig> out;
    for (const char* f : {"bend_cylinder/bend_cylinder.glb", "joystick_face/joystick_face.glb", "khronos/cesium_man.gltf",
                          "khronos/rigged_simple.gltf", "pab/arnaud.fbx", "assimp/FBX/spider.fbx"}) {
        const Scene s = load_scene(test::corpus(f));
        bool skinned = false;
        for (const Mesh& m : s.meshes) skinned = skinned || (m.skin >= 0 && !m.influences.empty());
        if (!skinned) continue;  // joystick_face drives morphs only
        for (bool scale : {false, true}) out.push_back(posed(test::corpus(f), scale));
    }
    out.push_back(rewired(out.front()));
    out.push_back(rewired(out[1]));
    out.push_back(banded(out.front()));
    out.push_back(banded(out[1]));
    out.push_back(shared_bands(out.front()));
    out.push_back(shared_bands(out[1]));
    return out;
}

// MeshDeformer over [1, n - 2) in blocks of `block`, on the kernel or the Eigen loop.
std::vector<Eigen::Vector3f> skinned(const Rig& r, bool avx2, std::size_t block = 13) {
    MeshDeformer d(r.scene, r.mesh);
    d.avx2 = avx2;
    d.set_pose(r.scene, r.pose);
    const std::size_t n = d.vertex_count();
    std::vector<Eigen::Vector3f> out(n, Eigen::Vector3f::Constant(std::numeric_limits<float>::quiet_NaN()));
    for (std::size_t b = 1; b + 2 < n; b += block) d.deform_block(r.scene, b, std::min(n - 2, b + block), out.data());
    return out;
}

}  // namespace

TEST_CASE("Linear skinning's AVX2 kernel equals the Eigen loop bit for bit", "[skin][simd][scalar][corpus]") {
    if (!avx2_default()) {
        WARN("no AVX2 kernel in this build or on this CPU: nothing to compare");
        return;
    }
    std::size_t compared = 0;
    for (const Rig& r : rigs()) {
        INFO(r.name);
        for (std::size_t block : {13, 1000}) {
            INFO("blocks of " << block);
            const std::vector<Eigen::Vector3f> a = skinned(r, true, block), e = skinned(r, false, block);
            REQUIRE(a.size() > 8);
            CHECK(std::memcmp(a.data(), e.data(), a.size() * sizeof(a[0])) == 0);
            compared += a.size();
        }
    }
    CHECK(compared > 15000);  // every rig above was compared
}

TEST_CASE("Linear skinning in this build's kernel matches the formula in double", "[skin][simd][scalar][corpus]") {
    std::size_t compared = 0;
    for (const Rig& r : rigs()) {
        INFO(r.name);
        const Mesh& mesh = r.scene.meshes[r.mesh];
        const Influences& inf = mesh.influences;
        std::vector<Affine3x4> m;
        skin_matrices(r.scene, mesh, r.pose, m);
        const std::vector<Eigen::Vector3f> got = skinned(r, avx2_default());
        const std::size_t n = got.size();
        double size = 0, worst = 0;
        for (const Affine3x4& a : m)
            for (int row = 0; row < 3; ++row) size = std::max(size, std::abs(double(a.m[row * 4 + 3])));
        for (std::size_t v = 1; v + 2 < n; ++v) {
            const Eigen::Vector3d p = mesh.positions[v].cast<double>();
            Eigen::Vector3d want = p;
            if (v < inf.vertex_count() && inf.offsets[v] != inf.offsets[v + 1]) {
                want.setZero();
                for (std::uint32_t k = inf.offsets[v]; k < inf.offsets[v + 1]; ++k) {
                    const Affine3x4& a = m[inf.joints[k]];
                    for (int row = 0; row < 3; ++row)
                        want[row] += double(inf.weights[k]) * (double(a.m[row * 4]) * p.x() + double(a.m[row * 4 + 1]) * p.y() +
                                                               double(a.m[row * 4 + 2]) * p.z() + double(a.m[row * 4 + 3]));
                }
            }
            size = std::max({size, p.cwiseAbs().maxCoeff(), want.cwiseAbs().maxCoeff()});
            worst = std::max(worst, (got[v].cast<double>() - want).cwiseAbs().maxCoeff());
        }
        INFO("worst " << worst << ", size " << size << ", ratio " << worst / size);
        CHECK(worst <= std::ldexp(size, -20));
        CHECK(std::isnan(got[0].x()));  // outside the range: untouched
        CHECK(std::isnan(got[n - 1].x()));
        compared += n;
    }
    CHECK(compared > 15000);  // every rig above was compared
}
