// Joystick drivers (methods.md section 3): the formula, rig files, and joystick_face against
// Blender's own driven result (blender_oracle.json).
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <unistd.h>

#include "corpus.h"
#include "rigscope/core/error.h"
#include "rigscope/io/gltf_writer.h"
#include "rigscope/core/joystick.h"
#include "rigscope/io/load.h"
#include "rigscope/core/pose.h"
#include "rigscope/io/rig_reader.h"
#include "rigscope/core/skin.h"
#include "rigscope/core/tension.h"
#include "rigscope/core/topology.h"

using namespace rigscope;
using rigscope::test::corpus;

namespace {

const char* kTargets[4] = {"smile_L", "smile_R", "frown_L", "frown_R"};  // by Corner

void check_weights(double x, double y, double ul, double ur, double dl, double dr) {
    INFO("X = " << x << ", Y = " << y);
    const auto w = joystick_weights(x, y);
    CHECK(w[kUpLeft] == Approx(ul).margin(1e-12));
    CHECK(w[kUpRight] == Approx(ur).margin(1e-12));
    CHECK(w[kDownLeft] == Approx(dl).margin(1e-12));
    CHECK(w[kDownRight] == Approx(dr).margin(1e-12));
}

// The Error a call throws, as code and message; fails the test when it throws nothing.
template <class F>
std::pair<int, std::string> error_of(F&& f) {
    try {
        f();
    } catch (const Error& e) {
        return {e.code(), e.what()};
    }
    FAIL("no rigscope::Error thrown");
    return {0, ""};
}

const std::string kGoodRig = R"({
  "controls": [{
    "node": "CTRL_mouth",
    "axes": {"x": "+x", "y": "-z"},
    "travel": {"x": 0.5, "y": 0.5},
    "mesh": "Face",
    "targets": {"up_left": "smile_L", "up_right": "smile_R", "down_left": "frown_L", "down_right": "frown_R"}
  }]
})";

std::string rig_path() { return test::source_dir() + "/data/joystick_face.rig.json"; }

const nlohmann::json& oracle() {
    static const nlohmann::json j = [] {
        std::ifstream in(corpus("joystick_face/blender_oracle.json"));
        if (!in) throw std::runtime_error("cannot open " + corpus("joystick_face/blender_oracle.json"));
        return nlohmann::json::parse(in);
    }();
    return j;
}

std::vector<Eigen::Vector3f> points(const nlohmann::json& list) {
    std::vector<Eigen::Vector3f> out;
    for (const auto& p : list) out.emplace_back(p[0].get<float>(), p[1].get<float>(), p[2].get<float>());
    return out;
}

// For each of `ours`, the nearest oracle point; `worst` is the largest such distance.
std::vector<int> match(const std::vector<Eigen::Vector3f>& ours, const std::vector<Eigen::Vector3f>& theirs, double& worst) {
    std::vector<int> out;
    worst = 0;
    for (const auto& p : ours) {
        int best = -1;
        double d = INFINITY;
        for (std::size_t i = 0; i < theirs.size(); ++i) {
            const double e = (theirs[i] - p).squaredNorm();
            if (e < d) d = e, best = static_cast<int>(i);
        }
        out.push_back(best);
        worst = std::max(worst, std::sqrt(d));
    }
    return out;
}

int face_mesh(const Scene& scene) {
    for (std::size_t m = 0; m < scene.meshes.size(); ++m)
        if (scene.meshes[m].name == "Face") return static_cast<int>(m);
    FAIL("no mesh Face");
    return -1;
}

// Oracle frame f on the file's timeline: the glb keys frame f at f / 24 s; Assimp rebases the
// FBX take to 0, so there frame f is (f - 1) / 24 s (corpus README).
double time_of(const Scene& scene, int frame) { return scene.format == "FBX" ? (frame - 1) / 24.0 : frame / 24.0; }

struct Errors {
    double weight = 0, position = 0, t = 0;
};

Errors compare_with_oracle(const std::string& file, bool tension) {
    const Scene scene = load_scene(corpus(file));
    const ResolvedRig rig = resolve_rig(read_rig(rig_path()), scene);
    REQUIRE(scene.clips.size() == 1);
    const int m = face_mesh(scene);
    const Mesh& mesh = scene.meshes[m];
    int target[4];
    for (int k = 0; k < 4; ++k) {
        target[k] = -1;
        for (std::size_t t = 0; t < mesh.targets.size(); ++t)
            if (mesh.targets[t].name == kTargets[k]) target[k] = static_cast<int>(t);
        REQUIRE(target[k] >= 0);
    }

    Pose pose = rest_pose(scene);
    std::vector<Eigen::Vector3f> pos, rest;
    deform_mesh(scene, m, pose, rest);
    double worst_match = 0;
    const std::vector<int> to_oracle = match(rest, points(oracle()["rest"]), worst_match);
    REQUIRE(worst_match < 1e-4 * 2.3);  // the face is about 2 m across

    Topology topo;
    std::vector<float> rest_len, len, t;
    if (tension) topo = build_topology(mesh);

    Errors err;
    for (const auto& of : oracle()["frames"]) {
        const int frame = of["frame"].get<int>();
        INFO(file << " frame " << frame);
        sample_pose(scene, &scene.clips[0], time_of(scene, frame), pose);
        apply_rig(rig, scene, pose);
        for (int k = 0; k < 4; ++k) {
            const double want = of["weights"][kTargets[k]].get<double>();
            const double got = pose.morph_weights[m][target[k]];
            err.weight = std::max(err.weight, std::abs(got - want));
            CHECK(got == Approx(want).margin(1e-5));
        }
        deform_mesh(scene, m, pose, pos);
        const auto want_pos = points(of["positions"]);
        double worst = 0;
        for (std::size_t v = 0; v < pos.size(); ++v) worst = std::max<double>(worst, (pos[v] - want_pos[to_oracle[v]]).norm());
        err.position = std::max(err.position, worst);
        CHECK(worst < 1e-5);

        if (tension) {
            // The oracle's rest is frame 1, where the control is at rest and every weight is 0.
            if (rest_len.empty()) mean_edge_lengths(topo, pos, rest_len);
            mean_edge_lengths(topo, pos, len);
            tension_values(rest_len, len, t);
            double worst_t = 0;
            for (std::size_t w = 0; w < topo.welded_count(); ++w) {
                const double want_t = of["t"][to_oracle[topo.representative[w]]].get<double>();
                worst_t = std::max(worst_t, std::abs(t[w] - want_t));
            }
            err.t = std::max(err.t, worst_t);
            // Measured worst T error 1.1e-6 (float edge lengths, as Blender's): 1e-5 is a margin of ~9.
            CHECK(worst_t < 1e-5);
        }
    }
    return err;
}

// Every file vertex of every mesh at `time`, deformed.
std::vector<std::vector<Eigen::Vector3f>> deformed(const Scene& scene, double time, const ResolvedRig* rig) {
    Pose pose = rest_pose(scene);
    sample_pose(scene, scene.clips.empty() ? nullptr : &scene.clips[0], time, pose);
    if (rig) apply_rig(*rig, scene, pose);
    std::vector<std::vector<Eigen::Vector3f>> out(scene.meshes.size());
    for (std::size_t m = 0; m < scene.meshes.size(); ++m) deform_mesh(scene, static_cast<int>(m), pose, out[m]);
    return out;
}

}  // namespace

TEST_CASE("joystick: corners, edges and centre of the square", "[joystick]") {
    check_weights(0, 0, 0, 0, 0, 0);        // centre: nothing
    check_weights(0, 1, 1, 1, 0, 0);        // top centre: both up shapes
    check_weights(0, -1, 0, 0, 1, 1);       // bottom centre: both down shapes
    check_weights(-1, 1, 1, 0, 0, 0);       // corners: one shape each
    check_weights(1, 1, 0, 1, 0, 0);
    check_weights(-1, -1, 0, 0, 1, 0);
    check_weights(1, -1, 0, 0, 0, 1);
    check_weights(-1, 0, 0, 0, 0, 0);       // left and right edge centres: vertical intensity 0
    check_weights(1, 0, 0, 0, 0, 0);
    check_weights(0.5, 1, 0.5, 1, 0, 0);    // along the top edge the far side fades
    check_weights(-0.5, 1, 1, 0.5, 0, 0);
    check_weights(-1, 0.5, 0.5, 0, 0, 0);   // along the left edge intensity follows Y
    check_weights(1, -0.25, 0, 0, 0, 0.25);
    check_weights(0.5, -0.5, 0, 0, 0.25, 0.5);
}

TEST_CASE("joystick: moving down a vertical keeps the left/right proportion", "[joystick]") {
    for (double y : {0.2, 0.5, 0.9}) {
        const auto w = joystick_weights(0.6, y);
        CHECK(w[kUpLeft] / w[kUpRight] == Approx(0.4));
    }
}

TEST_CASE("joystick: outside the travel clamps to the square", "[joystick]") {
    const Travel half{-0.5, 0.5};
    CHECK(joystick_axis(0.25, half) == Approx(0.5));
    CHECK(joystick_axis(-0.25, half) == Approx(-0.5));
    CHECK(joystick_axis(3.0, half) == 1.0);
    CHECK(joystick_axis(-0.51, half) == -1.0);
    CHECK(joystick_axis(0.0, half) == 0.0);
    // The min/max variant: each side has its own reach, rest stays the centre.
    const Travel lopsided{-0.2, 0.8};
    CHECK(joystick_axis(-0.1, lopsided) == Approx(-0.5));
    CHECK(joystick_axis(0.4, lopsided) == Approx(0.5));
    CHECK(joystick_axis(-0.3, lopsided) == -1.0);
    CHECK(joystick_axis(0.0, lopsided) == 0.0);
    // The formula itself clamps too.
    const auto far = joystick_weights(4.0, 7.0), corner = joystick_weights(1.0, 1.0);
    for (int k = 0; k < 4; ++k) CHECK(far[k] == corner[k]);
    const auto below = joystick_weights(-3.0, -2.0), bl = joystick_weights(-1.0, -1.0);
    for (int k = 0; k < 4; ++k) CHECK(below[k] == bl[k]);
}

TEST_CASE("joystick: controls on one mesh add and clamp, and undriven targets keep their weight", "[joystick]") {
    Scene scene;
    scene.source = "synthetic";
    for (const char* n : {"face", "ctrl_a", "ctrl_b"}) {
        Node node;
        node.name = n;
        scene.nodes.push_back(node);
    }
    scene.nodes[1].rest.translation = Eigen::Vector3d(1, 2, 3);
    scene.nodes[0].mesh = 0;
    Mesh mesh;
    mesh.name = "face";
    mesh.node = 0;
    mesh.positions = {Eigen::Vector3f::Zero()};
    for (const char* t : {"smile", "frown", "blink"}) mesh.targets.push_back(MorphTarget{t, {Eigen::Vector3f::UnitX()}});
    mesh.default_weights = {0, 0, 0.25f};
    scene.meshes.push_back(mesh);

    Rig rig = parse_rig(R"({"controls": [
      {"name": "a", "node": "ctrl_a", "axes": {"x": "+x", "y": "+y"}, "travel": 1, "mesh": "face",
       "targets": {"up_left": "smile", "up_right": "smile"}},
      {"name": "b", "node": "ctrl_b", "axes": {"x": "-z", "y": "+x"}, "travel": {"x": 2, "y": {"min": -0.5, "max": 4}},
       "mesh": "face", "targets": {"up_right": "smile", "down_right": "frown"}}]})",
                        "test.rig.json");
    const ResolvedRig resolved = resolve_rig(rig, scene);
    REQUIRE(resolved.driven.size() == 2);

    Pose pose = rest_pose(scene);
    apply_rig(resolved, scene, pose);
    CHECK(pose.morph_weights[0][0] == 0.0f);
    CHECK(pose.morph_weights[0][1] == 0.0f);
    CHECK(pose.morph_weights[0][2] == 0.25f);

    // a at top centre: smile 1 + 1 from both up corners, clamped to 1.
    pose.local[1].translation += Eigen::Vector3d(0, 1, 0);
    apply_rig(resolved, scene, pose);
    CHECK(pose.morph_weights[0][0] == 1.0f);

    // a a quarter up: smile 0.25 + 0.25. b's X reads -z (z = -1 over half-travel 2: X = 0.5),
    // its Y reads +x with min -0.5 (x = -0.25: Y = -0.5): down_right = 0.5.
    pose.local[1].translation = scene.nodes[1].rest.translation + Eigen::Vector3d(0, 0.25, 0);
    pose.local[2].translation = Eigen::Vector3d(-0.25, 0, -1);
    apply_rig(resolved, scene, pose);
    CHECK(pose.morph_weights[0][0] == Approx(0.5f));
    CHECK(pose.morph_weights[0][1] == Approx(0.5f));  // b: down_right = 0.5 * (1 - 0)
    CHECK(pose.morph_weights[0][2] == 0.25f);

    // b up and right: adds up_right = Y * 1 to smile on top of a's 0.5.
    pose.local[2].translation = Eigen::Vector3d(2.0, 0, -1);
    apply_rig(resolved, scene, pose);
    CHECK(pose.morph_weights[0][0] == Approx(0.5f + 0.5f));
    CHECK(pose.morph_weights[0][1] == 0.0f);
}

TEST_CASE("rig files: joystick_face's parses to what the corpus README says", "[joystick][rig]") {
    const Rig rig = read_rig(rig_path());
    REQUIRE(rig.controls.size() == 1);
    const RigControl& c = rig.controls[0];
    CHECK(c.node == "CTRL_mouth");
    CHECK(c.mesh == "Face");
    CHECK(c.axes[0].index == 0);
    CHECK(c.axes[0].sign == 1);
    CHECK(c.axes[1].index == 2);
    CHECK(c.axes[1].sign == -1);
    CHECK(c.travel[0].max == 0.5);
    CHECK(c.travel[1].min == -0.5);
    for (int k = 0; k < 4; ++k) CHECK(c.targets[k] == kTargets[k]);
    CHECK(parse_rig(kGoodRig, "rig.json").controls[0].name == "CTRL_mouth");
}

TEST_CASE("rig files: validation names the JSON path and exits 2", "[joystick][rig]") {
    auto bad = [](const std::string& from, const std::string& to) {
        std::string text = kGoodRig;
        const auto at = text.find(from);
        REQUIRE(at != std::string::npos);
        text.replace(at, from.size(), to);
        return error_of([&] { parse_rig(text, "rig.json"); });
    };
    auto expect = [](const std::pair<int, std::string>& e, const std::string& text) {
        INFO(e.second);
        CHECK(e.first == kExitUsage);
        CHECK(e.second.find(text) != std::string::npos);
    };
    expect(bad("\"travel\"", "\"travle\""), "rig.json: controls[0].travle: unknown key");
    expect(bad("\"x\": \"+x\"", "\"x\": 3"), "rig.json: controls[0].axes.x: expected a string like \"+x\" or \"-z\"");
    expect(bad("\"x\": \"+x\"", "\"x\": \"x\""), "rig.json: controls[0].axes.x: expected a string like \"+x\" or \"-z\"");
    expect(bad("\"y\": \"-z\"", "\"y\": \"-x\""), "controls[0].axes: x and y must be different axes");
    expect(bad("\"mesh\": \"Face\",", ""), "rig.json: controls[0].mesh: missing");
    expect(bad("\"mesh\": \"Face\"", "\"mesh\": [\"Face\"]"), "rig.json: controls[0].mesh: expected a string, got array");
    expect(bad("\"x\": 0.5", "\"x\": -0.5"), "rig.json: controls[0].travel.x: expected a positive number");
    expect(bad("\"x\": 0.5", "\"x\": \"0.5\""), "rig.json: controls[0].travel.x: expected a half-travel");
    expect(bad("\"x\": 0.5", "\"x\": {\"min\": 0.1, \"max\": 0.5}"), "rig.json: controls[0].travel.x.min: expected a negative number");
    expect(bad("\"x\": 0.5", "\"x\": {\"max\": 0.5}"), "rig.json: controls[0].travel.x.min: missing");
    expect(bad("\"up_left\"", "\"upper_left\""), "rig.json: controls[0].targets.upper_left: unknown key");
    expect(bad("\"controls\"", "\"control\""), "rig.json: control: unknown key");
    expect(bad("[{", "{"), "rig.json: not valid JSON");
    expect(error_of([] { parse_rig(R"({"controls": []})", "rig.json"); }), "rig.json: controls: expected at least one control");
    expect(error_of([] { parse_rig(R"({"controls": [{"node": "n", "axes": {"x": "+x", "y": "+y"}, "travel": 1, "mesh": "m", "targets": {}}]})", "rig.json"); }),
           "rig.json: controls[0].targets: names no target");
    expect(error_of([] { read_rig("/nonexistent/rig.json"); }), "/nonexistent/rig.json: cannot read");
}

TEST_CASE("rig files: names the scene lacks exit 5 and list what it has", "[joystick][rig][corpus]") {
    const Scene scene = load_scene(corpus("joystick_face/joystick_face.glb"));
    auto mismatch = [&](const std::string& from, const std::string& to, const std::string& text) {
        std::string rig = kGoodRig;
        rig.replace(rig.find(from), from.size(), to);
        const auto e = error_of([&] { resolve_rig(parse_rig(rig, "rig.json"), scene); });
        INFO(e.second);
        CHECK(e.first == kExitMismatch);
        CHECK(e.second.find(text) != std::string::npos);
    };
    mismatch("CTRL_mouth", "CTRL_jaw", "rig.json: controls[0].node: ");
    mismatch("CTRL_mouth", "CTRL_jaw", "no node 'CTRL_jaw' (nodes: Face, CTRL_mouth)");
    mismatch("\"frown_R\"", "\"frown_RR\"", "controls[0].targets.down_right: mesh 'Face'");
    mismatch("\"frown_R\"", "\"frown_RR\"", "(targets: smile_L, smile_R, frown_L, frown_R)");
    mismatch("\"Face\"", "\"Head\"", "no mesh 'Head' (meshes: Face)");
    CHECK_NOTHROW(resolve_rig(parse_rig(kGoodRig, "rig.json"), scene));
}

TEST_CASE("joystick_face.glb: driven weights and positions equal Blender's", "[joystick][corpus]") {
    compare_with_oracle("joystick_face/joystick_face.glb", false);
}

TEST_CASE("joystick_face.fbx: driven weights, positions and tension equal Blender's", "[joystick][corpus]") {
    compare_with_oracle("joystick_face/joystick_face.fbx", true);
}

TEST_CASE("joystick: the shipped glb is the corpus one", "[joystick][corpus]") {
    auto bytes = [](const std::string& p) {
        std::ifstream in(p, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    const std::string ours = bytes(test::source_dir() + "/data/joystick_face.glb");
    CHECK(!ours.empty());
    CHECK(ours == bytes(corpus("joystick_face/joystick_face.glb")));
}

TEST_CASE("joystick: weights baked into glTF play back without the rig", "[joystick][corpus][gltf]") {
    for (const char* file : {"joystick_face/joystick_face.glb", "joystick_face/joystick_face.fbx"}) {
        INFO(file);
        const Scene scene = load_scene(corpus(file));
        const ResolvedRig rig = resolve_rig(read_rig(rig_path()), scene);
        std::vector<double> times;
        for (int f = 1; f <= 97; ++f) times.push_back(time_of(scene, f));
        std::vector<Warning> warnings;
        Scene baked = scene;
        baked.clips[0] = bake_rig(rig, scene, &scene.clips[0], times, scene.clips[0].name, warnings);
        CHECK(warnings.empty());

        const auto path = std::filesystem::temp_directory_path() / ("rigscope_test_joystick_" + std::to_string(getpid()) + ".glb");
        {
            OutputFile out(path.string());
            write_glb(baked, {}, out);
            out.commit();
        }
        const Scene again = load_scene(path.string());
        std::filesystem::remove(path);
        REQUIRE(again.meshes.size() == scene.meshes.size());
        double worst = 0;
        for (double t : times) {
            const auto want = deformed(scene, t, &rig), got = deformed(again, t, nullptr);
            for (std::size_t m = 0; m < want.size(); ++m) {
                REQUIRE(!got[m].empty());
                if (got[m].size() == want[m].size())
                    for (std::size_t v = 0; v < want[m].size(); ++v) worst = std::max<double>(worst, (got[m][v] - want[m][v]).norm());
                else
                    FAIL("vertex count changed: " << want[m].size() << " -> " << got[m].size());
            }
        }
        CHECK(worst < 1e-6);
    }
}
