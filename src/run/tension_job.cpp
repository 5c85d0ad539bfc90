// The `tension` job: its refusals, the two passes of --auto-range, and the writer chosen by
// format (run/tension_job.h).
#include "rigscope/run/tension_job.h"

#include <cmath>
#include <memory>
#include <spdlog/spdlog.h>

#include "rigscope/core/error.h"
#include "rigscope/core/vertex_list.h"
#include "rigscope/farm/tension_chunk.h"
#include "rigscope/io/check_report.h"
#include "rigscope/io/deform_output.h"
#include "rigscope/io/output.h"
#include "rigscope/io/tension_output.h"
#include "rigscope/run/abc_output_run.h"
#include "rigscope/run/check_job.h"
#include "rigscope/run/clip_select.h"
#include "rigscope/run/run_budget.h"
#include "rigscope/run/tension_gltf.h"
#include "rigscope/run/usd_output_run.h"
#include "rigscope/run/output_formats.h"

namespace rigscope {

void TensionJobOptions::validate() const {
    check_verb_format("tension", format);
    if (format == "abc") check_abc_output(out, "tension");
    // An archive holds the run's frames in one sampling; merge joins CSV and JSON chunks, not archives.
    if (format == "abc" && !tension.input.chunk.empty())
        throw Error(kExitUsage, "--chunk with an Alembic output: merge joins CSV and JSON chunks, not archives; write the frames in one run");
    if (bake_points && format == "abc") throw Error(kExitUsage, "--bake-points writes the points into a USD layer; an Alembic output holds them already");
    if (format == "usda" && (out.empty() || is_stdout_path(out)))
        throw Error(kExitUsage, "tension --format usda needs -o FILE.usda (the layer names the input relative to its own folder)");
    if (bake_points && format != "usda") throw Error(kExitUsage, "--bake-points writes the points into a USD layer: give -o FILE.usda");
    if (format == "usda") check_usda_output(tension.input, out);
    if (format == "gltf" && (out.empty() || is_stdout_path(out)))
        throw Error(kExitUsage, "tension --format gltf needs -o FILE.glb (binary output does not go to a terminal)");
    if (bake_max && format != "gltf") throw Error(kExitUsage, "--bake-max writes glTF: give -o FILE.glb");
    if (!color.empty() && color != "maps" && color != "t") throw Error(kExitUsage, "--color is maps or t, not " + color);
    if (!color.empty() && format != "gltf" && format != "usda" && format != "abc")
        throw Error(kExitUsage, "--color sets glTF's COLOR_0, USD's displayColor or Alembic's Cd: give -o FILE.glb, FILE.usda or FILE.abc");
    if (auto_range && !(*auto_range >= 50 && *auto_range <= 100)) {
        std::string v;
        append_number(v, *auto_range);
        throw Error(kExitUsage, "--auto-range " + v + " is not a percentile in [50, 100]");
    }
    // '#' numbers one file per frame: only glTF frames are written so (a --bake-max is one file).
    if (out.substr(out.find_last_of('/') + 1).find('#') != std::string::npos && (format != "gltf" || bake_max))
        throw Error(kExitUsage, "-o " + out + ": '#' numbers one file per frame, which only tension's glTF frames are (-o out_####.glb, without --bake-max)");
    if (!vertices.empty() && (format == "gltf" || format == "usda" || format == "abc"))
        throw Error(kExitUsage, "--vertices selects CSV rows and JSON series; glTF, USD and Alembic hold every vertex: drop it or write CSV or JSON");
    refuse_clip_placeholder("-o", out, tension.input);
}

namespace {

std::vector<TensionMeshView> views(const Input& in, const std::vector<MeshTension>& meshes, const std::string& vertices) {
    std::vector<TensionMeshView> out;
    for (const MeshTension& mt : meshes) {
        TensionMeshView v;
        v.name = in.scene.meshes[mt.mesh].name;
        v.tension = &mt;
        if (!vertices.empty()) {
            v.vertices = for_option("--vertices", [&] { return parse_vertex_list(vertices, in.scene.meshes[mt.mesh].vertex_count()); });
            v.selected_all = false;
        }
        out.push_back(std::move(v));
    }
    return out;
}

}  // namespace

TensionJobResult run_tension(const TensionJobOptions& opt, Input& in, const FrameProgress& progress, const FrameProgress& range_progress) {
    opt.validate();  // a caller with its own loaded input (Python) gets the same refusals
    require_meshes(in, opt.tension.input.file, "write");
    refuse_outputs_over_inputs(in, {opt.out});
    if (opt.format == "gltf") check_tension_gltf_path(opt.out, in.frames.size(), opt.bake_max);
    std::vector<MeshTension> meshes = prepare_tension(in, opt.tension);
    TensionJobResult r;
    r.run = describe_run(in, opt.tension);
    r.frames = in.frames.size();
    std::vector<TensionMeshView> selected = views(in, meshes, opt.vertices);

    if (opt.auto_range) {
        apply_auto_range(in, meshes, *opt.auto_range, r.run, range_progress);
        spdlog::info("auto range (percentile {}): t_s = {}, t_c = {}", *opt.auto_range, r.run.range.t_s, r.run.range.t_c);
    }

    // Each vertex's extremes over the written pass, by the one tracker check and report use:
    // per file vertex the tracker's and the result's copies, as check charges them.
    VertexTensionExtremes seen;
    if (opt.extremes) {
        double vertices = 0;
        for (int m : in.meshes) vertices += double(in.scene.meshes[m].vertex_count());
        check_run_budget(in, opt.tension, static_cast<std::uint64_t>(96 * vertices), "tension");
        seen.reset(meshes, false);
    }
    auto track = [&](std::size_t fi) {
        if (opt.extremes)
            for (std::size_t m = 0; m < meshes.size(); ++m) seen.add(m, meshes[m], static_cast<std::uint32_t>(fi));
    };
    auto keep_seen = [&] {
        if (opt.extremes)
            for (std::size_t m = 0; m < meshes.size(); ++m)
                r.meshes.push_back(check_mesh_extremes(in.scene.meshes[meshes[m].mesh].name, seen, m, meshes[m].topo.welded_of, in.frames));
    };


    // The least the output will take, refused past --max-output before any frame (issue 57): a
    // USD layer's four primvars of a point (three floats and a colour, at least "0," a value as
    // text; --bake-points three more), a glTF's COLOR_0 (three floats a vertex and frame).
    if (opt.format == "usda" || (opt.format == "gltf" && !opt.bake_max)) {
        double vertices = 0;
        for (int m : in.meshes) vertices += double(in.scene.meshes[m].vertex_count());
        const double per_vertex = opt.format == "gltf" ? 12.0 : 2.0 * (6 + (opt.bake_points ? 3 : 0));
        check_output_size(opt.out, per_vertex * vertices * double(in.frames.size()), opt.tension.input.max_output_mb);
    }
    if (opt.format == "usda") {
        write_tension_usda(in, opt.tension.input.file, meshes, r.run, opt.out, opt.bake_points,
                           opt.color == "t" ? TensionColor::kT : TensionColor::kMaps, progress);
        return r;
    }
    if (opt.format == "abc") {
        write_tension_abc(in, meshes, r.run, opt.out, opt.color == "t" ? TensionColor::kT : TensionColor::kMaps,
                          opt.tension.input.max_output_mb, progress, track);
        keep_seen();
        return r;
    }
    if (opt.format == "gltf") {
        write_tension_gltf(in, meshes, r.run, opt.out, opt.bake_max, opt.color == "t" ? TensionColor::kT : TensionColor::kMaps, progress,
                           track);
        keep_seen();
        return r;
    }
    if (opt.format == "csv" && opt.vertices.empty()) {
        // A row per frame and vertex with as many fields as deform's: the same least size.
        std::vector<std::pair<std::string, std::size_t>> sizes;
        for (int m : in.meshes) sizes.emplace_back(in.scene.meshes[m].name, in.scene.meshes[m].vertex_count());
        check_output_size(opt.out, deform_output_min_bytes(true, sizes, in.frames.size()), opt.tension.input.max_output_mb);
    }
    OutputFile out(opt.out, in.paths);
    std::unique_ptr<TensionSink> sink = opt.format == "json" ? make_tension_json(out) : make_tension_csv(out, in.threads);
    // A chunk of an --auto-range run keeps its frames' extremes, so merge ranks over all chunks.
    const bool keep_extremes = r.run.chunk_count > 1 && r.run.auto_range;
    VertexTensionExtremes extremes;
    if (keep_extremes) extremes.reset(meshes);
    // The JSON frame reads each mesh's extremes and degenerate count alone, unless vertices'
    // series or per-vertex extremes are kept: its frames then write no mesh-sized array
    // (MeshTension::keep_frame), which a mesh larger than the caches moves through memory.
    if (opt.format == "json" && opt.vertices.empty() && !opt.extremes && !keep_extremes)
        for (MeshTension& mt : meshes) mt.keep_frame = false;
    sink->begin(r.run, selected);
    for_each_tension_frame(in, meshes, [&](std::size_t fi) {
        sink->frame(in.frames[fi]);
        track(fi);
        if (keep_extremes)
            for (std::size_t m = 0; m < meshes.size(); ++m) extremes.add(m, meshes[m]);
    }, progress);
    sink->end();
    keep_seen();
    out.commit();
    if (keep_extremes) r.chunk_state.emplace_back("tension_range", tension_range_state(r.run, mesh_names(in, meshes), extremes));
    return r;
}

TensionJobResult load_and_run_tension(const TensionJobOptions& opt, const FrameProgress& progress, const FrameProgress& range_progress) {
    opt.validate();
    if (opt.tension.input.clip != kAllClips) {
        Input in = load_input(opt.tension.input);
        return run_tension(opt, in, progress, range_progress);
    }
    // --clip all: an output per clip, each what --clip NAME writes (clip_outputs says why).
    Input in = load_input(clip_load_options(opt.tension.input));
    const ClipPlan plan = plan_clips(in, opt.tension.input, false);
    const std::vector<std::string> outs = clip_outputs(opt.out, plan, "tension");
    TensionJobResult all;
    for (std::size_t k = 0; k < plan.indices.size(); ++k) {
        use_clip(in, opt.tension.input, plan.indices[k]);
        TensionJobOptions one = opt;
        one.out = outs[k];
        TensionJobResult r = run_tension(one, in, progress, range_progress);
        all.run = r.run;
        all.frames += r.frames;
        for (auto& s : r.chunk_state) all.chunk_state.push_back(std::move(s));
    }
    return all;
}

}  // namespace rigscope
