// `rigscope rivet`: constraint-only rivets fitted to chosen vertices, or baked per-frame rivets,
// as JSON, CSV or a glTF of the input with the rivet nodes added. docs/rivet.md has the fields.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <memory>
#include <spdlog/spdlog.h>

#include "cli_common.h"
#include "commands.h"
#include "rigscope/error.h"
#include "rigscope/gltf_writer.h"
#include "rigscope/rivet.h"
#include "rigscope/topology.h"
#include "rigscope/vertex_list.h"
#include "rivet_report.h"

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

// Rivets pin to one surface, so one skinned mesh: --mesh's, else the file's only skinned one.
int rivet_mesh(const Input& in, const std::string& spec) {
    std::vector<int> skinned;
    for (int m : in.meshes)
        if (in.scene.meshes[m].skin >= 0 && !in.scene.meshes[m].influences.empty()) skinned.push_back(m);
    if (skinned.size() == 1) return skinned[0];
    std::string names;
    for (int m : skinned) names += (names.empty() ? "" : ", ") + in.scene.meshes[m].name;
    if (skinned.empty())
        throw Error(kExitMismatch, in.scene.source + ": " + (spec.empty() ? "no skinned mesh" : "mesh '" + spec + "' is not skinned") +
                                       ": a rivet follows skinning");
    throw Error(kExitUsage, in.scene.source + ": several skinned meshes (" + names + "): choose one with --mesh");
}

int pick_joint(const Scene& scene, const std::string& name, std::uint32_t vertex, const std::vector<RivetInfluence>& inf) {
    if (name.empty()) {
        const int j = default_rivet_joint(scene, inf);
        if (j < 0) throw Error(kExitMismatch, "vertex " + std::to_string(vertex) + " has no skin influence: no joint for a rivet to follow");
        return j;
    }
    const int j = scene.find_node(name);
    if (j < 0) throw Error(kExitMismatch, "--joint '" + name + "': " + scene.source + " has no node of that name");
    if (std::none_of(inf.begin(), inf.end(), [j](const RivetInfluence& r) { return r.joint == j; }))
        throw Error(kExitMismatch, "--joint '" + name + "' does not influence vertex " + std::to_string(vertex) + " (its influences: " +
                                       (inf.empty() ? std::string("none") : influence_list(scene, inf)) + ")");
    return j;
}

// The input as the glTF writer's scene, and the index of the selected clip in it. With
// --animation the retargeted clip is the only one (the file's own clips are not what was
// evaluated); else every clip of the file stays, and the selected one is found again by what
// identifies it (Input keeps a copy, not an index).
Scene output_scene(const Input& in, bool retargeted, int& clip_index) {
    Scene out = in.scene;
    clip_index = -1;
    if (!in.has_clip) return out;
    if (retargeted) {
        out.clips = {in.clip};
        clip_index = 0;
        return out;
    }
    for (std::size_t c = 0; c < out.clips.size() && clip_index < 0; ++c) {
        const Clip& clip = out.clips[c];
        if (clip.name == in.clip.name && clip.channels.size() == in.clip.channels.size() && clip.start == in.clip.start &&
            clip.end == in.clip.end)
            clip_index = static_cast<int>(c);
    }
    return out;
}

void write_glb_file(const Scene& scene, OutputFile& out) {
    try {
        write_glb(scene, {}, out);
    } catch (const std::invalid_argument& e) {
        throw Error(kExitBadInput, scene.source + ": cannot be written as glTF: " + e.what());
    }
}

// NaN from the pose would reach the JSON as "nan" and the glTF as invalid floats: a failure
// naming where it arose beats an output nothing can read.
[[noreturn]] void throw_not_finite(const Input& in, const Frame& f, std::uint32_t vertex) {
    std::string frame;
    append_frame(frame, f, false);
    throw Error(kExitBadInput, in.scene.source + ": vertex " + std::to_string(vertex) + " at frame " + frame +
                                   ": the posed skeleton or skinned vertex is not finite (NaN or infinity)");
}

std::vector<RivetResult> fit_rivets(const RivetOptions& opt, const Input& in, int mesh, const std::vector<std::uint32_t>& vertices) {
    const Scene& scene = in.scene;
    std::vector<RivetResult> rivets(vertices.size());
    for (std::size_t i = 0; i < vertices.size(); ++i) {
        RivetResult& r = rivets[i];
        r.vertex = vertices[i];
        r.influences = vertex_influences(scene, scene.meshes[mesh], r.vertex);
        r.joint = pick_joint(scene, opt.joint, r.vertex, r.influences);
        r.analytic = analytic_pivot(scene, scene.meshes[mesh], r.vertex, r.joint);
    }
    std::vector<std::vector<RivetSample>> samples(vertices.size());
    Pose pose = bind_pose(scene);
    Progress progress(in.frames.size(), "rivet");
    for (std::size_t fi = 0; fi < in.frames.size(); ++fi) {
        pose_at(in, in.frames[fi], pose);
        for (std::size_t i = 0; i < rivets.size(); ++i) {
            samples[i].push_back(rivet_sample(scene, mesh, pose, rivets[i].vertex, rivets[i].joint));
            const RivetSample& s = samples[i].back();
            if (!s.vertex.allFinite() || !s.parent_world.allFinite() || !s.joint_linear.allFinite())
                throw_not_finite(in, in.frames[fi], rivets[i].vertex);
        }
        progress.step(fi + 1);
    }
    progress.finish();
    const Pose bind = bind_pose(scene);
    for (std::size_t i = 0; i < rivets.size(); ++i) {
        RivetResult& r = rivets[i];
        r.fit = fit_rivet(samples[i]);
        const int parent = scene.nodes[r.joint].parent;
        r.pivot_world = parent < 0 ? r.fit.pivot_parent
                                   : Eigen::Vector3d((rivet_node_world(scene, scene.meshes[mesh], bind, parent) *
                                                      r.fit.pivot_parent.homogeneous()).head<3>());
    }
    return rivets;
}

int run_fit(const RivetOptions& opt, const std::string& format, const Input& in, int mesh, const std::vector<std::uint32_t>& vertices) {
    const std::vector<RivetResult> rivets = fit_rivets(opt, in, mesh, vertices);
    OutputFile out(opt.out, in.paths);
    if (format == "gltf") {
        int clip = -1;
        Scene scene = output_scene(in, !opt.input.animation.empty(), clip);
        for (const RivetResult& r : rivets) add_rivet_nodes(scene, r.vertex, r.joint, r.fit);
        write_glb_file(scene, out);
    } else if (format == "csv") {
        write_fit_csv(out.buffer(), in.scene, rivets, bbox_diagonal(in.scene.meshes[mesh]));
    } else {
        write_fit_json(out.buffer(), opt.input.file, in, mesh, rivets);
    }
    out.commit();
    return kExitOk;
}

// Where skinning folds the surface over a vertex, the faces around it invert and their normal
// swings through the fold within a frame or two: the baked orientation is meaningless there, and
// the user should hear which vertex and frames, not find a spinning locator in the viewer.
void warn_of_folds(const Input& in, const std::vector<std::uint32_t>& vertices, const std::vector<std::vector<BakedTransform>>& frames) {
    constexpr double kTurnDegrees = 30.0;
    for (std::size_t i = 0; i < vertices.size(); ++i) {
        double worst = 0;
        std::size_t at = 0;
        for (std::size_t fi = 1; fi < frames.size(); ++fi) {
            const double turn = frames[fi][i].rotation.angularDistance(frames[fi - 1][i].rotation) * 180.0 / M_PI;
            if (turn > worst) {
                worst = turn;
                at = fi;
            }
        }
        if (worst <= kTurnDegrees) continue;
        std::string from, to;
        append_frame(from, in.frames[at - 1], false);
        append_frame(to, in.frames[at], false);
        spdlog::warn("vertex {}: the baked orientation turns {:.0f} degrees between frames {} and {}: the faces around the vertex fold "
                     "over there (their normal reverses), so no orientation follows the surface",
                     vertices[i], worst, from, to);
    }
}

// Baked transforms per selected frame (outer) and vertex (inner), in the selection's order.
std::vector<std::vector<BakedTransform>> bake_rivets(const Input& in, int mesh, const std::vector<std::uint32_t>& vertices) {
    const Scene& scene = in.scene;
    const Topology topo = blaming(scene.source, [&] { return build_topology(scene.meshes[mesh], in.weld); });
    std::vector<BakeStencil> stencils;
    for (std::uint32_t v : vertices) stencils.push_back(bake_stencil(scene.meshes[mesh], topo, v));
    std::vector<std::vector<BakedTransform>> frames(in.frames.size(), std::vector<BakedTransform>(vertices.size()));
    Pose pose = bind_pose(scene);
    Progress progress(in.frames.size(), "rivet");
    for (std::size_t fi = 0; fi < in.frames.size(); ++fi) {
        pose_at(in, in.frames[fi], pose);
        for (std::size_t i = 0; i < stencils.size(); ++i) {
            frames[fi][i] = bake_rivet(scene, mesh, pose, stencils[i], fi ? &frames[fi - 1][i] : nullptr);
            if (!frames[fi][i].position.allFinite() || !frames[fi][i].rotation.coeffs().allFinite())
                throw_not_finite(in, in.frames[fi], vertices[i]);
        }
        progress.step(fi + 1);
    }
    progress.finish();
    warn_of_folds(in, vertices, frames);
    return frames;
}

void add_baked_nodes(Scene& scene, int clip, const Input& in, const std::vector<std::uint32_t>& vertices,
                     const std::vector<std::vector<BakedTransform>>& frames) {
    // Keys in time order, once per time: the selection may repeat frames, run backwards or hold
    // the bind pose, which has no time on the clip.
    std::vector<std::size_t> order;
    for (std::size_t fi = 0; fi < in.frames.size(); ++fi)
        if (!in.frames[fi].bind) order.push_back(fi);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return in.frames[a].time < in.frames[b].time; });
    order.erase(std::unique(order.begin(), order.end(),
                            [&](std::size_t a, std::size_t b) { return static_cast<float>(in.frames[a].time) == static_cast<float>(in.frames[b].time); }),
                order.end());
    std::vector<double> times;
    for (std::size_t fi : order) times.push_back(in.frames[fi].time);
    for (std::size_t i = 0; i < vertices.size(); ++i) {
        std::vector<BakedTransform> keys;
        for (std::size_t fi : order) {
            keys.push_back(frames[fi][i]);
            // Re-chosen in time order: the hemisphere was picked in the selection's order.
            if (keys.size() > 1 && keys.back().rotation.coeffs().dot(keys[keys.size() - 2].rotation.coeffs()) < 0)
                keys.back().rotation.coeffs() *= -1.0;
        }
        add_baked_rivet_node(scene, vertices[i], frames.front()[i], clip, times, keys);
    }
}

int run_bake(const RivetOptions& opt, const std::string& format, const Input& in, int mesh, const std::vector<std::uint32_t>& vertices) {
    const auto frames = bake_rivets(in, mesh, vertices);
    OutputFile out(opt.out, in.paths);
    if (format == "gltf") {
        int clip = -1;
        Scene scene = output_scene(in, !opt.input.animation.empty(), clip);
        add_baked_nodes(scene, clip, in, vertices, frames);
        write_glb_file(scene, out);
        out.commit();
        return kExitOk;
    }
    if (format == "csv") write_bake_csv(out, in, vertices, frames);
    else write_bake_json(out, opt.input.file, in, mesh, vertices, frames);
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
    const std::vector<std::uint32_t> vertices = parse_vertex_list(opt.vertices, in.scene.meshes[mesh].vertex_count());
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
    cmd->callback([&run, opt] { run = [opt] { return run_rivet(*opt); }; });
}

RIGSCOPE_REGISTER_COMMAND(4, add_rivet_command);

}  // namespace rigscope::cli
