// The Alembic writer (rigscope/io/alembic_output.h) at the sample level, read back by rigscope's
// reader: repeated samples stored once but every index reading its own points, names made valid
// and unique, consecutive frames on a uniform sampling and others on a list of times, the
// header frozen only when the archive is closed, no file at all when the run fails. What other
// programs read of the archives is tests/cli/alembic/alembic_writer.sh's (alembic3d, Blender).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "rigscope/core/error.h"
#include "rigscope/core/point_cache.h"
#include "rigscope/io/alembic_output.h"
#include "rigscope/io/load.h"
#include "temp_dir.h"

using namespace rigscope;

namespace {

// A quad and a triangle over five points: faces as rigscope holds them.
const std::vector<std::uint32_t> kOffsets{0, 4, 7};
const std::vector<std::uint32_t> kIndices{0, 1, 3, 2, 1, 4, 3};

std::vector<Eigen::Vector3f> pose(float k) {
    return {{0, 0, 0}, {1, 0, k}, {0, 1, 0}, {1, 1, k}, {2, 0.5f, 2 * k}};
}

AlembicMeshOut quad(const std::string& name) {
    AlembicMeshOut m;
    m.name = name;
    m.points = 5;
    m.face_offsets = &kOffsets;
    m.face_indices = &kIndices;
    return m;
}

std::string bytes(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
}

}  // namespace

TEST_CASE("alembic writer: repeated samples stored once, each index reads its own", "[alembic][alembic_writer]") {
    rigscope_test::TempDir dir("rigscope_abcw");
    const std::string path = dir.file("rep.abc");
    // Poses 0 0 1 1 1 2 0 2 at frames 1..8 of 24 fps: a hold at the start, a hold in the middle,
    // a pose coming back (written again: Alembic shares only the sample before, and the archive
    // shares the block by content).
    const std::vector<float> ks{0, 0, 1, 1, 1, 2, 0, 2};
    AlembicOptions opt;
    for (std::size_t i = 0; i < ks.size(); ++i) opt.times.push_back(double(i + 1) / 24);
    {
        OutputFile out(path);
        AlembicWriter w(out, {quad("a/b"), quad("a_b"), quad("a/b")}, opt);
        for (float k : ks)
            for (std::size_t m = 0; m < 3; ++m) w.points(m, pose(k + float(m)));
        w.close();
        out.commit();
    }
    const std::string b = bytes(path);
    REQUIRE(b.size() > 16);
    CHECK(b.compare(0, 8, std::string("Ogawa\xff\x00\x01", 8)) == 0);  // frozen: closed by its writer

    const Scene s = load_scene(path);
    REQUIRE(s.meshes.size() == 3);
    // '/' is not in Alembic's names; a name taken gets _2, in order.
    CHECK(s.meshes[0].name == "a_b");
    CHECK(s.meshes[1].name == "a_b_2");
    CHECK(s.meshes[2].name == "a_b_3");
    CHECK(s.fps == 24.0);
    for (std::size_t m = 0; m < 3; ++m) {
        const Mesh& mesh = s.meshes[m];
        // Written clockwise, read back reversed: the faces given.
        CHECK(mesh.face_offsets == kOffsets);
        CHECK(mesh.face_indices == kIndices);
        REQUIRE(mesh.cache);
        REQUIRE(mesh.cache->times().size() == ks.size());
        std::vector<Eigen::Vector3f> got(5);
        for (std::size_t i = 0; i < ks.size(); ++i) {
            CHECK(mesh.cache->times()[i] == Approx(double(i + 1) / 24).margin(1e-12));
            mesh.cache->read(i, got.data());
            CHECK(got == pose(ks[i] + float(m)));
        }
    }
    // Eight samples of three meshes, five distinct poses each (with the bounds): well under
    // eight a mesh's worth of points.
    CHECK(b.size() < 3 * 8 * 5 * 12 + 4000);
}

TEST_CASE("alembic writer: frames that skip keep their times in a list", "[alembic][alembic_writer]") {
    rigscope_test::TempDir dir("rigscope_abcw");
    const std::string path = dir.file("skip.abc");
    AlembicOptions opt;
    opt.fps = 24;
    opt.times = {1.0 / 24, 6.0 / 24, 11.0 / 24};
    {
        OutputFile out(path);
        AlembicWriter w(out, {quad("m")}, opt);
        for (int k = 0; k < 3; ++k) w.points(0, pose(float(k)));
        w.close();
        out.commit();
    }
    const Scene s = load_scene(path);
    REQUIRE(s.meshes.size() == 1);
    CHECK_FALSE(s.fps_from_file);  // no uniform sampling: no frame rate of its own (5/24 s would be 4.8 fps)
    REQUIRE(s.meshes[0].cache);
    CHECK(s.meshes[0].cache->times()[1] == Approx(6.0 / 24).margin(1e-12));
    CHECK(s.meshes[0].cache->times()[2] == Approx(11.0 / 24).margin(1e-12));
}

TEST_CASE("alembic writer: times that do not increase are refused and leave no file", "[alembic][alembic_writer]") {
    rigscope_test::TempDir dir("rigscope_abcw");
    const std::string path = dir.file("bad.abc");
    AlembicOptions opt;
    opt.times = {0.5, 0.25};
    try {
        OutputFile out(path);
        AlembicWriter w(out, {quad("m")}, opt);
        FAIL("not refused");
    } catch (const Error& e) {
        CHECK(e.code() == kExitUsage);
        CHECK_THAT(e.what(), Catch::Contains("sample times must increase"));
    }
    CHECK_FALSE(std::filesystem::exists(path));
    // Nor does a run that stops before close(): the temporary goes with the OutputFile.
    opt.times = {0.5};
    try {
        OutputFile out(path);
        AlembicWriter w(out, {quad("m")}, opt);
        w.points(0, pose(0));
        throw Error(kExitBadInput, "a failure mid-run");
    } catch (const Error&) {
    }
    CHECK_FALSE(std::filesystem::exists(path));
}

TEST_CASE("alembic writer: a Z-up file's points are turned onto Y-up", "[alembic][alembic_writer]") {
    rigscope_test::TempDir dir("rigscope_abcw");
    const std::string path = dir.file("z.abc");
    AlembicOptions opt;
    opt.times = {0.0};
    opt.up_axis = "Z";
    {
        OutputFile out(path);
        AlembicWriter w(out, {quad("m")}, opt);
        w.points(0, pose(1));
        w.close();
        out.commit();
    }
    const Scene s = load_scene(path);
    REQUIRE(s.meshes.size() == 1);
    // (x, y, z) -> (x, z, -y): point 4 (2, 0.5, 2) is at (2, 2, -0.5).
    CHECK(s.meshes[0].positions[4].isApprox(Eigen::Vector3f(2, 2, -0.5f)));
    CHECK(s.meshes[0].positions[1].isApprox(Eigen::Vector3f(1, 1, 0)));
}
