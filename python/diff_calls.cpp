// rigscope.diff(old, new, ...): the run layer's diff (rigscope/run/diff_job.h) with the CLI's
// option names and defaults; the summary is the CLI's JSON "summary", parsed. output= writes the
// CLI's per-vertex file (-o); a chunk needs one, as `diff --chunk` needs -o FILE: merge joins
// the chunks' files, and the record beside each (its identity the run layer's, as the CLI's).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <utility>

#include "arrays.h"
#include "path_args.h"
#include "progress_callback.h"
#include "rigscope/core/error.h"
#include "rigscope/io/output.h"
#include "rigscope/run/chunk_run.h"
#include "rigscope/run/diff_job.h"
#include "rigscope/run/output_formats.h"

namespace rigscope_python {

namespace {

using namespace rigscope;

py::array_t<std::uint32_t> index_array(const std::vector<std::uint32_t>& v) {
    return py::array_t<std::uint32_t>(static_cast<py::ssize_t>(v.size()), v.data());
}

py::object diff(const std::string& old_file, const std::string& new_file, const std::optional<std::string>& frames,
                const std::optional<std::pair<int, int>>& chunk, const std::optional<std::string>& mesh, const std::optional<std::string>& clip,
                const std::optional<double>& fps, bool weld, const std::string& match, const std::optional<double>& match_tolerance,
                const std::optional<std::string>& align, const std::optional<long>& frame_offset, const std::optional<double>& max_displacement,
                const std::optional<double>& max_t_change, int worst, bool rom, const std::optional<std::string>& joints, double rom_angle,
                int rom_frames, double max_memory, bool allow_outside_uris, unsigned threads, const std::optional<std::string>& output,
                const std::optional<std::string>& format, const py::object& progress) {
    DiffJobOptions o;
    o.input.file = old_file;
    o.new_file = new_file;
    o.input.frames = frames.value_or("");
    if (chunk) o.input.chunk = std::to_string(chunk->first) + "/" + std::to_string(chunk->second);
    o.input.mesh = mesh.value_or("");
    o.input.clip = clip.value_or("");
    if (fps) {
        // 0 inside InputOptions means "the file's rate"; given here it is a rate, and out of range.
        if (*fps == 0) throw Error(kExitUsage, "--fps 0: not a frame rate from 1e-06 to 1e+06");
        o.input.fps = *fps;
    }
    o.input.weld = weld ? "on" : "off";
    o.input.rom = rom;
    o.input.joints = joints.value_or("");
    o.input.rom_options.angle_deg = rom_angle;
    o.input.rom_options.frames_per_sweep = rom_frames;
    o.input.max_memory_mib = max_memory;
    o.input.allow_outside_uris = allow_outside_uris;
    o.input.threads = threads;
    o.match = match;
    o.match_tolerance = match_tolerance;
    o.align = align.value_or("");
    o.frame_offset = frame_offset;
    o.max_displacement = max_displacement;
    o.max_t_change = max_t_change;
    o.worst = worst;
    o.out = given(output, "output=");
    if (format && o.out.empty()) throw Error(kExitUsage, "format= is output='s format: give output=FILE");
    o.format = verb_output_format("diff", format.value_or(""), o.out);
    o.validate();
    const bool chunked = !o.input.chunk.empty();
    if (chunked && (o.out.empty() || is_stdout_path(o.out)))
        throw Error(kExitUsage, "diff with chunk= needs output=FILE: merge joins the chunks' files from the records beside them");
    // A chunk's record is begun before its run (a stale one removed) and written after its
    // output, as the CLI's (run/chunk_run.h).
    ChunkRecord record;
    if (chunked) record = begin_chunk(chunk_spec(o), RIGSCOPE_VERSION);

    DiffResult r;
    {
        const FrameProgress each = python_progress(progress);
        py::gil_scoped_release release;
        r = load_and_run_diff(o, each);  // and output=, as the CLI's -o
        if (chunked) finish_chunk(std::move(record), diff_chunk_state(r));
    }
    const CheckOutcome& outcome = r.verdict;
    py::dict meshes;
    for (std::size_t i = 0; i < r.meshes.size(); ++i) {
        DiffMeshResult& m = r.meshes[i];
        const auto shape = std::vector<py::ssize_t>{static_cast<py::ssize_t>(r.frames.size()), static_cast<py::ssize_t>(m.vertex.size())};
        py::dict f;
        f["name"] = m.name;
        f["new_name"] = m.new_name;
        f["diagonal"] = r.extremes[i].diagonal;
        f["vertex"] = index_array(m.vertex);
        f["new_vertex"] = index_array(m.new_vertex);
        f["displacement"] = owned_array(std::move(m.displacement), shape);
        f["t_change"] = owned_array(std::move(m.t_change), shape);
        meshes[py::str(m.name)] = namespace_of(f);
    }
    py::dict out;
    out["meshes"] = meshes;
    // Several clips judged (clip="all", the default): the arrays are the worst clip's, named here;
    // report and passed are over every clip (issue 57).
    out["clip"] = r.limits.clip;
    out["frames"] = frame_labels(r.frames);
    out["times"] = frame_times(r.frames);
    out["frame_offset"] = r.frame_offset;
    out["summary"] = py::module_::import("json").attr("loads")(diff_summary_json(r.limits, r.extremes, r.frame_maxima));
    out["report"] = outcome.report;
    // As the CLI's exit code: a chunk's verdict is partial, and only limits given can fail.
    out["passed"] = !outcome.failed;
    return namespace_of(out);
}

}  // namespace

void add_diff_calls(py::module_& m) {
    m.def("diff", &diff, py::arg("old"), py::arg("new"), py::kw_only(), py::arg("frames") = py::none(), py::arg("chunk") = py::none(),
          py::arg("mesh") = py::none(), py::arg("clip") = py::none(), py::arg("fps") = py::none(), py::arg("weld") = true,
          py::arg("match") = "index", py::arg("match_tolerance") = py::none(), py::arg("align") = py::none(),
          py::arg("frame_offset") = py::none(), py::arg("max_displacement") = py::none(), py::arg("max_t_change") = py::none(),
          py::arg("worst") = DiffJobOptions{}.worst, py::arg("rom") = false, py::arg("joints") = py::none(), py::arg("rom_angle") = RomOptions{}.angle_deg,
          py::arg("rom_frames") = RomOptions{}.frames_per_sweep, py::arg("max_memory") = InputOptions{}.max_memory_mib, py::arg("allow_outside_uris") = false, py::arg("threads") = 0u,
          py::arg("output") = py::none(), py::arg("format") = py::none(), py::arg("progress") = py::none(),
          "`rigscope diff OLD NEW` with the CLI's options: per mesh displacement and t_change as float32 (frames, vertices), "
          "vertex/new_vertex (the file vertices each column stands for), the summary (the CLI's JSON summary) and passed; "
          "output= also writes the CLI's -o file (csv, json or gltf by its extension, or format=), which chunk= needs");
}

}  // namespace rigscope_python
