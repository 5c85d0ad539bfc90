// `rigscope rivet`: constraint-only rivets fitted to chosen vertices, or baked per-frame rivets,
// as JSON, CSV or a glTF of the input with the rivet nodes added. docs/rivet.md has the fields.
#include <algorithm>
#include <cctype>
#include <memory>

#include "cli_common.h"
#include "commands.h"
#include "rigscope/core/error.h"
#include "rigscope/io/gltf_writer.h"
#include "rigscope/core/rivet.h"
#include "rigscope/core/vertex_list.h"
#include "rigscope/core/vertex_match.h"
#include "rigscope/io/rivet_report.h"
#include "rigscope/run/rivet_run.h"

namespace rigscope::cli {

namespace {

struct RivetOptions {
    InputOptions input;
    std::string vertices;
    std::string joint;
    bool bake = false;
    std::string out = "-";
    std::string format;
};

void write_glb_file(const Scene& scene, OutputFile& out) {
    try {
        write_glb(scene, {}, out);
    } catch (const std::invalid_argument& e) {
        throw Error(kExitBadInput, scene.source + ": cannot be written as glTF: " + e.what());
    }
}

int run_fit(const RivetOptions& opt, const std::string& format, const Input& in, int mesh, const std::vector<std::uint32_t>& vertices) {
    const std::vector<RivetResult> rivets = fit_rivets(in, mesh, vertices, opt.joint, terminal_progress("rivet"));
    OutputFile out(opt.out, in.paths);
    if (format == "gltf") {
        int clip = -1;
        Scene scene = output_scene(in, !opt.input.animation.empty(), clip);
        for (const RivetResult& r : rivets) add_rivet_nodes(scene, r.vertex, r.joint, r.fit);
        write_glb_file(scene, out);
    } else if (format == "csv") {
        write_fit_csv(out.buffer(), in.scene, rivets, bounding_diagonal(in.scene.meshes[mesh].positions));
    } else {
        write_fit_json(out.buffer(), run_info(in, opt.input.file), mesh, rivets);
    }
    out.commit();
    return kExitOk;
}

int run_bake(const RivetOptions& opt, const std::string& format, const Input& in, int mesh, const std::vector<std::uint32_t>& vertices) {
    const auto frames = bake_rivets(in, mesh, vertices, terminal_progress("rivet"));
    OutputFile out(opt.out, in.paths);
    if (format == "gltf") {
        int clip = -1;
        Scene scene = output_scene(in, !opt.input.animation.empty(), clip);
        add_baked_nodes(scene, clip, in, vertices, frames);
        write_glb_file(scene, out);
        out.commit();
        return kExitOk;
    }
    if (format == "csv") write_bake_csv(out, run_info(in, opt.input.file), vertices, frames);
    else write_bake_json(out, run_info(in, opt.input.file), mesh, vertices, frames);
    out.commit();
    return kExitOk;
}

int run_rivet(const RivetOptions& opt) {
    const std::string format = output_format(opt.format, opt.out, "json");
    if (format != "json" && format != "csv" && format != "gltf") throw Error(kExitUsage, "rivet writes json, csv or gltf, not " + format);
    // Refused before any work: each would silently give something other than what was asked.
    if (format == "gltf") {
        if (opt.out.empty() || opt.out == "-")
            throw Error(kExitUsage, "rivet --format gltf needs -o FILE.glb (binary output does not go to a terminal)");
        std::string ext = opt.out.size() >= 5 ? opt.out.substr(opt.out.size() - 5) : "";
        for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (ext == ".gltf") throw Error(kExitUsage, opt.out + ": rivet writes binary glTF: name the file .glb");
    }
    if (opt.bake && !opt.joint.empty()) throw Error(kExitUsage, "--joint chooses the joint of a fitted rivet; a baked rivet (--bake) follows no joint");
    if (!opt.input.chunk.empty() && (!opt.bake || format == "gltf"))
        throw Error(kExitUsage, "--chunk splits per-frame rows: a fit, or a glTF's animation, needs all its frames");
    Input in = load_input(opt.input);
    const int mesh = rivet_mesh(in, opt.input.mesh);
    const std::vector<std::uint32_t> vertices =
        for_option("--vertices", [&] { return parse_vertex_list(opt.vertices, in.scene.meshes[mesh].vertex_count()); });
    return opt.bake ? run_bake(opt, format, in, mesh, vertices) : run_fit(opt, format, in, mesh, vertices);
}

}  // namespace

void add_rivet_command(CLI::App& app, Runner& run) {
    auto opt = std::make_shared<RivetOptions>();
    CLI::App* cmd = app.add_subcommand("rivet", "Rivets on chosen vertices: fitted constraint-only pivots, or baked per-frame transforms");
    add_input_options(cmd, opt->input);
    cmd->add_option("--vertices", opt->vertices, "File vertex ids: 12,40,100..110")->required();
    cmd->add_option("--joint", opt->joint, "Joint the rivet follows (default: the vertex's heaviest influence whose parent is also one)");
    cmd->add_flag("--bake", opt->bake, "Per-frame transforms of the vertices (position, normal and edge frame) instead of a fit");
    cmd->add_option("-o,--output", opt->out, "Output file (.json, .csv, .glb) or - for stdout");
    cmd->add_option("--format", opt->format, "json, csv or gltf (default: from -o's extension, else json)")
        ->check(CLI::IsMember({"json", "csv", "gltf"}));
    cmd->callback([&run, opt] { run = [opt](RunContext&) { return run_rivet(*opt); }; });
}

RIGSCOPE_REGISTER_COMMAND(4, add_rivet_command);

}  // namespace rigscope::cli
