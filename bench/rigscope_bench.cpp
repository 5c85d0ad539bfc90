// Timings of the per-frame kernels and of the whole per-frame pipeline of `tension`.
//
// The pipeline cases (prepare_all, frame, frame_all, frame_<measure>) run the run layer's steps,
// as the CLI does: load_input, prepare_tension, evaluate_tension_at. The kernel cases (load,
// topology, prepare, sample_pose, skin, skin_dq, deform_mesh, tension, tension_<measure>, csv_frame) call
// one core or io step alone: timing it in isolation is what they are for.
//
// Files: tube_262k.glb from RIGSCOPE_BENCH_DIR (default ../shared/bench beside the project
// root), cesium_man.gltf from RIGSCOPE_CORPUS (default ../shared/corpus). items_per_second is
// vertex-frames per second: comparable with numpy_baseline.py's Mvert-frames/s (scripts/bench.sh
// prints the ratio). Threaded cases report wall time (UseRealTime).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>

#include "rigscope/core/huge_pages.h"
#include "rigscope/core/parallel.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/skin.h"
#include "rigscope/core/tension_map.h"
#include "rigscope/io/load.h"
#include "rigscope/io/output.h"
#include "rigscope/io/tension_output.h"
#include "rigscope/run/input.h"
#include "rigscope/run/lint_checks.h"
#include "rigscope/run/tension_run.h"

using namespace rigscope;

namespace {

std::string env_or(const char* name, const std::string& fallback) {
    const char* v = std::getenv(name);
    return v && *v ? v : fallback;
}

std::string bench_file(const std::string& key) {
    if (key == "tube") return env_or("RIGSCOPE_BENCH_DIR", std::string(RIGSCOPE_SOURCE_DIR) + "/../shared/bench") + "/tube_262k.glb";
    if (key == "tube_4m") return env_or("RIGSCOPE_BENCH_TUBE_4M", "");
    return env_or("RIGSCOPE_CORPUS", std::string(RIGSCOPE_SOURCE_DIR) + "/../shared/corpus") + "/khronos/cesium_man.gltf";
}

// A file loaded and prepared as `rigscope tension FILE` does it (load_input, prepare_tension), and
// the same state for its first skinned mesh alone, made once.
struct Fixture {
    TensionOptions opt;
    Input in;
    int mesh = 0;                    // the first skinned mesh
    std::vector<MeshTension> first;  // that mesh alone, as `--mesh` selects it
    std::vector<MeshTension> all;    // every mesh, as `rigscope tension` evaluates them
    std::size_t vertices = 0;
    std::size_t all_vertices = 0;

    const Scene& scene() const { return in.scene; }
    double frame_time(std::int64_t i) const {
        if (!in.has_clip) return 0;
        return in.clip.start + (in.clip.end - in.clip.start) * static_cast<double>(i % 24) / 23.0;
    }
    // 24 times spread over the clip, ends included; the number is only a label.
    Frame frame(std::int64_t i) const { return in.has_clip ? Frame{false, i % 24, frame_time(i)} : Frame{true, 0, 0.0}; }
    const Clip* clip() const { return in.clip_ptr(); }

    // prepare_tension over the first skinned mesh alone.
    std::vector<MeshTension> prepare_first(const TensionOptions& o) {
        const std::vector<int> selected = in.meshes;
        in.meshes = {mesh};
        std::vector<MeshTension> out = prepare_tension(in, o);
        in.meshes = selected;
        return out;
    }

    // The first skinned mesh prepared for a measure (--measure, --smooth), made on first use.
    std::map<std::string, std::vector<MeshTension>> measured;
    std::vector<MeshTension>& with(const std::string& name, const TensionOptions& o) {
        auto& mt = measured[name];
        if (mt.empty()) {
            mt = prepare_first(o);
            // principal_sse: the principal kernel's SSE path where the CPU would take AVX2.
            if (name == "principal_sse") mt.front().principal_kernel.avx2 = false;
        }
        return mt;
    }
};

// The measure cases: edge (the default, as `tension`/`frame`), area, principal, and principal
// with --smooth 5 (uniform, as the default weights); principal_sse is principal on its SSE path.
TensionOptions measure_named(TensionOptions o, const std::string& n) {
    if (n == "area") o.measure = "area";
    if (n.rfind("principal", 0) == 0) o.measure = "principal";
    if (n == "principal_smooth5") o.smooth = 5;
    return o;
}

Fixture& fixture(const std::string& key) {
    static std::map<std::string, std::unique_ptr<Fixture>> cache;
    auto& f = cache[key];
    if (!f) {
        f = std::make_unique<Fixture>();
        f->opt.input.file = bench_file(key);
        f->in = load_input(f->opt.input);
        for (std::size_t m = 0; m < f->in.scene.meshes.size(); ++m)
            if (f->in.scene.meshes[m].skin >= 0) {
                f->mesh = static_cast<int>(m);
                break;
            }
        f->first = f->prepare_first(f->opt);
        f->vertices = f->in.scene.meshes[f->mesh].vertex_count();
        f->all = prepare_tension(f->in, f->opt);
        for (int m : f->in.meshes) f->all_vertices += f->in.scene.meshes[m].vertex_count();
    }
    return *f;
}

// Bytes the plain scene model holds: the yardstick for peak memory.
std::size_t scene_bytes(const Scene& s) {
    std::size_t b = 0;
    for (const Mesh& m : s.meshes) {
        b += m.positions.size() * sizeof(Eigen::Vector3f) + (m.face_offsets.size() + m.face_indices.size()) * 4;
        b += m.influences.offsets.size() * 4 + m.influences.joints.size() * 2 + m.influences.weights.size() * 4;
        for (const MorphTarget& t : m.targets) b += t.deltas.size() * sizeof(Eigen::Vector3f);
    }
    for (const Clip& c : s.clips)
        for (const Channel& ch : c.channels) b += (ch.times.size() + ch.values.size()) * 4;
    return b;
}

void BM_Load(benchmark::State& state, std::string key) {
    const std::string path = bench_file(key);
    std::size_t bytes = 0;
    for (auto _ : state) {
        Scene s = load_scene(path);
        bytes = scene_bytes(s);
        benchmark::DoNotOptimize(s.meshes.data());
    }
    state.counters["scene_MB"] = static_cast<double>(bytes) / 1e6;
}

void BM_Topology(benchmark::State& state, std::string key) {
    Fixture& f = fixture(key);
    for (auto _ : state) benchmark::DoNotOptimize(build_topology(f.scene().meshes[f.mesh]));
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(f.vertices));
    state.counters["vertices"] = static_cast<double>(f.vertices);
}

// Topology, regrouped layouts and rest lengths: what a tension run does once per mesh. The
// MeshTension constructor alone, rest lengths from the file's positions (a kernel case).
void BM_Prepare(benchmark::State& state, std::string key) {
    Fixture& f = fixture(key);
    for (auto _ : state) {
        MeshTension mt(f.scene(), f.mesh, true, f.scene().meshes[f.mesh].positions);
        benchmark::DoNotOptimize(mt.rest_lengths.data());
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(f.vertices));
    state.counters["vertices"] = static_cast<double>(f.vertices);
}

// The same for every mesh of the file, rest positions from the bind pose: the setup
// `rigscope tension` does once per run (prepare_tension), counted with load and frames as the
// run's compute.
void BM_PrepareAll(benchmark::State& state, std::string key) {
    Fixture& f = fixture(key);
    for (auto _ : state) {
        std::vector<MeshTension> meshes = prepare_tension(f.in, f.opt);
        benchmark::DoNotOptimize(meshes.back().rest_lengths.data());
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(f.all_vertices));
    state.counters["vertices"] = static_cast<double>(f.all_vertices);
}

void BM_SamplePose(benchmark::State& state, std::string key) {
    Fixture& f = fixture(key);
    Pose pose = rest_pose(f.scene());
    std::int64_t i = 0;
    for (auto _ : state) {
        sample_pose(f.scene(), f.clip(), f.frame_time(i++), pose);
        benchmark::DoNotOptimize(pose.world.data());
    }
}

void BM_Skin(benchmark::State& state, std::string key) {
    Fixture& f = fixture(key);
    ThreadPool pool(static_cast<unsigned>(state.range(0)));
    Pose pose = rest_pose(f.scene());
    MeshDeformer deformer(f.scene(), f.mesh);
    std::vector<Eigen::Vector3f> out;
    std::int64_t i = 0;
    for (auto _ : state) {
        state.PauseTiming();
        sample_pose(f.scene(), f.clip(), f.frame_time(i++), pose);
        state.ResumeTiming();
        deformer.deform(f.scene(), pose, out, &pool);
        benchmark::DoNotOptimize(out.data());
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(f.vertices));
    state.counters["vertices"] = static_cast<double>(f.vertices);
}

// BM_Skin on the same mesh with its skin's method set to dual quaternion (issue 31: at most 1.5x
// the linear skin per frame). The scene is copied once, outside the timing.
void BM_SkinDq(benchmark::State& state, std::string key) {
    Fixture& f = fixture(key);
    static std::map<std::string, std::unique_ptr<Scene>> dq_scenes;
    auto& scene = dq_scenes[key];
    if (!scene) {
        scene = std::make_unique<Scene>(f.scene());
        for (Skin& skin : scene->skins) skin.method = SkinningMethod::DualQuaternion;
    }
    ThreadPool pool(static_cast<unsigned>(state.range(0)));
    Pose pose = rest_pose(*scene);
    MeshDeformer deformer(*scene, f.mesh);
    std::vector<Eigen::Vector3f> out;
    std::int64_t i = 0;
    for (auto _ : state) {
        state.PauseTiming();
        sample_pose(*scene, f.clip(), f.frame_time(i++), pose);
        state.ResumeTiming();
        deformer.deform(*scene, pose, out, &pool);
        benchmark::DoNotOptimize(out.data());
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(f.vertices));
    state.counters["vertices"] = static_cast<double>(f.vertices);
}

// The first version of the kernel's contract, for comparison: deform_mesh from the file's rows.
void BM_DeformMesh(benchmark::State& state, std::string key) {
    Fixture& f = fixture(key);
    Pose pose = rest_pose(f.scene());
    sample_pose(f.scene(), f.clip(), f.frame_time(12), pose);
    std::vector<Eigen::Vector3f> out;
    for (auto _ : state) {
        deform_mesh(f.scene(), f.mesh, pose, out);
        benchmark::DoNotOptimize(out.data());
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(f.vertices));
    state.counters["vertices"] = static_cast<double>(f.vertices);
}

void BM_Tension(benchmark::State& state, std::string key) {
    Fixture& f = fixture(key);
    ThreadPool pool(static_cast<unsigned>(state.range(0)));
    Pose pose = rest_pose(f.scene());
    sample_pose(f.scene(), f.clip(), f.frame_time(12), pose);
    std::vector<Eigen::Vector3f> deformed;
    deform_mesh(f.scene(), f.mesh, pose, deformed);
    MeshTension& mt = f.first.front();
    for (auto _ : state) {
        mt.evaluate_positions(deformed, &pool);
        benchmark::DoNotOptimize(mt.t.data());
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(f.vertices));
    state.counters["vertices"] = static_cast<double>(f.vertices);
}

// One frame of `tension` for one mesh: sample the clip, pose, skin, T. The figure that compares
// with numpy_baseline.py and Blender.
void BM_Frame(benchmark::State& state, std::string key) {
    Fixture& f = fixture(key);
    ThreadPool pool(static_cast<unsigned>(state.range(0)));
    Pose pose = rest_pose(f.scene());
    std::int64_t i = 0;
    for (auto _ : state) {
        evaluate_tension_at(f.in, f.first, f.frame(i++), pose, &pool);
        benchmark::DoNotOptimize(f.first.front().t.data());
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(f.vertices));
    state.counters["vertices"] = static_cast<double>(f.vertices);
}

// BM_Frame as the JSON summary runs it (MeshTension::keep_frame false: the frame's extremes and
// degenerate count only, in FrameWindows' order where the mesh's vertex order allows it).
void BM_FrameSummary(benchmark::State& state, std::string key) {
    Fixture& f = fixture(key);
    ThreadPool pool(static_cast<unsigned>(state.range(0)));
    Pose pose = rest_pose(f.scene());
    for (MeshTension& mt : f.first) mt.keep_frame = false;
    std::int64_t i = 0;
    for (auto _ : state) {
        evaluate_tension_at(f.in, f.first, f.frame(i++), pose, &pool);
        benchmark::DoNotOptimize(f.first.front().t_extremes);
    }
    for (MeshTension& mt : f.first) mt.keep_frame = true;
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(f.vertices));
    state.counters["vertices"] = static_cast<double>(f.vertices);
    state.counters["windowed"] = f.first.front().last_frame_windowed() ? 1 : 0;
}

// BM_FrameSummary as the JSON run's frame loop takes it: a group of frames a pass
// (MeshTension::evaluate_summaries, for_each_tension_frame_on_pool), poses sampled included. An
// iteration is a group; the rate counts each of its frames.
void BM_FrameSummaryGroup(benchmark::State& state, std::string key) {
    Fixture& f = fixture(key);
    ThreadPool pool(static_cast<unsigned>(state.range(0)));
    for (MeshTension& mt : f.first) mt.keep_frame = false;
    const std::size_t group = f.first.front().summary_frames(f.scene());
    std::vector<Pose> poses(group, rest_pose(f.scene()));
    std::int64_t i = 0;
    if (group < 2) state.SkipWithError("the mesh's summary frames do not group");
    for (auto _ : state) {
        for (Pose& pose : poses) pose_at(f.in, f.frame(i++), pose);
        for (MeshTension& mt : f.first) mt.evaluate_summaries(f.scene(), poses.data(), group, &pool);
        benchmark::DoNotOptimize(f.first.front().t_extremes);
    }
    for (MeshTension& mt : f.first) mt.keep_frame = true;
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(group * f.vertices));
    state.counters["vertices"] = static_cast<double>(f.vertices);
    state.counters["group"] = static_cast<double>(group);
}

// T of one frame (evaluate_positions: the edge T, then the measure), beside BM_Tension.
void BM_Measure(benchmark::State& state, std::string key, std::string measure) {
    Fixture& f = fixture(key);
    ThreadPool pool(static_cast<unsigned>(state.range(0)));
    Pose pose = rest_pose(f.scene());
    sample_pose(f.scene(), f.clip(), f.frame_time(12), pose);
    std::vector<Eigen::Vector3f> deformed;
    deform_mesh(f.scene(), f.mesh, pose, deformed);
    MeshTension& mt = f.with(measure, measure_named(f.opt, measure)).front();
    for (auto _ : state) {
        mt.evaluate_positions(deformed, &pool);
        benchmark::DoNotOptimize(mt.compress_t().data());
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(f.vertices));
    state.counters["vertices"] = static_cast<double>(f.vertices);
}

// One whole frame with a measure, beside BM_Frame (the edge measure).
void BM_FrameMeasure(benchmark::State& state, std::string key, std::string measure) {
    Fixture& f = fixture(key);
    ThreadPool pool(static_cast<unsigned>(state.range(0)));
    Pose pose = rest_pose(f.scene());
    std::vector<MeshTension>& meshes = f.with(measure, measure_named(f.opt, measure));
    std::int64_t i = 0;
    for (auto _ : state) {
        evaluate_tension_at(f.in, meshes, f.frame(i++), pose, &pool);
        benchmark::DoNotOptimize(meshes.front().compress_t().data());
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(f.vertices));
    state.counters["vertices"] = static_cast<double>(f.vertices);
}

// The principal kernel's fixed per-frame inputs (its per-entry coefficients and the fan layout:
// what PrincipalLayout points to, deformed positions aside) read once and summed, on the same
// block split as the kernel. Any frame of a kernel that reads them costs at least this: with
// tension_principal - tension, it says how much of the kernel is its memory stream.
void BM_PrincipalInputs(benchmark::State& state, std::string key) {
    Fixture& f = fixture(key);
    ThreadPool pool(static_cast<unsigned>(state.range(0)));
    const PrincipalKernel& k = f.with("principal", measure_named(f.opt, "principal")).front().principal_kernel;
    // Words of every array, as 32-bit integers: an integer sum vectorises without reordering
    // concerns and costs less than the loads it waits for.
    struct Words {
        const void* data;
        std::size_t words;
    };
    const std::vector<Words> arrays = {
        {k.slot_coef.data(), k.slot_coef.size()},       {k.fans.corner.data(), k.fans.corner.size()},
        {k.fans.slot_start.data(), k.fans.slot_start.size()}, {k.fans.group_start.data(), k.fans.group_start.size()},
        {k.ring.offsets.data(), k.ring.offsets.size()}, {k.fans.reads_last.data(), k.fans.reads_last.size() / 4},
        {k.fans.full.data(), k.fans.full.size() / 4}};
    std::size_t bytes = 0;
    for (const Words& a : arrays) bytes += a.words * 4;
    constexpr std::size_t kBlock = 1 << 16;  // words per task
    std::vector<std::pair<const std::uint32_t*, std::size_t>> blocks;
    for (const Words& a : arrays)
        for (std::size_t b = 0; b < a.words; b += kBlock)
            blocks.emplace_back(static_cast<const std::uint32_t*>(a.data) + b, std::min(kBlock, a.words - b));
    std::vector<std::uint32_t> sums(blocks.size());
    for (auto _ : state) {
        run_tasks(&pool, blocks.size(), [&](std::size_t i) {
            const std::uint32_t* w = blocks[i].first;
            std::uint32_t acc[8] = {};
            std::size_t j = 0;
            for (; j + 8 <= blocks[i].second; j += 8)
                for (std::size_t l = 0; l < 8; ++l) acc[l] += w[j + l];
            for (; j < blocks[i].second; ++j) acc[0] += w[j];
            std::uint32_t s = 0;
            for (std::uint32_t a : acc) s += a;
            sums[i] = s;
        });
        benchmark::DoNotOptimize(sums.data());
    }
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytes));
    state.counters["vertices"] = static_cast<double>(f.vertices);
    state.counters["input_MB"] = static_cast<double>(bytes) / 1e6;
}

// On a machine shared with other work the fastest repetition is the best estimate of what the
// code costs: --benchmark_repetitions=N then reports it as "_min" beside mean and median.
double fastest(const std::vector<double>& v) { return v.empty() ? 0.0 : *std::min_element(v.begin(), v.end()); }

// Every mesh of the file, as `rigscope tension` does per frame: with load, the compute that the
// end-to-end command time is compared with.
void BM_FrameAll(benchmark::State& state, std::string key) {
    Fixture& f = fixture(key);
    ThreadPool pool(static_cast<unsigned>(state.range(0)));
    Pose pose = rest_pose(f.scene());
    std::int64_t i = 0;
    for (auto _ : state) {
        evaluate_tension_at(f.in, f.all, f.frame(i++), pose, &pool);
        benchmark::DoNotOptimize(f.all.back().t.data());
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(f.all_vertices));
    state.counters["vertices"] = static_cast<double>(f.all_vertices);
}

// The bytes one frame of these meshes must move at the least (docs/benchmarks.md, "Cases":
// stream_bound): each array the frame reads, once, and each it writes, once, from the layouts' own
// sizes. Skinning reads the rest positions and the influences (joint ids, weights) and writes
// the deformed positions; the T pass reads those positions back (each once: a neighbour's
// gather that hits the cache is not counted again), its batches (entries, degrees, starts,
// last-vertex flags) and the rest lengths, and writes T. Morph deltas count where a target is
// active in the fixture's clip; the bench tube has none.
struct Traffic {
    std::size_t read = 0, written = 0;
};

Traffic frame_traffic(const Scene& scene, const std::vector<MeshTension>& meshes) {
    Traffic t;
    for (const MeshTension& mt : meshes) {
        const Mesh& m = scene.meshes[mt.mesh];
        const std::size_t pos = m.positions.size() * sizeof(Eigen::Vector3f);
        // The skin's influences as its runs read them (a run listing one joint set reads it once;
        // weights of exactly 1 are not read), and the per-lane degrees of the batches whose lanes
        // differ (the others divide by their byte in uniform_degree).
        t.read += pos + mt.deformer.influence_bytes_read();
        t.written += pos;
        const EdgeBatches& b = mt.batches;
        std::size_t mixed = 0;
        for (std::uint8_t d : b.uniform_degree) mixed += d == 0;
        t.read += pos + b.index.size() * 4 + mixed * b.lanes * 4 + b.uniform_degree.size() + b.start.size() * 4 + b.reads_last.size() +
                  mt.rest_lengths.size() * 4;
        t.written += mt.topo.welded_count() * sizeof(float);  // T; not t.size(), empty before the first frame
    }
    return t;
}

// The memory bound of a frame: a streaming pass that reads and writes frame_traffic's bytes for
// the first skinned mesh (`frame`; in frame_all the tube's unskinned copy does not move, so after
// the first frame MeshTension skips it and a frame moves these bytes too),
// in blocks over the same pool. Reads are summed as 32-bit words (the sum vectorises and its
// adds hide under the loads), writes store a word per iteration; what it takes is what moving
// those bytes costs on this machine at that moment, whatever cache holds them.
void BM_StreamBound(benchmark::State& state, std::string key) {
    Fixture& f = fixture(key);
    ThreadPool pool(static_cast<unsigned>(state.range(0)));
    const Traffic tr = frame_traffic(f.scene(), f.first);
    std::vector<std::uint32_t> src(tr.read / 4 + 1, 1u), dst(tr.written / 4 + 1);
    constexpr std::size_t kBlock = 1 << 16;  // words per task, as principal_inputs
    const std::size_t read_blocks = (src.size() + kBlock - 1) / kBlock, write_blocks = (dst.size() + kBlock - 1) / kBlock;
    std::vector<std::uint32_t> sums(read_blocks);
    std::uint32_t value = 0;
    for (auto _ : state) {
        ++value;
        run_tasks(&pool, read_blocks + write_blocks, [&](std::size_t i) {
            if (i >= read_blocks) {
                const std::size_t b = (i - read_blocks) * kBlock;
                std::fill(dst.begin() + b, dst.begin() + std::min(dst.size(), b + kBlock), value);
                return;
            }
            const std::uint32_t* w = src.data() + i * kBlock;
            const std::size_t n = std::min(kBlock, src.size() - i * kBlock);
            std::uint32_t acc[8] = {};
            std::size_t j = 0;
            for (; j + 8 <= n; j += 8)
                for (std::size_t l = 0; l < 8; ++l) acc[l] += w[j + l];
            for (; j < n; ++j) acc[0] += w[j];
            std::uint32_t s = 0;
            for (std::uint32_t a : acc) s += a;
            sums[i] = s;
        });
        benchmark::DoNotOptimize(sums.data());
        benchmark::DoNotOptimize(dst.data());
    }
    state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(tr.read + tr.written));
    state.counters["vertices"] = static_cast<double>(f.vertices);
    state.counters["read_MB"] = static_cast<double>(tr.read) / 1e6;
    state.counters["written_MB"] = static_cast<double>(tr.written) / 1e6;
}

// `rigscope lint FILE` after the load: every check of the run layer's job with its defaults, on
// every mesh (one thread: lint has no frames to spread). lint_weights: the per-vertex weight
// checks alone, the part that reads what a skinning frame reads.
void BM_Lint(benchmark::State& state, std::string key) {
    Fixture& f = fixture(key);
    const LintOptions opt;
    for (auto _ : state) {
        LintResult r = lint_checks(opt, f.in);
        benchmark::DoNotOptimize(r.findings.data());
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(f.all_vertices));
    state.counters["vertices"] = static_cast<double>(f.all_vertices);
}

void BM_LintWeights(benchmark::State& state, std::string key) {
    Fixture& f = fixture(key);
    for (auto _ : state) {
        std::vector<Finding> out;
        for (int m : f.in.meshes) lint_weights(f.scene(), m, LintParams{}, out);
        benchmark::DoNotOptimize(out.data());
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(f.all_vertices));
    state.counters["vertices"] = static_cast<double>(f.all_vertices);
}

// Bytes this process has written (Linux: /proc/self/io), to count what the writer produced.
std::uint64_t written_bytes() {
    std::FILE* f = std::fopen("/proc/self/io", "r");
    if (!f) return 0;
    char line[128];
    unsigned long long v = 0;
    while (std::fgets(line, sizeof line, f))
        if (std::sscanf(line, "wchar: %llu", &v) == 1) break;
    std::fclose(f);
    return v;
}

// The CSV writer alone: one frame of the first skinned mesh, every vertex, into a temporary
// file (never committed). bytes_per_second is the writer's throughput.
void BM_CsvFrame(benchmark::State& state, std::string key) {
    Fixture& f = fixture(key);
    Pose pose;
    evaluate_tension_at(f.in, f.first, f.frame(12), pose, nullptr);
    MeshTension& mt = f.first.front();
    TensionRunInfo run;
    TensionMeshView view;
    view.name = f.scene().meshes[f.mesh].name;
    view.tension = &mt;
    const char* tmp = std::getenv("TMPDIR");
    OutputFile out(std::string(tmp && *tmp ? tmp : "/tmp") + "/rigscope_bench.csv");
    std::unique_ptr<TensionSink> sink = make_tension_csv(out);
    sink->begin(run, {view});
    out.flush();
    const std::uint64_t before = written_bytes();
    for (auto _ : state) {
        sink->frame(Frame{false, 12, 0.5});
        out.flush();
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(written_bytes() - before));
    state.counters["vertices"] = static_cast<double>(f.vertices);
}

// A case run on 1 and 2 threads (its state.range(0)), timed in ms of wall time, with the fastest
// repetition reported beside mean and median.
void on_threads(benchmark::internal::Benchmark* b) {
    b->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->ComputeStatistics("min", fastest);
}

void register_all() {
    for (const char* key : {"tube", "cesium_man"}) {
        const std::string k = key;
        benchmark::RegisterBenchmark(("load/" + k).c_str(), BM_Load, k)->Unit(benchmark::kMillisecond)->UseRealTime()->ComputeStatistics("min", fastest);
        benchmark::RegisterBenchmark(("topology/" + k).c_str(), BM_Topology, k)->Unit(benchmark::kMillisecond)->UseRealTime()->ComputeStatistics("min", fastest);
        benchmark::RegisterBenchmark(("prepare/" + k).c_str(), BM_Prepare, k)->Unit(benchmark::kMillisecond)->UseRealTime()->ComputeStatistics("min", fastest);
        benchmark::RegisterBenchmark(("prepare_all/" + k).c_str(), BM_PrepareAll, k)->Unit(benchmark::kMillisecond)->UseRealTime()->ComputeStatistics("min", fastest);
        benchmark::RegisterBenchmark(("sample_pose/" + k).c_str(), BM_SamplePose, k)->Unit(benchmark::kMicrosecond)->ComputeStatistics("min", fastest);
        benchmark::RegisterBenchmark(("deform_mesh/" + k).c_str(), BM_DeformMesh, k)->Unit(benchmark::kMillisecond)->UseRealTime()->ComputeStatistics("min", fastest);
        benchmark::RegisterBenchmark(("csv_frame/" + k).c_str(), BM_CsvFrame, k)->Unit(benchmark::kMillisecond)->UseRealTime()->ComputeStatistics("min", fastest);
        benchmark::RegisterBenchmark(("lint/" + k).c_str(), BM_Lint, k)->Unit(benchmark::kMillisecond)->UseRealTime()->ComputeStatistics("min", fastest);
        benchmark::RegisterBenchmark(("lint_weights/" + k).c_str(), BM_LintWeights, k)->Unit(benchmark::kMillisecond)->UseRealTime()->ComputeStatistics("min", fastest);
        for (const char* name : {"skin", "tension", "frame", "frame_summary", "frame_all"}) {
            const std::string n = name;
            auto fn = n == "skin"            ? BM_Skin
                      : n == "tension"       ? BM_Tension
                      : n == "frame"         ? BM_Frame
                      : n == "frame_summary" ? BM_FrameSummary
                                             : BM_FrameAll;
            on_threads(benchmark::RegisterBenchmark((std::string(name) + "/" + k).c_str(), fn, k));
        }
        on_threads(benchmark::RegisterBenchmark(("skin_dq/" + k).c_str(), BM_SkinDq, k));
        on_threads(benchmark::RegisterBenchmark(("stream_bound/" + k).c_str(), BM_StreamBound, k));
        on_threads(benchmark::RegisterBenchmark(("principal_inputs/" + k).c_str(), BM_PrincipalInputs, k));
        for (const char* measure : {"area", "principal", "principal_smooth5", "principal_sse"}) {
            const std::string m = measure;
            for (const char* stage : {"tension", "frame"}) {
                const std::string st = stage;
                auto fn = st == "tension" ? BM_Measure : BM_FrameMeasure;
                on_threads(benchmark::RegisterBenchmark((st + "_" + m + "/" + k).c_str(), fn, k, m));
            }
        }
    }
    // The bound where a frame does not fit the caches: bench.sh's 4M-vertex tube (made by
    // scripts/make_bench_tube.py), named by RIGSCOPE_BENCH_TUBE_4M; a frame and its stream only.
    if (!env_or("RIGSCOPE_BENCH_TUBE_4M", "").empty()) {
        on_threads(benchmark::RegisterBenchmark("frame/tube_4m", BM_Frame, std::string("tube_4m")));
        on_threads(benchmark::RegisterBenchmark("stream_bound/tube_4m", BM_StreamBound, std::string("tube_4m")));
        // The summary frame one a pass and in groups: what a group saves where the arrays come
        // from memory.
        on_threads(benchmark::RegisterBenchmark("frame_summary/tube_4m", BM_FrameSummary, std::string("tube_4m")));
        on_threads(benchmark::RegisterBenchmark("frame_summary_group/tube_4m", BM_FrameSummaryGroup, std::string("tube_4m")));
    }
}

int setup_phases(const std::string& path, unsigned threads) {
    using clock = std::chrono::steady_clock;
    auto t = clock::now();
    auto lap = [&t](const char* what) {
        const auto now = clock::now();
        std::printf("%-34s %9.2f ms\n", what, std::chrono::duration<double, std::milli>(now - t).count());
        t = now;
    };
    TensionOptions opt;
    opt.input.file = path;
    opt.input.threads = threads;
    Input in = load_input(opt.input);
    lap("load_input");
    for (std::size_t m = 0; m < in.scene.meshes.size(); ++m)
        if (in.scene.meshes[m].skin >= 0) {
            in.meshes = {static_cast<int>(m)};
            break;
        }
    const int m = in.meshes.front();
    {
        ThreadPool pool(threads);
        lap("thread pool");
        std::vector<Eigen::Vector3f> rest;
        deform_mesh(in.scene, m, bind_pose(in.scene), rest);
        lap("  rest positions (deform_mesh)");
        const Topology topo = build_topology(in.scene.meshes[m], true, kWeldRelativeTolerance, false, &pool);
        lap("  topology (weld, edges)");
        const Topology plain = build_topology(in.scene.meshes[m], false, kWeldRelativeTolerance, false, &pool);
        lap("  topology without weld (edges)");
        const EdgeBatches eb = edge_batches(topo, edge_lanes_default(), &pool);
        lap("  edge batches");
        MeshDeformer deformer(in.scene, m);
        lap("  deformer");
        std::vector<float> lengths(topo.welded_count());
        mean_edge_lengths(eb, rest.data(), 0, eb.batch_count(), lengths.data());
        lap("  rest lengths (one thread)");
    }
    t = clock::now();
    std::vector<MeshTension> meshes = prepare_tension(in, opt);
    lap("prepare_tension");
    ThreadPool pool(threads);
    Pose pose = bind_pose(in.scene);
    for (std::size_t fi = 0; fi < std::min<std::size_t>(3, in.frames.size()); ++fi) {
        t = clock::now();
        evaluate_tension_frame(in, meshes, fi, pose, &pool);
        lap(fi == 0 ? "frame 1" : fi == 1 ? "frame 2" : "frame 3");
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    // `rigscope_bench --cold-load FILE`: one load in a fresh process, as a command does it (the
    // load benchmark repeats in one process, where the allocator reuses warm memory); with the
    // CLI's allocator settings (huge_pages.h), as are the set-up phases.
    if (argc >= 3 && (std::string(argv[1]) == "--cold-load" || std::string(argv[1]) == "--setup-phases")) detail::keep_freed_memory();
    if (argc == 3 && std::string(argv[1]) == "--cold-load") {
        const auto t0 = std::chrono::steady_clock::now();
        Scene s = load_scene(argv[2]);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::printf("cold load: %.4f s, %zu meshes, scene %.1f MB\n", seconds, s.meshes.size(), scene_bytes(s) / 1e6);
        return 0;
    }
    // `rigscope_bench --setup-phases FILE THREADS`: a run's steps before and at its first frames,
    // each timed once in a fresh process, the first skinned mesh alone (as `--mesh` selects
    // it) on THREADS threads: where a run's time goes before its frames (issue 62).
    if (argc == 4 && std::string(argv[1]) == "--setup-phases") return setup_phases(argv[2], static_cast<unsigned>(std::atoi(argv[3])));
    register_all();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
