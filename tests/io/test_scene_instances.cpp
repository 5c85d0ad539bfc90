// Scenes users make (issue 17): several skins in one glTF, one mesh used by several nodes (with
// different skins, with the same skin, and unskinned at different places). The test writes the
// glTF itself (JSON and .bin from the numbers below) and computes what each instance must be
// with plain matrices, independent of rigscope's pose and skin code: world = parent x T R S,
// skinned p' = sum_k w_k world(j_k) inverse_bind(j_k) p, unskinned p' = world(node) p.
// Each instance is its own mesh; the instances of a mesh used by several nodes are named by their
// nodes ("quad", used once, keeps its name); the CLI's info and tension name them so.
//
// Tolerance 1e-5 m: both sides evaluate the same float inputs, rigscope in float and the test in
// double; coordinates stay under 10 m, so float rounding is a few 1e-6 m at most. Measured:
// 1.5e-7 m.
#include <catch2/catch.hpp>

#include <Eigen/Geometry>
#include <array>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <unistd.h>

#include "corpus.h"
#include "rigscope/io/load.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/skin.h"
#include "temp_dir.h"

using namespace rigscope;
using nlohmann::json;

namespace {

constexpr double kPi = 3.14159265358979323846;

struct NodeSpec {
    const char* name;
    Eigen::Vector3d t = Eigen::Vector3d::Zero();
    Eigen::Quaterniond r = Eigen::Quaterniond::Identity();
    std::vector<int> children;
    int mesh = -1, skin = -1;
};

Eigen::Quaterniond turn(double degrees, const Eigen::Vector3d& axis) {
    return Eigen::Quaterniond(Eigen::AngleAxisd(degrees * kPi / 180.0, axis.normalized()));
}

// The scene: two skeletons (a: nodes 0-2, b: nodes 3-5), mesh 0 used by "left" (skin a),
// "right" (skin b) and "again" (skin a), mesh 1 by "other" (skin b), mesh 2 (unskinned) by
// "prop_1" and "prop_2". "right" has a translation that glTF says a skinned mesh ignores.
std::vector<NodeSpec> nodes() {
    std::vector<NodeSpec> n(12);
    n[0] = {"rig_a", {0, 0, 0}, Eigen::Quaterniond::Identity(), {1}};
    n[1] = {"a_bone0", {0, 0.5, 0}, turn(10, {0, 0, 1}), {2}};
    n[2] = {"a_bone1", {1, 0, 0}, Eigen::Quaterniond::Identity(), {}};
    n[3] = {"rig_b", {0, 2, 0}, Eigen::Quaterniond::Identity(), {4}};
    n[4] = {"b_bone0", {0, 0, 0}, turn(30, {0, 1, 0}), {5}};
    n[5] = {"b_bone1", {1, 0, 0}, Eigen::Quaterniond::Identity(), {}};
    n[6] = {"left", {}, Eigen::Quaterniond::Identity(), {}, 0, 0};
    n[7] = {"right", {0, 0, 7}, Eigen::Quaterniond::Identity(), {}, 0, 1};
    n[8] = {"again", {}, Eigen::Quaterniond::Identity(), {}, 0, 0};
    n[9] = {"other", {}, Eigen::Quaterniond::Identity(), {}, 1, 1};
    n[10] = {"prop_1", {5, 0, 0}, turn(45, {1, 0, 0}), {}, 2};
    n[11] = {"prop_2", {-5, 0, 0}, Eigen::Quaterniond::Identity(), {}, 2};
    return n;
}
const int kSkinJoints[2][2] = {{1, 2}, {4, 5}};

struct MeshSpec {
    std::vector<Eigen::Vector3f> positions;
    std::vector<std::uint16_t> indices;
    std::vector<std::array<float, 2>> weights;  // on the skin's joints 0 and 1; empty: unskinned
};

std::vector<MeshSpec> meshes() {
    std::vector<MeshSpec> m(3);
    // 0: a strip along x from 0 to 2, blended from joint 0 to joint 1.
    for (int i = 0; i <= 4; ++i)
        for (int side = 0; side < 2; ++side) {
            const float x = 0.5f * i;
            m[0].positions.emplace_back(x, side ? 0.1f : -0.1f, 0.0f);
            const float w1 = std::min(1.0f, x / 2.0f);
            m[0].weights.push_back({1.0f - w1, w1});
        }
    for (std::uint16_t i = 0; i < 4; ++i) {
        const std::uint16_t a = 2 * i;
        m[0].indices.insert(m[0].indices.end(), {a, std::uint16_t(a + 2), std::uint16_t(a + 1), std::uint16_t(a + 1),
                                                 std::uint16_t(a + 2), std::uint16_t(a + 3)});
    }
    // 1: a quad in the yz plane past the end of skin b, mostly on joint 1.
    m[1].positions = {{1.5f, -0.2f, -0.2f}, {1.5f, 0.2f, -0.2f}, {1.5f, 0.2f, 0.2f}, {1.5f, -0.2f, 0.2f}};
    m[1].indices = {0, 1, 2, 0, 2, 3};
    m[1].weights = {{0.25f, 0.75f}, {0.0f, 1.0f}, {0.5f, 0.5f}, {0.0f, 1.0f}};
    // 2: one triangle, unskinned.
    m[2].positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    m[2].indices = {0, 1, 2};
    return m;
}

// Animation: a_bone1 turns 0 -> 90 degrees about z, b_bone1 0 -> -60 about y, prop_2 moves
// 3 m up, all linear over 0..1 s.
const Eigen::Quaterniond kA1End = turn(90, {0, 0, 1});
const Eigen::Quaterniond kB1End = turn(-60, {0, 1, 0});

// The rest pose's node transforms, with the animation at time s applied, as plain matrices.
std::vector<Eigen::Matrix4d> world_at(double s) {
    auto spec = nodes();
    if (s >= 0) {
        spec[2].r = Eigen::Quaterniond(Eigen::AngleAxisd(s * 90 * kPi / 180, Eigen::Vector3d::UnitZ()));
        spec[5].r = Eigen::Quaterniond(Eigen::AngleAxisd(-s * 60 * kPi / 180, Eigen::Vector3d::UnitY()));
        spec[11].t = Eigen::Vector3d(-5, 3 * s, 0);
    }
    std::vector<int> parent(spec.size(), -1);
    for (std::size_t i = 0; i < spec.size(); ++i)
        for (int c : spec[i].children) parent[c] = static_cast<int>(i);
    std::vector<Eigen::Matrix4d> world(spec.size());
    for (std::size_t i = 0; i < spec.size(); ++i) {  // parents come first in this scene
        Eigen::Matrix4d local = Eigen::Matrix4d::Identity();
        local.topLeftCorner<3, 3>() = spec[i].r.toRotationMatrix();
        local.topRightCorner<3, 1>() = spec[i].t;
        world[i] = parent[i] >= 0 ? Eigen::Matrix4d(world[parent[i]] * local) : local;
    }
    return world;
}

std::vector<Eigen::Vector3d> expected(int node, double s) {
    const auto spec = nodes();
    const auto mesh = meshes()[spec[node].mesh];
    const auto bind = world_at(-1);
    const auto now = world_at(s);
    std::vector<Eigen::Vector3d> out;
    for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
        const Eigen::Vector4d p(mesh.positions[v].x(), mesh.positions[v].y(), mesh.positions[v].z(), 1.0);
        Eigen::Vector4d q = Eigen::Vector4d::Zero();
        if (spec[node].skin < 0) q = now[node] * p;
        else
            for (int k = 0; k < 2; ++k) {
                const int j = kSkinJoints[spec[node].skin][k];
                q += mesh.weights[v][k] * (now[j] * bind[j].inverse() * p);
            }
        out.push_back(q.head<3>());
    }
    return out;
}

// The glTF: JSON plus one .bin, accessors written from the specs above.
struct Writer {
    std::string bin;
    json views = json::array(), accessors = json::array();
    int add(const void* data, std::size_t bytes, int component, std::size_t count, const char* type, json extra = json::object()) {
        while (bin.size() % 4) bin.push_back('\0');
        views.push_back({{"buffer", 0}, {"byteOffset", bin.size()}, {"byteLength", bytes}});
        bin.append(static_cast<const char*>(data), bytes);
        json a = {{"bufferView", views.size() - 1}, {"componentType", component}, {"count", count}, {"type", type}};
        a.update(extra);
        accessors.push_back(a);
        return static_cast<int>(accessors.size() - 1);
    }
};

void write_gltf(const std::string& dir) {
    Writer w;
    json jmeshes = json::array();
    for (const MeshSpec& m : meshes()) {
        Eigen::Vector3f lo = m.positions[0], hi = lo;
        for (const auto& p : m.positions) {
            lo = lo.cwiseMin(p);
            hi = hi.cwiseMax(p);
        }
        json attrs;
        attrs["POSITION"] = w.add(m.positions.data(), 12 * m.positions.size(), 5126, m.positions.size(), "VEC3",
                                  {{"min", {lo.x(), lo.y(), lo.z()}}, {"max", {hi.x(), hi.y(), hi.z()}}});
        if (!m.weights.empty()) {
            std::vector<std::uint16_t> joints;
            std::vector<float> weights;
            for (const auto& wt : m.weights) {
                joints.insert(joints.end(), {0, 1, 0, 0});
                weights.insert(weights.end(), {wt[0], wt[1], 0.0f, 0.0f});
            }
            attrs["JOINTS_0"] = w.add(joints.data(), 2 * joints.size(), 5123, m.weights.size(), "VEC4");
            attrs["WEIGHTS_0"] = w.add(weights.data(), 4 * weights.size(), 5126, m.weights.size(), "VEC4");
        }
        const int idx = w.add(m.indices.data(), 2 * m.indices.size(), 5123, m.indices.size(), "SCALAR");
        jmeshes.push_back({{"primitives", {{{"attributes", attrs}, {"indices", idx}}}}});
    }
    jmeshes[0]["name"] = "strip";  // one name for its three instances; the nodes tell them apart
    jmeshes[1]["name"] = "quad";
    jmeshes[2]["name"] = "tri";

    const auto bind = world_at(-1);
    json jskins = json::array();
    for (const auto& joints : kSkinJoints) {
        std::vector<float> ibm;
        for (int j : joints) {
            const Eigen::Matrix4d inv = bind[j].inverse();
            for (int c = 0; c < 4; ++c)
                for (int r = 0; r < 4; ++r) ibm.push_back(static_cast<float>(inv(r, c)));
        }
        jskins.push_back({{"joints", {joints[0], joints[1]}}, {"inverseBindMatrices", w.add(ibm.data(), 4 * ibm.size(), 5126, 2, "MAT4")}});
    }

    json jnodes = json::array();
    for (const NodeSpec& n : nodes()) {
        json j = {{"name", n.name}};
        if (!n.t.isZero()) j["translation"] = {n.t.x(), n.t.y(), n.t.z()};
        if (!n.r.coeffs().isApprox(Eigen::Quaterniond::Identity().coeffs())) j["rotation"] = {n.r.x(), n.r.y(), n.r.z(), n.r.w()};
        if (!n.children.empty()) j["children"] = n.children;
        if (n.mesh >= 0) j["mesh"] = n.mesh;
        if (n.skin >= 0) j["skin"] = n.skin;
        jnodes.push_back(j);
    }

    const float times[2] = {0.0f, 1.0f};
    const int input = w.add(times, sizeof times, 5126, 2, "SCALAR", {{"min", {0.0}}, {"max", {1.0}}});
    auto quat_keys = [&](const Eigen::Quaterniond& end) {
        const float q[8] = {0, 0, 0, 1, float(end.x()), float(end.y()), float(end.z()), float(end.w())};
        return w.add(q, sizeof q, 5126, 2, "VEC4");
    };
    const float move[6] = {-5, 0, 0, -5, 3, 0};
    const int a1 = quat_keys(kA1End), b1 = quat_keys(kB1End), p2 = w.add(move, sizeof move, 5126, 2, "VEC3");
    json anim = {{"name", "move"},
                 {"samplers", {{{"input", input}, {"output", a1}}, {{"input", input}, {"output", b1}}, {{"input", input}, {"output", p2}}}},
                 {"channels",
                  {{{"sampler", 0}, {"target", {{"node", 2}, {"path", "rotation"}}}},
                   {{"sampler", 1}, {"target", {{"node", 5}, {"path", "rotation"}}}},
                   {{"sampler", 2}, {"target", {{"node", 11}, {"path", "translation"}}}}}}};

    json root = {{"asset", {{"version", "2.0"}}},
                 {"scene", 0},
                 {"scenes", {{{"nodes", {0, 3, 6, 7, 8, 9, 10, 11}}}}},
                 {"nodes", jnodes},
                 {"meshes", jmeshes},
                 {"skins", jskins},
                 {"animations", {anim}},
                 {"accessors", w.accessors},
                 {"bufferViews", w.views},
                 {"buffers", {{{"uri", "instances.bin"}, {"byteLength", w.bin.size()}}}}};
    std::ofstream(dir + "/instances.bin", std::ios::binary) << w.bin;
    std::ofstream(dir + "/instances.gltf") << root.dump(1);
}

using rigscope_test::TempDir;

std::string read_text(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

TEST_CASE("Several skins and instanced meshes: each instance is its node's mesh deformed by its own skin", "[scene][gltf]") {
    TempDir dir("rigscope_instances");
    write_gltf(dir.path);
    const Scene scene = load_scene(dir.path + "/instances.gltf");
    REQUIRE(scene.skins.size() == 2);
    REQUIRE(scene.meshes.size() == 6);
    REQUIRE(scene.clips.size() == 1);

    const auto spec = nodes();
    std::set<std::string> names;
    for (std::size_t m = 0; m < scene.meshes.size(); ++m) {
        const Mesh& mesh = scene.meshes[m];
        const std::string node = scene.nodes[mesh.node].name;
        // Named by their node: "strip" serves three nodes and "tri" two; "quad" only one.
        CHECK(mesh.name == (node == "other" ? "quad" : node));
        names.insert(mesh.name);
        const int n = scene.find_node(node);
        REQUIRE(n >= 0);
        CHECK((mesh.skin >= 0) == (spec[n].skin >= 0));

        for (double s : {0.0, 0.5, 1.0}) {
            Pose pose = rest_pose(scene);
            sample_pose(scene, &scene.clips[0], s, pose);
            std::vector<Eigen::Vector3f> got;
            deform_mesh(scene, static_cast<int>(m), pose, got);
            const auto want = expected(n, s);
            REQUIRE(got.size() == want.size());
            double worst = 0;
            for (std::size_t v = 0; v < got.size(); ++v) worst = std::max(worst, (got[v].cast<double>() - want[v]).norm());
            INFO(node << " at " << s << " s: worst " << worst << " m");
            CHECK(worst < 1e-5);
        }
    }
    CHECK(names.size() == 6);

    // The instances differ from each other where their skins or places differ: "left" and
    // "right" share a mesh but not a skin; "left" and "again" share both.
    auto at = [&](const char* node, double s) {
        Pose pose = rest_pose(scene);
        sample_pose(scene, &scene.clips[0], s, pose);
        std::vector<Eigen::Vector3f> out;
        for (std::size_t m = 0; m < scene.meshes.size(); ++m)
            if (scene.meshes[m].name == node) deform_mesh(scene, static_cast<int>(m), pose, out);
        return out;
    };
    CHECK((at("left", 0.5)[9] - at("right", 0.5)[9]).norm() > 0.5);
    CHECK((at("left", 0.5)[9] - at("again", 0.5)[9]).norm() < 1e-6);
    CHECK((at("prop_1", 0.5)[0] - at("prop_2", 0.5)[0]).norm() > 5);
}

TEST_CASE("Instanced meshes are listed by info and written by tension under their node names", "[scene][gltf][cli]") {
    TempDir dir("rigscope_instances");
    write_gltf(dir.path);
    const std::string in = dir.path + "/instances.gltf";
    REQUIRE(std::system((test::rigscope_binary() + " info --json " + in + " -o " + dir.path + "/info.json").c_str()) == 0);
    const json info = json::parse(read_text(dir.path + "/info.json"));
    std::multiset<std::string> listed;
    for (const json& m : info["meshes"]) {
        CHECK(m["name"] == (m["node"] == "other" ? json("quad") : m["node"]));
        listed.insert(m["name"].get<std::string>());
    }
    CHECK(listed == std::multiset<std::string>{"left", "right", "again", "quad", "prop_1", "prop_2"});

    REQUIRE(std::system((test::rigscope_binary() + " tension " + in + " -o " + dir.path + "/t.csv").c_str()) == 0);
    std::istringstream csv(read_text(dir.path + "/t.csv"));
    std::string line;
    std::getline(csv, line);
    REQUIRE(line.rfind("frame,time,mesh,vertex", 0) == 0);
    std::map<std::string, std::set<int>> vertices;  // mesh -> vertex ids written
    while (std::getline(csv, line)) {
        std::istringstream row(line);
        std::string frame, time, mesh, vertex;
        std::getline(row, frame, ',');
        std::getline(row, time, ',');
        std::getline(row, mesh, ',');
        std::getline(row, vertex, ',');
        vertices[mesh].insert(std::stoi(vertex));
    }
    CHECK(vertices.size() == 6);
    for (const char* n : {"left", "right", "again"}) CHECK(vertices[n].size() == 10);
    CHECK(vertices["quad"].size() == 4);
    for (const char* n : {"prop_1", "prop_2"}) CHECK(vertices[n].size() == 3);
}
