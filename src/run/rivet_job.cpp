// The `rivet` job: the rules that refuse a run before it starts, the fit or bake, and the fit's
// verdict, in one place for the CLI and Python (run/rivet_job.h).
#include <algorithm>
#include <cctype>
#include <cmath>

#include "rigscope/core/error.h"
#include "rigscope/core/vertex_list.h"
#include "rigscope/core/vertex_match.h"
#include "rigscope/io/gltf_writer.h"
#include "rigscope/io/output.h"
#include "rigscope/io/rivet_report.h"
#include "rigscope/io/rivet_fit_report.h"
#include "rigscope/run/rivet_engine.h"
#include "rigscope/run/rivet_job.h"
#include "rigscope/run/run_budget.h"
#include "rigscope/run/run_start.h"

#include "rigscope/run/clip_select.h"
#include "rigscope/run/output_formats.h"
#include "load_then_run.h"

namespace rigscope {

void RivetJobOptions::validate() const {
    check_verb_format("rivet", format);
    if (format == "gltf") {
        if (out.empty() || is_stdout_path(out))
            throw Error(kExitUsage, "rivet --format gltf needs -o FILE.glb (binary output does not go to a terminal)");
        std::string ext = out.size() >= 5 ? out.substr(out.size() - 5) : "";
        for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (ext == ".gltf") throw Error(kExitUsage, out + ": rivet writes binary glTF: name the file .glb");
    }
    if (max_fit_error && !(std::isfinite(*max_fit_error) && *max_fit_error > 0)) {
        std::string v;
        append_number(v, *max_fit_error);
        throw Error(kExitUsage, "--max-fit-error " + v + " is not a positive number");
    }
    if (bake && max_fit_error) throw Error(kExitUsage, "--max-fit-error judges fitted rivets; a baked rivet (--bake) has no fit");
    if (!junit.empty() && !max_fit_error) throw Error(kExitUsage, "rivet --junit reports the --max-fit-error verdict: give the limit");
    if (bake && !joint.empty()) throw Error(kExitUsage, "--joint chooses the joint of a fitted rivet; a baked rivet (--bake) follows no joint");
    if (!bake && input.weld != "on")
        throw Error(kExitUsage, "--weld " + input.weld + " shapes a baked rivet's edge frame (--bake); a fitted rivet reads file vertices");
    if (!input.chunk.empty() && (!bake || format == "gltf"))
        throw Error(kExitUsage, "--chunk splits per-frame rows: a fit, or a glTF's animation, needs all its frames");
    refuse_clip_placeholder("-o", out, input);
    refuse_clip_placeholder("--junit", junit, input);
}

RivetJobResult run_rivet(const RivetJobOptions& opt, const Input& in, const FrameProgress& progress) {
    opt.validate();  // a caller with its own loaded input (Python) gets the same refusals
    refuse_outputs_over_inputs(in, {opt.out, opt.junit});
    RivetJobResult r;
    r.mesh = rivet_mesh(in, opt.input.mesh);
    r.vertices = for_option("--vertices", [&] { return parse_vertex_list(opt.vertices, in.scene.meshes[r.mesh].vertex_count()); });
    r.diagonal = bounding_diagonal(in.scene.meshes[r.mesh].positions);
    if (opt.bake) {
        // A row a vertex and frame: refused past --max-output before any frame (issue 57), by its
        // least size (CSV: ten fields of one character and their commas; JSON: seven one-digit
        // values; glTF: a translation and a rotation of floats). Python's bake writes no file.
        if (!opt.out.empty()) {
            const double least = opt.format == "csv" ? 20.0 : opt.format == "json" ? 14.0 : 28.0;
            check_output_size(opt.out, least * double(r.vertices.size()) * double(in.frames.size()), opt.input.max_output_mb);
        }
        r.frames = bake_rivets(in, r.mesh, r.vertices, progress);
        return r;
    }
    const RunStart start;
    r.rivets = fit_rivets(in, r.mesh, r.vertices, opt.joint, progress);
    r.info = start.until_now();
    // Judged once, here: the CLI's text, JUnit and exit code, and Python, read this verdict.
    r.judged = opt.max_fit_error.has_value();
    std::vector<RivetFitSample> samples;
    for (const RivetResult& v : r.rivets) samples.push_back(RivetFitSample{v.fit.max_error, !v.undetermined.empty()});
    r.fit_verdict = judge_rivet_fit(RivetFitLimit{opt.max_fit_error.value_or(kRivetFitWarning), r.judged, opt.input.file}, samples, r.diagonal);
    r.verdict = rivet_fit_outcome(r.fit_verdict, r.info, in.scene, r.mesh, r.rivets);
    // The verdict named the undetermined vertices; the outputs hold the fitted ones only.
    r.rivets.erase(std::remove_if(r.rivets.begin(), r.rivets.end(), [](const RivetResult& v) { return !v.undetermined.empty(); }),
                   r.rivets.end());
    return r;
}

RivetJobLoaded load_and_run_rivet(const RivetJobOptions& opt, const FrameProgress& progress) {
    // As glTF, the input's scene is written back with every mesh in it.
    RivetJobOptions every = opt;
    every.input.read_every_mesh = opt.format == "gltf";
    return load_then_run<RivetJobLoaded>(every, progress, run_rivet);
}

bool run_rivet_clips(const RivetJobOptions& opt, const FrameProgress& progress,
                     const std::function<void(const RivetJobOptions&, const Input&, const RivetJobResult&)>& each) {
    opt.validate();
    // As glTF, the input's scene is written back with every mesh in it.
    InputOptions input = clip_load_options(opt.input);
    input.read_every_mesh = opt.format == "gltf";
    Input in = load_input(input);
    const ClipPlan plan = plan_clips(in, opt.input, false);
    const std::vector<std::string> outs = clip_outputs(opt.out, plan, "rivet");
    const std::vector<std::string> junits = opt.junit.empty() ? std::vector<std::string>(outs.size()) : clip_outputs(opt.junit, plan, "rivet --junit");
    bool failed = false;
    for (std::size_t k = 0; k < plan.indices.size(); ++k) {
        use_clip(in, opt.input, plan.indices[k]);
        RivetJobOptions one = opt;
        one.input.clip = plan.names[k];
        one.out = outs[k];
        one.junit = junits[k];
        const RivetJobResult r = run_rivet(one, in, progress);
        failed = failed || (r.judged && r.verdict.failed);
        each(one, in, r);
    }
    return failed;
}

Scene rivet_output_scene(const RivetJobOptions& opt, const Input& in, const RivetJobResult& r) {
    int clip = -1;
    Scene scene = output_scene(in, !opt.input.animation.empty(), clip);
    if (opt.bake) add_baked_nodes(scene, clip, in, r.vertices, r.frames);
    else
        for (const RivetResult& v : r.rivets) add_rivet_nodes(scene, v.vertex, v.joint, v.fit);
    return scene;
}

void write_rivet_output(const RivetJobOptions& opt, const Input& in, const RivetJobResult& r, OutputFile& out) {
    if (opt.format == "gltf") write_glb(rivet_output_scene(opt, in, r), {}, out);
    else if (opt.bake && opt.format == "csv") write_bake_csv(out, output_run_info(in, opt.input.file), r.vertices, r.frames);
    else if (opt.bake) write_bake_json(out, output_run_info(in, opt.input.file), r.mesh, r.vertices, r.frames);
    else if (opt.format == "csv") write_fit_csv(out.buffer(), in.scene, r.rivets, r.diagonal);
    else write_fit_json(out.buffer(), output_run_info(in, opt.input.file), r.mesh, r.rivets);
}

}  // namespace rigscope
