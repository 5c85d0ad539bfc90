// `rigscope diff OLD NEW`: two versions of a rig on the same motion, compared vertex by vertex
// and frame by frame: how far each vertex moved, how its T changed, and under which joint.
#include <chrono>
#include <cmath>
#include <memory>
#include <spdlog/spdlog.h>

#include "commands.h"
#include "rigscope/farm/diff_chunk.h"
#include "rigscope/core/error.h"
#include "rigscope/io/gltf_writer.h"
#include "rigscope/io/output.h"
#include "rigscope/core/parallel.h"
#include "rigscope/core/vertex_match.h"
#include "tension_setup.h"

namespace rigscope::cli {

namespace {

// Rest positions pair within this fraction of OLD's mesh diagonal: well above the rounding of a
// re-export (float positions, unit conversions: ~1e-7), well below any real edge.
constexpr double kMatchRelativeTolerance = 1e-5;

struct DiffCommand {
    InputOptions input;  // FILE is OLD
    std::string new_file;
    std::string match = "index";
    double max_displacement = 0, max_t_change = 0;
    bool has_displacement = false, has_t_change = false;
    std::string junit;
    std::string out;
    std::string format;
    int worst = 10;
};

struct MeshPair {
    int old_mesh = -1, new_mesh = -1;
    std::vector<std::uint32_t> new_of_old;  // NEW file vertex per OLD file vertex
};

std::string frames_text(const std::vector<Frame>& frames) {
    if (frames.empty()) return "none";
    std::string s;
    append_frame(s, frames.front(), false);
    s += "..";
    append_frame(s, frames.back(), false);
    return s + " (" + std::to_string(frames.size()) + " frames)";
}

std::vector<MeshPair> pair_meshes(const DiffCommand& opt, const Input& a, const Input& b) {
    std::vector<MeshPair> pairs;
    for (std::size_t i = 0; i < a.meshes.size(); ++i) {
        const Mesh& om = a.scene.meshes[a.meshes[i]];
        MeshPair p;
        p.old_mesh = a.meshes[i];
        // The NEW mesh of the same name, else the one at the same place in the selection.
        for (int m : b.meshes)
            if (b.scene.meshes[m].name == om.name && p.new_mesh < 0) p.new_mesh = m;
        if (p.new_mesh < 0 && i < b.meshes.size()) p.new_mesh = b.meshes[i];
        if (p.new_mesh < 0)
            throw Error(kExitMismatch, opt.new_file + ": no mesh '" + om.name + "' (nor a mesh at its place) to compare with " + opt.input.file);
        const Mesh& nm = b.scene.meshes[p.new_mesh];
        if (opt.match == "position") {
            const double tol = kMatchRelativeTolerance * bounding_diagonal(om.positions);
            VertexMatch vm = match_by_position(om.positions, nm.positions, tol);
            if (!vm.complete())
                throw Error(kExitMismatch, opt.new_file + ": mesh '" + nm.name + "': --match position: " + std::to_string(vm.unmatched) +
                                               " vertices without a partner at their rest position and " + std::to_string(vm.ambiguous) +
                                               " ambiguous (" + opt.input.file + " mesh '" + om.name + "' has " +
                                               std::to_string(om.vertex_count()) + " vertices, NEW " + std::to_string(nm.vertex_count()) + ")");
            p.new_of_old = std::move(vm.b_of_a);
        } else {
            if (om.vertex_count() != nm.vertex_count())
                throw Error(kExitMismatch, opt.new_file + ": mesh '" + nm.name + "' has " + std::to_string(nm.vertex_count()) + " vertices, " +
                                               opt.input.file + " mesh '" + om.name + "' has " + std::to_string(om.vertex_count()) +
                                               " (--match position pairs vertices by rest position)");
            p.new_of_old.resize(om.vertex_count());
            for (std::size_t v = 0; v < p.new_of_old.size(); ++v) p.new_of_old[v] = static_cast<std::uint32_t>(v);
        }
        pairs.push_back(std::move(p));
    }
    return pairs;
}

void append_frame_json(std::string& b, const Frame& f) {
    if (f.bind) b += "\"bind\"";
    else append_number(b, f.number);
}

int run_diff(const DiffCommand& opt, RunContext& ctx) {
    const std::string format = opt.out.empty() ? "" : output_format(opt.format, opt.out, "csv");
    if (!format.empty() && format != "csv" && format != "json" && format != "gltf")
        throw Error(kExitUsage, "diff writes csv, json or gltf, not " + format);
    const bool chunked = !opt.input.chunk.empty();
    if (chunked && !opt.junit.empty())
        throw Error(kExitUsage, "diff --chunk: a chunk sees part of the frames; give --junit to merge, which reports over all of them");

    CheckRunInfo info = start_run_info();
    const auto started = std::chrono::steady_clock::now();
    Input a = load_input(opt.input);
    InputOptions nopt = opt.input;
    nopt.file = opt.new_file;
    // NEW sweeps OLD's joints in OLD's order, so frame f poses the same joint in both.
    if (a.has_rom) {
        nopt.rom_options.joints.clear();
        for (const RomSweep& s : a.rom.sweeps)
            if (s.axis == 0) nopt.rom_options.joints.push_back(a.scene.nodes[s.node].name);
    }
    Input b = load_input(nopt);
    std::vector<std::string> inputs = a.paths;
    inputs.insert(inputs.end(), b.paths.begin(), b.paths.end());
    if (a.frames.size() != b.frames.size() ||
        !std::equal(a.frames.begin(), a.frames.end(), b.frames.begin(), [](const Frame& x, const Frame& y) {
            return x.bind == y.bind && x.number == y.number;
        }))
        throw Error(kExitMismatch, opt.new_file + ": frames " + frames_text(b.frames) + ", " + opt.input.file + ": frames " +
                                       frames_text(a.frames) + " (choose them with --frames)");
    const std::vector<MeshPair> pairs = pair_meshes(opt, a, b);

    TensionOptions ta;
    ta.input = opt.input;
    TensionOptions tb = ta;
    tb.input.file = opt.new_file;
    std::vector<MeshTension> ma = prepare_tension(a, ta), mb = prepare_tension(b, tb);

    DiffLimits lim{opt.max_displacement, opt.max_t_change, opt.has_displacement, opt.has_t_change, opt.worst, opt.input.file, opt.new_file};
    std::vector<DiffMesh> meshes(pairs.size());
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        const Mesh& om = a.scene.meshes[pairs[i].old_mesh];
        DiffMesh& d = meshes[i];
        d.name = om.name;
        std::vector<Eigen::Vector3f> rest;
        deform_mesh(a.scene, pairs[i].old_mesh, bind_pose(a.scene), rest);
        d.diagonal = bounding_diagonal(rest);
        const std::vector<int> heavy = heaviest_joint_nodes(a.scene, om);
        std::vector<int> region_of_node(a.scene.nodes.size() + 1, -1);
        d.region.resize(heavy.size());
        for (std::size_t v = 0; v < heavy.size(); ++v) {
            int& r = region_of_node[heavy[v] + 1];
            if (r < 0) {
                r = static_cast<int>(d.regions.size());
                d.regions.push_back(heavy[v] < 0 ? "(unskinned)" : a.scene.nodes[heavy[v]].name);
            }
            d.region[v] = static_cast<std::uint32_t>(r);
        }
    }

    std::unique_ptr<OutputFile> out = opt.out.empty() ? nullptr : std::make_unique<OutputFile>(opt.out, inputs);
    std::unique_ptr<OutputFile> junit = opt.junit.empty() ? nullptr : std::make_unique<OutputFile>(opt.junit, inputs);
    const bool csv = format == "csv", json = format == "json";
    std::string* buf = out ? &out->buffer() : nullptr;
    if (csv) *buf += "frame,time,mesh,vertex,new_vertex,displacement,relative,t_change\n";
    if (json) {
        *buf += "{\"command\":\"diff\",\"version\":";
        append_json_string(*buf, RIGSCOPE_VERSION);
        *buf += ",\"old\":";
        append_json_string(*buf, opt.input.file);
        *buf += ",\"new\":";
        append_json_string(*buf, opt.new_file);
        *buf += ",\"match\":";
        append_json_string(*buf, opt.match);
        *buf += ",\"clip\":";
        if (a.has_clip) append_json_string(*buf, a.clip.name); else *buf += "null";
        *buf += ",\"fps\":";
        append_number(*buf, a.fps);
        *buf += ",\"meshes\":[";
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            *buf += i ? ",{\"name\":" : "{\"name\":";
            append_json_string(*buf, meshes[i].name);
            *buf += ",\"new_name\":";
            append_json_string(*buf, b.scene.meshes[pairs[i].new_mesh].name);
            *buf += ",\"vertices\":";
            append_number(*buf, static_cast<unsigned long>(pairs[i].new_of_old.size()));
            *buf += ",\"diagonal\":";
            append_number(*buf, meshes[i].diagonal);
            *buf += '}';
        }
        *buf += "],\"frames\":[";
    }

    std::vector<DiffFrame> frames;
    Pose pa = bind_pose(a.scene), pb = bind_pose(b.scene);
    ThreadPool pool(a.threads);
    Progress progress(a.frames.size(), "diff");
    for (std::size_t fi = 0; fi < a.frames.size(); ++fi) {
        const Frame& f = a.frames[fi];
        pose_at(a, f, pa);
        pose_at(b, b.frames[fi], pb);
        DiffFrame df{f};
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            ma[i].evaluate(a.scene, pa, &pool);
            mb[i].evaluate(b.scene, pb, &pool);
            DiffMesh& d = meshes[i];
            const auto& map = pairs[i].new_of_old;
            const bool first = fi == 0;
            if (first) {
                d.displacement.assign(map.size(), 0.0f);
                d.t_change.assign(map.size(), 0.0f);
                d.displacement_frame.assign(map.size(), f);
                d.t_change_frame.assign(map.size(), f);
            }
            std::string prefix;
            if (csv) {
                append_frame(prefix, f, false);
                prefix += ',';
                append_number(prefix, f.time);
                prefix += ',';
                append_csv_field(prefix, d.name);
                prefix += ',';
            }
            for (std::size_t v = 0; v < map.size(); ++v) {
                const std::uint32_t w = map[v];
                const float disp = (mb[i].deformed[w] - ma[i].deformed[v]).norm();
                const float dt = mb[i].t[mb[i].topo.welded_of[w]] - ma[i].t[ma[i].topo.welded_of[v]];
                if (first || disp > d.displacement[v]) {
                    d.displacement[v] = disp;
                    d.displacement_frame[v] = f;
                }
                if (first || std::fabs(dt) > std::fabs(d.t_change[v])) {
                    d.t_change[v] = dt;
                    d.t_change_frame[v] = f;
                }
                if (disp > df.displacement) df = DiffFrame{f, disp, df.t_change, static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(v), df.t_mesh, df.t_vertex};
                if (std::fabs(dt) > df.t_change) {
                    df.t_change = std::fabs(dt);
                    df.t_mesh = static_cast<std::uint32_t>(i);
                    df.t_vertex = static_cast<std::uint32_t>(v);
                }
                if (csv) {
                    *buf += prefix;
                    append_number(*buf, static_cast<unsigned long>(v));
                    *buf += ',';
                    append_number(*buf, static_cast<unsigned long>(w));
                    *buf += ',';
                    append_number(*buf, disp);
                    *buf += ',';
                    append_number(*buf, d.diagonal > 0 ? disp / d.diagonal : 0.0);
                    *buf += ',';
                    append_number(*buf, dt);
                    *buf += '\n';
                    out->maybe_flush();
                }
            }
        }
        frames.push_back(df);
        if (json) {
            *buf += fi ? ",{\"frame\":" : "{\"frame\":";
            append_frame_json(*buf, f);
            *buf += ",\"time\":";
            append_number(*buf, f.time);
            *buf += ",\"max_displacement\":";
            append_number(*buf, df.displacement);
            *buf += ",\"mesh\":";
            append_json_string(*buf, meshes.empty() ? "" : meshes[df.mesh].name);
            *buf += ",\"vertex\":";
            append_number(*buf, df.vertex);
            *buf += ",\"max_t_change\":";
            append_number(*buf, df.t_change);
            *buf += ",\"t_mesh\":";
            append_json_string(*buf, meshes.empty() ? "" : meshes[df.t_mesh].name);
            *buf += ",\"t_vertex\":";
            append_number(*buf, df.t_vertex);
            *buf += '}';
        }
        progress.step(fi + 1);
    }
    progress.finish();
    if (json) *buf += "],\"summary\":" + diff_summary_json(lim, meshes, frames) + "}\n";
    if (format == "gltf") {
        // The NEW mesh coloured by each vertex's largest displacement over the frames: white at
        // none, red at the run's largest.
        float top = 0;
        for (const DiffMesh& d : meshes)
            for (float x : d.displacement) top = std::max(top, x);
        std::vector<MeshAttributes> extra;
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            const std::size_t n = b.scene.meshes[pairs[i].new_mesh].vertex_count();
            MeshAttributes ma_{pairs[i].new_mesh, {{"_DISPLACEMENT", 1, std::vector<float>(n, 0.0f)}, {"COLOR_0", 3, std::vector<float>(3 * n, 1.0f)}}};
            for (std::size_t v = 0; v < pairs[i].new_of_old.size(); ++v) {
                const std::uint32_t w = pairs[i].new_of_old[v];
                const float x = meshes[i].displacement[v];
                ma_.attributes[0].data[w] = x;
                const float u = top > 0 ? x / top : 0.0f;
                ma_.attributes[1].data[3 * w + 1] = 1.0f - u;
                ma_.attributes[1].data[3 * w + 2] = 1.0f - u;
            }
            extra.push_back(std::move(ma_));
        }
        write_glb(b.scene, extra, *out);
    }
    info.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (chunked)
        for (auto& state : diff_chunk_state(lim, info, meshes, frames)) ctx.chunk_state.push_back(std::move(state));
    const CheckOutcome outcome = diff_outcome(lim, info, meshes, frames);
    if (out) out->finish();
    if (junit) {
        junit->write(outcome.junit);
        junit->finish();
    }
    if (!(out && opt.out == "-")) {
        OutputFile report("-");
        report.write(outcome.report);
        report.commit();
    }
    if (out) out->commit();
    if (junit) junit->commit();
    // A chunk's verdict is partial (merge gives the run's).
    return outcome.failed && !chunked ? kExitCheckFailed : kExitOk;
}

}  // namespace

void add_diff_command(CLI::App& app, Runner& run) {
    auto opt = std::make_shared<DiffCommand>();
    CLI::App* cmd = app.add_subcommand("diff", "Rig CI: compare two versions of a rig (FILE is OLD, then NEW) on the same frames");
    add_input_options(cmd, opt->input);
    cmd->add_option("NEW", opt->new_file, "The changed version of FILE (.fbx, .gltf, .glb)")->required();
    cmd->add_option("--match", opt->match, "Pair vertices by index (default) or by rest position")->check(CLI::IsMember({"index", "position"}));
    cmd->add_option("--max-displacement", opt->max_displacement, "Fail where a vertex moves more than this (metres)")
        ->check(CLI::NonNegativeNumber)
        ->each([opt](const std::string&) { opt->has_displacement = true; });
    cmd->add_option("--max-t-change", opt->max_t_change, "Fail where a vertex's T changes by more than this")
        ->check(CLI::NonNegativeNumber)
        ->each([opt](const std::string&) { opt->has_t_change = true; });
    cmd->add_option("--junit", opt->junit, "Also write a JUnit XML report here");
    cmd->add_option("--worst", opt->worst, "How many of the worst vertices and frames to list (default 10)")->check(CLI::PositiveNumber);
    cmd->add_option("-o,--output", opt->out, "Per-vertex output (.csv, .json, .glb) or - for stdout; without it, only the summary");
    cmd->add_option("--format", opt->format, "csv, json or gltf (default: from -o's extension, else csv)")
        ->check(CLI::IsMember({"csv", "json", "gltf"}));
    cmd->callback([&run, opt] { run = [opt](RunContext& ctx) { return run_diff(*opt, ctx); }; });
}

RIGSCOPE_REGISTER_COMMAND(8, add_diff_command);

}  // namespace rigscope::cli
