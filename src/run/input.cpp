#include "rigscope/run/input.h"

#include <cmath>
#include <algorithm>
#include <cstdlib>
#include <utility>
#include <spdlog/spdlog.h>

#include "rigscope/core/joystick.h"
#include "rigscope/core/parallel.h"
#include "rigscope/core/retarget.h"
#include "rigscope/farm/chunk.h"
#include "rigscope/core/topology.h"
#include "rigscope/io/output.h"
#include "rigscope/io/point_cache_reader.h"
#include "rigscope/io/rig_reader.h"
#include "rigscope/run/run_budget.h"

namespace rigscope {

std::vector<std::string> split_joint_list(const std::string& list) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= list.size() && !list.empty()) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        if (comma > start) out.push_back(list.substr(start, comma - start));
        start = comma + 1;
    }
    return out;
}

const Clip* pick_clip(const Scene& scene, const std::string& spec, const std::string& path) {
    if (scene.clips.empty()) {
        if (!spec.empty()) throw Error(kExitMismatch, path + ": --clip " + spec + ": the file has no animation");
        return nullptr;
    }
    if (spec.empty()) return &scene.clips[0];
    for (const Clip& c : scene.clips)
        if (c.name == spec) return &c;
    char* end = nullptr;
    long i = std::strtol(spec.c_str(), &end, 10);
    if (end && *end == '\0' && i >= 0 && i < static_cast<long>(scene.clips.size())) return &scene.clips[i];
    std::string names;
    for (const Clip& c : scene.clips) names += (names.empty() ? "" : ", ") + c.name;
    throw Error(kExitMismatch, path + ": no clip '" + spec + "' (clips: " + names + ")");
}

namespace {

// The sweep's options checked under their own names before the core (whose messages name
// none) sees them.
RomPlan make_rom_checked(const Scene& scene, const RomOptions& ro, double fps) {
    if (!(ro.angle_deg > 0 && ro.angle_deg < 180)) throw Error(kExitUsage, "--rom-angle must be above 0 and below 180 degrees");
    if (ro.frames_per_sweep < 4 || ro.frames_per_sweep > 100000 || ro.frames_per_sweep % 4 != 0)
        throw Error(kExitUsage, "--rom-frames must be a multiple of 4 from 4 to 100000 (keys fall on quarter sweeps)");
    return for_option("--joints", [&] { return make_rom(scene, ro, fps); });
}

}  // namespace

std::vector<int> select_meshes(const Scene& scene, const std::string& spec) {
    std::vector<std::string> names;
    for (const Mesh& m : scene.meshes) names.push_back(m.name);
    if (spec.empty()) {
        std::vector<int> out;
        for (std::size_t i = 0; i < scene.meshes.size(); ++i) out.push_back(static_cast<int>(i));
        return out;
    }
    std::vector<int> out = meshes_selected(names, spec);
    if (!out.empty()) return out;
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
    throw Error(kExitUsage, scene.source + ": no mesh '" + spec + "' (meshes: " + (list.empty() ? "none" : list) + ")");
}

void refuse_outputs_over_inputs(const Input& in, const std::vector<std::string>& outputs) {
    for (const std::string& out : outputs)
        if (!out.empty() && out != "-") refuse_input_as_output(out, in.paths);
}

double abc_unit_metres(const std::string& unit) {
    if (unit == "m") return 1.0;
    if (unit == "cm") return 0.01;
    if (unit == "mm") return 0.001;
    throw Error(kExitUsage, "--abc-unit: '" + unit + "' is not m, cm or mm");
}

LoadOptions load_options(const InputOptions& opt) {
    // The option's validator saw the command line; a value read back from a chunk record did not
    // (converting NaN or 1e300 to an integer is undefined behaviour).
    if (!(opt.max_memory_mib > 0 && opt.max_memory_mib <= kMaxMemoryMiB))
        throw Error(kExitUsage, "--max-memory " + number_text(opt.max_memory_mib) + ": not a size in MiB up to 2^40");
    LoadOptions lo;
    lo.max_memory = static_cast<std::uint64_t>(opt.max_memory_mib * 1024.0 * 1024.0);
    lo.allow_outside_uris = opt.allow_outside_uris;
    lo.alembic_metres_per_unit = abc_unit_metres(opt.abc_unit);
    lo.threads = opt.threads;  // the load's conversions on the run's cores (issue 62)
    return lo;
}

std::vector<Frame> select_frames(const Input& in, const std::string& spec, const std::string& clip_file) {
    try {
        std::vector<Frame> frames =
            spec.empty() ? default_frames(in.clip_ptr(), in.fps) : for_option("--frames", [&] { return parse_frames(spec, in.fps); });
        for_option("--frames", [&] { check_frames_in_clip(frames, in.clip_ptr(), in.fps); });
        return frames;
    } catch (const Error& e) {
        // A clip the frame selection cannot use is the file's fault: name the file it came from.
        if (e.code() != kExitBadInput) throw;
        throw bad_input(clip_file, e.what());
    }
}

void check_input_options(const InputOptions& opt) {
    if (opt.fps != 0 && !(opt.fps >= kMinFps && opt.fps <= kMaxFps))
        throw Error(kExitUsage, "--fps " + number_text(opt.fps) + ": not a frame rate from 1e-06 to 1e+06");
    if (opt.retarget != "rotation" && opt.retarget != "full")
        throw Error(kExitUsage, "--retarget: '" + opt.retarget + "' is not rotation or full");
    if (opt.weld != "on" && opt.weld != "off") throw Error(kExitUsage, "--weld: '" + opt.weld + "' is not on or off");
    if (opt.skinning != "file" && opt.skinning != "linear" && opt.skinning != "dq")
        throw Error(kExitUsage, "--skinning: '" + opt.skinning + "' is not file, linear or dq");
    abc_unit_metres(opt.abc_unit);
    if (opt.threads > kMaxThreads) throw Error(kExitUsage, "--threads: at most " + std::to_string(kMaxThreads));
    if (opt.rom && (!opt.clip.empty() || !opt.animation.empty())) throw Error(kExitUsage, "--rom excludes --clip and --animation");
    if (!opt.cache.empty() && (opt.rom || !opt.animation.empty() || !opt.clip.empty()))
        throw Error(kExitUsage, "--cache is the animation: it excludes --rom, --animation and --clip");
    if (opt.retarget != "rotation" && opt.animation.empty())
        throw Error(kExitUsage, "--retarget " + opt.retarget + ": it applies --animation's clip; give --animation FILE or drop it");
}

namespace {

// A file's warning as it is logged: naming the file, as errors do (a glTF's start with it already).
std::string naming(const std::string& file, const std::string& warning) {
    return warning.rfind(file + ": ", 0) == 0 ? warning : file + ": " + warning;
}

// --cache: the cache animates the one selected mesh; its samples' span is the clip (without
// channels: the cache moves the points, nothing moves the joints). A cache of a mesh's welded
// vertices (a glTF split at seams) pairs point i with the i-th welded vertex in order of first
// file vertex, as --reference-match index does.
void attach_cache(Input& in, const InputOptions& opt, const LoadOptions& lo) {
    if (in.meshes.size() != 1)
        throw Error(kExitMismatch, opt.cache + ": a point cache animates one mesh; " + opt.file + " has " +
                                       std::to_string(in.meshes.size()) + " selected: choose one with --mesh");
    in.paths.push_back(opt.cache);
    std::shared_ptr<const PointCache> cache = open_point_cache(opt.cache, in.fps, lo);
    // A sequence's frames are files of their own (cloth_0001.obj ...), each read by the run.
    for (const std::string& f : cache->files())
        if (f != opt.cache) in.paths.push_back({f, "a frame of the --cache sequence " + opt.cache});
    // MDD and Alembic store seconds: without --fps, the cache's own spacing is the frame rate
    // where it is even (Blender's exporter writes frame / fps), so its samples are the frames.
    const std::vector<double>& t = cache->times();
    std::string ext = opt.cache.size() > 4 ? opt.cache.substr(opt.cache.size() - 4) : "";
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (opt.fps <= 0 && t.size() > 1 && (ext == ".mdd" || ext == ".abc")) {
        const double step = (t.back() - t.front()) / double(t.size() - 1);
        bool even = step > 0;
        for (std::size_t i = 1; i < t.size() && even; ++i) even = std::abs((t[i] - t[i - 1]) - step) <= 1e-4 * step;
        if (even) in.fps = std::round(1e3 / step) / 1e3;
    }
    const int m = in.meshes.front();
    const Mesh& mesh = in.scene.meshes[m];
    std::vector<std::uint32_t> point_of_vertex;
    if (cache->point_count() != mesh.vertex_count()) {
        const Topology topo = blaming(opt.file, [&] { return build_topology(mesh, in.weld, kWeldRelativeTolerance, false); });
        if (cache->point_count() == topo.welded_count()) {
            std::vector<std::uint32_t> order(topo.welded_count());
            for (std::uint32_t w = 0; w < order.size(); ++w) order[w] = w;
            std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return topo.representative[a] < topo.representative[b]; });
            std::vector<std::uint32_t> rank(order.size());
            for (std::uint32_t i = 0; i < order.size(); ++i) rank[order[i]] = i;
            point_of_vertex.resize(mesh.vertex_count());
            for (std::size_t v = 0; v < point_of_vertex.size(); ++v) point_of_vertex[v] = rank[topo.welded_of[v]];
        } else {
            // Both counts the cache could have had, as the reference's mismatch names them: a
            // cache of another mesh, or of this one exported with other seams.
            const std::string welded =
                topo.welded_count() != mesh.vertex_count() ? " (" + std::to_string(topo.welded_count()) + " welded)" : "";
            throw Error(kExitMismatch, opt.cache + ": has " + std::to_string(cache->point_count()) + " points, " + opt.file +
                                           " mesh '" + mesh.name + "' has " + std::to_string(mesh.vertex_count()) + " vertices" +
                                           welded + ": a cache gives a point per file vertex or per welded vertex");
        }
    }
    for (const Warning& w : attach_point_cache(in.scene, m, cache, std::move(point_of_vertex))) spdlog::warn("{}: {}", opt.file, w.message);
    in.clip = Clip{};
    in.clip.name = "cache";
    in.clip.start = t.front();
    in.clip.end = t.back();
    in.has_clip = in.has_cache = true;
}

// What load_input does once the scene is in memory (check_and_read_rig has run).
Input select_input(Scene scene, const InputOptions& opt, bool per_frame, const LoadOptions& lo, const Rig& rig) {
    Input in;
    in.scene = std::move(scene);
    in.paths.push_back(opt.file);
    // The files the input itself reads (a stage's layers, a glTF's buffers): an output over one
    // would lose the user's data as surely as one over the input.
    in.paths.insert(in.paths.end(), in.scene.read_files.begin(), in.scene.read_files.end());
    in.max_memory = lo.max_memory;
    in.allow_outside_uris = lo.allow_outside_uris;
    // `info` reports warnings in its own output; per-frame commands log them.
    if (per_frame)
        for (const auto& w : in.scene.warnings) spdlog::warn("{}", naming(opt.file, w.message));
    in.weld = opt.weld != "off";
    // The override is applied to the scene itself, so every evaluation that deforms it (tension,
    // check, diff, rivet, the report) skins the same way.
    if (opt.skinning != "file")
        for (Skin& skin : in.scene.skins) {
            skin.method = opt.skinning == "dq" ? SkinningMethod::DualQuaternion : SkinningMethod::Linear;
            skin.blend_weights.clear();
        }
    // More threads than cores only take turns: with 1024 on a small machine each phase of a frame
    // waited on a thousand spinning workers, which looked like a hang.
    in.threads = opt.threads;
    if (in.threads > ThreadPool::default_threads()) {
        spdlog::warn("--threads {}: this machine has {} cores; using {}", in.threads, ThreadPool::default_threads(),
                     ThreadPool::default_threads());
        in.threads = ThreadPool::default_threads();
    }
    in.meshes = select_meshes(in.scene, opt.mesh);
    if (!per_frame) return in;

    in.fps = opt.fps > 0 ? opt.fps : in.scene.fps;
    if (!opt.cache.empty()) {
        attach_cache(in, opt, lo);
    } else if (!opt.animation.empty()) {
        Scene motion = load_scene(opt.animation, lo);
        in.paths.push_back(opt.animation);
        in.paths.insert(in.paths.end(), motion.read_files.begin(), motion.read_files.end());
        for (const auto& w : motion.warnings) spdlog::warn("{}", naming(opt.animation, w.message));
        const Clip* source = pick_clip(motion, opt.clip, opt.animation);
        if (!source) throw Error(kExitMismatch, opt.animation + ": --animation file has no animation");
        RetargetReport report;
        in.clip = retarget_clip(in.scene, motion, *source, opt.retarget == "full" ? RetargetMode::Full : RetargetMode::Rotation, report);
        if (in.clip.channels.empty())
            throw Error(kExitMismatch, opt.animation + ": no animated joint matches a node of " + opt.file + " by name");
        if (!report.unmatched.empty()) {
            std::string list;
            for (const auto& u : report.unmatched) list += (list.empty() ? "" : ", ") + u;
            spdlog::warn("{}: {} animated nodes have no match in {}: {}", opt.animation, report.unmatched.size(), opt.file, list);
        }
        if (report.rest_differs)
            spdlog::warn("{}: the rest rotations of {} matched joints differ from {}'s by more than {} degrees (most: '{}', {:.1f} "
                         "degrees); the copied rotations pose the two rigs differently",
                         opt.animation, report.rest_differs, opt.file, kRetargetRestToleranceDegrees, report.worst_joint,
                         report.worst_degrees);
        if (opt.fps <= 0 && motion.fps_from_file) in.fps = motion.fps;
        in.has_clip = true;
    } else if (opt.rom) {
        RomOptions ro = opt.rom_options;
        if (ro.joints.empty()) ro.joints = split_joint_list(opt.joints);
        in.rom = make_rom_checked(in.scene, ro, in.fps);
        in.clip = in.rom.clip;
        in.has_clip = in.has_rom = true;
        if (in.clip.channels.empty()) throw Error(kExitUsage, opt.file + ": --rom: no joint to sweep");
        // The sweep's keys: a rig of many joints with long sweeps is a large clip of its own.
        double keys = 0;
        for (const Channel& c : in.clip.channels) keys += double(c.times.size()) * (1 + c.width);
        check_job_budget(in, keys * sizeof(float), "the --rom clip", "sweep fewer joints (--joints) or fewer frames (--rom-frames)");
    } else if (const Clip* c = pick_clip(in.scene, opt.clip, opt.file)) {
        in.clip = *c;
        in.has_clip = true;
    }
    // A file's own point caches (USD time-sampled points) animate without channels, as --cache does.
    const bool file_caches = std::any_of(in.scene.meshes.begin(), in.scene.meshes.end(), [](const Mesh& m) { return m.cache != nullptr; });
    if (in.has_clip && in.clip.channels.empty() && !in.has_cache && !file_caches)
        throw Error(kExitBadInput, opt.file + ": clip '" + in.clip.name + "' has no channels (empty animation)");

    if (!opt.rig.empty()) {
        in.rig = resolve_rig(rig, in.scene);
        in.paths.push_back(opt.rig);
    }

    // Every frame of a long clip at a high --fps is a long list before any work: counted before it
    // is made (the clip's span times the rate, as default_frames steps it).
    if (opt.frames.empty() && in.has_clip) {
        const double count = std::floor(std::max(0.0, in.clip.end - in.clip.start) * in.fps) + 1;
        check_job_budget(in, count * sizeof(Frame), "the list of " + number_text(count) + " frames",
                         "choose fewer frames (--frames, a lower --fps) or raise --max-memory");
    }
    in.frames = select_frames(in, opt.frames, opt.animation.empty() ? opt.file : opt.animation);
    if (!opt.chunk.empty()) {
        for_option("--chunk", [&] { parse_chunk_spec(opt.chunk, in.chunk_index, in.chunk_count); });
        in.frames = chunk_frames(in.frames, in.chunk_index, in.chunk_count);
    }
    return in;
}

// What both entries check before any scene work: the options, then the rig (read before the
// scene loads: a typo in it should not wait on a large file).
LoadOptions check_and_read_rig(const InputOptions& opt, bool per_frame, Rig& rig) {
    check_input_options(opt);
    LoadOptions lo = load_options(opt);
    if (per_frame && !opt.rig.empty()) rig = read_rig(opt.rig);
    return lo;
}

}  // namespace

Input load_input(const InputOptions& opt, bool per_frame) {
    Rig rig;
    const LoadOptions lo = check_and_read_rig(opt, per_frame, rig);
    // The file's own load reads only the meshes --mesh selects (issue 62: on the bench tube the
    // unselected copy was a fifth of the load); never --animation's, --cache's or a reference's
    // load, which `lo` also serves. info and lint (not per frame) report the whole file, its
    // every mesh's warnings included.
    LoadOptions file_lo = lo;
    if (per_frame && !opt.read_every_mesh) file_lo.mesh = opt.mesh;
    Scene scene = load_scene(opt.file, file_lo);
    return select_input(std::move(scene), opt, per_frame, lo, rig);
}

Input input_from_scene(Scene scene, const InputOptions& opt, bool per_frame) {
    Rig rig;
    const LoadOptions lo = check_and_read_rig(opt, per_frame, rig);
    return select_input(std::move(scene), opt, per_frame, lo, rig);
}

void pose_at(const Input& in, const Frame& f, Pose& pose) {
    if (f.bind) pose = bind_pose(in.scene);
    else sample_pose(in.scene, in.clip_ptr(), f.time, pose);
    apply_rig(in.rig, in.scene, pose);
}

RunInfo output_run_info(const Input& in, const std::string& file) {
    RunInfo r;
    r.input = file;
    r.scene = &in.scene;
    r.clip = in.clip_ptr();
    r.fps = in.fps;
    r.frames = &in.frames;
    return r;
}

}  // namespace rigscope
