// The USD reader (src/io/usd) against OpenUSD:
// - Pixar's lbs.usda (UsdSkel's own linear-skinning test, ../shared/corpus/usd) against its
//   baseline lbs.baked.usda, the points UsdSkel.BakeSkinning wrote for each time code 1..30;
// - text layers: errors at line:column, refusals by name of what is not read.
// The crafted scenes against usd-core's BakeSkinning are in tests/cli/usd/usd_skel.sh (they need
// the usd-core venv).
//
// Tolerance: 1e-5 of each mesh's bounding-box diagonal, the issue's. The baseline's points are
// float32 as BakeSkinning computed them, printed to 8 significant digits; rigscope skins in float
// from double joint matrices: the two differ by float rounding (about 1e-7 of the size). A wrong
// rule (geomBindTransform left out, a joint mapped to the wrong index, the rest transform used
// where the animation speaks, a time code off by one) moves points by 1e-2 of the size or more.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>

#include "corpus.h"
#include "io/usd/usda_parser.h"
#include "io/usd/usd_values.h"
#include "rigscope/core/error.h"
#include "rigscope/core/frames.h"
#include "rigscope/core/point_cache.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/skin.h"
#include "rigscope/io/load.h"
#include "temp_dir.h"

using namespace rigscope;

namespace {

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::string error_of(const std::string& text, const std::string& name = "bad.usda") {
    rigscope_test::TempDir dir;
    const std::string path = dir.file(name);
    std::ofstream(path) << text;
    try {
        load_scene(path);
    } catch (const Error& e) {
        CHECK(e.code() == kExitBadInput);
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST_CASE("lbs.usda deforms as UsdSkel's baseline lbs.baked.usda at every time code", "[usd]") {
    const std::string input = test::corpus("usd/lbs.usda"), baseline = test::corpus("usd/lbs.baked.usda");
    const Scene scene = load_scene(input);
    CHECK(scene.format == "USD");
    CHECK(scene.fps == 24.0);
    CHECK(scene.unit_scale == 0.01);  // metersPerUnit unauthored: UsdGeom's fallback
    REQUIRE(scene.clips.size() == 1);
    const std::vector<Frame> frames = default_frames(&scene.clips[0], scene.fps);
    REQUIRE(frames.size() == 30);  // startTimeCode 1 .. endTimeCode 30
    CHECK(frames.front().number == 1);

    // The baseline's points, read as numbers (its Root is a plain Xform with no transform, and so
    // are the meshes: mesh space is world space).
    const usd::Layer baked = usd::parse_usda(baseline, slurp(baseline), 1ull << 30);
    REQUIRE(baked.roots.size() == 1);
    std::map<std::string, const usd::PropertySpec*> points;
    for (const auto& c : baked.roots[0]->children)
        if (c->type == "Mesh") points[c->name] = c->property("points");
    REQUIRE(points.size() == 3);  // Mesh, MeshWithFaceVaryingNormals, MeshWithNormals

    std::size_t compared = 0;
    for (std::size_t mi = 0; mi < scene.meshes.size(); ++mi) {
        const Mesh& mesh = scene.meshes[mi];
        INFO("mesh " << mesh.name);
        REQUIRE(points.count(mesh.name));
        REQUIRE(mesh.skin >= 0);
        for (const Frame& f : frames) {
            std::vector<double> want;
            int width = 0;
            REQUIRE(usd::numbers_at(*points[mesh.name], double(f.number), want, width));
            REQUIRE(want.size() == 3 * mesh.vertex_count());
            Eigen::Vector3d lo = Eigen::Vector3d::Constant(1e300), hi = -lo;
            for (std::size_t v = 0; v < mesh.vertex_count(); ++v) {
                Eigen::Vector3d p(want[3 * v], want[3 * v + 1], want[3 * v + 2]);
                lo = lo.cwiseMin(p * 0.01), hi = hi.cwiseMax(p * 0.01);
            }
            const double tolerance = 1e-5 * (hi - lo).norm();
            Pose pose;
            sample_pose(scene, &scene.clips[0], f.time, pose);
            std::vector<Eigen::Vector3f> got;
            deform_mesh(scene, int(mi), pose, got);
            double worst = 0;
            for (std::size_t v = 0; v < mesh.vertex_count(); ++v)
                worst = std::max(worst, (got[v].cast<double>() - Eigen::Vector3d(want[3 * v], want[3 * v + 1], want[3 * v + 2]) * 0.01).norm());
            INFO("time code " << f.number);
            CHECK(worst <= tolerance);
            ++compared;
        }
    }
    CHECK(compared == 90);
    // The Curves and the gprims (Sphere, Cube, Cylinder) are not meshes: named as skipped.
    bool named_sphere = false;
    for (const auto& w : scene.warnings)
        named_sphere = named_sphere || (w.kind == WarningKind::Skipped && w.message.find("/Root/Sphere is a Sphere") != std::string::npos);
    CHECK(named_sphere);
}

TEST_CASE("usda errors name the file and the line:column", "[usd]") {
    CHECK_THAT(error_of("#usda 1.0\n\ndef Xform \"A\" {\n    double3 xformOp:translate = (1, 2\n}\n"),
               Catch::Contains("bad.usda: 5:1: expected ')'"));
    CHECK_THAT(error_of("#usda 1.0\ndef Mesh \"M\" {\n  int[] a = [1, 2, \"x\"]\n}\n"),
               Catch::Contains("3:23: an array mixes elements"));
    CHECK_THAT(error_of("#usda 1.0\n(\n  upAxis = \"Y\"\n"), Catch::Contains("4:1: a metadata block is not closed"));
    CHECK_THAT(error_of("#usda 1.0\ndef Xform \"A\" {\n  string s = \"never closed\n}\n"),
               Catch::Contains("3:27: a string runs past the end of its line"));
    CHECK_THAT(error_of("#usda 2.0\n"), Catch::Contains("text layer version 2.0 is not read"));
    CHECK_THAT(error_of("#sdf 1.4.32\n"), Catch::Contains("not a USD file"));
}

TEST_CASE("usda: what is not composed is refused by name, with the command that flattens it", "[usd]") {
    const std::string flatten = "Usd.Stage.Open(";
    std::string e = error_of("#usda 1.0\ndef Xform \"A\" (\n  inherits = </C>\n) {}\n");
    CHECK_THAT(e, Catch::Contains("prim /A has inherits") && Catch::Contains(flatten));
    e = error_of("#usda 1.0\ndef Xform \"A\" (\n  specializes = </C>\n) {}\n");
    CHECK_THAT(e, Catch::Contains("prim /A has specializes") && Catch::Contains(flatten));
    e = error_of("#usda 1.0\ndef Xform \"A\" (\n  clips = { dictionary default = { asset[] assetPaths = [@c.usd@] } }\n) {}\n");
    CHECK_THAT(e, Catch::Contains("value clips") && Catch::Contains(flatten));

    e = error_of("#usda 1.1\ndef Xform \"A\" {\n  double a.spline = { 1: 0 }\n}\n");
    CHECK_THAT(e, Catch::Contains("spline"));
}

TEST_CASE("usda: counts and nesting are bounded", "[usd]") {
    // Nesting past the bound is refused, not recursed into.
    std::string deep = "#usda 1.0\ndef Xform \"A\" {\n  double[] a = " + std::string(100, '[') + "\n}\n";
    CHECK_THAT(error_of(deep), Catch::Contains("values nest deeper than"));
    // Indices past the points.
    CHECK_THAT(error_of("#usda 1.0\ndef Mesh \"M\" {\n  point3f[] points = [(0,0,0), (1,0,0), (0,1,0)]\n"
                        "  int[] faceVertexCounts = [3]\n  int[] faceVertexIndices = [0, 1, 7]\n}\n"),
               Catch::Contains("faceVertexIndices hold 7") && Catch::Contains("past its 3 points"));
    CHECK_THAT(error_of("#usda 1.0\ndef Mesh \"M\" {\n  point3f[] points = [(0,0,0), (1,0,0), (0,1,0)]\n"
                        "  int[] faceVertexCounts = [4]\n  int[] faceVertexIndices = [0, 1, 2]\n}\n"),
               Catch::Contains("faceVertexCounts do not add up"));
    // The memory budget: a layer whose values need more than --max-memory is refused.
    rigscope_test::TempDir dir;
    const std::string path = dir.file("big.usda");
    {
        std::ofstream out(path);
        out << "#usda 1.0\ndef Mesh \"M\" {\n  point3f[] points = [";
        for (int i = 0; i < 20000; ++i) out << "(1, 2, 3), ";
        out << "]\n}\n";
    }
    LoadOptions small;
    small.max_memory = 400000;  // the file is ~220 kB; its 60000 doubles need 480 kB more
    CHECK_THROWS_WITH(load_scene(path, small), Catch::Contains("the layer's values would take") && Catch::Contains("past the memory limit of 0.4 MiB"));
    // Within the default budget the same file passes the parser (and is refused later for having no faces).
    CHECK_THROWS_WITH(load_scene(path), !Catch::Contains("memory limit") && Catch::Contains("no faceVertexCounts"));
}

TEST_CASE("usda: time-sampled points are the mesh's point cache, linear between samples", "[usd]") {
    rigscope_test::TempDir dir;
    const std::string path = dir.file("cache.usda");
    std::ofstream(path) << "#usda 1.0\n(\n  metersPerUnit = 1\n  timeCodesPerSecond = 10\n)\n"
                           "def Mesh \"M\" {\n  int[] faceVertexCounts = [3]\n  int[] faceVertexIndices = [0, 1, 2]\n"
                           "  point3f[] points.timeSamples = {\n    2: [(0,0,0), (1,0,0), (0,1,0)],\n"
                           "    4: [(0,0,2), (1,0,4), (0,1,6)],\n  }\n}\n";
    const Scene scene = load_scene(path);
    REQUIRE(scene.meshes.size() == 1);
    const Mesh& m = scene.meshes[0];
    REQUIRE(m.cache);
    CHECK(m.cache->times() == std::vector<double>{0.2, 0.4});
    REQUIRE(scene.clips.size() == 1);
    CHECK(scene.clips[0].start == Approx(0.2));
    CHECK(scene.clips[0].end == Approx(0.4));
    std::vector<Eigen::Vector3f> out;
    CacheScratch scratch;
    cached_positions(m, 0.3, out, scratch);  // time code 3: halfway, as UsdAttribute::Get gives it
    REQUIRE(out.size() == 3);
    CHECK(out[2].z() == Approx(3.0f));
    cached_positions(m, 0.1, out, scratch);  // before the first sample: held
    CHECK(out[2].z() == Approx(0.0f));

    CHECK_THAT(error_of("#usda 1.0\ndef Mesh \"M\" {\n  int[] faceVertexCounts = [3]\n  int[] faceVertexIndices = [0, 1, 2]\n"
                        "  point3f[] points.timeSamples = {\n    1: [(0,0,0), (1,0,0), (0,1,0)],\n    6: None,\n  }\n}\n"),
               Catch::Contains("Mesh /M's points are blocked or hold no array at time code 6"));
}

TEST_CASE("usda: blend shapes' counts and indices are checked before use", "[usd]") {
    auto scene = [](const std::string& shape) {
        return "#usda 1.0\ndef SkelRoot \"R\" {\n  def Skeleton \"S\" {\n    uniform token[] joints = [\"a\"]\n"
               "    uniform matrix4d[] bindTransforms = [((1,0,0,0),(0,1,0,0),(0,0,1,0),(0,0,0,1))]\n"
               "    uniform matrix4d[] restTransforms = [((1,0,0,0),(0,1,0,0),(0,0,1,0),(0,0,0,1))]\n  }\n"
               "  def Mesh \"M\" (prepend apiSchemas = [\"SkelBindingAPI\"]) {\n"
               "    point3f[] points = [(0,0,0), (1,0,0), (0,1,0)]\n    int[] faceVertexCounts = [3]\n"
               "    int[] faceVertexIndices = [0, 1, 2]\n    rel skel:skeleton = </R/S>\n"
               "    uniform token[] skel:blendShapes = [\"k\"]\n    rel skel:blendShapeTargets = </R/M/K>\n"
               "    def BlendShape \"K\" {\n" + shape + "\n    }\n  }\n}\n";
    };
    CHECK_THAT(error_of(scene("      uniform vector3f[] offsets = [(1,0,0)]\n      uniform int[] pointIndices = [3]")),
               Catch::Contains("BlendShape /R/M/K's pointIndices hold 3") && Catch::Contains("past Mesh /R/M's 3 points"));
    CHECK_THAT(error_of(scene("      uniform vector3f[] offsets = [(1,0,0), (0,1,0)]\n      uniform int[] pointIndices = [2]")),
               Catch::Contains("BlendShape /R/M/K has 2 offsets for 1 pointIndices"));
    CHECK_THAT(error_of(scene("      uniform vector3f[] offsets = [(1,0,0)]")),
               Catch::Contains("BlendShape /R/M/K has 1 offsets for the mesh's 3 points"));
    // A good shape reads as a morph target of the mesh.
    rigscope_test::TempDir dir;
    const std::string path = dir.file("good.usda");
    std::ofstream(path) << scene("      uniform vector3f[] offsets = [(1,0,0)]\n      uniform int[] pointIndices = [2]");
    const Scene s = load_scene(path);
    REQUIRE(s.meshes.size() == 1);
    REQUIRE(s.meshes[0].targets.size() == 1);
    CHECK(s.meshes[0].targets[0].deltas[2].x() == Approx(0.01f));  // metersPerUnit's fallback 0.01
    CHECK(s.meshes[0].targets[0].deltas[0].norm() == 0.0f);
}
