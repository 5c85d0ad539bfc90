// A chunk's identity and spec (run/chunk_run.h, run/chunk_identity.cpp): computed from each
// chunkable job's options, so that the CLI and Python give one list for one run. tests/cli/merge/merge.sh
// and tests/python/test_mixed_chunks.py merge chunks of one run made by the two front ends.
#include <catch2/catch.hpp>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "rigscope/run/check_job.h"
#include "rigscope/run/chunk_run.h"
#include "rigscope/run/deform_job.h"
#include "rigscope/run/diff_job.h"
#include "rigscope/run/drive_job.h"
#include "rigscope/run/rivet_job.h"
#include "rigscope/run/tension_job.h"

using namespace rigscope;

namespace {

using Values = std::vector<std::string>;

// The values listed for `name`; fails the test when it is not listed exactly once.
Values values_of(const ChunkOptions& id, const std::string& name) {
    const Values* found = nullptr;
    int times = 0;
    for (const auto& [n, v] : id)
        if (n == name) {
            found = &v;
            ++times;
        }
    INFO(name);
    REQUIRE(times == 1);
    return *found;
}

bool lists(const ChunkOptions& id, const std::string& name) {
    for (const auto& o : id)
        if (o.first == name) return true;
    return false;
}

// Each change of one option, applied to the defaults, gives another identity: no option of the
// job is left out of it (the CLI's chunk runs check the names against its parse tree too).
template <typename Options>
void each_option_counts(const std::vector<std::pair<const char*, std::function<void(Options&)>>>& changes) {
    const ChunkOptions base = chunk_identity(Options{});
    for (const auto& [name, change] : changes) {
        Options o;
        change(o);
        INFO("changed " << name);
        CHECK(chunk_identity(o) != base);
    }
}

// What may differ between chunks of one run: the chunk, the outputs' names, the thread count.
template <typename Options>
void chunks_of_one_run_agree(Options o, const std::function<void(Options&)>& per_chunk) {
    const ChunkOptions first = chunk_identity(o);
    per_chunk(o);
    CHECK(chunk_identity(o) == first);
}

}  // namespace

TEST_CASE("chunk identity: tension lists every option by its CLI name, defaults too, numbers in shortest form", "[chunk][identity]") {
    TensionJobOptions o;
    o.tension.input.file = "a.glb";
    ChunkOptions id = chunk_identity(o);
    CHECK(values_of(id, "FILE") == Values{"a.glb"});
    CHECK(values_of(id, "--falloff") == Values{"1"});
    CHECK(values_of(id, "--stretch-area") == Values{"0.75"});
    CHECK(values_of(id, "--compress-area") == Values{"0.6"});
    CHECK(values_of(id, "--max-memory") == Values{"8192"});
    CHECK(values_of(id, "--rom") == Values{"false"});
    CHECK(values_of(id, "--weld") == Values{"on"});
    CHECK(values_of(id, "--format") == Values{"csv"});
    CHECK(values_of(id, "--color") == Values{"maps"});  // "" is maps: one run either way
    // Unset ("none") options are listed without a value.
    for (const char* none : {"--mesh", "--frames", "--clip", "--fps", "--animation", "--rig", "--reference", "--reference-match",
                             "--reference-scale", "--reference-frame", "--auto-range", "--vertices"})
        CHECK(values_of(id, none).empty());
    for (const char* never : {"--chunk", "--output", "--threads"}) CHECK_FALSE(lists(id, never));
    // A value is its number, whatever text it was parsed from: 0.5 and 0.50 are one run.
    o.tension.params.stretch_area = std::stod("0.50");
    o.tension.params.falloff = std::stod("2.000");
    o.auto_range = std::stod("95.0");
    id = chunk_identity(o);
    CHECK(values_of(id, "--stretch-area") == Values{"0.5"});
    CHECK(values_of(id, "--falloff") == Values{"2"});
    CHECK(values_of(id, "--auto-range") == Values{"95"});
    o.tension.params.stretch_area = 0.5;
    CHECK(chunk_identity(o) == id);
    o.color = "maps";
    CHECK(chunk_identity(o) == id);

    chunks_of_one_run_agree<TensionJobOptions>(o, [](TensionJobOptions& c) {
        c.tension.input.chunk = "1/4";
        c.out = "c_1.csv";
        c.tension.input.threads = 3;
    });
    each_option_counts<TensionJobOptions>({
        {"FILE", [](auto& c) { c.tension.input.file = "b.glb"; }},
        {"--mesh", [](auto& c) { c.tension.input.mesh = "0"; }},
        {"--max-memory", [](auto& c) { c.tension.input.max_memory_mib = 100; }},
        {"--allow-outside-uris", [](auto& c) { c.tension.input.allow_outside_uris = true; }},
        {"--frames", [](auto& c) { c.tension.input.frames = "1..9"; }},
        {"--clip", [](auto& c) { c.tension.input.clip = "walk"; }},
        {"--fps", [](auto& c) { c.tension.input.fps = 30; }},
        {"--animation", [](auto& c) { c.tension.input.animation = "walk.fbx"; }},
        {"--cache", [](auto& c) { c.tension.input.cache = "c.pc2"; }},
        {"--abc-unit", [](auto& c) { c.tension.input.abc_unit = "cm"; }},
        {"--retarget", [](auto& c) { c.tension.input.retarget = "full"; }},
        {"--rig", [](auto& c) { c.tension.input.rig = "r.json"; }},
        {"--rom", [](auto& c) { c.tension.input.rom = true; }},
        {"--rom-angle", [](auto& c) { c.tension.input.rom_options.angle_deg = 45; }},
        {"--rom-frames", [](auto& c) { c.tension.input.rom_options.frames_per_sweep = 8; }},
        {"--joints", [](auto& c) { c.tension.input.joints = "A"; }},
        {"--weld", [](auto& c) { c.tension.input.weld = "off"; }},
        {"--skinning", [](auto& c) { c.tension.input.skinning = "dq"; }},
        {"--reference", [](auto& c) { c.tension.reference = "n.obj"; }},
        {"--reference-match index, given", [](auto& c) { c.tension.reference_match = "index"; }},
        {"--reference-scale", [](auto& c) { c.tension.reference_scale = 0.01; }},
        {"--reference-tolerance", [](auto& c) { c.tension.reference_tolerance = 1e-3; }},
        {"--reference-frame", [](auto& c) { c.tension.reference_frame = 0; }},
        {"--falloff", [](auto& c) { c.tension.params.falloff = 2; }},
        {"--stretch-area", [](auto& c) { c.tension.params.stretch_area = 0.5; }},
        {"--compress-area", [](auto& c) { c.tension.params.compress_area = 0.5; }},
        {"--weight-limit", [](auto& c) { c.tension.params.weight_limit = 0.5; }},
        {"--smooth-k", [](auto& c) { c.tension.params.smooth_k = 0; }},
        {"--measure", [](auto& c) { c.tension.measure = "area"; }},
        {"--smooth", [](auto& c) { c.tension.smooth = 2; }},
        {"--smooth-weights", [](auto& c) { c.tension.smooth_weights = "cotan"; }},
        {"--vertices", [](auto& c) { c.vertices = "1,2"; }},
        {"--auto-range", [](auto& c) { c.auto_range = 100; }},
        {"--bake-max", [](auto& c) { c.bake_max = true; }},
        {"--bake-points", [](auto& c) { c.bake_points = true; }},
        {"--color", [](auto& c) { c.color = "t"; }},
        {"--format", [](auto& c) { c.format = "json"; }},
    });
}

TEST_CASE("chunk identity: check's limits, worst and page options, and the JUnit report is its output", "[chunk][identity]") {
    CheckJobOptions o;
    o.tension.input.file = "a.glb";
    o.max_stretch = std::stod("0.80");
    ChunkOptions id = chunk_identity(o);
    CHECK(values_of(id, "--max-stretch") == Values{"0.8"});
    CHECK(values_of(id, "--max-compress").empty());
    CHECK(values_of(id, "--worst") == Values{"10"});
    CHECK(values_of(id, "--lint") == Values{"false"});
    CHECK(values_of(id, "--falloff") == Values{"1"});  // the tension options, as tension's
    for (const char* never : {"--junit", "--json", "--html", "--threads"}) CHECK_FALSE(lists(id, never));
    chunks_of_one_run_agree<CheckJobOptions>(o, [](CheckJobOptions& c) {
        c.tension.input.chunk = "0/2";
        c.junit = "c_0.xml";
        c.html.out = "c_0.html";
        c.tension.input.threads = 1;
    });
    each_option_counts<CheckJobOptions>({
        {"--measure", [](auto& c) { c.tension.measure = "principal"; }},
        {"--max-stretch", [](auto& c) { c.max_stretch = 0.8; }},
        {"--max-compress", [](auto& c) { c.max_compress = 1.5; }},
        {"--max-lambda", [](auto& c) { c.max_lambda = 1.3; }},
        {"--min-lambda", [](auto& c) { c.min_lambda = 0.7; }},
        {"--worst", [](auto& c) { c.worst = 3; }},
        {"--max-size", [](auto& c) { c.html.max_mb = 10; }},
        {"--lint", [](auto& c) { c.lint = true; }},
    });
    o.junit = "c_0.xml";
    o.tension.input.chunk = "0/2";
    o.tension.reference = "n.obj";
    const ChunkSpec s = chunk_spec(o);
    CHECK(s.command == "check");
    CHECK(s.spec == "0/2");
    CHECK(s.output == "c_0.xml");
    CHECK(s.options == chunk_identity(o));
    CHECK(s.inputs == std::vector<std::pair<std::string, std::string>>{{"FILE", "a.glb"}, {"--reference", "n.obj"}});
    CHECK(s.refusal.empty());
}

TEST_CASE("chunk identity: diff lists OLD and NEW, pairing and limits, and -o is its output", "[chunk][identity]") {
    DiffJobOptions o;
    o.input.file = "old.glb";
    o.new_file = "new.fbx";
    o.format = "csv";
    o.max_displacement = std::stod("1e-5");
    ChunkOptions id = chunk_identity(o);
    CHECK(values_of(id, "FILE") == Values{"old.glb"});
    CHECK(values_of(id, "NEW") == Values{"new.fbx"});
    CHECK(values_of(id, "--max-displacement") == Values{"1e-05"});
    CHECK(values_of(id, "--match") == Values{"index"});
    CHECK(values_of(id, "--frame-offset").empty());
    for (const char* never : {"--output", "--junit", "--threads", "--against"}) CHECK_FALSE(lists(id, never));
    chunks_of_one_run_agree<DiffJobOptions>(o, [](DiffJobOptions& c) {
        c.input.chunk = "2/3";
        c.out = "c_2.csv";
        c.input.threads = 2;
    });
    each_option_counts<DiffJobOptions>({
        {"NEW", [](auto& c) { c.new_file = "b.fbx"; }},
        {"--weld", [](auto& c) { c.input.weld = "off"; }},
        {"--match", [](auto& c) { c.match = "position"; }},
        {"--match-tolerance", [](auto& c) { c.match_tolerance = 1e-4; }},
        {"--align", [](auto& c) { c.align = "start"; }},
        {"--frame-offset 0, given", [](auto& c) { c.frame_offset = 0; }},
        {"--max-displacement", [](auto& c) { c.max_displacement = 0; }},
        {"--max-t-change", [](auto& c) { c.max_t_change = 0.1; }},
        {"--worst", [](auto& c) { c.worst = 3; }},
        {"--format", [](auto& c) { c.format = "json"; }},
    });
    o.out = "c.csv";
    o.input.chunk = "0/2";
    ChunkSpec s = chunk_spec(o);
    CHECK(s.command == "diff");
    CHECK(s.output == "c.csv");
    CHECK(s.inputs == std::vector<std::pair<std::string, std::string>>{{"FILE", "old.glb"}, {"NEW", "new.fbx"}});
    CHECK(s.refusal.empty());
    o.format = "gltf";
    CHECK_THAT(chunk_spec(o).refusal, Catch::Contains("largest displacement over all frames"));
}

TEST_CASE("chunk identity: deform, drive and rivet list their own options, and only the input options they offer", "[chunk][identity]") {
    // deform and drive work on file vertices (no --weld); drive does not skin (no --skinning).
    CHECK_FALSE(lists(chunk_identity(DeformJobOptions{}), "--weld"));
    CHECK(values_of(chunk_identity(DeformJobOptions{}), "--skinning") == Values{"file"});
    CHECK(values_of(chunk_identity(DeformJobOptions{}), "--axes") == Values{"file"});
    CHECK_FALSE(lists(chunk_identity(DriveJobOptions{}), "--weld"));
    CHECK_FALSE(lists(chunk_identity(DriveJobOptions{}), "--skinning"));
    CHECK(values_of(chunk_identity(RivetJobOptions{}), "--weld") == Values{"on"});
    CHECK(values_of(chunk_identity(RivetJobOptions{}), "--bake") == Values{"false"});
    each_option_counts<DeformJobOptions>({
        {"--skinning", [](auto& c) { c.input.skinning = "linear"; }},
        {"--format", [](auto& c) { c.format = "json"; }},
        {"--axes", [](auto& c) { c.axes = "y-up"; }},
    });
    each_option_counts<DriveJobOptions>({
        {"--rig", [](auto& c) { c.input.rig = "r.json"; }},
        {"--format", [](auto& c) { c.format = "json"; }},
    });
    each_option_counts<RivetJobOptions>({
        {"--vertices", [](auto& c) { c.vertices = "1"; }},
        {"--joint", [](auto& c) { c.joint = "Bone"; }},
        {"--bake", [](auto& c) { c.bake = true; }},
        {"--format", [](auto& c) { c.format = "csv"; }},
        {"--max-fit-error", [](auto& c) { c.max_fit_error = std::stod("0.010"); }},
    });
    RivetJobOptions r;
    r.max_fit_error = std::stod("0.010");
    CHECK(values_of(chunk_identity(r), "--max-fit-error") == Values{"0.01"});
    chunks_of_one_run_agree<RivetJobOptions>(r, [](RivetJobOptions& c) {
        c.out = "c_1.csv";
        c.junit = "c_1.xml";
        c.input.chunk = "1/2";
    });

    DeformJobOptions d;
    d.input.file = "a.glb";
    d.input.animation = "walk.fbx";
    d.input.rig = "r.json";
    d.out = "d.csv";
    const ChunkSpec s = chunk_spec(d);
    CHECK(s.command == "deform");
    CHECK(s.output == "d.csv");
    CHECK(s.inputs == std::vector<std::pair<std::string, std::string>>{{"FILE", "a.glb"}, {"--animation", "walk.fbx"}, {"--rig", "r.json"}});
    CHECK(chunk_spec(RivetJobOptions{}).command == "rivet");
    DriveJobOptions g;
    CHECK(chunk_spec(g).refusal.empty());
    g.format = "gltf";
    CHECK_THAT(chunk_spec(g).refusal, Catch::Contains("bakes one animation over all frames"));
}

TEST_CASE("chunk spec: what a tension chunk cannot hold is refused, from the job's options", "[chunk][identity]") {
    TensionJobOptions o;
    CHECK(chunk_spec(o).refusal.empty());
    CHECK(chunk_spec(o).command == "tension");
    o.auto_range = 100;
    CHECK(chunk_spec(o).refusal.empty());  // CSV and JSON: merge applies the range
    o.format = "gltf";
    CHECK_THAT(chunk_spec(o).refusal, Catch::Contains("--auto-range colours glTF frames"));
    o.auto_range.reset();
    CHECK(chunk_spec(o).refusal.empty());
    o.bake_max = true;
    CHECK_THAT(chunk_spec(o).refusal, Catch::Contains("--bake-max"));
    // begin_chunk refuses it before a file is read or a record removed.
    o.out = "w.glb";
    o.tension.input.chunk = "0/2";
    try {
        begin_chunk(chunk_spec(o), "0");
        FAIL("begin_chunk accepted a refused chunk");
    } catch (const Error& e) {
        CHECK(e.code() == kExitUsage);
        CHECK_THAT(e.what(), Catch::Contains("--bake-max"));
    }
}
