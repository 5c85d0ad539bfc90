// The intersect job (run/intersect_job.h): its validate() cases first, then what run_intersect
// returns against a brute force over the deformed meshes (DeformEngine's positions, every face
// pair by tests/intersect_oracle.h), thread counts, and bad input (tests/cli/intersect runs the
// CLI).
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <set>
#include <tuple>

#include "corpus.h"
#include "intersect_oracle.h"
#include "refusal.h"
#include "rigscope/core/error.h"
#include "rigscope/run/check_job.h"
#include "rigscope/run/deform_engine.h"
#include "rigscope/run/intersect_job.h"
#include "temp_dir.h"

using namespace rigscope;
using rigscope_test::refusal;

TEST_CASE("intersect job: validate() refuses what cannot make the run asked for", "[intersect][job]") {
    IntersectJobOptions o;
    CHECK(refusal(o).empty());
    {
        IntersectJobOptions b = o;
        b.format = "gltf";
        CHECK_THAT(refusal(b), Catch::Contains("intersect writes json or csv, not gltf"));
        b.format = "csv";
        CHECK(refusal(b).empty());
    }
    {
        IntersectJobOptions b = o;
        b.input.chunk = "0/2";  // a part of the frames, merged by `rigscope merge` (tests/cli/intersect/intersect_farm.sh)
        CHECK(refusal(b).empty());
    }
}

namespace {

using Key = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t>;

// Every face pair of the one mesh at these positions, faces sharing a vertex position at the
// bind pose (the seams' split vertices) skipped, each tested over the fans from the first corner.
std::set<Key> brute_force(const Mesh& mesh, int m, const std::vector<Eigen::Vector3f>& x) {
    std::set<Key> out;
    using rigscope_test::V;
    auto corner = [&](std::uint32_t i) { return x[mesh.face_indices[i]].cast<double>(); };
    for (std::uint32_t fa = 0; fa < mesh.face_count(); ++fa)
        for (std::uint32_t fb = fa + 1; fb < mesh.face_count(); ++fb) {
            bool share = false;
            for (auto i = mesh.face_offsets[fa]; i < mesh.face_offsets[fa + 1]; ++i)
                for (auto k = mesh.face_offsets[fb]; k < mesh.face_offsets[fb + 1]; ++k)
                    share = share || mesh.positions[mesh.face_indices[i]] == mesh.positions[mesh.face_indices[k]];
            if (share) continue;
            bool hit = false;
            for (auto i = mesh.face_offsets[fa] + 1; i + 1 < mesh.face_offsets[fa + 1]; ++i)
                for (auto k = mesh.face_offsets[fb] + 1; k + 1 < mesh.face_offsets[fb + 1]; ++k) {
                    const V p[3] = {corner(mesh.face_offsets[fa]), corner(i), corner(i + 1)};
                    const V q[3] = {corner(mesh.face_offsets[fb]), corner(k), corner(k + 1)};
                    hit = hit || rigscope_test::brute_cross(p, q);
                }
            if (hit) out.insert({m, fa, m, fb});
        }
    return out;
}

}  // namespace

TEST_CASE("intersect job: the bend folding through itself, against a brute force of every face pair", "[intersect][job]") {
    IntersectJobOptions o;
    o.input.file = test::corpus("bend_cylinder/bend_cylinder.glb");
    o.input.frames = "60..66,91";
    const IntersectJobLoaded l = load_and_run_intersect(o);
    const Input& in = l.input;
    REQUIRE(l.result.frames.size() == 8);
    DeformEngine deform(in);
    std::size_t found = 0;
    for (std::size_t fi = 0; fi < in.frames.size(); ++fi) {
        deform.evaluate(fi);
        const std::set<Key> expected = brute_force(in.scene.meshes[in.meshes[0]], in.meshes[0], deform.positions(0));
        std::set<Key> got;
        for (const FacePair& p : l.result.frames[fi].pairs) got.insert({p.mesh_a, p.face_a, p.mesh_b, p.face_b});
        INFO("frame " << in.frames[fi].number);
        CHECK(got == expected);
        found += got.size();
    }
    CHECK(found > 50);  // the fold is there to find
    CHECK(l.result.frames[0].pairs.empty());  // frame 60: not yet folded through
    CHECK(l.result.worst_frame() == 7);
}

TEST_CASE("intersect job: the same pairs, joints and lengths on 1 and 2 threads", "[intersect][job]") {
    IntersectJobOptions o;
    o.input.file = test::corpus("bend_cylinder/bend_cylinder.glb");
    o.input.frames = "70..91:3";
    o.input.threads = 1;
    const IntersectJobResult one = load_and_run_intersect(o).result;
    o.input.threads = 2;
    const IntersectJobResult two = load_and_run_intersect(o).result;
    REQUIRE(one.frames.size() == two.frames.size());
    for (std::size_t i = 0; i < one.frames.size(); ++i) {
        REQUIRE(one.frames[i].pairs.size() == two.frames[i].pairs.size());
        CHECK(one.frames[i].length == two.frames[i].length);
        for (std::size_t k = 0; k < one.frames[i].pairs.size(); ++k) {
            const FacePair &a = one.frames[i].pairs[k], &b = two.frames[i].pairs[k];
            CHECK(std::tie(a.mesh_a, a.face_a, a.mesh_b, a.face_b, a.joint) == std::tie(b.mesh_a, b.face_a, b.mesh_b, b.face_b, b.joint));
        }
    }
}

TEST_CASE("intersect job: bad input is a one-line error naming the file and frame", "[intersect][job]") {
    Scene scene;
    scene.source = "made.glb";
    Mesh m;
    m.name = "sheet";
    m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    m.face_indices = {0, 1, 2};
    m.face_offsets = {0, 3};
    scene.meshes.push_back(m);
    scene.nodes.resize(1);
    scene.nodes[0].mesh = 0;
    scene.meshes[0].node = 0;
    IntersectJobOptions o;
    o.input.file = "made.glb";
    {
        Input in = input_from_scene(scene, o.input);
        const IntersectJobResult r = run_intersect(o, in);
        REQUIRE(r.frames.size() == 1);  // the bind pose
        CHECK(r.frames[0].pairs.empty());
    }
    scene.meshes[0].positions[1].x() = std::nanf("");
    {
        Input in = input_from_scene(scene, o.input);
        try {
            run_intersect(o, in);
            FAIL("no error");
        } catch (const Error& e) {
            CHECK(e.code() == kExitBadInput);
            CHECK(std::string(e.what()) == "made.glb: frame bind: mesh 'sheet': vertex 1's position is not finite");
        }
    }
    // A mesh without faces: nothing to cross, no error.
    scene.meshes[0].positions[1].x() = 1;
    scene.meshes[0].face_indices.clear();
    scene.meshes[0].face_offsets = {0};
    {
        Input in = input_from_scene(scene, o.input);
        CHECK(run_intersect(o, in).frames.at(0).pairs.empty());
    }
}

TEST_CASE("intersect job: the memory budget and an output over the input are refused before any frame", "[intersect][job]") {
    IntersectJobOptions o;
    o.input.file = test::corpus("bend_cylinder/bend_cylinder.glb");
    o.out = o.input.file;
    try {
        load_and_run_intersect(o);
        FAIL("no error");
    } catch (const Error& e) {
        CHECK(e.code() == kExitUsage);
    }
    // A made sheet of 200k triangles under a 1 MiB budget: the hierarchy would need several.
    Scene scene;
    scene.source = "big.glb";
    Mesh m;
    m.name = "sheet";
    const int n = 317;
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < n; ++k) m.positions.emplace_back(float(i), float(k), 0.f);
    for (int i = 0; i + 1 < n; ++i)
        for (int k = 0; k + 1 < n; ++k) {
            const std::uint32_t v = static_cast<std::uint32_t>(i * n + k);
            m.face_indices.insert(m.face_indices.end(), {v, v + 1, v + n + 1, v, v + n + 1, v + n});
            m.face_offsets.push_back(static_cast<std::uint32_t>(m.face_indices.size() - 3));
            m.face_offsets.push_back(static_cast<std::uint32_t>(m.face_indices.size()));
        }
    scene.meshes.push_back(m);
    scene.nodes.resize(1);
    scene.nodes[0].mesh = 0;
    scene.meshes[0].node = 0;
    IntersectJobOptions big;
    big.input.file = "big.glb";
    big.input.max_memory_mib = 1;
    Input in = input_from_scene(scene, big.input);
    try {
        run_intersect(big, in);
        FAIL("no error");
    } catch (const Error& e) {
        CHECK(e.code() == kExitBadInput);
        CHECK_THAT(std::string(e.what()), Catch::StartsWith("big.glb: intersect's face hierarchy would hold about"));
        CHECK_THAT(std::string(e.what()), Catch::Contains("--max-memory"));
    }
    big.input.max_memory_mib = 64;
    in.max_memory = 64ull << 20;
    CHECK(run_intersect(big, in).frames.at(0).pairs.empty());  // a flat sheet does not cross itself
}

TEST_CASE("check --max-intersections: validate() cases, then the verdict decided in the run layer", "[intersect][job][check]") {
    CheckJobOptions o;
    o.tension.input.file = test::corpus("bend_cylinder/bend_cylinder.glb");
    CHECK_THAT(refusal(o), Catch::Contains("--max-intersections"));  // no limit at all
    o.max_intersections = -1;
    CHECK_THAT(refusal(o), Catch::Contains("--max-intersections: must be 0 or more"));
    o.max_intersections = 0;
    CHECK(refusal(o).empty());
    {
        CheckJobOptions b = o;
        b.tension.input.chunk = "0/2";  // chunks record their frames' verdict; merge adds them up (intersect.sh)
        CHECK(refusal(b).empty());
    }
    // The worst frame by the intersect job's own count: a limit of its pairs passes, one less fails.
    IntersectJobOptions ij;
    ij.input = o.tension.input;
    const IntersectJobLoaded l = load_and_run_intersect(ij);
    const long worst = l.result.worst_frame();
    REQUIRE(worst >= 0);
    const std::size_t most = l.result.frames[static_cast<std::size_t>(worst)].pairs.size();
    REQUIRE(most > 0);
    o.max_intersections = static_cast<long>(most) - 1;
    const CheckJobResult fail = load_and_run_check(o);
    REQUIRE(fail.has_intersections);
    CHECK(fail.intersections.failed());
    CHECK(fail.outcome.failed);
    CHECK(fail.intersections.frame.number == l.input.frames[static_cast<std::size_t>(worst)].number);
    CHECK(fail.intersections.pairs == most);
    CHECK(fail.intersections.meshes == std::vector<std::string>{"Cylinder with itself"});
    CHECK_THAT(fail.outcome.junit, Catch::Contains("name=\"intersections: at most"));
    o.max_intersections = static_cast<long>(most);
    const CheckJobResult pass = load_and_run_check(o);
    CHECK_FALSE(pass.intersections.failed());
    CHECK_FALSE(pass.outcome.failed);
}
