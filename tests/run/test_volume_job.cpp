// The volume job (run/volume_job.h): its validate() cases first, then what run_volume returns on
// bend_cylinder against the divergence theorem summed here over the file's faces (the job's
// positions are deform_mesh's; the sums are not the product's), and its refusals.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <string>

#include "corpus.h"
#include "refusal.h"
#include "rigscope/core/error.h"
#include "rigscope/core/skin.h"
#include "rigscope/run/volume_job.h"

using namespace rigscope;
using rigscope_test::refusal;

TEST_CASE("volume job: validate() refuses what cannot make the run asked for", "[volume][job]") {
    VolumeJobOptions o;
    CHECK(refusal(o).empty());
    o.format = "json";
    CHECK(refusal(o).empty());
    {
        VolumeJobOptions b = o;
        b.format = "gltf";
        CHECK_THAT(refusal(b), Catch::Contains("volume writes json or csv, not gltf"));
    }
    {
        VolumeJobOptions b = o;
        b.input.chunk = "0/2";  // chunks join row by row (merge)
        CHECK(refusal(b).empty());
    }
}

namespace {

// The closed mesh's volume by hand: each face a fan from its first corner, (1/6) sum p0.(p1 x p2).
double volume_by_hand(const Mesh& m, const std::vector<Eigen::Vector3f>& p) {
    double v = 0;
    for (std::size_t f = 0; f + 1 < m.face_offsets.size(); ++f)
        for (std::uint32_t k = m.face_offsets[f] + 1; k + 1 < m.face_offsets[f + 1]; ++k) {
            const Eigen::Vector3d a = p[m.face_indices[m.face_offsets[f]]].cast<double>();
            const Eigen::Vector3d b = p[m.face_indices[k]].cast<double>(), c = p[m.face_indices[k + 1]].cast<double>();
            v += a.dot(b.cross(c)) / 6;
        }
    return v;
}

}  // namespace

TEST_CASE("volume job: bend_cylinder's volume per frame is the divergence theorem's, its ratios the bind's", "[volume][job][corpus]") {
    VolumeJobOptions o;
    o.input.file = test::corpus("bend_cylinder/bend_cylinder.glb");
    o.input.frames = "bind,1..91:30";
    o.input.threads = 1;
    const VolumeJobLoaded l = load_and_run_volume(o);
    const VolumeJobResult& r = l.result;
    REQUIRE(r.meshes.size() == 1);
    REQUIRE(r.meshes[0].closure.closed);
    REQUIRE(r.columns.size() == 3);  // '*', Bone, Bone.001
    CHECK(r.region_name(0) == "*");
    CHECK(r.region_name(1) == "Bone");
    CHECK(r.region_name(2) == "Bone.001");
    CHECK(r.frames == 5);
    const Mesh& mesh = l.input.scene.meshes[0];
    Pose pose = bind_pose(l.input.scene);
    std::vector<Eigen::Vector3f> p;
    deform_mesh(l.input.scene, 0, pose, p);
    const double bind = volume_by_hand(mesh, p);
    for (std::size_t fi = 0; fi < r.frames; ++fi) {
        pose_at(l.input, l.input.frames[fi], pose);
        deform_mesh(l.input.scene, 0, pose, p);
        const double v = volume_by_hand(mesh, p);
        CHECK(r.volume(fi, 0) == Approx(v).epsilon(1e-9));
        CHECK(r.ratio(fi, 0) == Approx(v / bind).epsilon(1e-9));
    }
    for (std::size_t c = 0; c < 3; ++c) CHECK(r.ratio(0, c) == 1.0);  // the bind frame
    CHECK(r.ratio(4, 0) < 0.7);  // frame 91: the bend has lost a third
    // Any thread count: the same bits.
    VolumeJobOptions t = o;
    t.input.threads = 3;
    const VolumeJobResult r3 = run_volume(t, l.input);
    REQUIRE(r3.volumes.size() == r.volumes.size());
    CHECK(std::memcmp(r3.volumes.data(), r.volumes.data(), r.volumes.size() * sizeof(double)) == 0);
}

TEST_CASE("volume job: no output over an input", "[volume][job][corpus]") {
    VolumeJobOptions o;
    o.input.file = test::corpus("bend_cylinder/bend_cylinder.glb");
    o.input.frames = "1";
    o.out = o.input.file;
    try {
        load_and_run_volume(o);
        FAIL("no refusal");
    } catch (const Error& e) {
        CHECK(e.code() == kExitUsage);
    }
}

TEST_CASE("volume job: what the run holds is checked against --max-memory before it is made", "[volume][job][corpus]") {
    VolumeJobOptions o;
    o.input.file = test::corpus("bend_cylinder/bend_cylinder.glb");
    o.input.frames = "1..91";
    Input in = load_input(o.input);
    // The loaded scene fits; the job's arrays on top of it (a few hundred KB) do not.
    in.max_memory = 4096;
    try {
        run_volume(o, in);
        FAIL("no refusal");
    } catch (const Error& e) {
        CHECK(e.code() == kExitBadInput);
        CHECK_THAT(e.what(), Catch::Contains("volume would hold about"));
        CHECK_THAT(e.what(), Catch::Contains("--max-memory"));
    }
}
