// `rigscope tension`: the tension map per vertex and frame, as CSV, JSON or vertex-coloured glTF.
#include <memory>
#include <spdlog/spdlog.h>

#include "commands.h"
#include "rigscope/core/error.h"
#include "rigscope/core/vertex_list.h"
#include "rigscope/farm/tension_chunk.h"
#include "rigscope/io/deform_output.h"
#include "rigscope/io/output.h"
#include "rigscope/run/check_run.h"
#include "rigscope/run/tension_gltf.h"
#include "tension_setup.h"

namespace rigscope::cli {

namespace {

struct TensionCommand {
    TensionOptions tension;
    std::string vertices;
    bool auto_range = false;
    double percentile = 100;
    bool bake_max = false;
    std::string color;
    std::string format;
    std::string out = "-";
};

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

int run_tension(const TensionCommand& opt, RunContext& ctx) {
    const std::string format = output_format(opt.format, opt.out, "csv");
    if (format == "gltf" && (opt.out.empty() || is_stdout_path(opt.out)))
        throw Error(kExitUsage, "tension --format gltf needs -o FILE.glb (binary output does not go to a terminal)");
    if (opt.bake_max && format != "gltf") throw Error(kExitUsage, "--bake-max writes glTF: give -o FILE.glb");
    if (!opt.color.empty() && format != "gltf") throw Error(kExitUsage, "--color sets glTF's COLOR_0: give -o FILE.glb");
    // '#' numbers one file per frame: only glTF frames are written so (a --bake-max is one file).
    if (opt.out.substr(opt.out.find_last_of('/') + 1).find('#') != std::string::npos && (format != "gltf" || opt.bake_max))
        throw Error(kExitUsage, "-o " + opt.out + ": '#' numbers one file per frame, which only tension's glTF frames are (-o out_####.glb, without --bake-max)");
    if (!opt.vertices.empty() && format == "gltf")
        throw Error(kExitUsage, "--vertices selects CSV rows and JSON series; glTF holds every vertex: drop it or write CSV or JSON");
    Input in = load_input(opt.tension.input);
    require_meshes(in, opt.tension.input.file, "write");
    if (format == "gltf") check_tension_gltf_path(opt.out, in.frames.size(), opt.bake_max);
    std::vector<MeshTension> meshes = prepare_tension(in, opt.tension);
    TensionRun run = describe_run(in, opt.tension);
    std::vector<TensionMeshView> selected = views(in, meshes, opt.vertices);

    if (opt.auto_range) {
        apply_auto_range(in, meshes, opt.percentile, run, terminal_progress("tension (range)"));
        spdlog::info("auto range (percentile {}): t_s = {}, t_c = {}", opt.percentile, run.range.t_s, run.range.t_c);
    }

    if (format == "gltf") {
        write_tension_gltf(in, meshes, run, opt.out, opt.bake_max, opt.color == "t" ? TensionColor::kT : TensionColor::kMaps,
                           terminal_progress("tension"));
        return kExitOk;
    }
    if (format == "csv" && opt.vertices.empty()) {
        // A row per frame and vertex with as many fields as deform's: the same least size.
        std::vector<std::pair<std::string, std::size_t>> sizes;
        for (int m : in.meshes) sizes.emplace_back(in.scene.meshes[m].name, in.scene.meshes[m].vertex_count());
        check_free_space(opt.out, deform_output_min_bytes(true, sizes, in.frames.size()));
    }
    OutputFile out(opt.out, in.paths);
    std::unique_ptr<TensionSink> sink = format == "json" ? make_tension_json(out) : make_tension_csv(out);
    // A chunk of an --auto-range run keeps its frames' extremes, so merge ranks over all chunks.
    const bool keep_extremes = run.chunk_count > 1 && run.auto_range;
    VertexTensionExtremes extremes;
    if (keep_extremes) extremes.reset(meshes);
    sink->begin(run, selected);
    for_each_tension_frame(in, meshes, "tension", [&](std::size_t fi) {
        sink->frame(in.frames[fi]);
        if (keep_extremes)
            for (std::size_t m = 0; m < meshes.size(); ++m) extremes.add(m, meshes[m]);
    });
    sink->end();
    out.commit();
    if (keep_extremes) ctx.chunk_state.emplace_back("tension_range", tension_range_state(run, mesh_names(in, meshes), extremes));
    return kExitOk;
}

}  // namespace

void add_tension_command(CLI::App& app, Runner& run) {
    auto opt = std::make_shared<TensionCommand>();
    CLI::App* cmd = app.add_subcommand("tension", "Tension map per vertex and frame: T, compress, stretch (CSV, JSON, glTF)");
    add_tension_options(cmd, opt->tension);
    cmd->add_option("--vertices", opt->vertices, "Vertex ids for CSV rows and JSON series: 12,40,100..110");
    cmd->add_option("--auto-range", opt->percentile,
                    "Two passes: set t_s and t_c from the observed extremes (or this percentile of per-vertex extremes)")
        ->expected(0, 1)
        ->default_str("100")
        ->check(number_in(50.0, 100.0))
        ->each([opt](const std::string&) { opt->auto_range = true; });
    cmd->add_flag("--bake-max", opt->bake_max, "glTF: one file of the rest mesh with each vertex's maximum maps over the frames (_TENSION: the T farthest from 1)");
    cmd->add_option("--color", opt->color,
                    "glTF COLOR_0: maps (R = compress, G = stretch; default) or t (heat map of T: log2 T in [-1, 1], blue-white-red)")
        ->check(CLI::IsMember({"maps", "t"}));
    cmd->add_option("--format", opt->format, "csv, json or gltf (default: from -o's extension, else csv)")
        ->check(CLI::IsMember({"csv", "json", "gltf"}));
    cmd->add_option("-o,--output", opt->out, "Output file, - for stdout; glTF: out_####.glb writes one file per frame");
    cmd->callback([&run, opt] { run = [opt](RunContext& ctx) { return run_tension(*opt, ctx); }; });
}

RIGSCOPE_REGISTER_COMMAND(2, add_tension_command);

}  // namespace rigscope::cli
