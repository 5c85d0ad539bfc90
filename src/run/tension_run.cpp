#include "rigscope/run/tension_run.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <optional>
#include <thread>
#include <spdlog/spdlog.h>

#include "rigscope/core/error.h"
#include "rigscope/core/parallel.h"
#include "rigscope/core/skin.h"
#include "rigscope/io/load.h"
#include "rigscope/run/option_table.h"
#include "rigscope/run/run_budget.h"
#include "reference_rest.h"

namespace rigscope {

MeasureOptions TensionOptions::measure_options() const {
    MeasureOptions m;
    m.measure = measure == "area" ? Measure::area : measure == "principal" ? Measure::principal : Measure::edge;
    m.smooth = smooth;
    m.weights = smooth_weights == "cotan" ? SmoothWeights::cotan : SmoothWeights::uniform;
    return m;
}

void check_tension_options(const TensionOptions& opt) {
    // Each value against its row's rule (run/option_table.h): the maps' options first, then the
    // reference's, the order these checks always had.
    check_option_values(tension_map_options(), opt);
    check_option_values(tension_reference_options(), opt);
    // What one row cannot say: options that only act with another.
    if (opt.reference.empty()) {
        if (opt.reference_match) throw Error(kExitUsage, "--reference-match: pairs a --reference FILE; give one or drop it");
        if (opt.reference_scale) throw Error(kExitUsage, "--reference-scale: scales a --reference FILE; give one or drop it");
    }
    if (opt.smooth_weights != "uniform" && opt.smooth == 0)
        throw Error(kExitUsage, "--smooth-weights " + opt.smooth_weights + ": it weighs --smooth's averaging; give --smooth N or drop it");
}

namespace {

// What a mesh's set-up found that the user should know: said once per mesh, in mesh order.
void warn_setup(const MeshTension& mt, const std::string& file, const std::string& mesh) {
    if (mt.rest_degenerate)
        spdlog::warn("{}: mesh '{}': {} welded vertices have no edge or zero rest length; their T is 1", file, mesh, mt.rest_degenerate);
    if (mt.topo.degenerate_faces)
        spdlog::warn("{}: mesh '{}': {} faces collapse onto fewer than 3 points", file, mesh, mt.topo.degenerate_faces);
}

}  // namespace

std::vector<MeshTension> prepare_tension(Input& in, const TensionOptions& opt) {
    check_tension_options(opt);
    // --max-memory covers what preparing will hold, not only what the load held: refused here,
    // before it grows. Jobs that keep more per frame check that too, before this.
    check_run_budget(in, opt, 0, "preparing the meshes");
    std::vector<MeshTension> out;
    Pose pose;
    std::optional<Scene> ref_scene;
    if (!opt.reference.empty()) {
        ref_scene = load_scene(opt.reference, load_options(opt.input));
        in.paths.push_back(opt.reference);
        in.paths.insert(in.paths.end(), ref_scene->read_files.begin(), ref_scene->read_files.end());
        pose = bind_pose(*ref_scene);
    } else if (opt.reference_frame) {
        const Frame f{false, *opt.reference_frame, double(*opt.reference_frame) / in.fps};
        for_option("--reference-frame", [&] { check_frames_in_clip({f}, in.clip_ptr(), in.fps); });
        pose_at(in, f, pose);
    } else {
        pose = bind_pose(in.scene);
    }
    out.reserve(in.meshes.size());
    if (!ref_scene) {
        // Without a reference each mesh's set-up (its rest pose, weld, edge batches and rest
        // lengths) reads only the scene. Meshes at least as many as the threads, none holding
        // most of the vertices, are prepared at once, one a thread (issue 44: a rig's several
        // meshes set up one after the other left a core idle); else (a character's one skinned
        // mesh) one after the other, each spread over every thread (issue 62). Either way each
        // is built as alone, the same bits for any thread count; a failure is the first mesh's in
        // order, whichever thread saw it first.
        std::vector<std::optional<MeshTension>> built(in.meshes.size());
        std::vector<std::exception_ptr> failed(in.meshes.size());
        const unsigned cores = in.threads ? in.threads : std::max(1u, std::thread::hardware_concurrency());
        std::size_t total = 0, largest = 0;
        for (int m : in.meshes) {
            total += in.scene.meshes[m].vertex_count();
            largest = std::max(largest, in.scene.meshes[m].vertex_count());
        }
        const bool inside = in.meshes.size() < cores || 2 * largest > total;
        ThreadPool pool(inside ? cores : static_cast<unsigned>(std::min<std::size_t>(cores, in.meshes.size())));
        auto prepare = [&](std::size_t i, ThreadPool* within) {
            try {
                std::vector<Eigen::Vector3f> rest;
                deform_mesh(in.scene, in.meshes[i], pose, rest, within);
                blaming(opt.input.file, [&] { built[i].emplace(in.scene, in.meshes[i], in.weld, rest, opt.measure_options(), within); });
            } catch (...) {
                failed[i] = std::current_exception();
            }
        };
        if (inside) {
            for (std::size_t i = 0; i < in.meshes.size(); ++i) prepare(i, &pool);
        } else {
            run_tasks(&pool, in.meshes.size(), [&](std::size_t i) { prepare(i, nullptr); });
        }
        for (std::size_t i = 0; i < built.size(); ++i) {
            if (failed[i]) std::rethrow_exception(failed[i]);
            out.push_back(std::move(*built[i]));
            warn_setup(out.back(), opt.input.file, in.scene.meshes[in.meshes[i]].name);
        }
        return out;
    }
    std::vector<Eigen::Vector3f> rest, bind;
    for (int m : in.meshes) {
        const Mesh& mesh = in.scene.meshes[m];
        // The reference's mesh of the same name, else of the same index, else its only mesh
        // for a run of one mesh (an OBJ neutral names its object as its modeller did).
        int rm = -1;
        for (std::size_t i = 0; i < ref_scene->meshes.size() && rm < 0; ++i)
            if (ref_scene->meshes[i].name == mesh.name) rm = static_cast<int>(i);
        if (rm < 0 && m < static_cast<int>(ref_scene->meshes.size())) rm = m;
        if (rm < 0 && ref_scene->meshes.size() == 1 && in.meshes.size() == 1) rm = 0;
        if (rm < 0) throw Error(kExitMismatch, opt.reference + ": no mesh '" + mesh.name + "' (nor a mesh " + std::to_string(m) + ") to use as reference");
        const ReferenceNames names{opt.input.file, mesh.name, opt.reference, ref_scene->meshes[rm].name};
        std::vector<Eigen::Vector3f> ref;
        deform_mesh(*ref_scene, rm, pose, ref);
        deform_mesh(in.scene, m, bind_pose(in.scene), bind);
        const Topology topo = blaming(opt.input.file, [&] { return build_topology(mesh, in.weld, kWeldRelativeTolerance, false); });
        rest = reference_rest(bind, topo, std::move(ref), opt, names);
        blaming(opt.input.file, [&] { out.emplace_back(in.scene, m, in.weld, rest, opt.measure_options()); });
        // The bind pose against the reference: a reference in another vertex order is far
        // from T = 1 nearly everywhere (the first frame evaluates anew).
        out.back().evaluate_positions(bind);
        check_reference_order(out.back().t, opt, names);
        warn_setup(out.back(), opt.input.file, mesh.name);
    }
    return out;
}

void evaluate_tension_frame(const Input& in, std::vector<MeshTension>& meshes, std::size_t fi, Pose& pose, ThreadPool* pool) {
    evaluate_tension_at(in, meshes, in.frames[fi], pose, pool);
}

void evaluate_tension_at(const Input& in, std::vector<MeshTension>& meshes, const Frame& f, Pose& pose, ThreadPool* pool) {
    pose_at(in, f, pose);
    for (MeshTension& mt : meshes) mt.evaluate(in.scene, pose, pool);
}

void for_each_tension_frame(const Input& in, std::vector<MeshTension>& meshes, const std::function<void(std::size_t)>& each,
                            const FrameProgress& progress) {
    for_each_tension_frame_on_pool(in, meshes, [&](std::size_t fi, ThreadPool&) { each(fi); }, progress);
}

void for_each_tension_frame_on_pool(const Input& in, std::vector<MeshTension>& meshes,
                                    const std::function<void(std::size_t, ThreadPool&)>& each, const FrameProgress& progress) {
    Pose pose = bind_pose(in.scene);
    // Frames stay in order, one at a time (outputs stream); each frame's vertex blocks are
    // spread over the cores.
    ThreadPool pool(in.threads);
    if (pool.size() < pool.requested())
        spdlog::warn("could start only {} of {} threads (address-space or thread limit); running on {}", pool.size(),
                     pool.requested(), pool.size());
    // Where every mesh keeps its frames' summaries alone (the JSON frame), a few frames a pass:
    // each mesh's arrays are read from memory once for the group (MeshTension::
    // evaluate_summaries, the same bits), and the frames go out in order after it.
    std::size_t group = meshes.empty() ? 1 : in.frames.size();
    for (MeshTension& mt : meshes) group = std::min(group, mt.summary_frames(in.scene));
    if (group > 1) {
        std::vector<Pose> poses(group, pose);
        for (std::size_t f0 = 0; f0 < in.frames.size(); f0 += group) {
            const std::size_t count = std::min(group, in.frames.size() - f0);
            for (std::size_t j = 0; j < count; ++j) pose_at(in, in.frames[f0 + j], poses[j]);
            for (MeshTension& mt : meshes) mt.evaluate_summaries(in.scene, poses.data(), count, &pool);
            for (std::size_t j = 0; j < count; ++j) {
                for (MeshTension& mt : meshes) mt.show_summary(j);
                each(f0 + j, pool);
                report_progress(progress, f0 + j + 1, in.frames.size());
            }
        }
        return;
    }
    for (std::size_t fi = 0; fi < in.frames.size(); ++fi) {
        evaluate_tension_frame(in, meshes, fi, pose, &pool);
        each(fi, pool);
        report_progress(progress, fi + 1, in.frames.size());
    }
}

void apply_auto_range(const Input& in, std::vector<MeshTension>& meshes, double percentile, TensionRunInfo& run,
                      const FrameProgress& progress) {
    if (!(percentile >= 50 && percentile <= 100)) throw Error(kExitUsage, "--auto-range: the percentile must be from 50 to 100");
    VertexTensionExtremes extremes;
    extremes.reset(meshes);
    for_each_tension_frame(
        in, meshes, [&](std::size_t) {
            for (std::size_t m = 0; m < meshes.size(); ++m) extremes.add(m, meshes[m]);
        },
        progress);
    run.range = auto_tension_range(extremes.all_min(), extremes.all_max(), percentile, run.range);
    run.auto_range = true;
    run.percentile = percentile;
}

TensionRunInfo describe_run(const Input& in, const TensionOptions& opt) {
    TensionRunInfo run;
    run.version = RIGSCOPE_VERSION;
    run.input = opt.input.file;
    run.animation = opt.input.animation;
    if (!opt.reference.empty()) {
        run.reference_kind = "file";
        run.reference = opt.reference;
    } else if (opt.reference_frame) {
        run.reference_kind = "frame";
        run.reference = std::to_string(*opt.reference_frame);
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

std::vector<std::string> mesh_names(const Input& in, const std::vector<MeshTension>& meshes) {
    std::vector<std::string> out;
    for (const MeshTension& mt : meshes) out.push_back(in.scene.meshes[mt.mesh].name);
    return out;
}

}  // namespace rigscope
