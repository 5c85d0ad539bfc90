// Linear blend skinning of vertices with more than four influences (JOINTS_1 / WEIGHTS_1): the
// reader keeps every influence, the per-frame MeshDeformer (its loop for counts above 4) gives
// deform_mesh's bits, and both equal a hand derivation.
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "rigscope/io/load.h"
#include "temp_dir.h"
#include "rigscope/core/parallel.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/skin.h"

using namespace rigscope;

namespace {

constexpr int kJoints = 8;
// Influence counts per vertex: runs of 5, 6, 7, 8, 8, 5 (two vertices share the 8 run).
const int kCounts[] = {5, 6, 7, 8, 8, 5};
constexpr int kVertices = 6;

// Dyadic weights that sum to exactly 1 in float, so renormalising changes nothing.
std::vector<float> weights_for(int count) {
    switch (count) {
        case 5: return {0.5f, 0.125f, 0.125f, 0.125f, 0.125f};
        case 6: return {0.25f, 0.25f, 0.125f, 0.125f, 0.125f, 0.125f};
        case 7: return {0.25f, 0.125f, 0.125f, 0.125f, 0.125f, 0.125f, 0.125f};
        default: return std::vector<float>(8, 0.125f);
    }
}
// Influence k of vertex v uses joint (v + 3k) mod 8: every vertex a different order.
int joint_for(int v, int k) { return (v + 3 * k) % kJoints; }

Eigen::Vector3f position(int v) { return Eigen::Vector3f(0.5f * v, 1.0f - 0.25f * v, 0.125f * v * v); }
Eigen::Vector3d joint_offset(int j) { return Eigen::Vector3d(0.1 * (j + 1), -0.05 * j * j, 0.3 * (j % 3) + 0.01 * j); }

template <typename T>
void append(std::string& bin, const T& value) {
    bin.append(reinterpret_cast<const char*>(&value), sizeof(T));
}

// A glTF of 8 joint nodes at the origin, identity inverse binds, and one skinned triangle pair
// whose vertices carry the influences above over JOINTS_0/WEIGHTS_0 and JOINTS_1/WEIGHTS_1,
// every weight multiplied by weight_scale (1: weights that sum to 1), written into dir.
std::string write_skin8(const rigscope_test::TempDir& dir, float weight_scale = 1.0f) {
    std::string bin;
    nlohmann::json views = nlohmann::json::array(), accessors = nlohmann::json::array();
    auto view = [&](std::size_t offset, int count, int ctype, const char* type) {
        views.push_back({{"buffer", 0}, {"byteOffset", offset}, {"byteLength", bin.size() - offset}});
        accessors.push_back({{"bufferView", views.size() - 1}, {"componentType", ctype}, {"count", count}, {"type", type}});
        return static_cast<int>(accessors.size() - 1);
    };
    std::size_t at = bin.size();
    for (int v = 0; v < kVertices; ++v)
        for (int c = 0; c < 3; ++c) append(bin, position(v)[c]);
    const int pos = view(at, kVertices, 5126, "VEC3");
    int joints[2], weights[2];
    for (int set = 0; set < 2; ++set) {
        at = bin.size();
        for (int v = 0; v < kVertices; ++v)
            for (int k = 4 * set; k < 4 * set + 4; ++k) append(bin, static_cast<std::uint16_t>(k < kCounts[v] ? joint_for(v, k) : 0));
        joints[set] = view(at, kVertices, 5123, "VEC4");
        at = bin.size();
        for (int v = 0; v < kVertices; ++v) {
            const auto w = weights_for(kCounts[v]);
            for (int k = 4 * set; k < 4 * set + 4; ++k) append(bin, k < kCounts[v] ? weight_scale * w[k] : 0.0f);
        }
        weights[set] = view(at, kVertices, 5126, "VEC4");
    }
    at = bin.size();
    for (int j = 0; j < kJoints; ++j)
        for (int i = 0; i < 16; ++i) append(bin, (i % 5 == 0) ? 1.0f : 0.0f);
    const int ibm = view(at, kJoints, 5126, "MAT4");

    nlohmann::json nodes = nlohmann::json::array();
    std::vector<int> joint_nodes, scene_nodes;
    for (int j = 0; j < kJoints; ++j) {
        nodes.push_back({{"name", "j" + std::to_string(j)}});
        joint_nodes.push_back(j);
        scene_nodes.push_back(j);
    }
    nodes.push_back({{"name", "skinned"}, {"mesh", 0}, {"skin", 0}});
    scene_nodes.push_back(kJoints);
    nlohmann::json gltf = {
        {"asset", {{"version", "2.0"}}},
        {"scene", 0},
        {"scenes", {{{"nodes", scene_nodes}}}},
        {"nodes", nodes},
        {"skins", {{{"joints", joint_nodes}, {"inverseBindMatrices", ibm}}}},
        {"meshes", {{{"name", "eight"},
                     {"primitives", {{{"attributes", {{"POSITION", pos}, {"JOINTS_0", joints[0]}, {"WEIGHTS_0", weights[0]},
                                                      {"JOINTS_1", joints[1]}, {"WEIGHTS_1", weights[1]}}}}}}}}},
        {"buffers", {{{"uri", "skin8.bin"}, {"byteLength", bin.size()}}}},
        {"bufferViews", views},
        {"accessors", accessors},
    };
    std::ofstream(dir.file("skin8.bin"), std::ios::binary) << bin;
    std::ofstream(dir.file("skin8.gltf")) << gltf.dump();
    return dir.file("skin8.gltf");
}

}  // namespace

TEST_CASE("5 to 8 influences (JOINTS_1/WEIGHTS_1): all read, MeshDeformer equals deform_mesh bit for bit and the hand sum",
          "[skin]") {
    const rigscope_test::TempDir dir("rigscope_skin8");
    const Scene scene = load_scene(write_skin8(dir));
    REQUIRE(scene.meshes.size() == 1);
    const Mesh& mesh = scene.meshes[0];
    const Influences& inf = mesh.influences;
    REQUIRE(inf.vertex_count() == kVertices);
    for (int v = 0; v < kVertices; ++v) {
        INFO("vertex " << v);
        REQUIRE(inf.offsets[v + 1] - inf.offsets[v] == static_cast<std::uint32_t>(kCounts[v]));
    }

    // Each joint moved by its own offset: a vertex moves by the weighted sum of its joints' offsets.
    Pose pose = rest_pose(scene);
    for (int j = 0; j < kJoints; ++j) pose.local[scene.skins[0].joints[j]].translation = joint_offset(j);
    pose_world(scene, pose);

    std::vector<Eigen::Vector3f> single;
    deform_mesh(scene, 0, pose, single);
    REQUIRE(single.size() == kVertices);
    for (int v = 0; v < kVertices; ++v) {
        Eigen::Vector3d want = position(v).cast<double>();
        const auto w = weights_for(kCounts[v]);
        for (int k = 0; k < kCounts[v]; ++k) want += double(w[k]) * joint_offset(joint_for(v, k));
        INFO("vertex " << v << " (" << kCounts[v] << " influences)");
        // Float matrices blended in float: a few ulps of values below 4, so 1e-6 has a margin of
        // ten; a dropped influence moves the vertex by at least 0.125 x 0.1.
        for (int c = 0; c < 3; ++c) CHECK(single[v][c] == Approx(want[c]).margin(1e-6));
    }

    MeshDeformer deformer(scene, 0);
    std::vector<Eigen::Vector3f> looped;
    deformer.deform(scene, pose, looped);
    REQUIRE(looped.size() == single.size());
    CHECK(std::memcmp(looped.data(), single.data(), single.size() * sizeof(Eigen::Vector3f)) == 0);
    // Blocks of one and two vertices over two threads: every run split at a block edge.
    for (std::size_t block : {1, 2}) {
        ThreadPool pool(2);
        std::vector<Eigen::Vector3f> threaded;
        deformer.deform(scene, pose, threaded, &pool, block);
        INFO("block " << block);
        CHECK(std::memcmp(threaded.data(), single.data(), single.size() * sizeof(Eigen::Vector3f)) == 0);
    }
}

TEST_CASE("Skin weights summing to 3 are renormalised per vertex: the same bits as weights summing to 1", "[skin]") {
    // Dyadic weights times 3 are exact in float, and so is their division by the sum (3): the
    // renormalised file must deform exactly as the one whose weights sum to 1. Without the
    // renormalisation each vertex would move three times as far and scale its position by 3.
    const rigscope_test::TempDir unit_dir("rigscope_skin8"), triple_dir("rigscope_skin8");
    const Scene unit = load_scene(write_skin8(unit_dir, 1.0f));
    const Scene triple = load_scene(write_skin8(triple_dir, 3.0f));
    REQUIRE(triple.meshes.size() == 1);
    CHECK(triple.meshes[0].influences.weights == unit.meshes[0].influences.weights);
    Pose pose = rest_pose(triple);
    for (int j = 0; j < kJoints; ++j) pose.local[triple.skins[0].joints[j]].translation = joint_offset(j);
    pose_world(triple, pose);
    std::vector<Eigen::Vector3f> a, b;
    deform_mesh(unit, 0, pose, a);
    deform_mesh(triple, 0, pose, b);
    REQUIRE(a.size() == b.size());
    CHECK(std::memcmp(a.data(), b.data(), a.size() * sizeof(Eigen::Vector3f)) == 0);
}
