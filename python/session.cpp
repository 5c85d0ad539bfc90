#include "session.h"

#include "rigscope/run/clip_select.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstring>

#include "arrays.h"
#include "prefault.h"
#include "path_args.h"
#include "progress_callback.h"
#include "rigscope/core/error.h"
#include "rigscope/core/vertex_list.h"
#include "rigscope/core/vertex_match.h"
#include "rigscope/io/rig_reader.h"
#include "rigscope/run/deform_engine.h"
#include "rigscope/run/deform_job.h"
#include "rigscope/run/drive_engine.h"
#include "rigscope/run/drive_job.h"
#include "rigscope/run/info_job.h"
#include "rigscope/run/rivet_engine.h"
#include "rigscope/run/rivet_job.h"
#include "rigscope/run/volume_job.h"
#include "tension_result.h"

namespace rigscope_python {

using namespace rigscope;

Session::TensionFrames::TensionFrames(std::shared_ptr<Session> s, const TensionArgs& args) : s_(std::move(s)) {
    std::lock_guard<std::recursive_mutex> lock(s_->mutex_);
    const TensionOptions topt = s_->tension_options(args);
    frames_ = select_frames(s_->in_, args.frames.value_or(""), s_->clip_file());
    Selection sel(*s_, args.frames);
    py::gil_scoped_release release;
    meshes_ = prepare_tension(s_->in_, topt);
    run_ = describe_run(s_->in_, topt);
    if (args.auto_range) apply_auto_range(s_->in_, meshes_, *args.auto_range, run_);
    pose_ = bind_pose(s_->in_.scene);
    pool_ = std::make_unique<ThreadPool>(s_->in_.threads);
}

py::object Session::TensionFrames::next() {
    if (next_ >= frames_.size()) throw py::stop_iteration();
    std::lock_guard<std::recursive_mutex> lock(s_->mutex_);
    Selection sel(*s_, frames_);
    TensionColumns cols;
    {
        py::gil_scoped_release release;
        cols.reserve(s_->vertex_counts(), run_.measure.measure, 1, false);
        evaluate_tension_frame(s_->in_, meshes_, next_, pose_, pool_.get());
        cols.take(meshes_, run_, 0, pool_.get());
    }
    const Frame f = frames_[next_++];
    return py::make_tuple(frame_label(f), cols.frame_result(s_->names(), meshes_));
}

void Session::one_clip() const {
    if (opt_.clip == kAllClips && !clip_chosen_)
        throw Error(kExitUsage, "clip=\"all\": this call evaluates one clip (check() and report() take every clip): give the call clip=NAME, or clip=\"all\" for a dict by clip");
}

Session::Session(InputOptions opt) : opt_(std::move(opt)) {
    py::gil_scoped_release release;
    // clip="all" (issue 57) loads the first clip; check() judges every clip in turn. The
    // session's scene serves every later call, rom() over all its meshes and the glTF writers
    // among them: every mesh is read, not only those mesh= selects.
    InputOptions load = clip_load_options(opt_);
    load.read_every_mesh = true;
    in_ = load_input(load);
}

py::object Session::info() const {
    // The info job's JSON (`rigscope info --json`) on the session's input.
    InfoJobOptions opt;
    opt.input = opt_;
    opt.json = true;
    const std::string text = run_info(opt, in_).text;
    return py::module_::import("json").attr("loads")(text);
}

py::list Session::warnings() const {
    py::list out;
    for (const rigscope::Warning& w : in_.scene.warnings) out.append(py::make_tuple(rigscope::warning_kind_name(w.kind), w.message));
    return out;
}

py::object Session::deform(const std::optional<std::string>& frames, const py::object& progress) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    Selection sel(*this, frames);
    const std::size_t nf = in_.frames.size();
    std::vector<FloatArray> out(in_.meshes.size());
    {
        check_budget("deform()", 3.0 * sizeof(float) * nf * total_vertices(), nf, "");
        py::gil_scoped_release release;
        std::vector<std::pair<void*, std::size_t>> ranges;
        for (std::size_t i = 0; i < out.size(); ++i) {
            out[i] = FloatArray(nf * vertex_count(i) * 3);
            ranges.emplace_back(out[i].data(), out[i].size() * sizeof(float));
        }
        const Prefault prefault(std::move(ranges));
        DeformEngine run(in_);
        run.for_each_frame([&](std::size_t fi) {
            for (std::size_t i = 0; i < out.size(); ++i) {
                const auto& p = run.positions(i);
                std::memcpy(out[i].data() + fi * p.size() * 3, p.data(), p.size() * sizeof(Eigen::Vector3f));
            }
        }, python_progress(progress));
    }
    std::vector<py::object> arrays;
    for (std::size_t i = 0; i < out.size(); ++i)
        arrays.push_back(owned_array(std::move(out[i]), {static_cast<py::ssize_t>(nf), static_cast<py::ssize_t>(vertex_count(i)), 3}));
    return per_mesh(names(), arrays);
}

py::object Session::tension(const TensionArgs& args, const py::object& progress) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    Selection sel(*this, args.frames);
    const TensionOptions topt = tension_options(args);
    const std::size_t nf = in_.frames.size();
    std::vector<MeshTension> meshes;
    TensionRunInfo run;
    TensionColumns cols;
    {
        const Measure measure = topt.measure_options().measure;
        check_budget("tension()", sizeof(float) * TensionColumns::floats_per_vertex(measure, true) * nf * total_vertices(), nf,
                     ", or stream with iter_tension()");
        py::gil_scoped_release release;
        cols.reserve(vertex_counts(), measure, nf, true);
        // Before the meshes' preparation, which runs on one core: the other pages in.
        const Prefault prefault(cols.ranges());
        meshes = prepare_tension(in_, topt);
        run = describe_run(in_, topt);
        const FrameProgress report = python_progress(progress);
        if (args.auto_range) apply_auto_range(in_, meshes, *args.auto_range, run, report);
        // The run layer's frame step, with the columns filled on the same pool: the copy
        // into per-file-vertex arrays is the module's own cost over the CLI's.
        ThreadPool pool(in_.threads);
        Pose pose = bind_pose(in_.scene);
        for (std::size_t fi = 0; fi < nf; ++fi) {
            evaluate_tension_frame(in_, meshes, fi, pose, &pool);
            cols.take(meshes, run, fi, &pool);
            report(fi + 1, nf);
        }
    }
    return cols.result(in_, names(), meshes, run);
}

py::object Session::rivets(const std::vector<std::uint32_t>& ids, const std::optional<std::string>& joint,
                            const std::optional<std::string>& frames, bool bake, const py::object& progress) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    Selection sel(*this, frames);
    // The CLI's job: its refusals, vertex list (range checks, repeats, messages) and fit.
    RivetJobOptions job;
    job.input = opt_;
    // The session's --weld serves its other calls (tension, check); a fit reads file vertices
    // whatever it is, so it is no contradiction here as it is on the CLI's one command.
    if (!bake) job.input.weld = "on";
    job.input.chunk.clear();
    for (std::uint32_t v : ids) job.vertices += (job.vertices.empty() ? "" : ",") + std::to_string(v);
    if (joint) job.joint = *joint;
    job.bake = bake;
    job.validate();
    if (bake) {
        // The arrays Python gets are larger than the job's rows: charged before the job runs.
        const int mesh = rivet_mesh(in_, opt_.mesh);
        const std::size_t n = for_option("--vertices", [&] { return parse_vertex_list(job.vertices, in_.scene.meshes[mesh].vertex_count()); }).size();
        check_budget("rivets(bake=True)", (7.0 * sizeof(double) + sizeof(BakedTransform)) * in_.frames.size() * n, in_.frames.size(), "");
    }
    RivetJobResult res;
    {
        py::gil_scoped_release release;
        res = run_rivet(job, in_, python_progress(progress));
    }
    if (bake) return baked(res.vertices, res.frames);
    // The keys and values of `rigscope rivet --format json`'s "rivets" (src/io/writers/rivet_report.cpp),
    // with numpy arrays for its [x, y, z] lists.
    const Scene& s = in_.scene;
    const double diagonal = res.diagonal;
    py::list out;
    for (const RivetResult& r : res.rivets) {
        py::dict d;
        d["vertex"] = r.vertex;
        d["joint"] = s.nodes[r.joint].name;
        const int parent = s.nodes[r.joint].parent;
        d["parent"] = parent >= 0 ? py::object(py::str(s.nodes[parent].name)) : py::none();
        py::list inf;
        for (const RivetInfluence& i : r.influences) inf.append(py::dict(py::arg("joint") = s.nodes[i.joint].name, py::arg("weight") = i.weight));
        d["influences"] = inf;
        auto vec = [](const Eigen::Vector3d& v) { return owned_array(std::vector<double>{v.x(), v.y(), v.z()}, {3}); };
        d["analytic_pivot"] = r.analytic ? py::object(vec(*r.analytic)) : py::none();
        d["pivot_world"] = vec(r.pivot_world);
        d["pivot_parent"] = vec(r.fit.pivot_parent);
        d["offset"] = vec(r.fit.offset);
        d["rank"] = r.fit.rank;
        d["rms_error"] = r.fit.rms_error;
        d["max_error"] = r.fit.max_error;
        d["max_error_relative"] = diagonal > 0 ? r.fit.max_error / diagonal : 0.0;
        out.append(d);
    }
    return out;
}

py::object Session::volume(const std::optional<std::string>& frames, const py::object& progress) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    Selection sel(*this, frames);
    // The CLI's job on the session's input: its refusals, notes and errors.
    VolumeJobOptions job;
    job.input = opt_;
    job.input.chunk.clear();
    job.validate();
    VolumeJobResult r;
    {
        py::gil_scoped_release release;
        r = run_volume(job, in_, python_progress(progress));
    }
    // The CSV's rows as columns: row (frame f, column c) is volume[f, c], mesh[c], region[c].
    py::dict out;
    out["frames"] = frame_labels(in_.frames);
    out["times"] = frame_times(in_.frames);
    py::list mesh, region, closed_meshes;
    for (std::size_t c = 0; c < r.columns.size(); ++c) {
        mesh.append(r.meshes[r.columns[c].mesh].name);
        region.append(r.region_name(c));
    }
    py::dict closed;
    for (const VolumeMeshInfo& m : r.meshes) closed[py::str(m.name)] = m.closure.closed;
    out["mesh"] = mesh;
    out["region"] = region;
    const auto shape = std::vector<py::ssize_t>{static_cast<py::ssize_t>(r.frames), static_cast<py::ssize_t>(r.columns.size())};
    out["volume"] = owned_array(std::move(r.volumes), shape);
    out["ratio"] = owned_array(std::move(r.ratios), shape);
    out["closed"] = closed;
    py::list notes;
    for (const std::string& n : r.notes) notes.append(n);
    out["notes"] = notes;
    return out;
}

py::object Session::drive(const std::optional<std::string>& rig_path, const std::optional<std::string>& frames, const py::object& progress) {
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    const std::string path = rig_path.value_or(opt_.rig);
    if (path.empty()) throw Error(kExitUsage, "drive needs a rig: drive(\"RIG.json\") or load(..., rig=\"RIG.json\")");
    // The session's pose follows its own rig (load's rig=); drive() evaluates the one named.
    ResolvedRig saved = in_.rig;
    struct Restore {
        Input& in;
        ResolvedRig& saved;
        ~Restore() { in.rig = std::move(saved); }
    } restore{in_, saved};
    in_.rig = resolve_rig(read_rig(path), in_.scene);
    Selection sel(*this, frames);
    const std::size_t nf = in_.frames.size();
    std::vector<std::vector<float>> weights, x, y;
    std::vector<DriveSeriesName> series;
    std::vector<DriveControlName> controls;
    {
        py::gil_scoped_release release;
        DriveEngine run(in_);
        series = run.series();
        controls = run.controls();
        check_budget("drive()", sizeof(float) * (series.size() + 2.0 * controls.size()) * nf, nf, "");
        weights.resize(series.size());
        x.resize(controls.size());
        y.resize(controls.size());
        run.for_each_frame([&](std::size_t) {
            for (std::size_t s = 0; s < series.size(); ++s) weights[s].push_back(run.weights()[s]);
            for (std::size_t c = 0; c < controls.size(); ++c) {
                x[c].push_back(run.xy()[c][0]);
                y[c].push_back(run.xy()[c][1]);
            }
        }, python_progress(progress));
    }
    const auto n = static_cast<py::ssize_t>(nf);
    py::list jcontrols, jseries;
    for (std::size_t c = 0; c < controls.size(); ++c) {
        py::dict d;
        d["control"] = controls[c].control;
        d["node"] = controls[c].node;
        d["x"] = owned_array(std::move(x[c]), {n});
        d["y"] = owned_array(std::move(y[c]), {n});
        jcontrols.append(d);
    }
    for (std::size_t s = 0; s < series.size(); ++s) {
        py::dict d;
        d["control"] = series[s].controls;
        d["mesh"] = series[s].mesh;
        d["target"] = series[s].target;
        d["weights"] = owned_array(std::move(weights[s]), {n});
        jseries.append(d);
    }
    // The keys of `rigscope drive --format json` (src/io/writers/drive_output.cpp), arrays as numpy.
    py::dict out;
    out["rigscope"] = RIGSCOPE_VERSION;
    out["command"] = "drive";
    out["input"] = opt_.file;
    out["rig"] = path;
    out["clip"] = in_.clip_ptr() ? py::object(py::str(in_.clip_ptr()->name)) : py::none();
    out["fps"] = in_.fps;
    out["frames"] = frame_labels(in_.frames);
    out["times"] = frame_times(in_.frames);
    out["controls"] = jcontrols;
    out["series"] = jseries;
    return out;
}

py::object Session::baked(const std::vector<std::uint32_t>& vertices, const std::vector<std::vector<BakedTransform>>& frames) {
    const std::size_t nf = frames.size(), nv = vertices.size();
    std::vector<double> pos(nf * nv * 3), rot(nf * nv * 4);
    for (std::size_t f = 0; f < nf; ++f)
        for (std::size_t i = 0; i < nv; ++i) {
            const BakedTransform& b = frames[f][i];
            for (int c = 0; c < 3; ++c) pos[(f * nv + i) * 3 + c] = b.position[c];
            const double q[4] = {b.rotation.x(), b.rotation.y(), b.rotation.z(), b.rotation.w()};
            for (int c = 0; c < 4; ++c) rot[(f * nv + i) * 4 + c] = q[c];
        }
    py::dict d;
    d["frames"] = frame_labels(in_.frames);
    d["times"] = frame_times(in_.frames);
    d["vertices"] = vertices;
    d["position"] = owned_array(std::move(pos), {static_cast<py::ssize_t>(nf), static_cast<py::ssize_t>(nv), 3});
    d["rotation"] = owned_array(std::move(rot), {static_cast<py::ssize_t>(nf), static_cast<py::ssize_t>(nv), 4});
    return d;
}

TensionOptions Session::tension_options(const TensionArgs& a) const {
    TensionOptions t;
    t.input = opt_;
    t.reference = given(a.reference ? a.reference : (a.reference_frame ? std::nullopt : reference_), "reference=");
    // The call's reference_match= and reference_scale=, else load()'s.
    if (a.reference_match) t.reference_match = *a.reference_match;
    else if (reference_match_) t.reference_match = *reference_match_;
    if (a.reference_scale) t.reference_scale = *a.reference_scale;
    else if (reference_scale_) t.reference_scale = *reference_scale_;
    // reference_tolerance= is the call's alone (load() takes none): unset, the table's default.
    if (a.reference_tolerance) t.reference_tolerance = *a.reference_tolerance;
    if (a.reference_frame) t.reference_frame = *a.reference_frame;
    if (a.reference && a.reference_frame) throw Error(kExitUsage, "--reference and --reference-frame exclude each other");
    // The maps' keywords through the options table (tension_keywords.h): falloff, ..., smooth_weights.
    RIGSCOPE_TENSION_SET_MAPS
    check_tension_options(t);
    return t;
}

double Session::total_vertices() const {
    double n = 0;
    for (std::size_t i = 0; i < in_.meshes.size(); ++i) n += static_cast<double>(vertex_count(i));
    return n;
}

void Session::check_budget(const char* call, double bytes, std::size_t frames, const char* or_else) const {
    check_result_budget(call, bytes, frames, opt_.max_memory_mib, or_else);
}

std::vector<std::size_t> Session::vertex_counts() const {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < in_.meshes.size(); ++i) out.push_back(vertex_count(i));
    return out;
}

std::vector<std::string> Session::names() const {
    std::vector<std::string> out;
    for (int m : in_.meshes) out.push_back(in_.scene.meshes[m].name);
    return out;
}

namespace {

std::shared_ptr<Session> load(const std::string& file, const std::optional<std::string>& clip, const std::optional<std::string>& animation,
                              const std::optional<std::string>& rig, bool weld, const std::optional<std::string>& mesh,
                              const std::optional<double>& fps, const std::string& retarget, double max_memory, bool allow_outside_uris,
                              unsigned threads, bool rom, const std::optional<std::string>& joints, double rom_angle, int rom_frames,
                              const std::string& skinning, const std::optional<std::string>& cache,
                              const std::optional<std::string>& reference, const std::optional<std::string>& reference_match,
                              const std::optional<double>& reference_scale, const std::string& abc_unit) {
    InputOptions o;
    o.cache = given(cache, "cache=");
    o.file = file;
    o.clip = given(clip, "clip=");
    o.animation = given(animation, "animation=");
    o.rig = given(rig, "rig=");
    o.weld = weld ? "on" : "off";
    o.mesh = given(mesh, "mesh=");
    if (fps) {
        // 0 inside InputOptions means "the file's rate"; given here it is a rate, and out of range.
        if (*fps == 0) throw Error(kExitUsage, "--fps 0: not a frame rate from 1e-06 to 1e+06");
        o.fps = *fps;  // the rest of the range: check_input_options, as for the CLI's chunk records
    }
    o.retarget = retarget;
    o.max_memory_mib = max_memory;
    o.allow_outside_uris = allow_outside_uris;
    o.threads = threads;
    o.rom = rom;
    o.joints = given(joints, "joints=");
    o.rom_options.angle_deg = rom_angle;
    o.rom_options.frames_per_sweep = rom_frames;
    o.skinning = skinning;
    o.abc_unit = abc_unit;
    // The reference keywords are checked here as tension() would (a bad value fails at load,
    // where it was given), and kept for the calls that evaluate T.
    TensionOptions t;
    t.input = o;
    t.reference = given(reference, "reference=");
    if (reference_match) t.reference_match = *reference_match;
    if (reference_scale) t.reference_scale = *reference_scale;
    check_tension_options(t);
    auto s = std::make_shared<Session>(std::move(o));
    s->set_reference(reference, reference_match, reference_scale);
    return s;
}

}  // namespace

// The binding beside the function: its keywords and defaults are the parameters above, in order.
void add_load_call(py::module_& m) {
    m.def("load", &load, py::arg("file"), py::kw_only(), py::arg("clip") = py::none(), py::arg("animation") = py::none(),
          py::arg("rig") = py::none(), py::arg("weld") = true, py::arg("mesh") = py::none(), py::arg("fps") = py::none(),
          py::arg("retarget") = InputOptions{}.retarget, py::arg("max_memory") = InputOptions{}.max_memory_mib, py::arg("allow_outside_uris") = false,
          py::arg("threads") = 0u, py::arg("rom") = false, py::arg("joints") = py::none(), py::arg("rom_angle") = RomOptions{}.angle_deg,
          py::arg("rom_frames") = RomOptions{}.frames_per_sweep, py::arg("skinning") = InputOptions{}.skinning, py::arg("cache") = py::none(), py::arg("reference") = py::none(),
          py::arg("reference_match") = py::none(), py::arg("reference_scale") = py::none(), py::arg("abc_unit") = InputOptions{}.abc_unit,
          "Loads FILE (glTF, FBX, Collada, USD, Alembic, OBJ, PLY) with the CLI's input options; returns a Session");
}

}  // namespace rigscope_python
