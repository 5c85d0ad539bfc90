// The `intersect` job: the rules that refuse a run before it starts, the frames through the
// engine, and the choice of writer, in one place for the CLI and Python (run/intersect_job.h).
#include "rigscope/run/intersect_job.h"

#include <spdlog/spdlog.h>

#include "rigscope/core/parallel.h"
#include "rigscope/core/skin.h"
#include "rigscope/io/intersect_output.h"
#include "rigscope/run/clip_select.h"
#include "rigscope/run/run_budget.h"
#include "rigscope/run/output_formats.h"
#include "load_then_run.h"

namespace rigscope {

namespace {

// What the engine keeps per triangle (corners, face, box, flag, a share of the BVH's nodes and
// order, its leaf's neighbour byte, a node's share of the patch test's arrays, 30 bytes a node,
// and of the boundaries it makes, about 1.5 edges of 8 bytes a triangle at the leaves of a
// smooth surface and geometrically fewer at each level up) and per vertex (weld, heaviest
// influence, this frame's positions, the positions its boxes were computed from and a moved
// byte, the weld's own arrays while it runs), over-estimated: the budget is refused on it
// before anything is built.
constexpr double kBytesPerTriangle = 12 + 4 + 24 + 1 + 4 + 32 + 1 + 30 + 42;
constexpr double kBytesPerVertex = 4 + 4 + 4 + 12 + 12 + 1 + 48;

std::size_t fan_triangles(const Mesh& mesh) {
    std::size_t n = 0;
    for (std::size_t f = 0; f < mesh.face_count(); ++f) {
        const std::uint32_t corners = mesh.face_offsets[f + 1] - mesh.face_offsets[f];
        if (corners >= 3) n += corners - 2;
    }
    return n;
}

std::string frame_name(const Frame& f) { return f.bind ? std::string("bind") : std::to_string(f.number); }

}  // namespace

void IntersectJobOptions::validate() const {
    check_verb_format("intersect", format);
}

long IntersectJobResult::worst_frame() const {
    long worst = -1;
    for (std::size_t i = 0; i < frames.size(); ++i)
        if (worst < 0 || frames[i].pairs.size() > frames[static_cast<std::size_t>(worst)].pairs.size()) worst = static_cast<long>(i);
    return worst;
}

IntersectJobResult run_intersect(const IntersectJobOptions& opt, const Input& in, const FrameProgress& progress) {
    opt.validate();  // every entry, not only the CLI's: Python and check call run_x directly
    refuse_outputs_over_inputs(in, {opt.out});
    const std::string& file = opt.input.file;
    IntersectJobResult r;
    r.meshes = in.meshes;
    double engine_bytes = 0;
    for (int m : in.meshes) {
        const Mesh& mesh = in.scene.meshes[m];
        const std::size_t t = fan_triangles(mesh);
        r.triangles += t;
        engine_bytes += kBytesPerTriangle * double(t) + kBytesPerVertex * double(mesh.vertex_count());
    }
    const std::string hint = "select fewer meshes (--mesh) or raise --max-memory";
    check_job_budget(in, engine_bytes, "intersect's face hierarchy", hint);
    // The pool first: the engine's weld runs on it (the same result on any thread count).
    ThreadPool pool(in.threads);
    IntersectEngine engine = blaming(file, [&] { return IntersectEngine(in.scene, in.meshes, in.weld, &pool); });

    if (pool.size() < pool.requested())
        spdlog::warn("could start only {} of {} threads (address-space or thread limit); running on {}", pool.size(), pool.requested(), pool.size());
    std::vector<MeshDeformer> deformers;
    for (int m : in.meshes) deformers.emplace_back(in.scene, m);
    std::vector<std::vector<Eigen::Vector3f>> positions(in.meshes.size());
    Pose pose = bind_pose(in.scene);
    double kept = 0;
    r.frames.resize(in.frames.size());
    for (std::size_t fi = 0; fi < in.frames.size(); ++fi) {
        pose_at(in, in.frames[fi], pose);
        for (std::size_t i = 0; i < deformers.size(); ++i) deformers[i].deform(in.scene, pose, positions[i], &pool);
        try {
            const std::vector<std::vector<std::uint8_t>> rigid = rigid_joints(in.scene, in.meshes, pose);
            engine.evaluate(positions, &pool, r.frames[fi], &rigid);
        } catch (const Error& e) {
            if (e.code() != kExitBadInput) throw;
            throw bad_input(file, "frame " + frame_name(in.frames[fi]) + ": " + e.what());
        }
        r.zero_area_triangles = std::max(r.zero_area_triangles, r.frames[fi].degenerate);
        // The pairs are kept for the writers: a rig that passes through itself everywhere is
        // refused by the budget, not by the machine.
        kept += double(r.frames[fi].pairs.size() * sizeof(FacePair));
        if (kept > 0) check_job_budget(in, engine_bytes + kept, "intersect's face pairs", "select fewer frames (--frames) or raise --max-memory");
        report_progress(progress, fi + 1, in.frames.size());
    }
    if (r.zero_area_triangles > 0)
        spdlog::warn("{}: {} triangle(s) of zero area (corners on one line) skipped in some frame: they cannot cross", file,
                     r.zero_area_triangles);
    return r;
}

IntersectJobLoaded load_and_run_intersect(const IntersectJobOptions& opt, const FrameProgress& progress) {
    return load_then_run<IntersectJobLoaded>(opt, progress, run_intersect);
}

void write_intersect_output(const IntersectJobOptions& opt, const Input& in, const IntersectJobResult& r, OutputFile& out) {
    const RunInfo run = output_run_info(in, opt.input.file);
    if (opt.format == "csv") write_intersect_csv(out, run, r.frames);
    else write_intersect_json(out, run, r.meshes, in.weld, r.zero_area_triangles, r.frames);
}

void run_intersect_clips(const IntersectJobOptions& opt, const FrameProgress& progress,
                         const std::function<void(const IntersectJobOptions&, const Input&, const IntersectJobResult&)>& each) {
    opt.validate();
    Input in = load_input(clip_load_options(opt.input));
    const ClipPlan plan = plan_clips(in, opt.input, false);
    const std::vector<std::string> outs = clip_outputs(opt.out, plan, "intersect");
    for (std::size_t k = 0; k < plan.indices.size(); ++k) {
        use_clip(in, opt.input, plan.indices[k]);
        IntersectJobOptions one = opt;
        one.input.clip = plan.names[k];
        one.out = outs[k];
        each(one, in, run_intersect(one, in, progress));
    }
}

}  // namespace rigscope
