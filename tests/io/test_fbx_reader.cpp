// FBX reader (src/io/fbx/fbx_*.cpp) against the corpus and Blender's oracle.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "corpus.h"
#include "rigscope/core/bind_check.h"
#include "rigscope/core/error.h"
#include "rigscope/io/load.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/skin.h"
#include "temp_dir.h"

using rigscope::test::corpus;

namespace {

const char* kFiles[] = {
    "bend_cylinder/bend_cylinder.fbx", "assimp/FBX/huesitos.fbx", "assimp/FBX/animation_with_skeleton.fbx",
    "assimp/FBX/spider.fbx",           "pab/arnaud.fbx",          "pab/walk.fbx",
    "joystick_face/joystick_face.fbx",
};

// The mesh as stored, in world space: a skinned mesh is stored where it sits at bind (glTF's rule,
// which the reader follows), an unskinned one is placed by its node.
std::vector<Eigen::Vector3f> stored_world(const rigscope::Scene& scene, int mesh) {
    const rigscope::Mesh& m = scene.meshes[mesh];
    if (m.skin >= 0) return m.positions;
    const rigscope::Pose rest = rigscope::rest_pose(scene);
    std::vector<Eigen::Vector3f> out;
    for (const auto& p : m.positions)
        out.push_back((rest.world[m.node] * p.cast<double>().homogeneous()).head<3>().cast<float>());
    return out;
}

std::vector<Eigen::Vector3f> points(const nlohmann::json& a) {
    std::vector<Eigen::Vector3f> out;
    for (const auto& p : a) out.emplace_back(p[0].get<float>(), p[1].get<float>(), p[2].get<float>());
    return out;
}

// For each of `ours`, the nearest oracle point's index and distance.
std::vector<std::pair<int, float>> nearest(const std::vector<Eigen::Vector3f>& ours, const std::vector<Eigen::Vector3f>& oracle) {
    std::vector<std::pair<int, float>> out;
    for (const auto& p : ours) {
        int best = -1;
        float d = INFINITY;
        for (std::size_t i = 0; i < oracle.size(); ++i)
            if ((oracle[i] - p).norm() < d) d = (oracle[i] - p).norm(), best = static_cast<int>(i);
        out.push_back({best, d});
    }
    return out;
}

const nlohmann::json& bend_oracle() {
    static const nlohmann::json j = [] {
        std::ifstream in(corpus("bend_cylinder/blender_oracle_fbx.json"));
        return nlohmann::json::parse(in);
    }();
    return j;
}

}  // namespace

TEST_CASE("fbx: every corpus FBX loads", "[fbx]") {
    for (const char* f : kFiles) {
        INFO(f);
        const rigscope::Scene s = rigscope::read_fbx(corpus(f), {});
        CHECK(s.format == "FBX");
        CHECK(s.unit_scale == Approx(0.01));
        CHECK(s.up_axis == "Y");
        CHECK(!s.vertex_ids.empty());
        CHECK(!s.nodes.empty());
        for (const auto& m : s.meshes) {
            REQUIRE(m.node >= 0);
            CHECK(m.face_offsets.back() == m.face_indices.size());
            for (auto i : m.face_indices) CHECK(i < m.vertex_count());
            if (m.skin < 0) continue;
            REQUIRE(m.influences.vertex_count() == m.vertex_count());
            for (std::size_t v = 0; v < m.vertex_count(); ++v) {
                float sum = 0;
                for (auto k = m.influences.offsets[v]; k < m.influences.offsets[v + 1]; ++k) sum += m.influences.weights[k];
                if (m.influences.offsets[v + 1] > m.influences.offsets[v]) CHECK(sum == Approx(1.0f).margin(1e-5));
            }
        }
        for (const auto& c : s.clips)
            for (const auto& ch : c.channels) {
                REQUIRE(ch.values.size() == ch.times.size() * std::size_t(ch.width));
                for (std::size_t k = 1; k < ch.times.size(); ++k) CHECK(ch.times[k] > ch.times[k - 1]);
            }
    }
}

TEST_CASE("fbx: bend_cylinder counts", "[fbx]") {
    const rigscope::Scene s = rigscope::read_fbx(corpus("bend_cylinder/bend_cylinder.fbx"), {});
    REQUIRE(s.meshes.size() == 1);
    const auto& m = s.meshes[0];
    CHECK(m.vertex_count() == 544);
    std::size_t quads = 0, ngons = 0;
    for (std::size_t f = 0; f < m.face_count(); ++f) {
        const auto n = m.face_offsets[f + 1] - m.face_offsets[f];
        quads += n == 4;
        ngons += n > 4;
    }
    CHECK(quads == 512);
    CHECK(ngons == 2);  // the two 32-gon caps
    REQUIRE(m.skin >= 0);
    const auto& skin = s.skins[m.skin];
    REQUIRE(skin.joints.size() == 2);
    CHECK(s.nodes[skin.joints[0]].name == "Bone");
    CHECK(s.nodes[skin.joints[1]].name == "Bone.001");
    CHECK(s.unit_scale == 0.01);
    CHECK(s.fps == 24.0);
    CHECK(s.fps_from_file);
    REQUIRE(s.clips.size() == 1);
    CHECK(s.clips[0].start == Approx(0.0));
    CHECK(s.clips[0].end == Approx(90.0 / 24.0));
    CHECK(s.warnings.empty());
}

TEST_CASE("fbx: joystick_face morph targets", "[fbx]") {
    const rigscope::Scene s = rigscope::read_fbx(corpus("joystick_face/joystick_face.fbx"), {});
    REQUIRE(s.meshes.size() == 1);
    const auto& m = s.meshes[0];
    CHECK(m.vertex_count() == 861);
    REQUIRE(m.targets.size() == 4);
    const char* names[] = {"smile_L", "smile_R", "frown_L", "frown_R"};
    for (int t = 0; t < 4; ++t) {
        CHECK(m.targets[t].name == names[t]);
        CHECK(m.targets[t].deltas.size() == 861);
        float largest = 0;
        for (const auto& d : m.targets[t].deltas) largest = std::max(largest, d.norm());
        CHECK(largest > 0.0f);
        CHECK(largest < 1.0f);  // metres: the patch is about 2 m wide
    }
    CHECK(m.default_weights == std::vector<float>(4, 0.0f));
    const int ctrl = s.find_node("CTRL_mouth");
    REQUIRE(ctrl >= 0);
    REQUIRE(s.clips.size() == 1);
    bool moves = false, weights = false;
    for (const auto& ch : s.clips[0].channels) {
        moves |= ch.node == ctrl && ch.path == rigscope::ChannelPath::Translation;
        weights |= ch.node == m.node && ch.path == rigscope::ChannelPath::Weights && ch.width == 4;
    }
    CHECK(moves);
    CHECK(weights);
}

TEST_CASE("fbx: walk.fbx has a skeleton and no mesh", "[fbx]") {
    const rigscope::Scene s = rigscope::read_fbx(corpus("pab/walk.fbx"), {});
    CHECK(s.meshes.empty());
    CHECK(s.find_node("Hips") >= 0);
    CHECK(s.fps == 30.0);
    REQUIRE(s.clips.size() == 1);
}

TEST_CASE("fbx: rest-pose skinning reproduces the stored mesh", "[fbx][bind]") {
    for (const char* f : {"bend_cylinder/bend_cylinder.fbx", "assimp/FBX/huesitos.fbx", "pab/arnaud.fbx"}) {
        INFO(f);
        const rigscope::Scene s = rigscope::read_fbx(corpus(f), {});
        REQUIRE(!s.meshes.empty());
        const rigscope::BindCheck c = rigscope::check_bind(s, 0);
        CHECK(c.skinned);
        CHECK(c.diagonal > 0.5);  // metres, not centimetres
        CHECK(c.max_distance <= 1e-3 * c.diagonal);
        for (const auto& w : s.warnings) CHECK(w.message.find("rest pose") == std::string::npos);
    }
}

TEST_CASE("fbx: animation_with_skeleton's rest pose is not its bind pose", "[fbx][bind]") {
    // The file's Lcl transforms of Bone.005 and Bone.006 are posed while its BindPose and cluster
    // TransformLink hold the bind (docs/fbx_notes.md); Assimp's inverse binds are right.
    const rigscope::Scene s = rigscope::read_fbx(corpus("assimp/FBX/animation_with_skeleton.fbx"), {});
    const rigscope::BindCheck c = rigscope::check_bind(s, 0);
    CHECK(c.max_distance > 1e-3 * c.diagonal);
    bool warned = false;
    for (const auto& w : s.warnings)
        warned |= w.kind == rigscope::WarningKind::Transform && w.message.find("Bone.005") != std::string::npos &&
                  w.message.find("Bone.006") != std::string::npos;
    CHECK(warned);
    const auto& skin = s.skins[s.meshes[0].skin];
    for (std::size_t j = 0; j < skin.joints.size(); ++j) {
        const std::string& name = s.nodes[skin.joints[j]].name;
        INFO(name);
        if (name == "Bone.005" || name == "Bone.006") CHECK(c.joint_distance[j] > 1e-3 * c.diagonal);
        else CHECK(c.joint_distance[j] <= 1e-3 * c.diagonal);
    }
}

TEST_CASE("fbx: bend_cylinder rest matches Blender's import (metres, Y-up)", "[fbx][oracle]") {
    const rigscope::Scene s = rigscope::read_fbx(corpus("bend_cylinder/bend_cylinder.fbx"), {});
    const auto rest = points(bend_oracle()["rest"]);
    REQUIRE(rest.size() == 544);
    const auto ours = stored_world(s, 0);
    REQUIRE(ours.size() == 544);
    std::vector<int> hit(rest.size(), 0);
    for (const auto& [i, d] : nearest(ours, rest)) {
        CHECK(d < 1e-4f);
        ++hit[i];
    }
    CHECK(std::count(hit.begin(), hit.end(), 1) == 544);  // one to one
    // The core's bind pose (joint matrices taken as identity) is the mesh as stored.
    std::vector<Eigen::Vector3f> bind;
    rigscope::deform_mesh(s, 0, rigscope::bind_pose(s), bind);
    for (std::size_t v = 0; v < bind.size(); ++v) CHECK((bind[v] - ours[v]).norm() < 1e-6f);
}

TEST_CASE("fbx: bend_cylinder deforms like Blender", "[fbx][oracle]") {
    const rigscope::Scene s = rigscope::read_fbx(corpus("bend_cylinder/bend_cylinder.fbx"), {});
    const auto& oracle = bend_oracle();
    const auto match = nearest(stored_world(s, 0), points(oracle["rest"]));
    for (int f : {1, 31, 61, 91}) {
        INFO("frame " << f);
        const auto expected = points(oracle["frames"][f - 1]["positions"]);
        rigscope::Pose pose = rigscope::rest_pose(s);
        rigscope::sample_pose(s, &s.clips[0], (f - 1) / 24.0, pose);
        std::vector<Eigen::Vector3f> out;
        rigscope::deform_mesh(s, 0, pose, out);
        float worst = 0;
        for (std::size_t v = 0; v < out.size(); ++v) worst = std::max(worst, (out[v] - expected[match[v].first]).norm());
        CHECK(worst < 1e-4f);
    }
}

TEST_CASE("fbx: a file that is no FBX is bad input", "[fbx][errors]") {
    const rigscope_test::TempDir dir("rigscope_fbx");
    const std::string garbage = dir.file("garbage.fbx");
    {
        std::ofstream out(garbage, std::ios::binary);
        for (int i = 0; i < 4096; ++i) out.put(static_cast<char>((i * 7919) & 0xff));
    }
    const std::string truncated = dir.file("truncated.fbx");
    {
        std::ifstream in(corpus("bend_cylinder/bend_cylinder.fbx"), std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::ofstream out(truncated, std::ios::binary);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size() / 3));
    }
    for (const std::string& path : {garbage, truncated}) {
        INFO(path);
        try {
            rigscope::read_fbx(path, {});
            FAIL("no error");
        } catch (const rigscope::Error& e) {
            CHECK(e.code() == rigscope::kExitBadInput);
            CHECK(std::string(e.what()).find(path) == 0);
            CHECK(std::string(e.what()).find('\n') == std::string::npos);
        }
    }
}
