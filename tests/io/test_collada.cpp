// Collada through Assimp (src/io/collada/collada_reader.cpp) against two independent references:
// - Blender: tests/collada/*_oracle.json, Blender 3.4.1's Collada import of each .dae
//   (scripts/blender_collada.py), positions and T at 7 frames;
// - the export round trip: bend_cylinder.dae is Blender's Collada export of the corpus's
//   bend_cylinder.glb, so rigscope's glTF path on that glb, turned from glTF's Y-up to Blender's
//   Z-up ((x, y, z) -> (x, -z, y)), must give the same deformation at every one of the 91 frames.
//
// Tolerances: 1e-5 m for positions and 1e-5 for T, as test_oracle_bend_cylinder.cpp. The .dae
// stores Blender's floats with 7 significant digits (numbers up to 2 m: rounding up to 1e-7 m per
// number, a few 1e-7 after the matrix products); both sides evaluate in float. Measured (GCC 12,
// x86-64): Blender rest 2.5e-7 m, positions 5.9e-7 m, T 1.4e-6 (bend_cylinder) and 9.3e-7 m,
// 1.6e-6 m, 4.0e-7 (rigged_simple, numbers up to 4.6 m); glTF round trip 7.2e-7 m. A real
// error (a unit applied twice, a wrong up axis, an inverse bind left in mesh space, a frame off
// by one: 2.1e-2 m at the slowest frame) is orders larger.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "corpus.h"
#include "oracle.h"
#include "rigscope/core/error.h"
#include "rigscope/io/load.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/skin.h"
#include "rigscope/core/tension_map.h"
#include "temp_dir.h"

using namespace rigscope;

namespace {

const std::string kDir = test::source_dir() + "/tests/collada/";
const std::string kDae = kDir + "bend_cylinder.dae";
constexpr double kFps = 24.0;  // Blender's export: frame f is key time f / 24 s

// Blender's exports of two corpus glTF rigs: bend_cylinder (two bones along the axis, identity
// placements) and Khronos' rigged_simple (a Z_UP node, a rotated armature, bones with 1e-7-level
// rotations, a bind shape matrix, and a rest pose that is not the bind pose).
struct Case {
    const char* dae;
    const char* oracle;
    const char* gltf;  // the corpus file it was exported from; null: no round trip (below)
    int last_frame;
};
// rigged_simple has no round-trip check: Blender's Collada export of it does not keep the
// animation of Blender's own glTF import (4.3 m apart at frame 25, where rigscope's glTF path
// and Blender's glTF import agree within 1.7e-6 m), so only Blender's reading of the .dae is
// compared.
const Case kCases[] = {
    {"bend_cylinder.dae", "bend_cylinder_oracle.json", "bend_cylinder/bend_cylinder.glb", 91},
    {"rigged_simple.dae", "rigged_simple_oracle.json", nullptr, 50},
};

// Blender's Collada import applies the skinned mesh's node transform after skinning, which the
// Collada specification, Assimp and rigscope leave out (collada_reader.cpp): Blender's positions
// are that node's rest world times rigscope's. The identity for bend_cylinder; a quarter turn
// for rigged_simple, whose mesh node sits under a Z_UP node.
Eigen::Matrix4d blender_after_skinning(const Scene& scene) {
    Eigen::Matrix4d world = Eigen::Matrix4d::Identity();
    for (int n = scene.meshes[0].node; n >= 0; n = scene.nodes[n].parent) world = scene.nodes[n].rest.matrix() * world;
    return world;
}

std::vector<Eigen::Vector3f> placed(const Eigen::Matrix4d& m, std::vector<Eigen::Vector3f> p) {
    for (auto& v : p) v = (m * v.cast<double>().homogeneous()).head<3>().cast<float>();
    return p;
}

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// The committed .dae with one piece of text replaced, written to a fresh temporary folder.
struct Variant {
    rigscope_test::TempDir dir{"rigscope_collada"};
    std::string path;
    Variant(const std::string& from, const std::string& to, const std::string& name = "variant.dae") {
        path = dir.file(name);
        std::string text = read_text(kDae);
        const auto at = text.find(from);
        REQUIRE(at != std::string::npos);
        text.replace(at, from.size(), to);
        std::ofstream(path, std::ios::binary) << text;
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

TEST_CASE("Collada rigs deform and T equal Blender's import of the same .dae", "[collada][oracle]") {
    for (const Case& c : kCases) {
        SECTION(c.dae) {
            const Scene scene = load_scene(kDir + c.dae);
            const auto oracle = test::load_json(kDir + c.oracle);
            REQUIRE(oracle["armature_modifiers"] == 1);
            REQUIRE(scene.meshes.size() == 1);

            const Eigen::Matrix4d after = blender_after_skinning(scene);
            bool warned = false;
            for (const auto& w : scene.warnings)
                warned |= w.kind == WarningKind::Transform && w.message.find("Blender's Collada import applies it after skinning") != std::string::npos;
            CHECK(warned == !after.isIdentity(1e-6));
            std::vector<Eigen::Vector3f> rest;
            deform_mesh(scene, 0, bind_pose(scene), rest);
            double worst_rest = 0;
            const auto idx = test::match_nearest(test::points(oracle["rest"]), placed(after, rest), &worst_rest);
            CHECK(worst_rest < 1e-5);

            MeshTension mt(scene, 0, true, rest);
            CHECK(mt.topo.welded_count() == oracle["vertex_count"].get<std::size_t>());
            CHECK(mt.topo.edge_count() == oracle["edge_count"].get<std::size_t>());

            Pose pose = rest_pose(scene);
            double worst_pos = 0, worst_t = 0, moved = 0;
            const auto oracle_rest = test::points(oracle["rest"]);
            for (const auto& fr : oracle["frames"]) {
                sample_pose(scene, &scene.clips[0], fr["frame"].get<double>() / kFps, pose);
                mt.evaluate(scene, pose);
                const auto ours = placed(after, mt.deformed);
                const auto pos = test::points(fr["positions"]);
                const auto& t = fr["t"];
                for (std::size_t i = 0; i < pos.size(); ++i) {
                    worst_pos = std::max<double>(worst_pos, (ours[idx[i]] - pos[i]).norm());
                    worst_t = std::max<double>(worst_t, std::abs(mt.t[mt.topo.welded_of[idx[i]]] - t[i].get<double>()));
                    moved = std::max<double>(moved, (pos[i] - oracle_rest[i]).norm());
                }
            }
            INFO(c.dae << ": rest " << worst_rest << " m, positions " << worst_pos << " m, T " << worst_t << "; the oracle moves up to " << moved << " m");
            CHECK(worst_pos < 1e-5);
            CHECK(worst_t < 1e-5);
            CHECK(moved > 0.5);  // the frames are poses, not the rest
        }
    }
}

TEST_CASE("Collada rigs deform as the glTF they were exported from at every frame", "[collada][corpus]") {
    for (const Case& c : kCases) {
        if (!c.gltf) continue;
        SECTION(c.dae) {
            const Scene dae = load_scene(kDir + c.dae);
            const Scene gltf = load_scene(test::corpus(c.gltf));
            REQUIRE(gltf.meshes.size() == 1);

            // Blender's glTF import turns Y-up into Z-up: (x, y, z) -> (x, -z, y).
            auto to_z_up = [](std::vector<Eigen::Vector3f> p) {
                for (auto& v : p) v = Eigen::Vector3f(v.x(), -v.z(), v.y());
                return p;
            };
            const auto gltf_first = to_z_up(deform_at(gltf, 1 / kFps));
            const auto dae_first = deform_at(dae, 1 / kFps);
            double worst_first = 0;
            const auto idx = test::match_nearest(gltf_first, dae_first, &worst_first);
            CHECK(worst_first < 1e-5);

            // A reading one frame off would show as the mesh's largest move between frames.
            double worst = 0, step = 0;
            for (int f = 1; f <= c.last_frame; ++f) {
                const auto a = to_z_up(deform_at(gltf, f / kFps));
                const auto b = deform_at(dae, f / kFps);
                for (std::size_t i = 0; i < a.size(); ++i) worst = std::max<double>(worst, (a[i] - b[idx[i]]).norm());
                if (f > 1) step = std::max(step, worst_gap(b, deform_at(dae, (f - 1) / kFps)));
            }
            INFO(c.dae << ": worst " << worst << " m over " << c.last_frame << " frames; one frame moves the mesh by up to " << step << " m");
            CHECK(worst < 1e-5);
            CHECK(step > 100 * 1e-5);
        }
    }
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

// fuzz_collada's findings (tests/regressions/README.md), replayed here rather than in
// test_regressions.cpp: each must be refused before Assimp reads it.
TEST_CASE("Collada fuzz findings are refused before Assimp reads them", "[collada][errors][regression]") {
    const std::pair<const char*, const char*> kFindings[] = {
        {"collada_array_without_count.dae", "has no count attribute"},
        {"collada_form_feed_in_indices.dae", "holds something that is not an integer"},
    };
    for (const auto& [file, fragment] : kFindings) {
        INFO(file);
        try {
            load_scene(test::source_dir() + "/tests/regressions/" + file);
            FAIL("accepted");
        } catch (const Error& e) {
            CHECK(e.code() == kExitBadInput);
            CHECK(std::string(e.what()).find(fragment) != std::string::npos);
        }
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
