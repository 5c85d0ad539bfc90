#include "check_calls.h"

#include <pybind11/stl.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <tuple>

#include "path_args.h"
#include "progress_callback.h"
#include "rigscope/core/error.h"
#include "rigscope/farm/chunk.h"
#include "rigscope/io/output.h"
#include "rigscope/run/check_job.h"
#include "rigscope/run/chunk_run.h"
#include "rigscope/run/merge_job.h"
#include "rigscope/run/output_names.h"
#include "rigscope/run/report_job.h"
#include "rigscope/run/rom_job.h"
#include "session.h"

#ifndef RIGSCOPE_REPORT_VIEWER
#define RIGSCOPE_REPORT_VIEWER ""
#endif

namespace rigscope_python {

// The report page's template travels with the package (python/CMakeLists.txt copies it beside
// the extension, setup.py into the wheel), so a pip-installed module finds it wherever pip put
// it; a build without one falls back to the build tree's. RIGSCOPE_REPORT_BUNDLE overrides both
// (load_report_viewer).
std::string package_viewer() {
    const std::string here = pybind11::module_::import("rigscope").attr("__file__").cast<std::string>();
    const std::string packaged = here.substr(0, here.find_last_of('/') + 1) + "viewer.html";
    return std::ifstream(packaged).good() ? packaged : std::string(RIGSCOPE_REPORT_VIEWER);
}


using namespace rigscope;

namespace {

// check()'s result: the verdict, its failures and the summary `check --json` writes.
struct CheckResult {
    bool passed = false;
    py::list failures;   // one dict per listed offender (limit, mesh, vertices, frame, value, ROM joint/axis)
    py::dict summary;    // check --json's document
    std::string report;  // the CLI's text
    std::string junit;   // the CLI's --junit document
};

py::object json_loads(const std::string& text) { return py::module_::import("json").attr("loads")(text); }

// A float as the text and the JSON show it (its shortest decimal), read as Python reads that
// JSON: 0.1f is 0.1 in Python, not 0.10000000149011612.
double shown_float(float v) {
    std::string s;
    append_number(s, v);
    return std::strtod(s.c_str(), nullptr);
}

std::string chunk_spec(const std::optional<std::pair<int, int>>& chunk) {
    return chunk ? std::to_string(chunk->first) + "/" + std::to_string(chunk->second) : "";
}

}  // namespace

// The session's frames and chunk for one call (--frames, --chunk), restored afterwards.
struct SessionCalls {
    struct Scope {
        Session& s;
        std::vector<Frame> frames;
        int chunk_index, chunk_count;
        Scope(Session& session, const std::string& spec, const std::string& chunk)
            : s(session), frames(session.in_.frames), chunk_index(session.in_.chunk_index), chunk_count(session.in_.chunk_count) {
            s.in_.frames = select_frames(s.in_, spec, s.clip_file());
            if (!chunk.empty()) {
                for_option("--chunk", [&] { parse_chunk_spec(chunk, s.in_.chunk_index, s.in_.chunk_count); });
                s.in_.frames = chunk_frames(s.in_.frames, s.in_.chunk_index, s.in_.chunk_count);
            }
        }
        ~Scope() {
            s.in_.frames = std::move(frames);
            s.in_.chunk_index = chunk_index;
            s.in_.chunk_count = chunk_count;
        }
    };

    static TensionOptions tension(Session& s, const TensionArgs& args, const std::optional<std::pair<int, int>>& chunk) {
        if (args.auto_range) throw Error(kExitUsage, "auto_range sets a map's thresholds; check and report judge T itself");
        TensionOptions t = s.tension_options(args);
        t.input.frames = args.frames.value_or("");
        t.input.chunk = chunk_spec(chunk);
        return t;
    }

    static CheckResult check(Session& s, CheckJobOptions opt, const std::string& junit, const py::object& progress) {
        const RunStart start;  // the call's time, as the CLI's counts from its start
        opt.validate();
        std::lock_guard<std::recursive_mutex> lock(s.mutex_);
        // A chunk's record is begun before its run (a stale one removed) and written after,
        // as the CLI's (run/chunk_run.h).
        const bool chunked = !opt.tension.input.chunk.empty();
        if (chunked && junit.empty())
            throw Error(kExitUsage, "check with chunk= needs junit=FILE: merge joins the chunks' reports from the records beside them");
        // The identity is the run layer's, from the job's options (chunk_identity), as the
        // CLI's: either front end's chunks merge with the other's.
        opt.junit = junit;
        ChunkRecord record;
        if (chunked) record = begin_chunk(chunk_spec(opt), RIGSCOPE_VERSION);
        Scope scope(s, opt.tension.input.frames, opt.tension.input.chunk);
        CheckJobResult r;
        {
            py::gil_scoped_release release;
            r = run_check(opt, s.in_, python_progress(progress), start);
        }
        if (!junit.empty()) {
            OutputFile file(junit, r.paths);
            file.write(r.outcome.junit);
            file.commit();
        }
        if (chunked) finish_chunk(std::move(record), r.chunk_state());
        CheckResult out;
        out.passed = !r.outcome.failed;
        out.report = r.outcome.report;
        out.junit = r.outcome.junit;
        out.summary = json_loads(r.outcome.json);
        // From the verdict itself, the rows check --json lists (check_listed_failures), not
        // parsed back from that text.
        // Every clip judged (issue 57), each row naming its clip.
        for (const CheckClipResult& clip : r.clips)
        for (const CheckListedFailure& row : check_listed_failures(clip.verdict, clip.meshes, clip.has_rom ? &clip.rom : nullptr)) {
            py::dict f;
            f["clip"] = clip.clip;
            f["mesh"] = row.mesh->name;
            f["mesh_index"] = row.failure->mesh;
            f["vertices"] = std::vector<std::uint32_t>(row.ids, row.ids + row.id_count);
            f["frame"] = row.failure->frame.bind ? py::object(py::str("bind")) : py::object(py::int_(row.failure->frame.number));
            f["value"] = shown_float(row.failure->value);
            if (row.sweep) {
                f["joint"] = row.sweep->joint;
                f["axis"] = rom_axis_name(row.sweep->axis);
                f["angle_deg"] = row.angle_deg;
            }
            f["limit"] = row.limit;
            out.failures.append(f);
        }
        return out;
    }

    // clip= None: load()'s clip= (every clip by default, as `rigscope report`), "all", or one.
    static ReportResult report(Session& s, TensionOptions topt, ReportOptions ropt, const std::optional<std::string>& clip,
                               const py::object& progress) {
        ReportJobOptions opt;
        opt.tension = std::move(topt);
        opt.report = std::move(ropt);
        opt.report.viewer = package_viewer();
        if (clip) opt.tension.input.clip = given(clip, "clip=");
        opt.validate();
        std::lock_guard<std::recursive_mutex> lock(s.mutex_);
        const ClipPlan plan = plan_clips(s.in_, opt.tension.input, true);
        ClipRestore restore(s.in_);
        py::gil_scoped_release release;
        // One clip: the session's input holds its frames as the CLI's load would (the loaded
        // motion, --rom's or a cache's, keeps its clip: only the call's frames); several: the
        // job selects each in turn.
        if (plan.indices.size() == 1) {
            if (plan.indices.front() >= 0) use_clip(s.in_, opt.tension.input, plan.indices.front());
            else s.in_.frames = select_frames(s.in_, opt.tension.input.frames, s.clip_file());
        }
        return run_report(opt, s.in_, python_progress(progress));
    }

    // The sweep options default to the session's (load(rom_angle=...)).
    static RomJobResult rom(Session& s, const std::string& out, std::optional<double> angle, std::optional<int> frames,
                            std::optional<std::string> joints) {
        RomJobOptions opt;
        opt.input = s.opt_;
        if (angle) opt.input.rom_options.angle_deg = *angle;
        if (frames) opt.input.rom_options.frames_per_sweep = *frames;
        if (joints) opt.input.joints = *joints;
        opt.out = out;
        std::lock_guard<std::recursive_mutex> lock(s.mutex_);
        opt.validate();  // a bad out= before the plan's own refusals, as the CLI's order
        // The plan as --rom makes it (the same checks and messages), over the scene in memory.
        return run_rom(opt, input_from_scene(s.in_.scene, rom_input_options(opt)));
    }
};

void set_check_limits(CheckJobOptions& opt, const std::optional<double>& max_stretch, const std::optional<double>& max_compress,
                      const std::optional<double>& max_lambda, const std::optional<double>& min_lambda) {
    opt.max_stretch = max_stretch;
    opt.max_compress = max_compress;
    opt.max_lambda = max_lambda;
    opt.min_lambda = min_lambda;
}

void add_check_calls(py::module_& m) {
    py::class_<CheckResult>(m, "CheckResult", "check()'s verdict: passed, failures, summary (check --json), report, junit")
        .def_readonly("passed", &CheckResult::passed)
        .def_readonly("failures", &CheckResult::failures)
        .def_readonly("summary", &CheckResult::summary)
        .def_readonly("report", &CheckResult::report)
        .def_readonly("junit", &CheckResult::junit)
        .def("__bool__", [](const CheckResult& r) { return r.passed; })
        .def("__repr__", [](const CheckResult& r) { return std::string("<rigscope.CheckResult ") + (r.passed ? "PASS" : "FAIL") + ">"; });

    auto session = py::reinterpret_borrow<py::class_<Session, std::shared_ptr<Session>>>(m.attr("Session"));
    session.def(
        "check",
        [](Session& s, std::optional<double> max_stretch, std::optional<double> max_compress, std::optional<double> max_lambda,
           std::optional<double> min_lambda, std::optional<double> max_volume_loss, std::optional<long> max_intersections, int worst,
           std::optional<std::string> frames,
           std::optional<std::pair<int, int>> chunk, RIGSCOPE_TENSION_PARAMS std::optional<std::string> html, std::optional<std::string> junit,
           std::optional<std::string> clip, const py::object& progress) {
            CheckJobOptions opt;
            opt.tension = SessionCalls::tension(s, TensionArgs{{RIGSCOPE_TENSION_KEYWORDS_OF}, frames, std::nullopt}, chunk);
            // clip= (issue 57): "all" or None (the session's, by default every clip), or one
            // clip by name or index, as the CLI's --clip.
            if (clip) opt.tension.input.clip = given(clip, "clip=");
            set_check_limits(opt, max_stretch, max_compress, max_lambda, min_lambda);
            opt.max_volume_loss = max_volume_loss;  // issue 59: the CLI's --max-volume-loss
            opt.max_intersections = max_intersections;  // and --max-intersections
            opt.worst = worst;
            const std::string junit_path = given(junit, "junit=");
            refuse_misnamed_output("junit=", junit_path);  // a JUnit report named x.json
            if (html) {
                opt.html.out = given(html, "html=");
                if (!junit_path.empty()) rigscope::check_output_paths({{"html=", opt.html.out}, {"junit=", junit_path}});
                opt.html.viewer = package_viewer();
            }
            return SessionCalls::check(s, opt, junit_path, progress);
        },
        py::kw_only(), py::arg("max_stretch") = py::none(), py::arg("max_compress") = py::none(), py::arg("max_lambda") = py::none(),
        py::arg("min_lambda") = py::none(), py::arg("max_volume_loss") = py::none(), py::arg("max_intersections") = py::none(),
        py::arg("worst") = CheckJobOptions{}.worst,
        py::arg("frames") = py::none(), py::arg("chunk") = py::none(),
        RIGSCOPE_TENSION_PYARGS py::arg("html") = py::none(), py::arg("junit") = py::none(), py::arg("clip") = py::none(),
        py::arg("progress") = py::none(),
        "Rig CI: T (and with measure='principal', lambda) limits over the frames of every clip (clip='all', the default) or one "
        "(clip=NAME), as `rigscope check`; returns a CheckResult");
    session.def(
        "report",
        [](Session& s, const std::string& path, int worst, double max_size, std::optional<std::string> frames,
           RIGSCOPE_TENSION_PARAMS std::optional<std::string> clip, const py::object& progress) {
            const TensionOptions topt = SessionCalls::tension(s, TensionArgs{{RIGSCOPE_TENSION_KEYWORDS_OF}, frames, std::nullopt}, std::nullopt);
            ReportOptions ropt;
            ropt.out = path;
            ropt.worst = worst;
            ropt.max_mb = max_size;
            const ReportResult r = SessionCalls::report(s, topt, ropt, clip, progress);
            py::dict out;
            out["path"] = r.path;
            out["clips"] = r.clips;
            out["frames"] = r.frames;
            out["shown"] = r.shown;
            out["t_bits"] = r.t_bits;
            out["subsampled"] = r.subsample_reason.empty() ? py::object(py::none()) : py::object(py::str(r.subsample_reason));
            return out;
        },
        py::arg("path"), py::kw_only(), py::arg("worst") = ReportOptions{}.worst, py::arg("max_size") = ReportOptions{}.max_mb, py::arg("frames") = py::none(),
        RIGSCOPE_TENSION_PYARGS py::arg("clip") = py::none(), py::arg("progress") = py::none(),
        "Writes `rigscope report`'s HTML page to PATH (every clip, with a clip menu, unless clip=NAME); returns what it holds");
    session.def(
        "rom",
        [](Session& s, std::optional<std::string> output, std::optional<double> rom_angle, std::optional<int> rom_frames,
           std::optional<std::string> joints) {
            return json_loads(SessionCalls::rom(s, given(output, "output="), rom_angle, rom_frames, joints).json);
        },
        py::kw_only(), py::arg("output") = py::none(), py::arg("rom_angle") = py::none(), py::arg("rom_frames") = py::none(),
        py::arg("joints") = py::none(),
        "The range-of-motion clip as `rigscope rom --list json` lists it (a dict); output= also writes it as .glb");

    m.def(
        "merge",
        [](const std::string& out, const std::vector<std::string>& chunks, std::optional<std::string> junit) {
            MergeJobOptions opt;
            opt.out = out;
            opt.chunks = chunks;
            opt.junit = given(junit, "junit=");
            MergeJobResult r;
            {
                py::gil_scoped_release release;
                r = load_and_run_merge(opt);
            }
            py::dict d;
            d["command"] = r.command;
            d["chunks"] = r.chunks;
            d["passed"] = r.verdict ? py::object(py::bool_(!r.failed)) : py::object(py::none());
            d["report"] = r.verdict ? py::object(py::str(r.report)) : py::object(py::none());
            return d;
        },
        py::arg("out"), py::arg("chunks"), py::kw_only(), py::arg("junit") = py::none(),
        "Joins --chunk outputs into what one run would have written, as `rigscope merge OUT CHUNK...`");
}

}  // namespace rigscope_python
