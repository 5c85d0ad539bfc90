// Collada through Assimp (src/io/collada_reader.cpp) against two independent references:
// - Blender: tests/collada/blender_oracle.json, Blender 3.4.1's Collada import of
//   tests/collada/bend_cylinder.dae (scripts/blender_collada.py), positions and T at 7 frames;
// - the export round trip: the .dae is Blender's Collada export of the corpus's bend_cylinder.glb,
//   so rigscope's glTF path on that glb, turned from glTF's Y-up to Blender's Z-up
//   ((x, y, z) -> (x, -z, y)), must give the same deformation at every one of the 91 frames.
//
// Tolerances: 1e-5 m for positions and 1e-5 for T, as test_oracle_bend_cylinder.cpp. The .dae
// stores Blender's floats with 7 significant digits (numbers up to 2 m: rounding up to 1e-7 m per
// number, a few 1e-7 after the matrix products); both sides evaluate in float. Measured (GCC 12,
// x86-64): Blender rest 2.5e-7 m, positions 5.9e-7 m, T 1.4e-6; glTF round trip 7.2e-7 m. A real
// error (a unit applied twice, a wrong up axis, an inverse bind left in mesh space, a frame off
// by one: 2.1e-2 m at the slowest frame) is orders larger.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "corpus.h"
#include "oracle.h"
#include "rigscope/error.h"
#include "rigscope/load.h"
#include "rigscope/pose.h"
#include "rigscope/skin.h"
#include "rigscope/tension_map.h"

using namespace rigscope;

namespace {

const std::string kDae = test::source_dir() + "/tests/collada/bend_cylinder.dae";
const std::string kOracle = test::source_dir() + "/tests/collada/blender_oracle.json";
constexpr double kFps = 24.0;  // Blender's export: frame f is key time f / 24 s

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// The committed .dae with one piece of text replaced, written to a fresh temporary folder.
struct Variant {
    std::string dir, path;
    Variant(const std::string& from, const std::string& to, const std::string& name = "variant.dae") {
        char tmpl[] = "/tmp/rigscope_collada_XXXXXX";
        REQUIRE(mkdtemp(tmpl) != nullptr);
        dir = tmpl;
        path = dir + "/" + name;
        std::string text = read_text(kDae);
        const auto at = text.find(from);
        REQUIRE(at != std::string::npos);
        text.replace(at, from.size(), to);
        std::ofstream(path, std::ios::binary) << text;
    }
    ~Variant() {
        std::remove(path.c_str());
        rmdir(dir.c_str());
    }
};

std::vector<Eigen::Vector3f> deform_at(const Scene& scene, double seconds) {
    Pose pose = rest_pose(scene);
    sample_pose(scene, &scene.clips.at(0), seconds, pose);
    std::vector<Eigen::Vector3f> out;
    deform_mesh(scene, 0, pose, out);
    return out;
}

double worst_gap(const std::vector<Eigen::Vector3f>& a, const std::vector<Eigen::Vector3f>& b, float scale_b = 1.0f) {
    REQUIRE(a.size() == b.size());
    double w = 0;
    for (std::size_t i = 0; i < a.size(); ++i) w = std::max<double>(w, (a[i] - scale_b * b[i]).norm());
    return w;
}

}  // namespace

TEST_CASE("Collada bend_cylinder: skeleton, skin and clip as Blender exported them", "[collada]") {
    const Scene scene = load_scene(kDae);
    CHECK(scene.format == "Collada");
    CHECK(scene.up_axis == "Z");
    CHECK(scene.unit_scale == 1.0);
    REQUIRE(scene.meshes.size() == 1);
    CHECK(scene.meshes[0].name == "Cylinder");
    REQUIRE(scene.skins.size() == 1);
    // Nodes carry the file's names (<node name>), as Blender shows them, not the Collada ids.
    REQUIRE(scene.skins[0].joints.size() == 2);
    CHECK(scene.nodes[scene.skins[0].joints[0]].name == "Bone");
    CHECK(scene.nodes[scene.skins[0].joints[1]].name == "Bone.001");
    REQUIRE(scene.clips.size() == 1);
    // Key times are stored as float seconds (relative error up to 6e-8).
    CHECK(scene.clips[0].start == Approx(1.0 / kFps).epsilon(1e-5));
    CHECK(scene.clips[0].end == Approx(91.0 / kFps).epsilon(1e-5));
    CHECK(scene.warnings.empty());
    // The glTF's 625 vertices (cap seams split) through Blender and Assimp's per-corner vertices:
    // corners that share position and weights fold back to one, seam copies included.
    CHECK(scene.meshes[0].vertex_count() == 544);
}

TEST_CASE("Collada bend_cylinder deform and T equal Blender's import of the same .dae", "[collada][oracle]") {
    const Scene scene = load_scene(kDae);
    const auto oracle = test::load_json(kOracle);
    REQUIRE(oracle["armature_modifiers"] == 1);

    std::vector<Eigen::Vector3f> rest;
    deform_mesh(scene, 0, bind_pose(scene), rest);
    double worst_rest = 0;
    const auto idx = test::match_nearest(test::points(oracle["rest"]), rest, &worst_rest);
    CHECK(worst_rest < 1e-5);

    MeshTension mt(scene, 0, true, rest);
    CHECK(mt.topo.welded_count() == oracle["vertex_count"].get<std::size_t>());
    CHECK(mt.topo.edge_count() == oracle["edge_count"].get<std::size_t>());

    Pose pose = rest_pose(scene);
    double worst_pos = 0, worst_t = 0;
    for (const auto& fr : oracle["frames"]) {
        sample_pose(scene, &scene.clips[0], fr["frame"].get<double>() / kFps, pose);
        mt.evaluate(scene, pose);
        const auto pos = test::points(fr["positions"]);
        const auto& t = fr["t"];
        for (std::size_t i = 0; i < pos.size(); ++i) {
            worst_pos = std::max<double>(worst_pos, (mt.deformed[idx[i]] - pos[i]).norm());
            worst_t = std::max<double>(worst_t, std::abs(mt.t[mt.topo.welded_of[idx[i]]] - t[i].get<double>()));
        }
    }
    INFO("rest " << worst_rest << " m, positions " << worst_pos << " m, T " << worst_t);
    CHECK(worst_pos < 1e-5);
    CHECK(worst_t < 1e-5);
}

TEST_CASE("Collada bend_cylinder deforms as the glTF it was exported from at every frame", "[collada][corpus]") {
    const Scene dae = load_scene(kDae);
    const Scene glb = load_scene(test::corpus("bend_cylinder/bend_cylinder.glb"));
    REQUIRE(glb.meshes.size() == 1);

    // Blender's glTF import turns Y-up into Z-up: (x, y, z) -> (x, -z, y).
    auto to_z_up = [](std::vector<Eigen::Vector3f> p) {
        for (auto& v : p) v = Eigen::Vector3f(v.x(), -v.z(), v.y());
        return p;
    };
    std::vector<Eigen::Vector3f> dae_rest, glb_rest;
    deform_mesh(dae, 0, bind_pose(dae), dae_rest);
    deform_mesh(glb, 0, bind_pose(glb), glb_rest);
    double worst_rest = 0;
    const auto idx = test::match_nearest(to_z_up(glb_rest), dae_rest, &worst_rest);
    CHECK(worst_rest < 1e-5);

    double worst = 0, slowest = INFINITY;
    for (int f = 1; f <= 91; ++f) {
        const auto a = to_z_up(deform_at(glb, f / kFps));
        const auto b = deform_at(dae, f / kFps);
        for (std::size_t i = 0; i < a.size(); ++i) worst = std::max<double>(worst, (a[i] - b[idx[i]]).norm());
        if (f > 1) {
            // How far one frame moves the tip: the scale a frame-off error would have.
            const auto prev = deform_at(dae, (f - 1) / kFps);
            slowest = std::min(slowest, worst_gap(b, prev));
        }
    }
    INFO("worst " << worst << " m over 91 frames; one frame moves the mesh by at least " << slowest << " m");
    CHECK(worst < 1e-5);
    CHECK(slowest > 100 * 1e-5);
}

TEST_CASE("Collada unit scales to metres and the up axis is reported with the axes kept as the file has them", "[collada]") {
    const Scene base = load_scene(kDae);
    const auto base_rest = deform_at(base, 1.0 / kFps);
    const auto base_61 = deform_at(base, 61.0 / kFps);

    SECTION("centimetres, Y_UP") {
        Variant cm("<unit name=\"meter\" meter=\"1\"/>", "<unit name=\"centimeter\" meter=\"0.01\"/>");
        Variant both(std::string("<up_axis>Z_UP</up_axis>"), "<up_axis>Y_UP</up_axis>");
        // Both edits in one file: the second variant's text with the first's replacement.
        std::string text = read_text(both.path);
        const std::string unit = "<unit name=\"meter\" meter=\"1\"/>";
        text.replace(text.find(unit), unit.size(), "<unit name=\"centimeter\" meter=\"0.01\"/>");
        std::ofstream(both.path, std::ios::binary) << text;

        const Scene s = load_scene(both.path);
        CHECK(s.unit_scale == Approx(0.01).epsilon(1e-6));
        CHECK(s.up_axis == "Y");
        CHECK(s.units_note.find("0.01") != std::string::npos);
        // Every length times 0.01, nothing turned: the same numbers as the metre file, scaled.
        CHECK(worst_gap(deform_at(s, 1.0 / kFps), base_rest, 0.01f) < 1e-7);
        CHECK(worst_gap(deform_at(s, 61.0 / kFps), base_61, 0.01f) < 1e-7);

        const Scene c = load_scene(cm.path);
        CHECK(c.up_axis == "Z");
        CHECK(worst_gap(deform_at(c, 61.0 / kFps), base_61, 0.01f) < 1e-7);
    }
    SECTION("X_UP") {
        Variant x(std::string("<up_axis>Z_UP</up_axis>"), "<up_axis>X_UP</up_axis>");
        const Scene s = load_scene(x.path);
        CHECK(s.up_axis == "X");
        CHECK(s.unit_scale == 1.0);
        CHECK(worst_gap(deform_at(s, 61.0 / kFps), base_61) < 1e-6);
    }
}

TEST_CASE("Collada bad inputs are refused with exit 3 and the problem named", "[collada][errors]") {
    auto refused = [](const std::string& path) {
        try {
            load_scene(path);
        } catch (const Error& e) {
            CHECK(e.code() == kExitBadInput);
            return std::string(e.what());
        }
        FAIL("accepted " << path);
        return std::string();
    };
    SECTION("truncated in its geometry") {
        Variant v("<float_array", "<float_array");
        const std::string text = read_text(kDae);
        std::ofstream(v.path, std::ios::binary | std::ios::trunc) << text.substr(0, text.size() / 3);
        const std::string msg = refused(v.path);
        CHECK(msg.find(v.path) == 0);
        CHECK(msg.find('\n') == std::string::npos);
    }
    SECTION("a skin naming a joint that no node has") {
        Variant v(">Bone Bone_001</Name_array>", ">Bone Bone_404</Name_array>");
        const std::string msg = refused(v.path);
        INFO(msg);
        CHECK(msg.find("Bone_404") != std::string::npos);
    }
    SECTION("not Collada at all") {
        Variant v("<COLLADA", "<NOTCOLLADA");
        CHECK(refused(v.path).find("not a Collada file") != std::string::npos);
    }
}

TEST_CASE("Formats Assimp reads untested here are refused by extension", "[collada][errors]") {
    Variant v("<COLLADA", "<COLLADA", "model.x");
    try {
        load_scene(v.path);
        FAIL("accepted .x");
    } catch (const Error& e) {
        CHECK(e.code() == kExitBadInput);
        CHECK(std::string(e.what()).find("DirectX .x is not read") != std::string::npos);
    }
}
