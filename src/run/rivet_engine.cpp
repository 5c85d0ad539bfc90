#include "rigscope/run/rivet_engine.h"

#include <algorithm>
#include <cmath>
#include <spdlog/spdlog.h>

#include "rigscope/core/error.h"
#include "rigscope/core/topology.h"
#include "rigscope/io/output.h"
#include "rigscope/run/run_budget.h"

namespace rigscope {

namespace {

// NaN from the pose would reach the JSON as "nan" and the glTF as invalid floats: a failure
// naming where it arose beats an output nothing can read.
[[noreturn]] void throw_not_finite(const Input& in, const Frame& f, std::uint32_t vertex) {
    std::string frame;
    append_frame(frame, f, false);
    throw Error(kExitBadInput, in.scene.source + ": vertex " + std::to_string(vertex) + " at frame " + frame +
                                   ": the posed skeleton or skinned vertex is not finite (NaN or infinity)");
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

// A fit solves for six unknowns (pivot and offset); one pose gives three equations, and poses
// in which the joint does not turn add none. Rank 3 is such a fit: it matches its frames exactly
// with a pivot the frames never located, so its zero error would pass any --max-fit-error.
// (Rank 4 or 5 is a joint turning about one axis, where the pivot is free along that axis and
// the fit still reproduces every pose: docs/rivet.md.)
std::string undetermined_fit(const Input& in, const RivetResult& r) {
    constexpr int kDetermined = 4;
    if (r.fit.rank >= kDetermined) return "";
    const std::string joint = in.scene.nodes[r.joint].name;
    std::string why = in.has_clip ? "joint '" + joint + "' does not turn over the " + std::to_string(in.frames.size()) + " frames evaluated"
                                  : in.scene.source + " has no animation: only the bind pose is evaluated";
    return "rivet fit of vertex " + std::to_string(r.vertex) + " is undetermined: " + why + " (rank " + std::to_string(r.fit.rank) +
           " of 6; a fit needs frames where its joint turns: " + (in.has_clip ? "choose other --frames, or use --rom)" : "use --rom or --animation)");
}

}  // namespace

std::vector<RivetResult> fit_rivets(const Input& in, int mesh, const std::vector<std::uint32_t>& vertices, const std::string& joint,
                                    const FrameProgress& progress) {
    const Scene& scene = in.scene;
    std::vector<RivetResult> rivets(vertices.size());
    for (std::size_t i = 0; i < vertices.size(); ++i) {
        RivetResult& r = rivets[i];
        r.vertex = vertices[i];
        r.influences = vertex_influences(scene, scene.meshes[mesh], r.vertex);
        r.joint = pick_joint(scene, joint, r.vertex, r.influences);
        r.analytic = analytic_pivot(scene, scene.meshes[mesh], r.vertex, r.joint);
    }
    // Every vertex keeps its sample of every frame until its fit: vertices x frames samples.
    check_job_budget(in, double(vertices.size()) * double(in.frames.size()) * sizeof(RivetSample), "the rivet fit's samples",
                     "fit fewer --vertices or fewer --frames at a time, or raise --max-memory");
    std::vector<std::vector<RivetSample>> samples(vertices.size());
    Pose pose = bind_pose(scene);
    for (std::size_t fi = 0; fi < in.frames.size(); ++fi) {
        pose_at(in, in.frames[fi], pose);
        for (std::size_t i = 0; i < rivets.size(); ++i) {
            samples[i].push_back(rivet_sample(scene, mesh, pose, rivets[i].vertex, rivets[i].joint));
            const RivetSample& s = samples[i].back();
            if (!s.vertex.allFinite() || !s.parent_world.allFinite() || !s.joint_linear.allFinite())
                throw_not_finite(in, in.frames[fi], rivets[i].vertex);
        }
        report_progress(progress, fi + 1, in.frames.size());
    }
    const Pose bind = bind_pose(scene);
    std::size_t undetermined = 0;
    for (std::size_t i = 0; i < rivets.size(); ++i) {
        RivetResult& r = rivets[i];
        r.fit = fit_rivet(samples[i]);
        // One vertex whose joint does not turn (a vertex list across a character, some on a
        // static joint) is that vertex's finding, not the run's: the others are fitted.
        r.undetermined = undetermined_fit(in, r);
        if (!r.undetermined.empty()) ++undetermined;
        const int parent = scene.nodes[r.joint].parent;
        r.pivot_world = parent < 0 ? r.fit.pivot_parent
                                   : Eigen::Vector3d((rivet_node_world(scene, scene.meshes[mesh], bind, parent) *
                                                      r.fit.pivot_parent.homogeneous()).head<3>());
    }
    // Not one fit determined: the frames chosen cannot make a rivet at all.
    if (undetermined == rivets.size() && !rivets.empty()) throw Error(kExitUsage, rivets.front().undetermined);
    for (const RivetResult& r : rivets)
        if (!r.undetermined.empty()) spdlog::warn("{}: left out, the other rivets are fitted", r.undetermined);
    return rivets;
}

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

// Baked transforms per selected frame (outer) and vertex (inner), in the selection's order.
std::vector<std::vector<BakedTransform>> bake_rivets(const Input& in, int mesh, const std::vector<std::uint32_t>& vertices,
                                                     const FrameProgress& progress) {
    const Scene& scene = in.scene;
    const Topology topo = blaming(scene.source, [&] { return build_topology(scene.meshes[mesh], in.weld); });
    std::vector<BakeStencil> stencils;
    for (std::uint32_t v : vertices) stencils.push_back(bake_stencil(scene.meshes[mesh], topo, v));
    check_job_budget(in, double(vertices.size()) * double(in.frames.size()) * sizeof(BakedTransform), "the baked transforms",
                     "bake fewer --vertices or fewer --frames at a time (--chunk), or raise --max-memory");
    std::vector<std::vector<BakedTransform>> frames(in.frames.size(), std::vector<BakedTransform>(vertices.size()));
    Pose pose = bind_pose(scene);
    for (std::size_t fi = 0; fi < in.frames.size(); ++fi) {
        pose_at(in, in.frames[fi], pose);
        for (std::size_t i = 0; i < stencils.size(); ++i) {
            frames[fi][i] = bake_rivet(scene, mesh, pose, stencils[i], fi ? &frames[fi - 1][i] : nullptr);
            if (!frames[fi][i].position.allFinite() || !frames[fi][i].rotation.coeffs().allFinite())
                throw_not_finite(in, in.frames[fi], vertices[i]);
        }
        report_progress(progress, fi + 1, in.frames.size());
    }
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

}  // namespace rigscope
