// `rigscope rivet`: constraint-only rivets fitted to chosen vertices, or baked per-frame rivets,
// as JSON, CSV or a glTF of the input with the rivet nodes added. docs/rivet.md has the fields.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <memory>
#include <spdlog/spdlog.h>

#include "cli_common.h"
#include "commands.h"
#include "rigscope/core/error.h"
#include "rigscope/io/gltf_writer.h"
#include "rigscope/core/rivet.h"
#include "rigscope/core/vertex_list.h"
#include "rigscope/core/vertex_match.h"
#include "rigscope/io/rivet_report.h"
#include "rigscope/io/rivet_verdict.h"
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
    double max_fit_error = kRivetFitWarning;  // --max-fit-error, relative to the diagonal
    bool has_max_fit_error = false;
    std::string junit;
};

int run_fit(const RivetOptions& opt, const std::string& format, const Input& in, int mesh, const std::vector<std::uint32_t>& vertices) {
    const CheckRunInfo info = start_run_info();
    const auto started = std::chrono::steady_clock::now();
    const std::vector<RivetResult> rivets = fit_rivets(in, mesh, vertices, opt.joint, terminal_progress("rivet"));
    CheckRunInfo timed = info;
    timed.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const double diagonal = bounding_diagonal(in.scene.meshes[mesh].positions);
    const CheckOutcome verdict =
        rivet_fit_outcome(RivetFitLimit{opt.max_fit_error, opt.has_max_fit_error, opt.input.file}, timed, in.scene, mesh, rivets, diagonal);
    // Checked (not an input, folder writable) before anything is written.
    std::unique_ptr<OutputFile> junit = opt.junit.empty() ? nullptr : std::make_unique<OutputFile>(opt.junit, in.paths);
    OutputFile out(opt.out, in.paths);
    if (format == "gltf") {
        int clip = -1;
        Scene scene = output_scene(in, !opt.input.animation.empty(), clip);
        for (const RivetResult& r : rivets) add_rivet_nodes(scene, r.vertex, r.joint, r.fit);
        write_glb(scene, {}, out);
    } else if (format == "csv") {
        write_fit_csv(out.buffer(), in.scene, rivets, diagonal);
    } else {
        write_fit_json(out.buffer(), run_info(in, opt.input.file), mesh, rivets);
    }
    // Both written in full before either takes its name: no half of the output on failure.
    out.finish();
    if (junit) {
        junit->write(verdict.junit);
        junit->finish();
    }
    out.commit();
    if (junit) junit->commit();
    // The verdict's text on stdout, as check's, unless the output took stdout. Without
    // --max-fit-error, a fit that poor is still said (the rivet drifts off its vertex so much).
    if (opt.has_max_fit_error) {
        if (is_stdout_path(opt.out)) std::fputs(verdict.report.c_str(), stderr);
        else {
            OutputFile text("-");
            text.write(verdict.report);
            text.commit();
        }
    } else if (verdict.failed) {
        // The summary line and the worst rivet's line of the report.
        const std::string& t = verdict.report;
        const std::size_t first = t.find('\n'), second = t.find('\n', first + 1);
        spdlog::warn("{}: {}; the worst: {} (--max-fit-error R makes this a failure)", opt.input.file, t.substr(0, first),
                     t.substr(first + 3, second - first - 3));
    }
    return opt.has_max_fit_error && verdict.failed ? kExitCheckFailed : kExitOk;
}

int run_bake(const RivetOptions& opt, const std::string& format, const Input& in, int mesh, const std::vector<std::uint32_t>& vertices) {
    const auto frames = bake_rivets(in, mesh, vertices, terminal_progress("rivet"));
    OutputFile out(opt.out, in.paths);
    if (format == "gltf") {
        int clip = -1;
        Scene scene = output_scene(in, !opt.input.animation.empty(), clip);
        add_baked_nodes(scene, clip, in, vertices, frames);
        write_glb(scene, {}, out);
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
        if (opt.out.empty() || is_stdout_path(opt.out))
            throw Error(kExitUsage, "rivet --format gltf needs -o FILE.glb (binary output does not go to a terminal)");
        std::string ext = opt.out.size() >= 5 ? opt.out.substr(opt.out.size() - 5) : "";
        for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (ext == ".gltf") throw Error(kExitUsage, opt.out + ": rivet writes binary glTF: name the file .glb");
    }
    if (opt.bake && opt.has_max_fit_error) throw Error(kExitUsage, "--max-fit-error judges fitted rivets; a baked rivet (--bake) has no fit");
    if (!opt.junit.empty() && !opt.has_max_fit_error) throw Error(kExitUsage, "rivet --junit reports the --max-fit-error verdict: give the limit");
    if (opt.bake && !opt.joint.empty()) throw Error(kExitUsage, "--joint chooses the joint of a fitted rivet; a baked rivet (--bake) follows no joint");
    if (!opt.bake && opt.input.weld != "on")
        throw Error(kExitUsage, "--weld " + opt.input.weld + " shapes a baked rivet's edge frame (--bake); a fitted rivet reads file vertices");
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
    add_weld_option(cmd, opt->input);
    add_skinning_option(cmd, opt->input);
    cmd->add_option("--vertices", opt->vertices, "File vertex ids: 12,40,100..110")->required();
    cmd->add_option("--joint", opt->joint, "Joint the rivet follows (default: the vertex's heaviest influence whose parent is also one)");
    cmd->add_flag("--bake", opt->bake, "Per-frame transforms of the vertices (position, normal and edge frame) instead of a fit");
    cmd->add_option("-o,--output", opt->out, "Output file (.json, .csv, .glb) or - for stdout");
    cmd->add_option("--format", opt->format, "json, csv or gltf (default: from -o's extension, else json)")
        ->check(CLI::IsMember({"json", "csv", "gltf"}));
    cmd->add_option("--max-fit-error", opt->max_fit_error,
                    "Fail (exit 1) where a fit's max error passes this share of the mesh's diagonal (default: warn past 0.01)")
        ->check(positive_number())
        ->each([opt](const std::string&) { opt->has_max_fit_error = true; });
    cmd->add_option("--junit", opt->junit, "With --max-fit-error: also write the verdict as a JUnit XML report here");
    cmd->callback([&run, opt] { run = [opt](RunContext&) { return run_rivet(*opt); }; });
}

RIGSCOPE_REGISTER_COMMAND(4, add_rivet_command);

}  // namespace rigscope::cli
