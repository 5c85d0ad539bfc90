// The `diff` job (run/diff_job.h).
#include "rigscope/run/diff_job.h"

#include <algorithm>
#include <cmath>

#include "diff_pairing.h"
#include "rigscope/core/axes.h"
#include "rigscope/core/error.h"
#include "rigscope/core/parallel.h"
#include "rigscope/core/skin.h"
#include "rigscope/core/vertex_match.h"
#include "rigscope/farm/diff_chunk.h"
#include "rigscope/io/output.h"
#include "rigscope/run/check_job.h"
#include "rigscope/run/clip_select.h"
#include "rigscope/run/tension_run.h"
#include "rigscope/run/output_formats.h"

namespace rigscope {

namespace {

// What an evaluated mesh holds per file vertex beyond the scene (deformed position, influences
// regrouped, T, rest lengths, edges): a bound from tension_map.h's layouts, rounded up.
constexpr double kPreparedBytesPerVertex = 256;

void check_memory(const DiffJobOptions& opt, const Input& a, const Input& b, const std::vector<int>& new_meshes) {
    double old_vertices = 0, new_vertices = 0;
    for (int m : a.meshes) old_vertices += static_cast<double>(a.scene.meshes[m].vertex_count());
    for (int m : new_meshes) new_vertices += static_cast<double>(b.scene.meshes[m].vertex_count());
    const double frames = static_cast<double>(a.frames.size());
    // Per-frame displacement and change in T (floats) per compared vertex, at most one per OLD
    // file vertex; the extremes; the prepared meshes of both sides.
    const double bytes = frames * old_vertices * 8 + old_vertices * 48 + (old_vertices + new_vertices) * kPreparedBytesPerVertex;
    const double limit = opt.input.max_memory_mib * 1024 * 1024;
    if (bytes > limit)
        throw bad_input(opt.input.file, "diff would hold " + std::to_string(static_cast<long long>(bytes / (1024 * 1024))) + " MiB (" +
                                            std::to_string(a.frames.size()) + " frames x " +
                                            std::to_string(static_cast<long long>(old_vertices)) +
                                            " vertices of per-frame values, and both files' meshes), more than --max-memory " +
                                            std::to_string(static_cast<long long>(opt.input.max_memory_mib)) +
                                            " MiB; choose fewer frames (--frames, --chunk) or raise --max-memory");
}

// OLD's mesh `m` as the summary describes it: diagonal at the bind pose, regions by the joint of
// each compared vertex's heaviest influence.
DiffMesh describe_mesh(const Scene& scene, int m, const std::vector<Eigen::Vector3f>& rest, const VertexPairing& p) {
    DiffMesh d;
    d.name = scene.meshes[m].name;
    d.diagonal = bounding_diagonal(rest);
    d.vertex = p.vertex;
    const std::vector<int> heavy = heaviest_joint_nodes(scene, scene.meshes[m]);
    std::vector<int> region_of_node(scene.nodes.size() + 1, -1);
    d.region.resize(p.vertex.size());
    for (std::size_t c = 0; c < p.vertex.size(); ++c) {
        const int node = heavy[p.vertex[c]];
        int& r = region_of_node[node + 1];
        if (r < 0) {
            r = static_cast<int>(d.regions.size());
            d.regions.push_back(node < 0 ? "(unskinned)" : scene.nodes[node].name);
        }
        d.region[c] = static_cast<std::uint32_t>(r);
    }
    return d;
}

}  // namespace

void DiffJobOptions::validate() const {
    if (!format.empty()) check_verb_format("diff", format);
    if (!input.chunk.empty() && !junit.empty())
        throw Error(kExitUsage, "diff --chunk: a chunk sees part of the frames; give --junit to merge, which reports over all of them");
    check_input_options(input);
    if (new_file.empty()) throw Error(kExitUsage, "diff needs NEW, the changed version of " + input.file);
    if (match != "index" && match != "position") throw Error(kExitUsage, "--match: '" + match + "' is not index or position");
    if (match_tolerance && !(*match_tolerance >= 0 && *match_tolerance <= 1))
        throw Error(kExitUsage, "--match-tolerance: " + number_text(*match_tolerance) + " is not from 0 to 1 (of the diagonal)");
    if (match_tolerance && match != "position") throw Error(kExitUsage, "--match-tolerance is for --match position");
    if (!align.empty() && align != "start") throw Error(kExitUsage, "--align: '" + align + "' is not start");
    if (!align.empty() && frame_offset) throw Error(kExitUsage, "--align excludes --frame-offset");
    if (input.rom && (!align.empty() || frame_offset_or_zero() != 0))
        throw Error(kExitUsage, "--rom poses both files on the same synthetic frames: --align and --frame-offset do not apply");
    if (std::labs(frame_offset_or_zero()) > 1000000000L) throw Error(kExitUsage, "--frame-offset: at most 10^9 frames either way");
    for (const std::optional<double>& limit : {max_displacement, max_t_change})
        if (const double v = limit.value_or(0); !(v >= 0) || !std::isfinite(v)) throw Error(kExitUsage, "--max-displacement and --max-t-change must be 0 or more");
    if (worst < 1) throw Error(kExitUsage, "--worst: must be 1 or more");
}

DiffLimits DiffJobOptions::limits() const {
    return DiffLimits{max_displacement.value_or(0), max_t_change.value_or(0), max_displacement.has_value(), max_t_change.has_value(), worst, input.file, new_file,
                      match == "index" && input.weld != "off", "", relpath, {}};
}

namespace {

// NEW's input options for its clip `new_clip` (--clip's value for NEW). NEW's frames are OLD's
// mapped (new_frames), and its meshes are found by name: neither OLD's --frames, --chunk nor
// --mesh applies to it as given.
InputOptions new_input_options(const DiffJobOptions& opt, const Input& a, const std::string& new_clip) {
    InputOptions nopt = opt.input;
    nopt.clip = new_clip;
    nopt.file = opt.new_file;
    nopt.frames.clear();
    nopt.chunk.clear();
    nopt.mesh.clear();
    // NEW sweeps OLD's joints in OLD's order, so frame f poses the same joint in both.
    if (a.has_rom) {
        nopt.rom_options.joints.clear();
        for (const RomSweep& s : a.rom.sweeps)
            if (s.axis == 0) nopt.rom_options.joints.push_back(a.scene.nodes[s.node].name);
    }
    return nopt;
}

// One rig exported Z-up (Collada, Blender's FBX) and Y-up (glTF): positions compare on one up
// axis, glTF's +Y, as both files' glTF exports would have them. Files on one axis stay as they are.
struct UpTurn {
    bool turn = false;
    Eigen::Matrix3f old_to_y = Eigen::Matrix3f::Identity(), new_to_y = Eigen::Matrix3f::Identity();
};

UpTurn up_turn(const Scene& a, const Scene& b) {
    UpTurn u;
    u.turn = a.up_axis != b.up_axis && !(is_y_up(a.up_axis) && is_y_up(b.up_axis));
    if (u.turn) {
        u.old_to_y = up_axis_to_y(a.up_axis).toRotationMatrix().cast<float>();
        u.new_to_y = up_axis_to_y(b.up_axis).toRotationMatrix().cast<float>();
    }
    return u;
}

// Per mesh pair, OLD's vertices paired with NEW's at bind (on one up axis); each pair's extremes
// and per-frame series started in r, sized for every frame. Returns the pairings.
std::vector<VertexPairing> pair_mesh_vertices(const DiffJobOptions& opt, const Input& a, const Input& b, const std::vector<MeshTension>& ma,
                                              const std::vector<MeshTension>& mb, const UpTurn& up, DiffResult& r) {
    const Pose bind_a = bind_pose(a.scene), bind_b = bind_pose(b.scene);
    std::vector<VertexPairing> pairing;
    std::vector<Eigen::Vector3f> rest_a, rest_b;
    for (std::size_t i = 0; i < a.meshes.size(); ++i) {
        deform_mesh(a.scene, a.meshes[i], bind_a, rest_a);
        deform_mesh(b.scene, b.meshes[i], bind_b, rest_b);
        if (up.turn) {
            for (auto& p : rest_a) p = up.old_to_y * p;
            for (auto& p : rest_b) p = up.new_to_y * p;
        }
        const std::string &old_name = a.scene.meshes[a.meshes[i]].name, &new_name = b.scene.meshes[b.meshes[i]].name;
        const double diagonal = bounding_diagonal(rest_a);
        pairing.push_back(pair_vertices(opt, old_name, new_name, ma[i], mb[i], rest_a, rest_b, diagonal));
        r.extremes.push_back(describe_mesh(a.scene, a.meshes[i], rest_a, pairing.back()));
        DiffMeshResult m;
        m.name = old_name;
        m.new_name = new_name;
        m.old_mesh = a.meshes[i];
        m.new_mesh = b.meshes[i];
        m.vertex = pairing.back().vertex;
        m.new_vertex = pairing.back().new_vertex;
        m.compared_of_new = pairing.back().compared_of_new;
        m.displacement.resize(a.frames.size() * m.vertex.size());
        m.t_change.resize(m.displacement.size());
        r.meshes.push_back(std::move(m));
    }
    // Per torn seam, its largest gap in NEW so far (the frame loop).
    for (std::size_t i = 0; i < pairing.size(); ++i) {
        for (const auto& [v, u] : pairing[i].torn) r.extremes[i].seams.push_back(SeamTear{v, u, -1.0f, Frame{}});
        r.meshes[i].torn = pairing[i].torn;
        r.meshes[i].torn_gap.resize(a.frames.size() * pairing[i].torn.size());
    }
    return pairing;
}

// Mesh pair i at frame fi (both evaluated): its torn seams' gaps, each compared vertex's
// displacement and change of T into the series and extremes, and the frame's maxima into df.
void compare_mesh_at_frame(std::size_t i, std::size_t fi, const Frame& f, const VertexPairing& p, const MeshTension& ma,
                           const MeshTension& mb, const UpTurn& up, DiffMeshResult& m, DiffMesh& d, DiffFrame& df) {
    const std::size_t n = p.vertex.size();
    if (fi == 0) {
        d.displacement.assign(n, 0.0f);
        d.t_change.assign(n, 0.0f);
        d.displacement_frame.assign(n, f);
        d.t_change_frame.assign(n, f);
    }
    for (std::size_t s = 0; s < d.seams.size(); ++s) {
        SeamTear& tear = d.seams[s];
        const float gap = (mb.deformed[tear.vertex] - mb.deformed[tear.other]).norm();
        m.torn_gap[fi * d.seams.size() + s] = gap;
        if (gap > tear.gap) {
            tear.gap = gap;
            tear.frame = f;
        }
    }
    for (std::size_t c = 0; c < n; ++c) {
        float disp = 0, dt = 0;
        for (std::uint32_t k = p.offsets[c]; k < p.offsets[c + 1]; ++k) {
            const auto [v, u] = p.pairs[k];
            disp = std::max(disp, up.turn ? (up.new_to_y * mb.deformed[u] - up.old_to_y * ma.deformed[v]).norm()
                                          : (mb.deformed[u] - ma.deformed[v]).norm());
            const float x = mb.t[mb.topo.welded_of[u]] - ma.t[ma.topo.welded_of[v]];
            if (std::fabs(x) > std::fabs(dt)) dt = x;
        }
        m.displacement[fi * n + c] = disp;
        m.t_change[fi * n + c] = dt;
        if (fi == 0 || disp > d.displacement[c]) {
            d.displacement[c] = disp;
            d.displacement_frame[c] = f;
        }
        if (fi == 0 || std::fabs(dt) > std::fabs(d.t_change[c])) {
            d.t_change[c] = dt;
            d.t_change_frame[c] = f;
        }
        if (disp > df.displacement) {
            df.displacement = disp;
            df.mesh = static_cast<std::uint32_t>(i);
            df.vertex = p.vertex[c];
        }
        if (std::fabs(dt) > df.t_change) {
            df.t_change = std::fabs(dt);
            df.t_mesh = static_cast<std::uint32_t>(i);
            df.t_vertex = p.vertex[c];
        }
    }
}

// Every frame: both files posed and evaluated, each mesh pair compared, the frame's maxima kept.
void compare_frames(const Input& a, const Input& b, const std::vector<VertexPairing>& pairing, std::vector<MeshTension>& ma,
                    std::vector<MeshTension>& mb, const UpTurn& up, const FrameProgress& progress, DiffResult& r) {
    Pose pa = bind_pose(a.scene), pb = bind_pose(b.scene);
    ThreadPool pool(a.threads);
    for (std::size_t fi = 0; fi < a.frames.size(); ++fi) {
        const Frame& f = a.frames[fi];
        pose_at(a, f, pa);
        pose_at(b, b.frames[fi], pb);
        DiffFrame df{f};
        for (std::size_t i = 0; i < pairing.size(); ++i) {
            ma[i].evaluate(a.scene, pa, &pool);
            mb[i].evaluate(b.scene, pb, &pool);
            compare_mesh_at_frame(i, fi, f, pairing[i], ma[i], mb[i], up, r.meshes[i], r.extremes[i], df);
        }
        r.frame_maxima.push_back(df);
        report_progress(progress, fi + 1, a.frames.size());
    }
}

// A seam NEW keeps apart that never parts on the frames evaluated is no finding: only gaps past
// rounding (kSeamGapRelative of OLD's diagonal) are kept, with their series.
void keep_parted_seams(std::size_t frame_count, DiffResult& r) {
    for (std::size_t i = 0; i < r.extremes.size(); ++i) {
        DiffMesh& d = r.extremes[i];
        DiffMeshResult& m = r.meshes[i];
        const double tolerance = kSeamGapRelative * d.diagonal;
        const std::size_t all = d.seams.size();
        std::vector<std::size_t> keep;
        for (std::size_t s = 0; s < all; ++s)
            if (d.seams[s].gap > tolerance) keep.push_back(s);
        std::vector<SeamTear> seams;
        std::vector<std::pair<std::uint32_t, std::uint32_t>> torn;
        std::vector<float> gaps;
        for (std::size_t s : keep) {
            seams.push_back(d.seams[s]);
            torn.push_back(m.torn[s]);
        }
        for (std::size_t fi = 0; fi < frame_count; ++fi)
            for (std::size_t s : keep) gaps.push_back(m.torn_gap[fi * all + s]);
        d.seams = std::move(seams);
        m.torn = std::move(torn);
        m.torn_gap = std::move(gaps);
    }
}

// What the result says of its run: files, match, clip, frames and limits.
void describe_diff_run(const DiffJobOptions& opt, const Input& a, DiffResult& r) {
    r.version = RIGSCOPE_VERSION;
    r.old_file = opt.input.file;
    r.new_file = opt.new_file;
    r.match = opt.match;
    r.has_clip = a.has_clip;
    if (a.has_clip) r.clip = a.clip.name;
    r.fps = a.fps;
    r.frames = a.frames;
    r.limits = opt.limits();
    r.limits.clip = a.has_clip ? a.clip.name : "bind";
    r.limits.relpath = opt.relpath;
}

// One clip of OLD (selected on `a`) against NEW's (selected on `b`, loaded with `nopt`).
DiffResult diff_clip_run(const DiffJobOptions& opt, Input& a, Input& b, const InputOptions& nopt, const FrameProgress& progress) {
    DiffResult r;
    const RunStart start;
    r.paths = a.paths;
    r.paths.insert(r.paths.end(), b.paths.begin(), b.paths.end());
    refuse_outputs_over_inputs(a, {opt.out, opt.junit});
    refuse_outputs_over_inputs(b, {opt.out, opt.junit});
    b.meshes = pair_meshes(opt, a, b);  // in OLD's order: b.meshes[i] pairs with a.meshes[i]
    b.frames = new_frames(opt, a, b, r.frame_offset);
    check_memory(opt, a, b, b.meshes);

    TensionOptions ta;
    ta.input = opt.input;
    TensionOptions tb = ta;
    tb.input = nopt;
    std::vector<MeshTension> ma = prepare_tension(a, ta), mb = prepare_tension(b, tb);
    const UpTurn up = up_turn(a.scene, b.scene);
    const std::vector<VertexPairing> pairing = pair_mesh_vertices(opt, a, b, ma, mb, up, r);
    compare_frames(a, b, pairing, ma, mb, up, progress, r);
    keep_parted_seams(a.frames.size(), r);
    describe_diff_run(opt, a, r);
    r.run = start.until_now();
    return r;
}

// NEW's clips for OLD's clips `names` (several): each the one of its name, as --clip INDEX. NEW
// lacking one is refused before any frame.
std::vector<std::string> new_clips_named(const DiffJobOptions& opt, const std::vector<std::string>& names) {
    const Scene scene = load_scene(opt.new_file, load_options(opt.input));
    std::vector<std::string> out;
    for (const std::string& name : names) {
        const auto it = std::find_if(scene.clips.begin(), scene.clips.end(), [&](const Clip& c) { return c.name == name; });
        if (it == scene.clips.end()) {
            std::string listed;
            for (const Clip& c : scene.clips) listed += (listed.empty() ? "" : ", ") + c.name;
            throw Error(kExitMismatch, opt.new_file + ": no clip '" + name + "' to compare with " + opt.input.file + "'s (clips: " +
                                           (listed.empty() ? "none" : listed) + "); --clip NAME compares one clip");
        }
        out.push_back(std::to_string(it - scene.clips.begin()));
    }
    return out;
}

}  // namespace

namespace {

// The clips of OLD judged: every clip by default (issue 57), each against NEW's of the same name;
// one clip (OLD's only, or --clip's) against NEW's by the same --clip, as before. -o holds one
// clip's frames.
ClipPlan diff_plan(const DiffJobOptions& opt, const Input& a) {
    const ClipPlan plan = plan_clips(a, opt.input, true);
    if (plan.indices.size() > 1 && !opt.out.empty())
        throw Error(kExitUsage, "diff -o holds one clip's frames: " + opt.input.file + " has " + std::to_string(plan.indices.size()) +
                                    " clips (" + [&] {
                                        std::string n;
                                        for (const std::string& c : plan.names) n += (n.empty() ? "" : ", ") + c;
                                        return n;
                                    }() + "); choose one with --clip NAME");
    return plan;
}

}  // namespace

DiffJobInput load_diff_input(const DiffJobOptions& opt) {
    DiffJobInput in;
    in.old_input = load_input(clip_load_options(opt.input));
    const Input& a = in.old_input;
    // Without a clip both files stand in their bind pose, where a change of weights cannot show.
    require_animation(a, opt.input);
    const ClipPlan plan = diff_plan(opt, a);
    std::string first = clip_load_options(opt.input).clip;
    if (plan.indices.size() > 1) {
        for (const std::string& c : new_clips_named(opt, plan.names)) in.new_clips.push_back(std::stoi(c));
        first = std::to_string(in.new_clips.front());
    }
    in.new_input = load_input(new_input_options(opt, a, first));
    return in;
}

DiffJobResult run_diff(const DiffJobOptions& opt, DiffJobInput in, const FrameProgress& progress, const RunStart& start) {
    opt.validate();
    Input &a = in.old_input, &b = in.new_input;
    const ClipPlan plan = diff_plan(opt, a);
    const bool several = plan.indices.size() > 1;
    if (several && in.new_clips.size() != plan.indices.size())
        throw internal_error("diff: NEW's clips are not named for each of OLD's (load_diff_input)");
    std::vector<DiffResult> clips;
    for (std::size_t k = 0; k < plan.indices.size(); ++k) {
        // One clip: the one loaded in both files; several: each selected in both.
        std::string new_clip = clip_load_options(opt.input).clip;
        if (several) {
            use_clip(a, opt.input, plan.indices[k]);
            new_clip = std::to_string(in.new_clips[k]);
        }
        const InputOptions nopt = new_input_options(opt, a, new_clip);
        if (several) use_clip(b, nopt, in.new_clips[k]);
        clips.push_back(diff_clip_run(opt, a, b, nopt, progress));
        clips.back().limits.clip = plan.names[k];
        clips.back().limits.not_judged = plan.not_judged;
    }
    // The file's verdict is the worst clip's: decided here, over every clip's own.
    std::size_t worst = 0;
    for (std::size_t k = 0; k < clips.size(); ++k) {
        DiffResult& c = clips[k];
        c.judged = judge_diff(c.limits, c.extremes, c.frame_maxima);
        c.verdict = diff_outcome(DiffClipReport{&c.limits, &c.extremes, &c.frame_maxima, &c.judged}, c.run);
        if (c.judged.failed() && !clips[worst].judged.failed()) worst = k;
    }
    std::vector<DiffClipReport> reports;
    for (const DiffResult& c : clips) reports.push_back(DiffClipReport{&c.limits, &c.extremes, &c.frame_maxima, &c.judged});
    const CheckRunInfo all = start.until_now();
    CheckOutcome verdict = several ? diff_clips_outcome(reports, all) : clips.front().verdict;
    // The result holds the worst clip's per-vertex values (one clip: its own), and the file's verdict.
    DiffResult r = std::move(clips[worst]);
    r.verdict = std::move(verdict);
    if (several) r.run = all;
    r.new_scene = std::move(b.scene);  // every clip's NEW is this scene: the glTF output's
    // Both checked (not an input, folder writable) before either is written.
    OutputSet files(r.paths);
    OutputFile* out = files.open_if(opt.out);
    OutputFile* junit = files.open_if(opt.junit);
    if (out) write_diff_output(r, opt.format, *out);
    if (junit) junit->write(r.verdict.junit);
    files.commit();
    return r;
}

DiffJobResult load_and_run_diff(const DiffJobOptions& opt, const FrameProgress& progress) {
    opt.validate();  // before either file is read
    const RunStart start;
    return run_diff(opt, load_diff_input(opt), progress, start);
}

std::vector<std::pair<std::string, std::string>> diff_chunk_state(const DiffResult& r) {
    return diff_chunk_state(r.limits, r.run, r.extremes, r.frame_maxima);
}

void write_diff_output(const DiffResult& result, const std::string& format, OutputFile& out) {
    if (format == "csv") write_diff_csv(result, out);
    else if (format == "json") write_diff_json(result, out);
    else if (format == "gltf") write_diff_gltf(result, out);
    else throw internal_error("diff output format '" + format + "'");
}

}  // namespace rigscope
