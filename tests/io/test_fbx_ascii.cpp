// ASCII FBX through the tokenizer (src/io/fbx/fbx_ascii_records.cpp): every corpus and crafted binary
// FBX, written as ASCII by scripts/fbx/fbx_write_ascii.py, must read exactly as its binary twin:
// the same nodes, meshes, vertex ids, skins, morph targets, takes, frames and values, bit for
// bit (no tolerance: the text holds each number so that it reads back as the same double, and
// everything above the records is one code path). And the tokenizer's own rules and guards.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "corpus.h"
#include "io/fbx/fbx_records.h"
#include "rigscope/core/error.h"
#include "rigscope/io/load.h"
#include "temp_dir.h"

using namespace rigscope;

namespace fs = std::filesystem;

namespace {

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

bool same_bits(const Eigen::Matrix4d& a, const Eigen::Matrix4d& b) { return std::memcmp(a.data(), b.data(), sizeof(double) * 16) == 0; }

bool same_bits(const Transform& a, const Transform& b) {
    return std::memcmp(a.translation.data(), b.translation.data(), 24) == 0 &&
           std::memcmp(a.rotation.coeffs().data(), b.rotation.coeffs().data(), 32) == 0 &&
           std::memcmp(a.scale.data(), b.scale.data(), 24) == 0;
}

void require_same(const Scene& bin, const Scene& asc) {
    CHECK(asc.format == bin.format);
    CHECK(asc.fps == bin.fps);
    CHECK(asc.fps_from_file == bin.fps_from_file);
    CHECK(asc.fps_note == bin.fps_note);
    CHECK(asc.unit_scale == bin.unit_scale);
    CHECK(asc.units_note == bin.units_note);
    CHECK(asc.up_axis == bin.up_axis);
    CHECK(asc.vertex_ids == bin.vertex_ids);
    CHECK(asc.warnings == bin.warnings);
    REQUIRE(asc.nodes.size() == bin.nodes.size());
    for (std::size_t i = 0; i < bin.nodes.size(); ++i) {
        INFO("node " << bin.nodes[i].name);
        CHECK(asc.nodes[i].name == bin.nodes[i].name);
        CHECK(asc.nodes[i].parent == bin.nodes[i].parent);
        CHECK(asc.nodes[i].children == bin.nodes[i].children);
        CHECK(asc.nodes[i].mesh == bin.nodes[i].mesh);
        CHECK(same_bits(asc.nodes[i].rest, bin.nodes[i].rest));
        CHECK(asc.nodes[i].inherit == bin.nodes[i].inherit);
    }
    REQUIRE(asc.meshes.size() == bin.meshes.size());
    for (std::size_t i = 0; i < bin.meshes.size(); ++i) {
        const Mesh &a = asc.meshes[i], &b = bin.meshes[i];
        INFO("mesh " << b.name);
        CHECK(a.name == b.name);
        CHECK(a.node == b.node);
        CHECK(a.skin == b.skin);
        CHECK(same_bits(a.positions, b.positions));
        CHECK(a.face_offsets == b.face_offsets);
        CHECK(a.face_indices == b.face_indices);
        CHECK(a.influences.offsets == b.influences.offsets);
        CHECK(a.influences.joints == b.influences.joints);
        CHECK(same_bits(a.influences.weights, b.influences.weights));
        REQUIRE(a.targets.size() == b.targets.size());
        for (std::size_t t = 0; t < b.targets.size(); ++t) {
            CHECK(a.targets[t].name == b.targets[t].name);
            CHECK(same_bits(a.targets[t].deltas, b.targets[t].deltas));
        }
        CHECK(same_bits(a.default_weights, b.default_weights));
        REQUIRE(a.channels.size() == b.channels.size());
        for (std::size_t c = 0; c < b.channels.size(); ++c) {
            CHECK(a.channels[c].name == b.channels[c].name);
            CHECK(a.channels[c].targets == b.channels[c].targets);
            CHECK(same_bits(a.channels[c].full, b.channels[c].full));
        }
    }
    REQUIRE(asc.skins.size() == bin.skins.size());
    for (std::size_t i = 0; i < bin.skins.size(); ++i) {
        CHECK(asc.skins[i].name == bin.skins[i].name);
        CHECK(asc.skins[i].joints == bin.skins[i].joints);
        REQUIRE(asc.skins[i].inverse_bind.size() == bin.skins[i].inverse_bind.size());
        for (std::size_t j = 0; j < bin.skins[i].inverse_bind.size(); ++j) CHECK(same_bits(asc.skins[i].inverse_bind[j], bin.skins[i].inverse_bind[j]));
    }
    REQUIRE(asc.clips.size() == bin.clips.size());
    for (std::size_t i = 0; i < bin.clips.size(); ++i) {
        const Clip &a = asc.clips[i], &b = bin.clips[i];
        INFO("clip " << b.name);
        CHECK(a.name == b.name);
        CHECK((a.start == b.start && a.end == b.end && a.has_take == b.has_take));
        CHECK((a.take_start == b.take_start && a.take_end == b.take_end && a.key_start == b.key_start && a.key_end == b.key_end));
        REQUIRE(a.channels.size() == b.channels.size());
        for (std::size_t c = 0; c < b.channels.size(); ++c) {
            CHECK(a.channels[c].node == b.channels[c].node);
            CHECK(a.channels[c].path == b.channels[c].path);
            CHECK(a.channels[c].interpolation == b.channels[c].interpolation);
            CHECK(a.channels[c].width == b.channels[c].width);
            CHECK(same_bits(a.channels[c].times, b.channels[c].times));
            CHECK(same_bits(a.channels[c].values, b.channels[c].values));
        }
    }
}

// The ASCII twin of a binary FBX, made by the project's writer.
std::string ascii_twin(const std::string& binary, const rigscope_test::TempDir& dir, const std::string& name) {
    const std::string out = dir.file(name + ".ascii.fbx");
    const std::string cmd = "python3 " + test::source_dir() + "/scripts/fbx/fbx_write_ascii.py '" + binary + "' '" + out + "'";
    REQUIRE(std::system(cmd.c_str()) == 0);
    std::ifstream in(out, std::ios::binary);
    std::string head(5, '\0');
    in.read(head.data(), 5);
    REQUIRE(head == "; FBX");
    return out;
}

std::string write_text(const rigscope_test::TempDir& dir, const std::string& text) {
    const std::string path = dir.file("case.fbx");
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

const char* kHead = "; FBX 7.4.0 project file\nFBXHeaderExtension:  {\n\tFBXVersion: 7400\n}\n";

std::string malformed(const std::string& body, std::uint64_t max_memory = 1ull << 30) {
    rigscope_test::TempDir dir("rigscope_fbx_ascii");
    try {
        fbx::read_records(write_text(dir, kHead + body), max_memory);
    } catch (const fbx::Malformed& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("ASCII FBX: every corpus and crafted binary FBX written as ASCII reads as its binary twin", "[fbx][ascii][corpus]") {
    const char* corpus_files[] = {"bend_cylinder/bend_cylinder.fbx", "joystick_face/joystick_face.fbx", "pab/arnaud.fbx", "pab/walk.fbx",
                                  "assimp/FBX/huesitos.fbx", "assimp/FBX/animation_with_skeleton.fbx", "assimp/FBX/spider.fbx"};
    std::vector<std::string> files;
    for (const char* f : corpus_files) files.push_back(test::corpus(f));
    // The DCCs' own binary exports (Blender's shape keys, 3ds Max's FBX 6 keys and time mode, Maya's
    // skins): their ASCII twins must read alike too. The ASCII ones are checked against the OBJs.
    for (const auto& e : fs::directory_iterator(test::corpus("ufbx_dcc")))
        if (e.path().extension() == ".fbx" && e.path().stem().string().find("_binary") != std::string::npos) files.push_back(e.path().string());
    // Every crafted case, the in-betweens, inherit types, time modes and weighted tangents among them.
    std::vector<std::string> cases;
    for (const auto& e : fs::directory_iterator(test::source_dir() + "/tests/fbx_cases"))
        if (e.path().extension() == ".fbx") cases.push_back(e.path().string());
    std::sort(cases.begin(), cases.end());
    REQUIRE(cases.size() >= 14);
    files.insert(files.end(), cases.begin(), cases.end());
    rigscope_test::TempDir dir("rigscope_fbx_ascii");
    for (std::size_t i = 0; i < files.size(); ++i) {
        SECTION(files[i]) {
            const Scene bin = load_scene(files[i]);
            const Scene asc = load_scene(ascii_twin(files[i], dir, std::to_string(i)));
            REQUIRE(!bin.nodes.empty());
            require_same(bin, asc);
        }
    }
}

TEST_CASE("ASCII FBX tokenizer: the record tree and the binary reader's types", "[fbx][ascii]") {
    rigscope_test::TempDir dir("rigscope_fbx_ascii");
    const std::string path = write_text(dir, std::string(kHead) +
                                                 "; a comment, \"quoted\" { not a block\n"
                                                 "Objects:  {\n"
                                                 "\tModel: 123, \"Model::Arm::L\", \"LimbNode\" {\n"
                                                 "\t\tP: \"a &quot;b&quot;\", -46186158000, 1.5e-3, T, , -0.0\n"
                                                 "\t}\n"
                                                 "\tAnimationCurve: 9, \"AnimCurve::\", \"\" {\n"
                                                 "\t\tKeyTime: *2 {\n\t\t\ta: 0,46186158000\n\t\t} \n"
                                                 "\t\tKeyValueFloat: *2 {\n a: 1,2.5 }\n"
                                                 "\t\tKeyAttrDataFloat: *2 {\n\t\t\ta: 1065353216,-1082130432\n\t\t} \n"
                                                 "\t\tEmpty: *0 {\n\t\t\ta: \n\t\t} \n"
                                                 "\t}\n}\n");
    const fbx::RecordFile file = fbx::read_records(path, 1ull << 30);
    CHECK(file.ascii);
    CHECK_FALSE(file.binary);
    CHECK(file.version == 7400);
    const fbx::Record* objects = file.section("Objects");
    REQUIRE(objects);
    REQUIRE(objects->children.size() == 2);
    const fbx::Record& model = objects->children[0];
    REQUIRE(model.props.size() == 3);
    CHECK(model.props[0].type == 'L');
    CHECK(model.props[0].integer == 123);
    CHECK(model.props[1].str() == std::string("Arm::L\0\1Model", 13));  // split at the first "::"
    CHECK(fbx::object_name(model.props[1]) == "Arm::L");
    const fbx::Record& p = model.children.at(0);
    REQUIRE(p.props.size() == 5);  // the empty value between two commas is no value
    CHECK(p.props[0].str() == "a \"b\"");
    CHECK((p.props[1].type == 'L' && p.props[1].integer == -46186158000));
    CHECK((p.props[2].type == 'D' && p.props[2].number == 1.5e-3));
    CHECK(p.props[3].type == 'C');
    CHECK((p.props[4].type == 'D' && std::signbit(p.props[4].number)));
    const fbx::Record& curve = objects->children[1];
    CHECK(fbx::object_name(curve.props[1]).empty());
    const fbx::Prop& times = curve.child("KeyTime")->props.at(0);
    CHECK(times.type == 'l');
    CHECK(fbx::as_doubles(times, 1 << 20) == std::vector<double>{0, 46186158000.0});
    const fbx::Prop& values = curve.child("KeyValueFloat")->props.at(0);
    CHECK(values.type == 'd');
    CHECK(fbx::as_doubles(values, 1 << 20) == std::vector<double>{1, 2.5});
    // 7.2 and later: the integers are the bits of floats.
    const fbx::Prop& data = curve.child("KeyAttrDataFloat")->props.at(0);
    CHECK(data.type == 'f');
    CHECK(fbx::as_doubles(data, 1 << 20) == std::vector<double>{1.0, -1.0});
    CHECK(curve.child("Empty")->props.at(0).count == 0);
}

TEST_CASE("ASCII FBX tokenizer: broken text and the limits are named refusals", "[fbx][ascii]") {
    CHECK_THAT(malformed("Objects:  {\n\tModel: 1\n"), Catch::Contains("'{' is not closed"));
    CHECK_THAT(malformed("}\n"), Catch::Contains("'}' closes nothing"));
    CHECK_THAT(malformed("Objects: \"abc\n"), Catch::Contains("quoted string is not closed"));
    CHECK_THAT(malformed("A: 1,\n"), Catch::Contains("value is missing after ','"));
    CHECK_THAT(malformed("1 2\n"), Catch::Contains("line 5: expected a record name"));
    CHECK_THAT(malformed("V: *3 {\n a: 1,2\n}\n"), Catch::Contains("array 'V' holds 2 elements, not the 3 it claims"));
    CHECK_THAT(malformed("V: *1 {\n a: 1,2\n}\n"), Catch::Contains("array 'V' holds more than its 1 elements"));
    CHECK_THAT(malformed("V: *2 {\n a: 1,x\n}\n"), Catch::Contains("expected a number, found 'x"));
    CHECK_THAT(malformed("V: *300000000 {\n a: 1\n}\n", 1 << 20), Catch::Contains("array 'V' (300000000 elements) would take 2289 MiB, past the memory limit of 1.0 MiB"));
    std::string deep;
    for (int i = 0; i < 70; ++i) deep += "A: {\n";
    CHECK_THAT(malformed(deep), Catch::Contains("ASCII FBX nested deeper than 64 levels"));
    // Records cost memory beyond their text: a file of empty records within the file-size limit
    // is refused by the record budget.
    std::string many;
    for (int i = 0; i < 20000; ++i) many += "A:\n";
    CHECK_THAT(malformed(many, 200000), Catch::Contains("past the memory limit"));
    CHECK(malformed(many, 1 << 26).empty());
}

TEST_CASE("ASCII FBX: the version is read and FBX before 7 refused naming it", "[fbx][ascii]") {
    rigscope_test::TempDir dir("rigscope_fbx_ascii");
    const std::string v5 = write_text(dir, "; FBX 5.0.0 project file\nObjects:  {\n}\n");
    try {
        load_scene(v5);
        FAIL("FBX 5 was read");
    } catch (const Error& e) {
        CHECK(e.code() == kExitBadInput);
        CHECK_THAT(std::string(e.what()), Catch::Contains("FBX 5.0 (version 5000) is older than FBX 6 and not read"));
    }
}
