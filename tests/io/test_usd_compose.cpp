// USD composition's refusals (src/io/usd/usd_compose.cpp, usd_layer_files.cpp): cycles of
// references and sublayers, paths outside the input's folder, missing files and prims, the depth
// bound, and a stage read from bytes alone. Each is one line naming the file and the problem.
// What composes, against usd-core, is tests/cli/usd/usd_compose.sh (it needs the usd-core venv).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>

#include "io/usd/usd_reader.h"
#include "rigscope/core/error.h"
#include "rigscope/io/load.h"
#include "temp_dir.h"

using namespace rigscope;

namespace {

// Writes the files (name -> text) into a fresh folder and loads the first named `root`.
struct Stage {
    rigscope_test::TempDir dir;
    std::string write(const std::string& name, const std::string& text) const {
        const std::string path = dir.file(name);
        std::ofstream(path) << text;
        return path;
    }
    std::string error_of(const std::string& root, const LoadOptions& options = {}) const {
        try {
            load_scene(dir.file(root), options);
        } catch (const Error& e) {
            CHECK(e.code() == kExitBadInput);
            const std::string what = e.what();
            CHECK(what.find('\n') == std::string::npos);  // one line
            return what;
        }
        return "(no error)";
    }
};

const std::string kMesh =
    "    def Mesh \"M\" {\n"
    "        point3f[] points = [(0,0,0), (1,0,0), (0,1,0)]\n"
    "        int[] faceVertexCounts = [3]\n"
    "        int[] faceVertexIndices = [0, 1, 2]\n"
    "    }\n";

}  // namespace

TEST_CASE("usd compose: a cycle of references is refused naming the files", "[usd]") {
    Stage s;
    s.write("a.usda", "#usda 1.0\ndef Xform \"A\" (\n    references = @b.usda@</B>\n) {\n}\n");
    s.write("b.usda", "#usda 1.0\ndef Xform \"B\" (\n    references = @a.usda@</A>\n) {\n}\n");
    const std::string e = s.error_of("a.usda");
    CHECK_THAT(e, Catch::Contains("a cycle of references") && Catch::Contains("a.usda</A> -> ") &&
                      Catch::Contains("b.usda</B> -> ") && Catch::EndsWith("a.usda</A>"));
    // Inside one layer, and a prim that references its own ancestor (it would nest without end).
    s.write("c.usda", "#usda 1.0\ndef \"A\" (\n    references = </B>\n) {\n}\ndef \"B\" (\n    references = </A>\n) {\n}\n");
    CHECK_THAT(s.error_of("c.usda"), Catch::Contains("c.usda: prim /A references <") && Catch::Contains("a cycle of references"));
    s.write("d.usda", "#usda 1.0\ndef \"A\" {\n    def \"C\" (\n        references = </A>\n    ) {\n    }\n}\n");
    CHECK_THAT(s.error_of("d.usda"), Catch::Contains("prim /A/C references </A>") && Catch::Contains("a cycle of references"));
}

TEST_CASE("usd compose: a cycle of sublayers is refused naming the files", "[usd]") {
    Stage s;
    s.write("a.usda", "#usda 1.0\n(\n    subLayers = [@b.usda@]\n)\n");
    s.write("b.usda", "#usda 1.0\n(\n    subLayers = [@./a.usda@]\n)\n");
    CHECK_THAT(s.error_of("a.usda"), Catch::Contains("a cycle of sublayers") && Catch::Contains("a.usda -> ") && Catch::Contains("b.usda -> "));
}

TEST_CASE("usd compose: a path outside the input's folder is refused unless --allow-outside-uris", "[usd]") {
    Stage s;
    std::filesystem::create_directories(s.dir.file("shot"));
    s.write("rig.usda", "#usda 1.0\ndef Xform \"Rig\" {\n" + kMesh + "}\n");
    s.write("shot/shot.usda", "#usda 1.0\ndef Xform \"Char\" (\n    references = @../rig.usda@</Rig>\n) {\n}\n");
    CHECK_THAT(s.error_of("shot/shot.usda"), Catch::Contains("shot.usda: prim /Char references @../rig.usda@</Rig>, which is absolute or leads "
                                                             "outside the input's folder") &&
                                                 Catch::Contains("--allow-outside-uris"));
    LoadOptions allow;
    allow.allow_outside_uris = true;
    CHECK(load_scene(s.dir.file("shot/shot.usda"), allow).meshes.size() == 1);
    // An absolute path, even to a file inside the folder.
    s.write("abs.usda", "#usda 1.0\ndef Xform \"Char\" (\n    references = @" + s.dir.file("rig.usda") + "@</Rig>\n) {\n}\n");
    CHECK_THAT(s.error_of("abs.usda"), Catch::Contains("is absolute or leads outside"));
    CHECK(load_scene(s.dir.file("abs.usda"), allow).meshes.size() == 1);
    // A sublayer is held to the same rule.
    s.write("shot/sub.usda", "#usda 1.0\n(\n    subLayers = [@../../elsewhere.usda@]\n)\n");
    CHECK_THAT(s.error_of("shot/sub.usda"), Catch::Contains("subLayers names @../../elsewhere.usda@, which is absolute or leads outside"));
}

TEST_CASE("usd compose: a missing file or prim is named", "[usd]") {
    Stage s;
    s.write("a.usda", "#usda 1.0\ndef Xform \"A\" (\n    prepend payload = @parts/gone.usda@\n) {\n}\n");
    CHECK_THAT(s.error_of("a.usda"), Catch::Contains("a.usda: prim /A has the payload @parts/gone.usda@, and ") &&
                                         Catch::Contains("parts/gone.usda does not exist"));
    s.write("nodefault.usda", "#usda 1.0\ndef Xform \"Rig\" {\n}\n");
    s.write("b.usda", "#usda 1.0\ndef Xform \"B\" (\n    references = @nodefault.usda@\n) {\n}\n");
    CHECK_THAT(s.error_of("b.usda"), Catch::Contains("b.usda: prim /B references @nodefault.usda@ names no prim") &&
                                         Catch::Contains("nodefault.usda has no defaultPrim"));
    // A parse error in a referenced file names that file and its line.
    s.write("broken.usda", "#usda 1.0\ndef Xform \"Rig\" {\n    double x = (1,\n}\n");
    s.write("c.usda", "#usda 1.0\ndef Xform \"C\" (\n    references = @broken.usda@</Rig>\n) {\n}\n");
    CHECK_THAT(s.error_of("c.usda"), Catch::Contains("broken.usda: 4:1:"));
}

TEST_CASE("usd compose: chains of references and sublayers are bounded", "[usd]") {
    Stage s;
    std::string text = "#usda 1.0\n";
    for (int i = 0; i < 80; ++i)
        text += "def \"P" + std::to_string(i) + "\" (\n    references = </P" + std::to_string(i + 1) + ">\n) {\n}\n";
    s.write("chain.usda", text);
    CHECK_THAT(s.error_of("chain.usda"), Catch::Contains("chain.usda: prim /P") && Catch::Contains("references nest deeper than 64 arcs"));
    for (int i = 0; i < 80; ++i)
        s.write("l" + std::to_string(i) + ".usda", "#usda 1.0\n(\n    subLayers = [@l" + std::to_string(i + 1) + ".usda@]\n)\n");
    CHECK_THAT(s.error_of("l0.usda"), Catch::Contains("sublayers nest deeper than 64 layers"));
    // Within the bounds the same chain composes: the last prim's mesh under every prim.
    text = "#usda 1.0\n";
    for (int i = 0; i < 10; ++i)
        text += "def Xform \"P" + std::to_string(i) + "\" (\n    references = </P" + std::to_string(i + 1) + ">\n) {\n}\n";
    text += "def Xform \"P10\" {\n" + kMesh + "}\n";
    s.write("short.usda", text);
    CHECK(load_scene(s.dir.file("short.usda")).meshes.size() == 11);
}

TEST_CASE("usd compose: each file is charged to the load's budget", "[usd]") {
    Stage s;
    std::string big = "#usda 1.0\ndef Mesh \"M\" {\n    point3f[] points = [";
    for (int i = 0; i < 20000; ++i) big += "(1, 2, 3), ";
    big += "]\n}\n";
    s.write("big.usda", big);  // ~220 kB of text, 480 kB of doubles as parsed
    s.write("root.usda", "#usda 1.0\ndef Xform \"A\" (\n    references = @big.usda@</M>\n) {\n}\n");
    LoadOptions small;
    // Too small for the referenced file itself: its parse (~0.7 MB: its text and doubles) is
    // refused, naming it.
    small.max_memory = 600000;
    CHECK_THAT(s.error_of("root.usda", small), Catch::Contains("big.usda: ") && Catch::Contains("past the memory limit"));
    // The composed prim shares the referenced layer's points (usd_numbers.h) rather than copying
    // them, so what the parse fits in composes too; before the sharing, the copy's 0.48 MB more
    // was refused at this limit.
    small.max_memory = 800000;
    CHECK_NOTHROW(load_scene(s.dir.file("root.usda"), small));
    // What composing does copy is charged: 3000 prims referencing the mesh each hold a copy of
    // its property (the value's own fields, a few hundred bytes), about 1 MB together.
    std::string many = "#usda 1.0\n";
    for (int i = 0; i < 3000; ++i) many += "def Xform \"A" + std::to_string(i) + "\" (\n    references = @big.usda@</M>\n) {\n}\n";
    s.write("many.usda", many);
    small.max_memory = 1500000;
    CHECK_THAT(s.error_of("many.usda", small), Catch::Contains("many.usda: the composed prims would take") && Catch::Contains("past the memory limit"));
    small.max_memory = 8000000;  // (Xform over Mesh: the prims compose, no mesh is built)
    CHECK_NOTHROW(load_scene(s.dir.file("many.usda"), small));
}

TEST_CASE("usd compose: a stage read from bytes alone reads no other file", "[usd]") {
    // The fuzz targets' path: internal references compose, another file is refused.
    const std::string internal = "#usda 1.0\ndef Xform \"P\" {\n" + kMesh + "}\ndef Xform \"A\" (\n    references = </P>\n) {\n}\n";
    CHECK(usd::scene_from_bytes("in.usda", internal, 1ull << 30).meshes.size() == 2);
    const std::string external = "#usda 1.0\ndef Xform \"A\" (\n    references = @other.usda@</P>\n) {\n}\n";
    CHECK_THROWS_WITH(usd::scene_from_bytes("in.usda", external, 1ull << 30),
                      Catch::Contains("in.usda: prim /A references @other.usda@</P>: another file, which rigscope does not read here"));
}

TEST_CASE("usd compose: opinions compose in USD's strength order", "[usd]") {
    // local over variant over reference; the stronger sublayer first; offsets on time samples.
    Stage s;
    s.write("ref.usda", "#usda 1.0\n(\n    defaultPrim = \"R\"\n)\ndef Xform \"R\" {\n"
                        "    double3 xformOp:translate = (1, 1, 1)\n    double3 xformOp:translate:b = (1, 1, 1)\n"
                        "    double3 xformOp:translate:c = (1, 1, 1)\n"
                        "    uniform token[] xformOpOrder = [\"xformOp:translate\", \"xformOp:translate:b\", \"xformOp:translate:c\"]\n" +
                        kMesh + "}\n");
    s.write("weak.usda", "#usda 1.0\ndef Xform \"T\" {\n    double3 xformOp:translate.timeSamples = { 0: (0, 0, 0), 4: (4, 0, 0) }\n"
                         "    uniform token[] xformOpOrder = [\"xformOp:translate\"]\n}\n");
    s.write("root.usda", "#usda 1.0\n(\n    metersPerUnit = 1\n    subLayers = [@weak.usda@ (offset = 10; scale = 0.5)]\n)\n"
                         "def Xform \"A\" (\n    variants = {\n        string v = \"x\"\n    }\n    prepend variantSets = \"v\"\n"
                         "    references = @ref.usda@\n) {\n    double3 xformOp:translate = (100, 0, 0)\n"
                         "    variantSet \"v\" = {\n        \"x\" {\n            double3 xformOp:translate = (0, 200, 0)\n"
                         "            double3 xformOp:translate:b = (0, 20, 0)\n        }\n    }\n}\n");
    const Scene scene = load_scene(s.dir.file("root.usda"));
    std::map<std::string, const Node*> nodes;
    for (const auto& n : scene.nodes) nodes[n.name] = &n;
    REQUIRE(nodes.count("A"));
    // translate from the prim (100, 0, 0), b from the variant (0, 20, 0), c from the reference.
    CHECK(nodes["A"]->rest.translation.isApprox(Eigen::Vector3d(101, 21, 1)));
    REQUIRE(scene.clips.size() == 1);
    // weak.usda's samples at 0 and 4 land at 10 and 12 time codes: 10/24 and 12/24 s.
    CHECK(scene.clips[0].start == Approx(10.0 / 24));
    CHECK(scene.clips[0].end == Approx(12.0 / 24));
}

TEST_CASE("usd compose: a variant set that variantSets does not list composes nothing, with a warning", "[usd]") {
    // usd-core composes no such variant (checked: the body's opinion is not the prim's).
    Stage s;
    s.write("v.usda", "#usda 1.0\n(\n    metersPerUnit = 1\n)\ndef Xform \"A\" (\n    variants = {\n        string v = \"x\"\n    }\n) {\n"
                      "    double3 xformOp:translate = (1, 0, 0)\n    uniform token[] xformOpOrder = [\"xformOp:translate\"]\n"
                      "    variantSet \"v\" = {\n        \"x\" {\n            double3 xformOp:translate = (5, 0, 0)\n        }\n    }\n" +
                          kMesh + "}\n");
    const Scene scene = load_scene(s.dir.file("v.usda"));
    const Node* a = nullptr;
    for (const auto& n : scene.nodes)
        if (n.name == "A") a = &n;
    REQUIRE(a);
    CHECK(a->rest.translation.isApprox(Eigen::Vector3d(1, 0, 0)));
    bool warned = false;
    for (const auto& w : scene.warnings)
        warned = warned || (w.kind == WarningKind::Skipped && w.message.find("variant set v, which its variantSets metadata does not list") != std::string::npos);
    CHECK(warned);
}
