#include "tension_setup.h"

#include <spdlog/spdlog.h>

#include "rigscope/error.h"
#include "rigscope/load.h"
#include "rigscope/parallel.h"
#include "rigscope/skin.h"

namespace rigscope::cli {

void add_tension_options(CLI::App* cmd, TensionOptions& opt) {
    add_input_options(cmd, opt.input);
    auto* ref = cmd->add_option("--reference", opt.reference, "Rest mesh from this file (same vertex count); default: FILE's bind pose");
    cmd->add_option("--reference-frame", opt.reference_frame, "Rest mesh from this frame of the animation")
        ->excludes(ref)
        ->each([&opt](const std::string&) { opt.has_reference_frame = true; });
    cmd->add_option("--falloff", opt.params.falloff, "Map falloff: map = ramp^(1/falloff) (default 1)")->check(CLI::PositiveNumber);
    cmd->add_option("--stretch-area", opt.params.stretch_area, "Stretch Area: T at which stretch is full (default 0.75)")
        ->check(CLI::Range(0.0, 1.0));
    cmd->add_option("--compress-area", opt.params.compress_area, "Compress Area: compress is full at T = 1/area (default 0.6)")
        ->check(CLI::Range(0.0, 1.0));
    cmd->add_option("--weight-limit", opt.params.weight_limit, "Scale of both maps (default 1)")->check(CLI::Range(0.0, 1.0));
    cmd->add_option("--smooth-k", opt.params.smooth_k, "Smoothing distance of the smooth min/max (default 0.1; 0: plain)")
        ->check(CLI::NonNegativeNumber);
    cmd->add_option("--measure", opt.measure,
                    "What T measures: edge (mean edge length, default), area (one-ring area), principal (principal stretches)")
        ->check(CLI::IsMember({"edge", "area", "principal"}));
    cmd->add_option("--smooth", opt.smooth, "Iterations of one-ring averaging of the measure before the maps (default 0)")
        ->check(CLI::Range(0, 10000));
    cmd->add_option("--smooth-weights", opt.smooth_weights, "Weights of --smooth: uniform (default) or cotan (rest cotangents)")
        ->check(CLI::IsMember({"uniform", "cotan"}));
}

MeasureOptions TensionOptions::measure_options() const {
    MeasureOptions m;
    m.measure = measure == "area" ? Measure::area : measure == "principal" ? Measure::principal : Measure::edge;
    m.smooth = smooth;
    m.weights = smooth_weights == "cotan" ? SmoothWeights::cotan : SmoothWeights::uniform;
    return m;
}

std::vector<MeshTension> prepare_tension(Input& in, const TensionOptions& opt) {
    std::vector<MeshTension> out;
    Pose pose;
    std::optional<Scene> ref_scene;
    if (!opt.reference.empty()) {
        ref_scene = load_scene(opt.reference, load_options(opt.input));
        in.paths.push_back(opt.reference);
        pose = bind_pose(*ref_scene);
    } else if (opt.has_reference_frame) {
        const Frame f{false, opt.reference_frame, opt.reference_frame / in.fps};
        check_frames_in_clip({f}, in.clip_ptr(), in.fps);
        pose_at(in, f, pose);
    } else {
        pose = bind_pose(in.scene);
    }
    std::vector<Eigen::Vector3f> rest;
    out.reserve(in.meshes.size());
    for (int m : in.meshes) {
        const Mesh& mesh = in.scene.meshes[m];
        if (ref_scene) {
            // The reference's mesh of the same name, else of the same index.
            int rm = -1;
            for (std::size_t i = 0; i < ref_scene->meshes.size() && rm < 0; ++i)
                if (ref_scene->meshes[i].name == mesh.name) rm = static_cast<int>(i);
            if (rm < 0 && m < static_cast<int>(ref_scene->meshes.size())) rm = m;
            if (rm < 0) throw Error(kExitMismatch, opt.reference + ": no mesh '" + mesh.name + "' (nor a mesh " + std::to_string(m) + ") to use as reference");
            const Mesh& rmesh = ref_scene->meshes[rm];
            if (rmesh.vertex_count() != mesh.vertex_count())
                throw Error(kExitMismatch, opt.reference + ": mesh '" + rmesh.name + "' has " + std::to_string(rmesh.vertex_count()) +
                                               " vertices, " + opt.input.file + " mesh '" + mesh.name + "' has " +
                                               std::to_string(mesh.vertex_count()));
            deform_mesh(*ref_scene, rm, pose, rest);
        } else {
            deform_mesh(in.scene, m, pose, rest);
        }
        blaming(opt.input.file, [&] { out.emplace_back(in.scene, m, in.weld, rest, opt.measure_options()); });
        const MeshTension& mt = out.back();
        if (mt.rest_degenerate)
            spdlog::warn("{}: mesh '{}': {} welded vertices have no edge or zero rest length; their T is 1", opt.input.file, mesh.name,
                         mt.rest_degenerate);
        if (mt.topo.degenerate_faces)
            spdlog::warn("{}: mesh '{}': {} faces collapse onto fewer than 3 points", opt.input.file, mesh.name, mt.topo.degenerate_faces);
    }
    return out;
}

void for_each_tension_frame(const Input& in, std::vector<MeshTension>& meshes, const char* what,
                            const std::function<void(std::size_t)>& each) {
    Pose pose = bind_pose(in.scene);
    // Frames stay in order, one at a time (outputs stream); each frame's vertex blocks are
    // spread over the cores.
    ThreadPool pool(in.threads);
    if (pool.size() < pool.requested())
        spdlog::warn("could start only {} of {} threads (address-space or thread limit); running on {}", pool.size(),
                     pool.requested(), pool.size());
    Progress progress(in.frames.size(), what);
    for (std::size_t fi = 0; fi < in.frames.size(); ++fi) {
        pose_at(in, in.frames[fi], pose);
        for (MeshTension& mt : meshes) mt.evaluate(in.scene, pose, &pool);
        each(fi);
        progress.step(fi + 1);
    }
    progress.finish();
}

TensionRun describe_run(const Input& in, const TensionOptions& opt) {
    TensionRun run;
    run.version = RIGSCOPE_VERSION;
    run.input = opt.input.file;
    run.animation = opt.input.animation;
    if (!opt.reference.empty()) {
        run.reference_kind = "file";
        run.reference = opt.reference;
    } else if (opt.has_reference_frame) {
        run.reference_kind = "frame";
        run.reference = std::to_string(opt.reference_frame);
    } else {
        run.reference_kind = "bind";
    }
    run.clip = in.has_clip ? in.clip.name : "";
    run.fps = in.fps;
    run.weld = in.weld;
    run.params = opt.params;
    run.measure = opt.measure_options();
    run.range = tension_range(opt.params);
    run.chunk_index = in.chunk_index;
    run.chunk_count = in.chunk_count;
    return run;
}

}  // namespace rigscope::cli
