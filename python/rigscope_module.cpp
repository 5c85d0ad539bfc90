// The Python module `rigscope`: the run layer (rigscope/run) for pipeline scripts. Option names
// and defaults are the CLI's; errors carry the CLI's messages, one exception class per exit code;
// arrays are handed to numpy from the C++ buffers they were computed in (no per-vertex copy),
// and the GIL is released while frames are evaluated. docs/python.md has examples.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <cstring>
#include <xmmintrin.h>
#include <memory>
#include <mutex>
#include <optional>

#include "rigscope/core/error.h"
#include "rigscope/core/parallel.h"
#include "rigscope/core/tension.h"
#include "rigscope/core/vertex_list.h"
#include "rigscope/io/info_report.h"
#include "rigscope/io/rig_reader.h"
#include "rigscope/run/deform_run.h"
#include "rigscope/run/drive_run.h"
#include "rigscope/run/input.h"
#include "rigscope/run/rivet_run.h"
#include "rigscope/run/tension_run.h"
#include "prefault.h"

namespace py = pybind11;
using namespace rigscope;

namespace {

// A float array that a run fills once and numpy then owns, not cleared first: every element is
// written before Python sees it. (Huge pages were tried: past a few hundred MB the kernel's
// compaction for them made the first touch slower, not faster.)
class FloatArray {
public:
    FloatArray() = default;
    explicit FloatArray(std::size_t n) : data_(new float[n]), size_(n) {}
    float* data() { return data_.get(); }
    std::size_t size() const { return size_; }
    float* release() { return data_.release(); }

private:
    std::unique_ptr<float[]> data_;
    std::size_t size_ = 0;
};

py::array_t<float> owned_array(FloatArray&& data, std::vector<py::ssize_t> shape) {
    float* held = data.release();
    py::capsule owner(held, [](void* p) { delete[] static_cast<float*>(p); });
    return py::array_t<float>(shape, held, owner);
}

// A float32 numpy array over `data`, which the array then owns: the values are not copied.
py::array_t<float> owned_array(std::vector<float>&& data, std::vector<py::ssize_t> shape) {
    auto* held = new std::vector<float>(std::move(data));
    py::capsule owner(held, [](void* p) { delete static_cast<std::vector<float>*>(p); });
    return py::array_t<float>(shape, held->data(), owner);
}

py::array_t<double> owned_array(std::vector<double>&& data, std::vector<py::ssize_t> shape) {
    auto* held = new std::vector<double>(std::move(data));
    py::capsule owner(held, [](void* p) { delete static_cast<std::vector<double>*>(p); });
    return py::array_t<double>(shape, held->data(), owner);
}

py::object frame_label(const Frame& f) {
    if (f.bind) return py::str("bind");
    return py::int_(f.number);
}

py::list frame_labels(const std::vector<Frame>& frames) {
    py::list out;
    for (const Frame& f : frames) out.append(frame_label(f));
    return out;
}

py::array_t<double> frame_times(const std::vector<Frame>& frames) {
    std::vector<double> t;
    for (const Frame& f : frames) t.push_back(f.time);
    return owned_array(std::move(t), {static_cast<py::ssize_t>(t.size())});
}

// A call's result arrays against the session's memory budget (load's max_memory, the CLI's
// --max-memory): a frame range or rate that needs more is refused before anything is allocated,
// instead of failing in the allocator or in the kernel's OOM killer.
void check_result_budget(const std::string& call, double bytes, std::size_t frames, double budget_mib, const char* or_else) {
    const double mib = bytes / (1024.0 * 1024.0);
    if (!(mib > budget_mib)) return;
    throw Error(kExitUsage, call + ": its arrays need " + std::to_string(static_cast<long long>(std::ceil(mib))) + " MiB for " +
                                std::to_string(frames) + " frames, more than max_memory (" +
                                std::to_string(static_cast<long long>(budget_mib)) + " MiB): select fewer frames (frames=), raise max_memory" +
                                or_else);
}

// What runs after each frame of a call: a pending Ctrl-C (SIGINT) stops the run there with
// KeyboardInterrupt, and `callback(done, total)` is called unless it is None. The evaluation has
// released the GIL; both need it. The callback is held by reference: copies of the std::function
// are made and dropped without the GIL, where a Python reference count must not change.
FrameProgress python_progress(const py::object& callback) {
    return [&callback](std::size_t done, std::size_t total) {
        py::gil_scoped_acquire gil;
        if (PyErr_CheckSignals() != 0) throw py::error_already_set();
        if (!callback.is_none()) callback(done, total);
    };
}

// The maps of a whole tension() run per mesh. Its arrays and facts are plain attributes;
// compress and stretch are worked out from t (edge) or t_area (area) the first time they are
// read, with the run's remap: a script that wants only T (a plot, a limit in CI) never pays for
// two more (frames, vertices) arrays, 1 GB at 231 frames of the bench tube. That source array is
// read-only, so that the maps always belong to it. Principal's maps come from 1 / lambda, which
// is not returned: they are filled with the run.
class TensionResult {
public:
    TensionResult(py::object source, const TensionRemap& remap, unsigned threads)
        : source_(std::move(source)), remap_(remap), threads_(threads) {}

    void set_maps(py::object compress, py::object stretch) { compress_ = std::move(compress), stretch_ = std::move(stretch); }
    py::object compress() { return map(compress_, true); }
    py::object stretch() { return map(stretch_, false); }

private:
    py::object map(py::object& cached, bool compress) {
        if (!cached.is_none()) return cached;
        const auto src = source_.cast<py::array_t<float, py::array::c_style>>();
        const float* in = src.data();
        const std::size_t n = static_cast<std::size_t>(src.size());
        FloatArray out(n);
        {
            py::gil_scoped_release release;
            constexpr std::size_t kBlock = 1 << 16;
            float* o = out.data();
            ThreadPool pool(threads_);
            run_tasks(&pool, (n + kBlock - 1) / kBlock, [&](std::size_t b) {
                const std::size_t begin = b * kBlock, len = std::min(kBlock, n - begin);
                if (compress) remap_.compress(in + begin, len, o + begin);
                else remap_.stretch(in + begin, len, o + begin);
            });
        }
        cached = owned_array(std::move(out), std::vector<py::ssize_t>(src.shape(), src.shape() + src.ndim()));
        return cached;
    }

    py::object source_;
    TensionRemap remap_;
    unsigned threads_;
    py::object compress_ = py::none(), stretch_ = py::none();
};

py::object namespace_of(py::dict fields) { return py::module_::import("types").attr("SimpleNamespace")(**fields); }

// One value per selected mesh: the value itself when one mesh is selected, else a dict by name.
py::object per_mesh(const std::vector<std::string>& names, const std::vector<py::object>& values) {
    if (values.size() == 1) return values[0];
    py::dict d;
    for (std::size_t i = 0; i < names.size(); ++i) d[py::str(names[i])] = values[i];
    return d;
}

// The tension keyword arguments of tension() and iter_tension(), as the CLI's options.
struct TensionArgs {
    std::optional<std::string> frames, reference, measure, smooth_weights;
    std::optional<long> reference_frame;
    double falloff, stretch_area, compress_area, weight_limit, smooth_k;
    int smooth;
    std::optional<double> auto_range;
};

class Session {
public:
    Session(InputOptions opt) : opt_(std::move(opt)) {
        py::gil_scoped_release release;
        in_ = load_input(opt_);
    }

    py::object info() const {
        const std::string text = info_json(in_.scene, in_.meshes, in_.weld);
        return py::module_::import("json").attr("loads")(text);
    }

    py::object deform(const std::optional<std::string>& frames, const py::object& progress) {
        std::lock_guard<std::mutex> lock(mutex_);
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
            const rigscope_python::Prefault prefault(std::move(ranges));
            DeformRun run(in_);
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

    py::object tension(const TensionArgs& args, const py::object& progress) {
        std::lock_guard<std::mutex> lock(mutex_);
        Selection sel(*this, args.frames);
        const TensionOptions topt = tension_options(args);
        const std::size_t nf = in_.frames.size();
        std::vector<MeshTension> meshes;
        TensionRun run;
        Columns cols;
        {
            const Measure measure = topt.measure_options().measure;
            check_budget("tension()", sizeof(float) * Columns::floats_per_vertex(measure, true) * nf * total_vertices(), nf,
                         ", or stream with iter_tension()");
            py::gil_scoped_release release;
            cols.reserve(vertex_counts(), measure, nf, true);
            // Before the meshes' preparation, which runs on one core: the other pages in.
            const rigscope_python::Prefault prefault(cols.ranges());
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
        return cols.result(*this, meshes, run);
    }

    py::object rivets(const std::vector<std::uint32_t>& ids, const std::optional<std::string>& joint,
                      const std::optional<std::string>& frames, bool bake, const py::object& progress) {
        std::lock_guard<std::mutex> lock(mutex_);
        Selection sel(*this, frames);
        const int mesh = rivet_mesh(in_, opt_.mesh);
        // Through the CLI's vertex list, so that range checks, repeats and messages are the CLI's.
        std::string spec;
        for (std::uint32_t v : ids) spec += (spec.empty() ? "" : ",") + std::to_string(v);
        const std::size_t n = in_.scene.meshes[mesh].vertex_count();
        const std::vector<std::uint32_t> vertices = for_option("--vertices", [&] { return parse_vertex_list(spec, n); });
        if (bake && joint) throw Error(kExitUsage, "--joint chooses the joint of a fitted rivet; a baked rivet (--bake) follows no joint");
        if (bake) return baked(mesh, vertices, progress);
        std::vector<RivetResult> fits;
        {
            py::gil_scoped_release release;
            fits = fit_rivets(in_, mesh, vertices, joint.value_or(""), python_progress(progress));
        }
        const Scene& s = in_.scene;
        py::list out;
        for (const RivetResult& r : fits) {
            py::dict d;
            d["vertex"] = r.vertex;
            d["joint"] = s.nodes[r.joint].name;
            const int parent = s.nodes[r.joint].parent;
            d["parent"] = parent >= 0 ? py::object(py::str(s.nodes[parent].name)) : py::none();
            py::list inf;
            for (const RivetInfluence& i : r.influences) inf.append(py::make_tuple(s.nodes[i.joint].name, i.weight));
            d["influences"] = inf;
            auto vec = [](const Eigen::Vector3d& v) { return owned_array(std::vector<double>{v.x(), v.y(), v.z()}, {3}); };
            d["analytic"] = r.analytic ? py::object(vec(*r.analytic)) : py::none();
            d["pivot_world"] = vec(r.pivot_world);
            d["pivot_parent"] = vec(r.fit.pivot_parent);
            d["offset"] = vec(r.fit.offset);
            d["rank"] = r.fit.rank;
            d["rms_error"] = r.fit.rms_error;
            d["max_error"] = r.fit.max_error;
            out.append(d);
        }
        return out;
    }

    py::object drive(const std::optional<std::string>& rig_path, const std::optional<std::string>& frames, const py::object& progress) {
        std::lock_guard<std::mutex> lock(mutex_);
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
            DriveRun run(in_);
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
        py::dict out;
        out["frames"] = frame_labels(in_.frames);
        out["times"] = frame_times(in_.frames);
        out["controls"] = jcontrols;
        out["series"] = jseries;
        return out;
    }

    // Streaming: one frame at a time, constant memory.
    class TensionFrames {
    public:
        TensionFrames(std::shared_ptr<Session> s, const TensionArgs& args) : s_(std::move(s)) {
            std::lock_guard<std::mutex> lock(s_->mutex_);
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

        py::object next() {
            if (next_ >= frames_.size()) throw py::stop_iteration();
            std::lock_guard<std::mutex> lock(s_->mutex_);
            Selection sel(*s_, frames_);
            Columns cols;
            {
                py::gil_scoped_release release;
                cols.reserve(s_->vertex_counts(), run_.measure.measure, 1, false);
                evaluate_tension_frame(s_->in_, meshes_, next_, pose_, pool_.get());
                cols.take(meshes_, run_, 0, pool_.get());
            }
            const Frame f = frames_[next_++];
            return py::make_tuple(frame_label(f), cols.frame_result(*s_, meshes_, run_));
        }

    private:
        std::shared_ptr<Session> s_;
        std::vector<Frame> frames_;
        std::vector<MeshTension> meshes_;
        TensionRun run_;
        Pose pose_;
        std::unique_ptr<ThreadPool> pool_;
        std::size_t next_ = 0;
    };

private:
    // The session's frames for one call (--frames; None: the clip's), restored afterwards.
    struct Selection {
        Session& s;
        std::vector<Frame> saved;
        Selection(Session& session, const std::optional<std::string>& spec) : s(session), saved(session.in_.frames) {
            s.in_.frames = select_frames(s.in_, spec.value_or(""), s.clip_file());
        }
        Selection(Session& session, const std::vector<Frame>& frames) : s(session), saved(session.in_.frames) { s.in_.frames = frames; }
        ~Selection() { s.in_.frames = std::move(saved); }
    };

    // Per file vertex and frame, as the CLI's CSV has them.
    struct Columns {
        struct Mesh {
            FloatArray t, compress, stretch, t_area, lambda_max, lambda_min, dir;
        };
        std::vector<Mesh> meshes;
        std::size_t frames = 0;

        // lazy_maps: leave compress and stretch to TensionResult where the array they come from is
        // one returned anyway (t for edge, t_area for area); principal's 1 / lambda is not.
        // Floats reserve holds per vertex and frame.
        static std::size_t floats_per_vertex(Measure measure, bool lazy_maps) {
            std::size_t n = 1;                                                  // t
            if (!lazy_maps || measure == Measure::principal) n += 2;            // compress, stretch
            if (measure == Measure::area) n += 1;                               // t_area
            if (measure == Measure::principal) n += 5;                          // lambda_max, lambda_min, dir
            return n;
        }

        void reserve(const std::vector<std::size_t>& vertex_counts, Measure measure, std::size_t nf, bool lazy_maps) {
            frames = nf;
            meshes.clear();
            meshes.resize(vertex_counts.size());
            for (std::size_t m = 0; m < vertex_counts.size(); ++m) {
                const std::size_t n = vertex_counts[m] * nf;
                Mesh& c = meshes[m];
                c.t = FloatArray(n);
                if (!lazy_maps || measure == Measure::principal) c.compress = FloatArray(n), c.stretch = FloatArray(n);
                if (measure == Measure::area) c.t_area = FloatArray(n);
                if (measure == Measure::principal) c.lambda_max = FloatArray(n), c.lambda_min = FloatArray(n), c.dir = FloatArray(3 * n);
            }
        }

        // Every array's (start, bytes), for Prefault.
        std::vector<std::pair<void*, std::size_t>> ranges() {
            std::vector<std::pair<void*, std::size_t>> out;
            for (Mesh& c : meshes)
                for (FloatArray* a : {&c.t, &c.compress, &c.stretch, &c.t_area, &c.lambda_max, &c.lambda_min, &c.dir})
                    if (a->size()) out.emplace_back(a->data(), a->size() * sizeof(float));
            return out;
        }

        void take(const std::vector<MeshTension>& tension, const TensionRun& run, std::size_t fi, ThreadPool* pool) {
            constexpr std::size_t kBlock = 16384;  // vertices per task; blocks write disjoint ranges
            const TensionRemap remap(run.range, run.params);
            for (std::size_t m = 0; m < tension.size(); ++m) {
                const MeshTension& mt = tension[m];
                const std::size_t nv = mt.topo.welded_of.size();
                const std::size_t blocks = (nv + kBlock - 1) / kBlock;
                auto block = [&](std::size_t b) { take_block(mt, remap, meshes[m], fi, b * kBlock, std::min(nv, (b + 1) * kBlock)); };
                run_tasks(pool, blocks, block);
            }
        }

        // T alone, through the welding. The run's arrays are written once and read by Python long
        // after: streaming stores skip reading each cache line of the fresh array before writing it.
        static void take_t(const std::uint32_t* welded, const float* tw, float* pt, std::size_t begin, std::size_t end) {
            std::size_t v = begin;
            for (; v < end && reinterpret_cast<std::uintptr_t>(pt + v) % 16; ++v) pt[v] = tw[welded[v]];
            for (; v + 4 <= end; v += 4)
                _mm_stream_ps(pt + v, _mm_setr_ps(tw[welded[v]], tw[welded[v + 1]], tw[welded[v + 2]], tw[welded[v + 3]]));
            for (; v < end; ++v) pt[v] = tw[welded[v]];
            _mm_sfence();  // the streamed stores are visible before the pool reports the block done
        }

        // T and both maps by runs of vertices: T gathered through the welding, then each map in
        // one vectorised loop.
        static void take_maps(const TensionRemap& remap, const std::uint32_t* welded, const float* tw, const float* tc,
                              const float* ts, float* pt, float* pc, float* ps, std::size_t begin, std::size_t end) {
            constexpr std::size_t kRun = 512;
            float gc[kRun], gs[kRun];
            for (std::size_t v0 = begin; v0 < end; v0 += kRun) {
                const std::size_t n = std::min(kRun, end - v0);
                for (std::size_t i = 0; i < n; ++i) {
                    const std::uint32_t w = welded[v0 + i];
                    pt[v0 + i] = tw[w];
                    gc[i] = tc[w];
                    gs[i] = ts[w];
                }
                remap.compress(gc, n, pc + v0);
                remap.stretch(gs, n, ps + v0);
            }
        }

        // One loop per kind of column, so that the maps' loop has no branch and vectorises.
        static void take_block(const MeshTension& mt, const TensionRemap& remap, Mesh& c, std::size_t fi, std::size_t begin,
                               std::size_t end) {
            const std::size_t nv = mt.topo.welded_of.size();
            const std::uint32_t* welded = mt.topo.welded_of.data();
            const float* tw = mt.t.data();
            const float* tc = mt.compress_t().data();
            const float* ts = mt.stretch_t().data();
            float* pt = c.t.data() + fi * nv;
            if (!c.compress.size()) {
                take_t(welded, tw, pt, begin, end);
            } else {
                take_maps(remap, welded, tw, tc, ts, pt, c.compress.data() + fi * nv, c.stretch.data() + fi * nv, begin, end);
            }
            if (mt.measure.measure == Measure::area) {
                float* pa = c.t_area.data() + fi * nv;
                for (std::size_t v = begin; v < end; ++v) pa[v] = mt.t_area[welded[v]];
            } else if (mt.measure.measure == Measure::principal) {
                float* pmax = c.lambda_max.data() + fi * nv;
                float* pmin = c.lambda_min.data() + fi * nv;
                float* pd = c.dir.data() + 3 * fi * nv;
                for (std::size_t v = begin; v < end; ++v) {
                    const std::uint32_t w = welded[v];
                    pmax[v] = mt.lambda_max[w];
                    pmin[v] = mt.lambda_min[w];
                    for (int k = 0; k < 3; ++k) pd[3 * v + k] = mt.compress_dir[3 * w + k];
                }
            }
        }

        // Arrays shaped (frames, vertices) for a whole run, (vertices,) for one frame.
        py::dict fields(std::size_t m, const MeshTension& mt, bool one_frame) {
            const auto nv = static_cast<py::ssize_t>(mt.topo.welded_of.size());
            const auto nf = static_cast<py::ssize_t>(frames);
            auto shape = [&](std::vector<py::ssize_t> tail) {
                std::vector<py::ssize_t> s;
                if (!one_frame) s.push_back(nf);
                s.insert(s.end(), tail.begin(), tail.end());
                return s;
            };
            Mesh& c = meshes[m];
            py::dict d;
            d["t"] = owned_array(std::move(c.t), shape({nv}));
            if (c.compress.size()) {
                d["compress"] = owned_array(std::move(c.compress), shape({nv}));
                d["stretch"] = owned_array(std::move(c.stretch), shape({nv}));
            }
            const Measure measure = mt.measure.measure;
            if (measure == Measure::area) d["t_area"] = owned_array(std::move(c.t_area), shape({nv}));
            if (measure == Measure::principal) {
                d["lambda_max"] = owned_array(std::move(c.lambda_max), shape({nv}));
                d["lambda_min"] = owned_array(std::move(c.lambda_min), shape({nv}));
                d["compress_dir"] = owned_array(std::move(c.dir), shape({nv, 3}));
            }
            return d;
        }

        py::object result(Session& s, const std::vector<MeshTension>& meshes, const TensionRun& run) {
            std::vector<py::object> out;
            for (std::size_t m = 0; m < meshes.size(); ++m) {
                py::dict d = fields(m, meshes[m], false);
                d["mesh"] = s.in_.scene.meshes[meshes[m].mesh].name;
                d["frames"] = frame_labels(s.in_.frames);
                d["times"] = frame_times(s.in_.frames);
                d["t_s"] = run.range.t_s;
                d["t_c"] = run.range.t_c;
                const bool lazy = !d.contains("compress");
                py::object source = py::none();
                if (lazy) source = d[meshes[m].measure.measure == Measure::area ? "t_area" : "t"];
                if (lazy) source.attr("flags").attr("writeable") = false;
                py::object r = py::cast(TensionResult(source, TensionRemap(run.range, run.params), s.in_.threads));
                if (!lazy) {
                    r.cast<TensionResult&>().set_maps(d["compress"], d["stretch"]);
                    PyDict_DelItemString(d.ptr(), "compress");
                    PyDict_DelItemString(d.ptr(), "stretch");
                }
                for (auto item : d) py::setattr(r, item.first, item.second);
                out.push_back(r);
            }
            return per_mesh(s.names(), out);
        }

        py::object frame_result(Session& s, const std::vector<MeshTension>& meshes, const TensionRun&) {
            std::vector<py::object> out;
            for (std::size_t m = 0; m < meshes.size(); ++m) out.push_back(namespace_of(fields(m, meshes[m], true)));
            return per_mesh(s.names(), out);
        }
    };

    py::object baked(int mesh, const std::vector<std::uint32_t>& vertices, const py::object& progress) {
        check_budget("rivets(bake=True)", (7.0 * sizeof(double) + sizeof(BakedTransform)) * in_.frames.size() * vertices.size(),
                     in_.frames.size(), "");
        std::vector<std::vector<BakedTransform>> frames;
        {
            py::gil_scoped_release release;
            frames = bake_rivets(in_, mesh, vertices, python_progress(progress));
        }
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

    TensionOptions tension_options(const TensionArgs& a) const {
        TensionOptions t;
        t.input = opt_;
        if (a.reference) t.reference = *a.reference;
        if (a.reference_frame) {
            t.reference_frame = *a.reference_frame;
            t.has_reference_frame = true;
        }
        if (a.reference && a.reference_frame) throw Error(kExitUsage, "--reference and --reference-frame exclude each other");
        t.params.falloff = a.falloff;
        t.params.stretch_area = a.stretch_area;
        t.params.compress_area = a.compress_area;
        t.params.weight_limit = a.weight_limit;
        t.params.smooth_k = a.smooth_k;
        t.measure = a.measure.value_or("edge");
        t.smooth = a.smooth;
        t.smooth_weights = a.smooth_weights.value_or("uniform");
        check_tension_options(t);
        return t;
    }

    std::string clip_file() const { return opt_.animation.empty() ? opt_.file : opt_.animation; }
    std::size_t vertex_count(std::size_t i) const { return in_.scene.meshes[in_.meshes[i]].vertex_count(); }
    double total_vertices() const {
        double n = 0;
        for (std::size_t i = 0; i < in_.meshes.size(); ++i) n += static_cast<double>(vertex_count(i));
        return n;
    }

    void check_budget(const char* call, double bytes, std::size_t frames, const char* or_else) const {
        check_result_budget(call, bytes, frames, opt_.max_memory_mib, or_else);
    }

    std::vector<std::size_t> vertex_counts() const {
        std::vector<std::size_t> out;
        for (std::size_t i = 0; i < in_.meshes.size(); ++i) out.push_back(vertex_count(i));
        return out;
    }
    std::vector<std::string> names() const {
        std::vector<std::string> out;
        for (int m : in_.meshes) out.push_back(in_.scene.meshes[m].name);
        return out;
    }

    InputOptions opt_;
    Input in_;
    std::mutex mutex_;  // calls release the GIL: one evaluation of a session at a time
};

std::shared_ptr<Session> load(const std::string& file, const std::optional<std::string>& clip, const std::optional<std::string>& animation,
                              const std::optional<std::string>& rig, bool weld, const std::optional<std::string>& mesh,
                              const std::optional<double>& fps, const std::string& retarget, double max_memory, bool allow_outside_uris,
                              unsigned threads, bool rom, const std::optional<std::string>& joints, double rom_angle, int rom_frames) {
    InputOptions o;
    o.file = file;
    o.clip = clip.value_or("");
    o.animation = animation.value_or("");
    o.rig = rig.value_or("");
    o.weld = weld ? "on" : "off";
    o.mesh = mesh.value_or("");
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
    o.joints = joints.value_or("");
    o.rom_options.angle_deg = rom_angle;
    o.rom_options.frames_per_sweep = rom_frames;
    return std::make_shared<Session>(std::move(o));
}

}  // namespace

PYBIND11_MODULE(rigscope, m) {
    m.doc() = "rigscope: tension maps, rivets and joystick drivers for skinned, animated meshes (FBX, glTF)";
    m.attr("__version__") = RIGSCOPE_VERSION;

    // One class per exit code of the CLI (README: exit codes), under one base.
    static py::exception<Error> base(m, "Error");
    static py::exception<Error> usage(m, "BadValueError", base.ptr());
    static py::exception<Error> bad_input_error(m, "BadInputError", base.ptr());
    static py::exception<Error> cannot_write(m, "CannotWriteError", base.ptr());
    static py::exception<Error> mismatch(m, "MismatchError", base.ptr());
    static py::exception<Error> internal(m, "InternalError", base.ptr());
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const Error& e) {
            switch (e.code()) {
                case kExitUsage: usage(e.what()); return;
                case kExitBadInput: bad_input_error(e.what()); return;
                case kExitCannotWrite: cannot_write(e.what()); return;
                case kExitMismatch: mismatch(e.what()); return;
                case kExitInternal: internal(e.what()); return;
                default: base(e.what()); return;
            }
        } catch (const std::length_error& e) {
            bad_input_error(e.what());  // a size past what a container holds: a count in the input
        } catch (const std::logic_error& e) {
            internal((std::string("internal error: ") + e.what() + " (please report it)").c_str());
        }
    });

    py::class_<TensionResult>(m, "TensionResult", py::dynamic_attr(),
                              "tension()'s maps of one mesh: t, frames, times, mesh, t_s, t_c, the measure's arrays; "
                              "compress and stretch are worked out when first read")
        .def_property_readonly("compress", &TensionResult::compress, "float32 (frames, vertices), worked out when first read")
        .def_property_readonly("stretch", &TensionResult::stretch, "float32 (frames, vertices), worked out when first read");
    py::class_<Session::TensionFrames>(m, "TensionFrames")
        .def("__iter__", [](Session::TensionFrames& it) -> Session::TensionFrames& { return it; })
        .def("__next__", &Session::TensionFrames::next);

    auto tension_args = [](std::optional<std::string> frames, std::optional<std::string> reference, std::optional<long> reference_frame,
                           double falloff, double stretch_area, double compress_area, double weight_limit, double smooth_k,
                           std::optional<std::string> measure, int smooth, std::optional<std::string> smooth_weights,
                           std::optional<double> auto_range) {
        return TensionArgs{frames, reference, measure, smooth_weights, reference_frame, falloff, stretch_area, compress_area,
                           weight_limit, smooth_k, smooth, auto_range};
    };
    const TensionParams defaults;
#define RIGSCOPE_TENSION_ARGS                                                                                                    \
    py::kw_only(), py::arg("frames") = py::none(), py::arg("reference") = py::none(), py::arg("reference_frame") = py::none(),  \
        py::arg("falloff") = defaults.falloff, py::arg("stretch_area") = defaults.stretch_area,                                 \
        py::arg("compress_area") = defaults.compress_area, py::arg("weight_limit") = defaults.weight_limit,                     \
        py::arg("smooth_k") = defaults.smooth_k, py::arg("measure") = "edge", py::arg("smooth") = 0,                            \
        py::arg("smooth_weights") = "uniform", py::arg("auto_range") = py::none()

    py::class_<Session, std::shared_ptr<Session>>(m, "Session")
        .def("info", &Session::info, "The same facts as `rigscope info --json`, as a dict")
        .def("deform", &Session::deform, py::kw_only(), py::arg("frames") = py::none(), py::arg("progress") = py::none(),
             "Deformed positions: float32 (frames, vertices, 3) per mesh")
        .def(
            "tension",
            [tension_args](Session& s, std::optional<std::string> frames, std::optional<std::string> reference,
                           std::optional<long> reference_frame, double falloff, double stretch_area, double compress_area,
                           double weight_limit, double smooth_k, std::optional<std::string> measure, int smooth,
                           std::optional<std::string> smooth_weights, std::optional<double> auto_range, const py::object& progress) {
                return s.tension(tension_args(frames, reference, reference_frame, falloff, stretch_area, compress_area, weight_limit,
                                              smooth_k, measure, smooth, smooth_weights, auto_range),
                                 progress);
            },
            RIGSCOPE_TENSION_ARGS, py::arg("progress") = py::none(), "The tension map per frame: t, compress, stretch as float32 (frames, vertices)")
        .def(
            "iter_tension",
            [tension_args](std::shared_ptr<Session> s, std::optional<std::string> frames, std::optional<std::string> reference,
                           std::optional<long> reference_frame, double falloff, double stretch_area, double compress_area,
                           double weight_limit, double smooth_k, std::optional<std::string> measure, int smooth,
                           std::optional<std::string> smooth_weights, std::optional<double> auto_range) {
                return Session::TensionFrames(s, tension_args(frames, reference, reference_frame, falloff, stretch_area, compress_area,
                                                              weight_limit, smooth_k, measure, smooth, smooth_weights, auto_range));
            },
            RIGSCOPE_TENSION_ARGS, "Yields (frame, maps) one frame at a time, in constant memory")
        .def("rivets", &Session::rivets, py::arg("vertices"), py::kw_only(), py::arg("joint") = py::none(), py::arg("frames") = py::none(),
             py::arg("bake") = false, py::arg("progress") = py::none(), "Rivet fits (list of dicts), or with bake=True per-frame transforms")
        .def("drive", &Session::drive, py::arg("rig") = py::none(), py::kw_only(), py::arg("frames") = py::none(), py::arg("progress") = py::none(),
             "A rig's joystick controls evaluated into morph weights");
#undef RIGSCOPE_TENSION_ARGS

    m.def("load", &load, py::arg("file"), py::kw_only(), py::arg("clip") = py::none(), py::arg("animation") = py::none(),
          py::arg("rig") = py::none(), py::arg("weld") = true, py::arg("mesh") = py::none(), py::arg("fps") = py::none(),
          py::arg("retarget") = "rotation", py::arg("max_memory") = 8192.0, py::arg("allow_outside_uris") = false,
          py::arg("threads") = 0u, py::arg("rom") = false, py::arg("joints") = py::none(), py::arg("rom_angle") = 60.0,
          py::arg("rom_frames") = 24, "Loads FILE (glTF or FBX) with the CLI's input options; returns a Session");
}
