#include "batch_calls.h"

#include <pybind11/stl.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "check_calls.h"
#include "path_args.h"
#include "rigscope/core/error.h"
#include "rigscope/run/batch.h"

namespace py = pybind11;

namespace rigscope_python {

namespace {

using namespace rigscope;

// A row as the summary's JSON has it, with None where the CSV leaves a field empty.
py::dict row_dict(const BatchRow& w) {
    py::dict d;
    const bool ran = batch_row_ran(w);
    d["file"] = w.relpath;
    d["path"] = w.path;
    if (!w.partner.empty()) d["new"] = w.partner;
    d["status"] = w.status;
    d["exit_code"] = w.exit_code;
    d["frames"] = ran ? py::object(py::int_(w.frames)) : py::object(py::none());
    d["meshes"] = ran ? py::object(py::int_(w.meshes)) : py::object(py::none());
    d["vertices"] = ran ? py::object(py::int_(w.vertices)) : py::object(py::none());
    for (int side = 0; side < 2; ++side) {
        py::object v = py::none();
        if (w.has_t) {
            py::dict e;
            e["value"] = static_cast<double>(static_cast<float>(side ? w.max_t : w.min_t));
            e["mesh"] = side ? w.max_mesh : w.min_mesh;
            e["vertex"] = side ? w.max_vertex : w.min_vertex;
            const std::string& f = side ? w.max_frame : w.min_frame;
            e["frame"] = f == "bind" ? py::object(py::str(f)) : py::object(py::int_(std::stol(f)));
            v = e;
        }
        d[side ? "max_t" : "min_t"] = v;
    }
    py::dict past;
    for (const auto& [limit, n] : w.past) past[py::str(limit)] = n;
    d["past"] = past;
    if (w.has_lint) {
        py::dict l;
        l["errors"] = w.lint_errors;
        l["warnings"] = w.lint_warnings;
        d["lint"] = l;
    } else {
        d["lint"] = py::none();
    }
    d["message"] = w.message.empty() ? py::object(py::none()) : py::object(py::str(w.message));
    d["seconds"] = w.seconds;
    d["peak_mib"] = w.peak_mib;
    return d;
}

// One verb's batch: its job over the files with the GIL released (Python threads run meanwhile;
// the batch calls no Python), then its outputs written (junit=, json=, summary=).
template <typename Job>
BatchResult run_and_write(const BatchOptions& opt, const Job& job, BatchResult (*run)(const BatchOptions&, const Job&)) {
    py::gil_scoped_release release;
    BatchResult r = run(opt, job);
    write_batch_outputs(opt, r);
    return r;
}

// The keywords of rigscope.batch(), as its binding receives them, in the binding's order (the
// binding fills this positionally), so that each step below takes what it reads by name.
struct BatchKeywords {
    std::vector<std::string> paths;
    std::string verb;
    std::optional<double> max_stretch, max_compress, max_lambda, min_lambda;
    std::optional<std::string> measure, frames;
    bool rom, lint, strict;
    std::optional<std::string> mesh;
    unsigned jobs;
    std::optional<std::string> task, junit, json, output, summary, format, against;
    std::optional<double> max_displacement, max_t_change;
    std::optional<std::string> match;
    double max_memory, max_output;
    std::optional<double> max_volume_loss;
    std::optional<long> max_intersections;

    bool limits() const { return max_stretch || max_compress || max_lambda || min_lambda; }
};

// The batch's own options (files, jobs, task and its outputs). diff's keywords are refused on
// another verb first: before an empty path's message, as the CLI's options are checked.
BatchOptions batch_options(const BatchKeywords& k) {
    if (k.verb != "diff" && (k.against || k.max_displacement || k.max_t_change || k.match))
        throw Error(kExitUsage, "batch " + k.verb + ": against=, max_displacement=, max_t_change= and match= are diff's");
    BatchOptions opt;
    opt.inputs = k.paths;
    opt.jobs = k.jobs;
    opt.task = given(k.task, "task=");
    opt.junit = given(k.junit, "junit=");
    opt.json = given(k.json, "json=");
    opt.output = given(k.output, "output=");
    opt.summary = given(k.summary, "summary=");
    return opt;
}

// The input options every file's job takes.
InputOptions batch_input(const BatchKeywords& k) {
    InputOptions input;
    input.frames = given(k.frames, "frames=");
    input.mesh = given(k.mesh, "mesh=");
    input.rom = k.rom;
    input.max_memory_mib = k.max_memory;
    if (!(k.max_output > 0) || !std::isfinite(k.max_output)) throw Error(kExitUsage, "max_output=: a size in MB above 0");
    input.max_output_mb = k.max_output;
    return input;
}

BatchResult check_batch(const BatchKeywords& k, const BatchOptions& opt, const InputOptions& input) {
    if (!opt.output.empty()) throw Error(kExitUsage, "batch check: output= is lint's; check writes junit=, json= and summary=");
    if (k.format) throw Error(kExitUsage, "batch check: format= is for the verbs that write output= (check's outputs say theirs)");
    CheckJobOptions c;
    c.tension.input = input;
    c.tension.measure = k.measure.value_or(TensionOptions{}.measure);
    set_check_limits(c, k.max_stretch, k.max_compress, k.max_lambda, k.min_lambda);
    c.max_volume_loss = k.max_volume_loss;      // issue 59: --max-volume-loss
    c.max_intersections = k.max_intersections;  // and --max-intersections
    c.lint = k.lint;
    c.lint_options.strict = k.strict;
    return run_and_write(opt, c, run_check_batch);
}

BatchResult lint_batch(const BatchKeywords& k, const BatchOptions& opt, const InputOptions& input) {
    if (k.limits() || k.measure || k.frames || k.rom || k.lint || !opt.json.empty())
        throw Error(kExitUsage, "batch lint: limits, measure=, frames=, rom=, lint= and json= are check's (lint judges the bind pose)");
    LintJobOptions l;
    l.input = input;
    l.lint.strict = k.strict;
    l.format = k.format.value_or("");
    return run_and_write(opt, l, run_lint_batch);
}

// tension and report: verbs that judge nothing, so no limits to count, no JUnit to write.
BatchResult tension_batch(const BatchKeywords& k, const BatchOptions& opt, const InputOptions& input) {
    if (k.limits() || k.lint || k.strict || !opt.json.empty() || !opt.junit.empty())
        throw Error(kExitUsage, "batch " + k.verb + ": limits, lint=, strict=, json= and junit= are check's (" + k.verb + " judges nothing)");
    TensionOptions t;
    t.input = input;
    t.measure = k.measure.value_or(TensionOptions{}.measure);
    if (k.verb == "tension") {
        TensionJobOptions job;
        job.tension = t;
        job.format = k.format.value_or("");
        return run_and_write(opt, job, run_tension_batch);
    }
    if (k.format && *k.format != "html") throw Error(kExitUsage, "batch report: a page is html, not " + *k.format);
    ReportJobOptions job;
    job.tension = t;
    job.report.viewer = package_viewer();
    return run_and_write(opt, job, run_report_batch);
}

// deform, intersect and volume take the input and a format, nothing else.
template <typename Job>
BatchResult input_and_format(const BatchKeywords& k, const BatchOptions& opt, const InputOptions& input,
                             BatchResult (*run)(const BatchOptions&, const Job&)) {
    Job job;
    job.input = input;
    job.format = k.format.value_or("");
    return run_and_write(opt, job, run);
}

// info, deform, intersect and volume: verbs that judge nothing and write each file's output by
// output='s placeholder.
BatchResult output_batch(const BatchKeywords& k, const BatchOptions& opt, const InputOptions& input) {
    if (k.limits() || k.measure || k.lint || k.strict || !opt.json.empty() || !opt.junit.empty())
        throw Error(kExitUsage, "batch " + k.verb + ": limits, measure=, lint=, strict=, json= and junit= are check's (" + k.verb + " judges nothing)");
    if (k.verb == "deform") return input_and_format(k, opt, input, run_deform_batch);
    if (k.verb == "intersect") return input_and_format(k, opt, input, run_intersect_batch);
    if (k.verb == "volume") return input_and_format(k, opt, input, run_volume_batch);
    if (k.frames || k.rom) throw Error(kExitUsage, "batch info: frames= and rom= are not info's (it reads no frame)");
    if (k.format && *k.format != "text" && *k.format != "json") throw Error(kExitUsage, "batch info: format= is text or json, not " + *k.format);
    InfoJobOptions job;
    job.input = input;
    job.json = k.format && *k.format == "json";
    return run_and_write(opt, job, run_info_batch);
}

BatchResult diff_batch(const BatchKeywords& k, const BatchOptions& opt, const InputOptions& input) {
    if (k.limits() || k.measure || k.lint || k.strict || !opt.json.empty())
        throw Error(kExitUsage, "batch diff: limits, measure=, lint=, strict= and json= are check's (diff's are max_displacement= and max_t_change=)");
    DiffBatchOptions d;
    d.diff.input = input;
    d.against = given(k.against, "against=");
    d.format = k.format.value_or("");
    if (k.match) d.diff.match = *k.match;
    d.diff.max_displacement = k.max_displacement;
    d.diff.max_t_change = k.max_t_change;
    return run_and_write(opt, d, run_diff_batch);
}

// rigscope.batch(): the options in the order their refusals are checked, the verb's batch, and
// its rows as the summary's dicts.
py::list batch(const BatchKeywords& k) {
    const BatchOptions opt = batch_options(k);
    const InputOptions input = batch_input(k);
    if (k.verb != "check" && (k.max_volume_loss || k.max_intersections))
        throw Error(kExitUsage, "batch " + k.verb + ": max_volume_loss= and max_intersections= are check's");
    BatchResult r;
    if (k.verb == "check") r = check_batch(k, opt, input);
    else if (k.verb == "lint") r = lint_batch(k, opt, input);
    else if (k.verb == "tension" || k.verb == "report") r = tension_batch(k, opt, input);
    else if (k.verb == "info" || k.verb == "deform" || k.verb == "intersect" || k.verb == "volume") r = output_batch(k, opt, input);
    else if (k.verb == "diff") r = diff_batch(k, opt, input);
    else throw Error(kExitUsage, "batch: '" + k.verb + "' is not a batch verb (check, lint, tension, report, info, deform, intersect, volume or diff)");
    py::list rows;
    for (const BatchFileResult& f : r.files) rows.append(row_dict(f.row));
    return rows;
}

}  // namespace

void add_batch_calls(py::module_& m) {
    m.def(
        "batch",
        [](std::vector<std::string> paths, std::string verb, std::optional<double> max_stretch, std::optional<double> max_compress,
           std::optional<double> max_lambda, std::optional<double> min_lambda, std::optional<std::string> measure, std::optional<std::string> frames,
           bool rom, bool lint, bool strict, std::optional<std::string> mesh, unsigned jobs, std::optional<std::string> task,
           std::optional<std::string> junit, std::optional<std::string> json, std::optional<std::string> output,
           std::optional<std::string> summary, std::optional<std::string> format, std::optional<std::string> against,
           std::optional<double> max_displacement, std::optional<double> max_t_change, std::optional<std::string> match, double max_memory, double max_output,
           std::optional<double> max_volume_loss, std::optional<long> max_intersections) {
            return batch(BatchKeywords{std::move(paths), std::move(verb), max_stretch, max_compress, max_lambda, min_lambda, measure, frames, rom,
                                       lint, strict, mesh, jobs, task, junit, json, output, summary, format, against, max_displacement,
                                       max_t_change, match, max_memory, max_output, max_volume_loss, max_intersections});
        },
        py::arg("paths"), py::arg("verb") = "check", py::kw_only(), py::arg("max_stretch") = py::none(), py::arg("max_compress") = py::none(),
        py::arg("max_lambda") = py::none(), py::arg("min_lambda") = py::none(), py::arg("measure") = py::none(), py::arg("frames") = py::none(),
        py::arg("rom") = false, py::arg("lint") = false, py::arg("strict") = false, py::arg("mesh") = py::none(), py::arg("jobs") = BatchOptions{}.jobs,
        py::arg("task") = py::none(), py::arg("junit") = py::none(), py::arg("json") = py::none(), py::arg("output") = py::none(),
        py::arg("summary") = py::none(), py::arg("format") = py::none(), py::arg("against") = py::none(),
        py::arg("max_displacement") = py::none(), py::arg("max_t_change") = py::none(), py::arg("match") = py::none(), py::arg("max_memory") = InputOptions{}.max_memory_mib,
        py::arg("max_output") = InputOptions{}.max_output_mb, py::arg("max_volume_loss") = py::none(), py::arg("max_intersections") = py::none(),
        "Runs check, lint, tension, report, info, deform, intersect, volume or diff (pairs: against=DIR, or ['@pairs.txt']) over files, folders and @lists as `rigscope VERB FILE...` does; output= names each file's "
        "output by placeholder; returns a row per file (dicts, the summary's)");
}

}  // namespace rigscope_python
