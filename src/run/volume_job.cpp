// The `volume` job (run/volume_job.h): the options' rules, the per-frame measuring of every
// selected mesh, and the choice of writer, in one place for the CLI, Python and check.
#include "rigscope/run/volume_job.h"

#include <cmath>
#include <memory>

#include "rigscope/core/error.h"
#include "rigscope/core/parallel.h"
#include "rigscope/core/vertex_match.h"
#include "rigscope/run/clip_select.h"
#include "rigscope/run/run_budget.h"
#include "rigscope/run/output_formats.h"
#include "load_then_run.h"

namespace rigscope {

namespace {

std::string count_text(std::size_t n, const char* one, const char* many) { return std::to_string(n) + ' ' + (n == 1 ? one : many); }

// Why a mesh is not closed, for its note: "3 boundary edges, 1 edge of more than two faces".
std::string open_reasons(const VolumeClosure& c) {
    std::string s;
    auto add = [&s](std::size_t n, const char* one, const char* many) {
        if (!n) return;
        if (!s.empty()) s += ", ";
        s += count_text(n, one, many);
    };
    add(c.boundary_edges, "boundary edge", "boundary edges");
    add(c.nonmanifold_edges, "edge of more than two faces", "edges of more than two faces");
    add(c.misoriented_edges, "edge whose two faces run the same way", "edges whose two faces run the same way");
    return s.empty() ? "no edge" : s;
}

}  // namespace

void VolumeJobOptions::validate() const {
    check_verb_format("volume", format);
}

VolumeTable measure_volumes(const Input& in, const std::string& file, const FrameProgress& progress) {
    // --max-memory covers what the run holds beside the scene: per mesh the deformed positions
    // (twice: the deformer's and ours), the quads and, while closure is judged, a
    // counter per welded edge end; per frame a volume and a ratio per column.
    double bytes = 0, columns_at_most = 0;
    for (int m : in.meshes) {
        const Mesh& mesh = in.scene.meshes[m];
        bytes += 24.0 * double(mesh.vertex_count()) + 28.0 * double(mesh.face_indices.size());
        columns_at_most += 1 + (mesh.skin >= 0 ? double(in.scene.skins[mesh.skin].joints.size()) : 0.0);
    }
    bytes += 16.0 * columns_at_most * double(in.frames.size());
    check_job_budget(in, bytes, "volume", "select fewer meshes (--mesh) or frames (--frames), or raise --max-memory");

    VolumeTable t;
    std::vector<std::unique_ptr<MeshVolume>> volumes;
    for (int m : in.meshes) {
        const Mesh& mesh = in.scene.meshes[m];
        const std::string quoted = "mesh '" + mesh.name + "'";
        if (mesh.face_count() == 0) {
            t.notes.push_back(quoted + " has no faces: no volume");
            continue;
        }
        auto mv = blaming(file, [&] { return std::make_unique<MeshVolume>(in.scene, m, in.weld); });
        const VolumeLayout& L = mv->layout();
        VolumeMeshInfo info;
        info.mesh = m;
        info.name = mesh.name;
        info.closure = L.closure;
        info.faces = L.faces;
        info.degenerate_faces = L.degenerate_faces;
        info.bind_volume = L.bind_volume;
        info.diagonal = bounding_diagonal(mesh.positions);
        info.regions = L.regions;
        for (const VolumeRegion& r : L.regions) info.region_names.push_back(in.scene.nodes[r.node].name);
        info.face_region = L.face_region;
        if (L.degenerate_faces)
            t.notes.push_back(quoted + ": " + count_text(L.degenerate_faces, "face collapses", "faces collapse") +
                              " onto fewer than 3 welded corners: skipped");
        if (!L.closure.closed)
            t.notes.push_back(quoted + " is open after welding (" + open_reasons(L.closure) + "): " +
                              (L.regions.empty() ? "no joint regions either, nothing measured" : "its joint regions only, no '*' volume"));
        const std::size_t index = t.meshes.size();
        if (L.closure.closed) t.columns.push_back({index, -1});
        for (std::size_t r = 0; r < L.regions.size(); ++r) t.columns.push_back({index, static_cast<int>(r)});
        t.meshes.push_back(std::move(info));
        volumes.push_back(std::move(mv));
    }
    if (t.columns.empty())
        throw bad_input(file, "no selected mesh is closed or has joint regions with faces: no volume to measure" +
                                  (t.notes.empty() ? std::string() : " (" + t.notes.front() + ")"));

    t.frames = in.frames.size();
    t.volumes.assign(t.frames * t.columns.size(), 0.0);
    t.ratios.assign(t.frames * t.columns.size(), 0.0);
    // Frames in order, one at a time; each frame's vertex and triangle blocks on the run's threads.
    ThreadPool pool(in.threads);
    Pose pose = bind_pose(in.scene);
    for (std::size_t fi = 0; fi < t.frames; ++fi) {
        const Frame& f = in.frames[fi];
        pose_at(in, f, pose);
        std::size_t c = 0;
        for (std::size_t i = 0; i < volumes.size(); ++i) {
            const VolumeMeshInfo& info = t.meshes[i];
            try {
                volumes[i]->evaluate(in.scene, pose, &pool);
            } catch (const Error& e) {
                if (e.code() != kExitBadInput) throw;
                std::string at;
                append_frame(at, f, false);
                throw bad_input(file, "mesh '" + info.name + "' at frame " + at + ": " + e.what());
            }
            const VolumeMeasures& v = volumes[i]->measures();
            const std::size_t row = fi * t.columns.size();
            if (info.closure.closed) {
                t.volumes[row + c] = v.volume;
                t.ratios[row + c] = volume_ratio(v.volume, info.bind_volume, info.diagonal);
                ++c;
            }
            for (std::size_t r = 0; r < info.regions.size(); ++r, ++c) {
                t.volumes[row + c] = v.regions[r];
                t.ratios[row + c] = volume_ratio(v.regions[r], info.regions[r].bind, info.diagonal);
            }
        }
        report_progress(progress, fi + 1, t.frames);
    }
    return t;
}

VolumeJobResult run_volume(const VolumeJobOptions& opt, const Input& in, const FrameProgress& progress) {
    opt.validate();  // every entry, not only the CLI's: Python and check call run_x directly
    refuse_outputs_over_inputs(in, {opt.out});
    return measure_volumes(in, opt.input.file, progress);
}

VolumeJobLoaded load_and_run_volume(const VolumeJobOptions& opt, const FrameProgress& progress) {
    return load_then_run<VolumeJobLoaded>(opt, progress, run_volume);
}

void write_volume_output(const VolumeJobOptions& opt, const Input& in, const VolumeJobResult& r, OutputFile& out) {
    if (opt.format == "csv") write_volume_csv(out, output_run_info(in, opt.input.file), r);
    else write_volume_json(out, output_run_info(in, opt.input.file), r);
}

void run_volume_clips(const VolumeJobOptions& opt, const FrameProgress& progress,
                      const std::function<void(const VolumeJobOptions&, const Input&, const VolumeJobResult&)>& each) {
    opt.validate();
    Input in = load_input(clip_load_options(opt.input));
    const ClipPlan plan = plan_clips(in, opt.input, false);
    const std::vector<std::string> outs = clip_outputs(opt.out, plan, "volume");
    for (std::size_t k = 0; k < plan.indices.size(); ++k) {
        use_clip(in, opt.input, plan.indices[k]);
        VolumeJobOptions one = opt;
        one.input.clip = plan.names[k];
        one.out = outs[k];
        each(one, in, run_volume(one, in, progress));
    }
}

}  // namespace rigscope
