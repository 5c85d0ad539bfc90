// glTF writer (src/io/gltf_writer*.cpp, glb_builder.cpp): what write_glb writes, read_gltf must
// give back, and the file must be well-formed GLB.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <fstream>

#include "corpus.h"
#include "io/gltf/gltf_document.h"
#include "rigscope/core/error.h"
#include "rigscope/io/gltf_writer.h"
#include "rigscope/io/load.h"
#include "rigscope/io/output.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/skin.h"
#include "temp_dir.h"

using rigscope::test::corpus;

namespace {

using rigscope_test::TempDir;

rigscope::Scene write_and_read(const rigscope::Scene& scene, const std::string& path,
                               const std::vector<rigscope::MeshAttributes>& extra = {}) {
    {
        rigscope::OutputFile out(path);
        rigscope::write_glb(scene, extra, out);
        out.commit();
    }
    return rigscope::read_gltf(path, {});
}

std::vector<std::uint32_t> fan_triangles(const rigscope::Mesh& m) {
    std::vector<std::uint32_t> out;
    for (std::size_t f = 0; f < m.face_count(); ++f)
        for (std::uint32_t k = m.face_offsets[f] + 2; k < m.face_offsets[f + 1]; ++k)
            out.insert(out.end(), {m.face_indices[m.face_offsets[f]], m.face_indices[k - 1], m.face_indices[k]});
    return out;
}

// A vertex's influences as (joint, weight) sorted by joint: the writer may reorder them.
std::vector<std::pair<int, float>> influences_of(const rigscope::Influences& inf, std::size_t v) {
    std::vector<std::pair<int, float>> out;
    for (std::uint32_t k = inf.offsets[v]; k < inf.offsets[v + 1]; ++k) out.push_back({inf.joints[k], inf.weights[k]});
    std::sort(out.begin(), out.end());
    return out;
}

void require_same_mesh(const rigscope::Scene& a, const rigscope::Mesh& ma, const rigscope::Scene& b, const rigscope::Mesh& mb) {
    INFO("mesh " << ma.name);
    CHECK(mb.name == ma.name);
    REQUIRE(mb.positions.size() == ma.positions.size());
    for (std::size_t v = 0; v < ma.positions.size(); ++v) REQUIRE(mb.positions[v] == ma.positions[v]);
    REQUIRE(mb.face_indices == fan_triangles(ma));
    REQUIRE(mb.face_count() * 3 == mb.face_indices.size());

    REQUIRE(mb.influences.empty() == ma.influences.empty());
    for (std::size_t v = 0; v < ma.influences.vertex_count(); ++v) {
        const auto ia = influences_of(ma.influences, v), ib = influences_of(mb.influences, v);
        REQUIRE(ia.size() == ib.size());
        for (std::size_t k = 0; k < ia.size(); ++k) {
            REQUIRE(ib[k].first == ia[k].first);
            REQUIRE(ib[k].second == Approx(ia[k].second).margin(1e-6));
        }
    }
    if (!ma.influences.empty()) {
        const rigscope::Skin& sa = a.skins[ma.skin];
        const rigscope::Skin& sb = b.skins[mb.skin];
        REQUIRE(sb.joints == sa.joints);
        for (std::size_t j = 0; j < sa.joints.size(); ++j)
            REQUIRE((sb.inverse_bind[j] - sa.inverse_bind[j]).cwiseAbs().maxCoeff() <= 1e-6 * (1 + sa.inverse_bind[j].cwiseAbs().maxCoeff()));
    }

    REQUIRE(mb.targets.size() == ma.targets.size());
    for (std::size_t t = 0; t < ma.targets.size(); ++t) {
        CHECK(mb.targets[t].name == ma.targets[t].name);
        REQUIRE(mb.targets[t].deltas == ma.targets[t].deltas);
    }
    REQUIRE(mb.default_weights == ma.default_weights);
}

void require_same_clips(const rigscope::Scene& a, const rigscope::Scene& b) {
    REQUIRE(b.clips.size() == a.clips.size());
    for (std::size_t c = 0; c < a.clips.size(); ++c) {
        const auto& ca = a.clips[c];
        const auto& cb = b.clips[c];
        INFO("clip " << ca.name);
        CHECK(cb.name == ca.name);
        CHECK(cb.start == ca.start);
        CHECK(cb.end == ca.end);
        REQUIRE(cb.channels.size() == ca.channels.size());
        for (std::size_t k = 0; k < ca.channels.size(); ++k) {
            const auto& ka = ca.channels[k];
            const auto& kb = cb.channels[k];
            INFO("channel " << k);
            REQUIRE(kb.node == ka.node);
            REQUIRE(kb.path == ka.path);
            REQUIRE(kb.interpolation == ka.interpolation);
            REQUIRE(kb.width == ka.width);
            REQUIRE(kb.times == ka.times);
            REQUIRE(kb.values.size() == ka.values.size());
            std::vector<float> want = ka.values;
            // STEP and LINEAR rotations are written as unit quaternions (the same rotation).
            if (ka.path == rigscope::ChannelPath::Rotation && ka.interpolation != rigscope::Interpolation::CubicSpline)
                for (std::size_t i = 0; i + 3 < want.size(); i += 4) Eigen::Map<Eigen::Vector4f>(&want[i]).normalize();
            for (std::size_t i = 0; i < want.size(); ++i) REQUIRE(kb.values[i] == Approx(want[i]).margin(1e-6));
        }
    }
}

void require_same_scene(const rigscope::Scene& a, const rigscope::Scene& b) {
    REQUIRE(b.nodes.size() == a.nodes.size());
    for (std::size_t i = 0; i < a.nodes.size(); ++i) {
        INFO("node " << a.nodes[i].name);
        CHECK(b.nodes[i].name == a.nodes[i].name);
        REQUIRE(b.nodes[i].parent == a.nodes[i].parent);
        REQUIRE(b.nodes[i].children == a.nodes[i].children);
        REQUIRE(b.nodes[i].mesh == a.nodes[i].mesh);
        REQUIRE((b.nodes[i].rest.matrix() - a.nodes[i].rest.matrix()).cwiseAbs().maxCoeff() < 1e-9);
    }
    REQUIRE(b.meshes.size() == a.meshes.size());
    for (std::size_t m = 0; m < a.meshes.size(); ++m) {
        REQUIRE(b.meshes[m].node == a.meshes[m].node);
        require_same_mesh(a, a.meshes[m], b, b.meshes[m]);
    }
    require_same_clips(a, b);
}

// Every mesh deformed at several times of every clip: the same result from both scenes.
void require_same_motion(const rigscope::Scene& a, const rigscope::Scene& b) {
    REQUIRE(b.clips.size() == a.clips.size());
    rigscope::Pose pa = rigscope::rest_pose(a), pb = rigscope::rest_pose(b);
    std::vector<Eigen::Vector3f> da, db;
    for (std::size_t c = 0; c < std::max<std::size_t>(a.clips.size(), 1); ++c) {
        const rigscope::Clip* ca = a.clips.empty() ? nullptr : &a.clips[c];
        const rigscope::Clip* cb = b.clips.empty() ? nullptr : &b.clips[c];
        for (double u : {0.0, 0.37, 0.81, 1.0}) {
            const double t = ca ? ca->start + u * (ca->end - ca->start) : 0.0;
            rigscope::sample_pose(a, ca, t, pa);
            rigscope::sample_pose(b, cb, t, pb);
            for (std::size_t m = 0; m < a.meshes.size(); ++m) {
                rigscope::deform_mesh(a, static_cast<int>(m), pa, da);
                rigscope::deform_mesh(b, static_cast<int>(m), pb, db);
                REQUIRE(da.size() == db.size());
                float size = 0;
                for (const auto& p : da) size = std::max(size, p.cwiseAbs().maxCoeff());
                for (std::size_t v = 0; v < da.size(); ++v) REQUIRE((da[v] - db[v]).norm() <= 1e-5f * (1 + size));
            }
        }
    }
}

std::vector<std::uint8_t> file_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::uint32_t u32_at(const std::vector<std::uint8_t>& b, std::size_t at) {
    std::uint32_t v;
    std::memcpy(&v, b.data() + at, 4);
    return v;
}

}  // namespace

TEST_CASE("write_glb round-trips glTF corpus files through read_gltf", "[gltf_writer]") {
    const char* files[] = {"bend_cylinder/bend_cylinder.glb", "khronos/cesium_man.gltf", "joystick_face/joystick_face.glb",
                           "khronos/interpolation_test.gltf", "khronos/rigged_simple.gltf"};
    TempDir dir("rigscope_writer");
    for (const char* f : files) {
        INFO(f);
        const rigscope::Scene a = rigscope::read_gltf(corpus(f), {});
        const rigscope::Scene b = write_and_read(a, dir.file("out.glb"));
        require_same_scene(a, b);
        require_same_motion(a, b);
    }
}

TEST_CASE("write_glb round-trips the other corpus files", "[gltf_writer]") {
    TempDir dir("rigscope_writer");
    // glTF: the same scene back (several primitives come back as one, vertices in the same order).
    for (const char* f : {"assimp/glTF2/SimpleMorph/glTF/SimpleMorph.gltf", "assimp/glTF2/AnimatedMorphCube/glTF/AnimatedMorphCube.gltf",
                          "assimp/glTF2/MorphStressTest/glTF/MorphStressTest.gltf", "assimp/glTF2/simple_skin/simple_skin.gltf",
                          "assimp/glTF2/simple_skin/quad_skin.glb"}) {
        INFO(f);
        const rigscope::Scene a = rigscope::read_gltf(corpus(f), {});
        const rigscope::Scene b = write_and_read(a, dir.file("other.glb"));
        require_same_scene(a, b);
        require_same_motion(a, b);
    }
    // FBX: the same meshes and the same deformation over every clip.
    for (const char* f : {"joystick_face/joystick_face.fbx", "assimp/FBX/huesitos.fbx", "assimp/FBX/animation_with_skeleton.fbx",
                          "assimp/FBX/spider.fbx", "pab/walk.fbx"}) {
        INFO(f);
        const rigscope::Scene a = rigscope::load_scene(corpus(f));
        const rigscope::Scene b = write_and_read(a, dir.file("other.glb"));
        REQUIRE(b.meshes.size() == a.meshes.size());
        for (std::size_t m = 0; m < a.meshes.size(); ++m) require_same_mesh(a, a.meshes[m], b, b.meshes[m]);
        require_same_motion(a, b);
    }
}

TEST_CASE("write_glb keeps what each corpus file is there for", "[gltf_writer]") {
    TempDir dir("rigscope_writer");
    SECTION("joystick_face: four named morph targets, stored sparse") {
        const auto a = rigscope::read_gltf(corpus("joystick_face/joystick_face.glb"), {});
        const auto b = write_and_read(a, dir.file("face.glb"));
        REQUIRE(b.meshes.size() == 1);
        std::vector<std::string> names;
        for (const auto& t : b.meshes[0].targets) names.push_back(t.name);
        CHECK(names == std::vector<std::string>{"smile_L", "smile_R", "frown_L", "frown_R"});
        rigscope::gltf::Document doc(dir.file("face.glb"), 1ull << 30);
        for (const auto& t : doc.root()["meshes"][0]["primitives"][0]["targets"]) {
            const auto& acc = doc.root()["accessors"][t["POSITION"].get<int>()];
            CHECK(acc.contains("min"));
            CHECK(acc.contains("max"));
        }
    }
    SECTION("interpolation_test: STEP, LINEAR and CUBICSPLINE all kept") {
        const auto a = rigscope::read_gltf(corpus("khronos/interpolation_test.gltf"), {});
        const auto b = write_and_read(a, dir.file("interp.glb"));
        int counts[3] = {0, 0, 0};
        for (const auto& clip : b.clips)
            for (const auto& ch : clip.channels) ++counts[static_cast<int>(ch.interpolation)];
        CHECK(counts[0] > 0);
        CHECK(counts[1] > 0);
        CHECK(counts[2] > 0);
    }
}

TEST_CASE("write_glb of an FBX scene: polygons fan-triangulated, same deformation", "[gltf_writer]") {
    TempDir dir("rigscope_writer");
    const rigscope::Scene a = rigscope::load_scene(corpus("bend_cylinder/bend_cylinder.fbx"));
    const rigscope::Scene b = write_and_read(a, dir.file("fbx.glb"));
    REQUIRE(b.meshes.size() == a.meshes.size());
    for (std::size_t m = 0; m < a.meshes.size(); ++m) require_same_mesh(a, a.meshes[m], b, b.meshes[m]);
    require_same_motion(a, b);
}

TEST_CASE("write_glb writes a well-formed GLB", "[gltf_writer]") {
    TempDir dir("rigscope_writer");
    const auto scene = rigscope::read_gltf(corpus("bend_cylinder/bend_cylinder.glb"), {});
    write_and_read(scene, dir.file("w.glb"));
    const auto bytes = file_bytes(dir.file("w.glb"));
    REQUIRE(bytes.size() >= 28);
    CHECK(u32_at(bytes, 0) == 0x46546C67);
    CHECK(u32_at(bytes, 4) == 2);
    CHECK(u32_at(bytes, 8) == bytes.size());
    const std::uint32_t json_len = u32_at(bytes, 12);
    CHECK(json_len % 4 == 0);
    CHECK(u32_at(bytes, 16) == 0x4E4F534A);
    const std::size_t bin_at = 20 + json_len;
    REQUIRE(bin_at + 8 <= bytes.size());
    CHECK(u32_at(bytes, bin_at) % 4 == 0);
    CHECK(u32_at(bytes, bin_at + 4) == 0x004E4942);
    CHECK(bin_at + 8 + u32_at(bytes, bin_at) == bytes.size());

    rigscope::gltf::Document doc(dir.file("w.glb"), 1ull << 30);
    const auto& root = doc.root();
    CHECK(root["asset"]["generator"] == "rigscope");
    CHECK(root["asset"]["version"] == "2.0");
    for (const auto& view : root["bufferViews"]) CHECK(view.value("byteOffset", 0) % 4 == 0);
    const auto& prim = root["meshes"][0]["primitives"][0];
    const auto& pos = root["accessors"][prim["attributes"]["POSITION"].get<int>()];
    CHECK(pos.contains("min"));
    CHECK(pos.contains("max"));
    CHECK(prim["attributes"].contains("NORMAL"));
    CHECK(root["bufferViews"][pos["bufferView"].get<int>()]["target"] == 34962);
    CHECK(root["bufferViews"][root["accessors"][prim["indices"].get<int>()]["bufferView"].get<int>()]["target"] == 34963);
    // Normals are unit length.
    const auto normals = doc.read_floats(prim["attributes"]["NORMAL"].get<int>());
    for (std::size_t i = 0; i + 2 < normals.size(); i += 3)
        REQUIRE(std::sqrt(normals[i] * normals[i] + normals[i + 1] * normals[i + 1] + normals[i + 2] * normals[i + 2]) == Approx(1.0).margin(1e-5));
}

TEST_CASE("write_glb adds extra vertex attributes and refuses ones that do not fit", "[gltf_writer]") {
    TempDir dir("rigscope_writer");
    const auto scene = rigscope::read_gltf(corpus("bend_cylinder/bend_cylinder.glb"), {});
    const std::size_t n = scene.meshes[0].vertex_count();
    rigscope::VertexAttribute color{"COLOR_0", 3, {}}, tension{"_TENSION", 1, {}};
    for (std::size_t v = 0; v < n; ++v) {
        color.data.insert(color.data.end(), {float(v) / n, 0.5f, 1.0f - float(v) / n});
        tension.data.push_back(0.75f + float(v % 7) / 10);
    }
    write_and_read(scene, dir.file("attr.glb"), {{0, {color, tension}}});
    rigscope::gltf::Document doc(dir.file("attr.glb"), 1ull << 30);
    const auto& attrs = doc.root()["meshes"][0]["primitives"][0]["attributes"];
    int comps = 0;
    CHECK(doc.read_floats(attrs["COLOR_0"].get<int>(), &comps) == color.data);
    CHECK(comps == 3);
    CHECK(doc.read_floats(attrs["_TENSION"].get<int>(), &comps) == tension.data);
    CHECK(comps == 1);

    rigscope::OutputFile out(dir.file("bad.glb"));
    auto bad = [&](rigscope::VertexAttribute a, int mesh = 0) {
        // The input's fault (exit 3), never an internal error.
        try {
            rigscope::write_glb(scene, {{mesh, {a}}}, out);
            FAIL("write_glb accepted " << a.name);
        } catch (const rigscope::Error& e) {
            CHECK(e.code() == rigscope::kExitBadInput);
        }
    };
    bad({"COLOR_0", 3, std::vector<float>(n * 3 - 1, 0.5f)});  // too short
    bad({"COLOR_0", 2, std::vector<float>(n * 2, 0.5f)});      // colours have 3 or 4
    bad({"TENSION", 1, std::vector<float>(n, 1.0f)});          // custom names start with '_'
    bad({"_T", 1, std::vector<float>(n, NAN)});
    bad({"_T", 1, std::vector<float>(n, 1.0f)}, 7);            // no such mesh
}

// A scene the writer cannot hold (here a clip whose keys and values disagree, as a reader bug or
// a hand-made scene could give) is the input's fault: exit 3 naming the file, never an internal
// error (std::invalid_argument reached main as one).
TEST_CASE("write_glb blames the input for a scene it cannot write", "[gltf_writer]") {
    TempDir dir("rigscope_writer");
    auto scene = rigscope::read_gltf(corpus("bend_cylinder/bend_cylinder.glb"), {});
    REQUIRE(!scene.clips.empty());
    REQUIRE(!scene.clips[0].channels.empty());
    scene.clips[0].channels[0].values.pop_back();
    rigscope::OutputFile out(dir.file("bad.glb"));
    try {
        rigscope::write_glb(scene, {}, out);
        FAIL("write_glb accepted a channel with a missing value");
    } catch (const rigscope::Error& e) {
        CHECK(e.code() == rigscope::kExitBadInput);
        CHECK(std::string(e.what()).find(scene.source + ": cannot be written as glTF: clip '") == 0);
    }
}

// A scene as an FBX reader makes it: quads and a pentagon, more than four influences, two meshes
// on one node (one weights channel drives both), a mesh on no node and without faces.
TEST_CASE("write_glb handles what only FBX scenes have", "[gltf_writer]") {
    using namespace rigscope;
    Scene s;
    s.nodes.resize(7);
    const char* names[] = {"root", "bone", "geo", "lonely", "b4", "b5", "b6"};
    for (int i = 0; i < 7; ++i) s.nodes[i].name = names[i];
    s.nodes[0].children = {1, 2};
    s.nodes[1].parent = 0;
    s.nodes[1].children = {4, 5, 6};
    s.nodes[1].rest.translation = {0, 1, 0};
    s.nodes[2].parent = 0;
    s.nodes[2].rest.rotation = Eigen::Quaterniond(Eigen::AngleAxisd(0.3, Eigen::Vector3d::UnitY()));
    for (int i = 4; i < 7; ++i) {
        s.nodes[i].parent = 1;
        s.nodes[i].rest.translation = {0.1 * i, 0, 0};
    }
    Skin skin;
    skin.name = "skin";
    skin.joints = {0, 1, 4, 5, 6, 2};
    skin.inverse_bind.assign(6, Eigen::Matrix4d::Identity());
    skin.inverse_bind[1](1, 3) = -1;
    s.skins.push_back(skin);

    Mesh a;
    a.name = "polys";
    a.node = 2;
    a.skin = 0;
    for (int i = 0; i < 7; ++i) a.positions.emplace_back(std::cos(i * 0.9f), 0.1f * i, std::sin(i * 0.9f));
    a.face_indices = {0, 1, 2, 3, 2, 4, 5, 6, 0};  // a quad and a pentagon
    a.face_offsets = {0, 4, 9};
    a.influences.offsets = {0};
    for (int v = 0; v < 7; ++v) {
        const int k = 1 + v % 6;  // 1 to 6 influences, weakest first
        for (int j = 0; j < k; ++j) {
            a.influences.joints.push_back(static_cast<std::uint16_t>(j));
            a.influences.weights.push_back(float(j + 1) / float(k * (k + 1) / 2));
        }
        a.influences.offsets.push_back(static_cast<std::uint32_t>(a.influences.joints.size()));
    }
    MorphTarget up{"up", std::vector<Eigen::Vector3f>(7, Eigen::Vector3f(0, 0.5f, 0))};
    a.targets = {up};
    a.default_weights = {0.25f};
    Mesh b = a;  // a second mesh on the same node, unskinned, two targets
    b.name = "second";
    b.skin = -1;
    b.influences = Influences{};
    b.targets.push_back({"side", std::vector<Eigen::Vector3f>(7, Eigen::Vector3f(0.5f, 0, 0))});
    b.default_weights = {0.0f, 0.5f};
    Mesh c = b;
    c.name = "nowhere";
    c.node = -1;
    c.targets.clear();
    c.default_weights.clear();
    c.face_indices.clear();  // a point cloud: no faces, every vertex still written
    c.face_offsets = {0};
    s.meshes = {a, b, c};
    s.nodes[2].mesh = 0;

    Clip clip;
    clip.name = "act";
    Channel w;
    w.node = 2;
    w.path = ChannelPath::Weights;
    w.width = 1;
    w.times = {0.0f, 1.0f, 1.0f, 2.0f};  // a repeated time, as FBX bakes produce
    w.values = {0.0f, 0.3f, 0.6f, 1.0f};
    Channel r;
    r.node = 1;
    r.path = ChannelPath::Rotation;
    r.interpolation = Interpolation::Step;
    r.width = 4;
    r.times = {0.0f, 2.0f};
    r.values = {0, 0, 0, 2, 0, 0.7071068f, 0, 0.7071068f};  // the first is not normalised
    clip.channels = {w, r};
    clip.end = 2.0;
    s.clips = {clip};

    TempDir dir("rigscope_writer");
    const Scene back = write_and_read(s, dir.file("fbxlike.glb"));
    REQUIRE(back.nodes.size() == 9);  // + a child of "geo" for "second", a root for "nowhere"
    CHECK(back.nodes[7].parent == 2);
    CHECK(back.nodes[8].parent == -1);
    REQUIRE(back.meshes.size() == 3);
    CHECK(back.meshes[0].node == 2);
    CHECK(back.meshes[1].node == 7);
    CHECK(back.meshes[2].node == 8);
    CHECK(back.skins.size() == 1);
    for (int m = 0; m < 3; ++m) require_same_mesh(s, s.meshes[m], back, back.meshes[m]);
    // 6 influences: JOINTS_1 / WEIGHTS_1 were written; the strongest four lead.
    rigscope::gltf::Document doc(dir.file("fbxlike.glb"), 1ull << 30);
    CHECK(doc.root()["meshes"][0]["primitives"][0]["attributes"].contains("JOINTS_1"));

    // The weights channel drives both meshes of "geo", each with its own target count.
    REQUIRE(back.clips.size() == 1);
    int weights_channels = 0;
    for (const auto& ch : back.clips[0].channels) {
        if (ch.path != ChannelPath::Weights) continue;
        ++weights_channels;
        REQUIRE(ch.times.size() == 4);
        CHECK(ch.times[2] > ch.times[1]);
        CHECK(ch.times[2] - ch.times[1] < 1e-6f);
        if (ch.node == 7) CHECK(ch.values == std::vector<float>{0.0f, 0.5f, 0.3f, 0.5f, 0.6f, 0.5f, 1.0f, 0.5f});
    }
    CHECK(weights_channels == 2);
    for (double t : {0.5, 0.99, 1.01, 1.5, 2.0}) {
        Pose pa = rest_pose(s), pb = rest_pose(back);
        sample_pose(s, &s.clips[0], t, pa);
        sample_pose(back, &back.clips[0], t, pb);
        for (int m = 0; m < 3; ++m) {
            std::vector<Eigen::Vector3f> da, db;
            deform_mesh(s, m, pa, da);
            deform_mesh(back, m, pb, db);
            for (std::size_t v = 0; v < da.size(); ++v) REQUIRE((da[v] - db[v]).norm() < 1e-5f);
        }
    }
}
