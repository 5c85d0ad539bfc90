#include "cli_common.h"

#include <cmath>
#include <cstdio>
#include <sstream>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include "rigscope/chunk.h"
#include "rigscope/error.h"
#include "rigscope/joystick.h"
#include "rigscope/load.h"
#include "rigscope/parallel.h"
#include "rigscope/retarget.h"

namespace rigscope::cli {

bool g_quiet = false;

namespace {

// Above these an option's value is a typo or an attack, not a setting: 2^40 MiB (a petabyte) is
// far past any machine and still far from overflowing the byte count; a million frames a second
// is past any camera, and larger rates push frame numbers past what a long holds.
constexpr double kMaxMemoryMiB = 1099511627776.0;
constexpr double kMaxFps = 1e6;

// A number in [lo, hi]: unlike CLI::PositiveNumber it refuses NaN (which compares false with
// everything, so it passed, and a NaN budget disabled the budget) and infinity.
CLI::Validator finite_in(const std::string& what, double lo, double hi) {
    return CLI::Validator(
        [what, lo, hi](std::string& s) -> std::string {
            double v = 0;
            std::size_t used = 0;
            try {
                v = std::stod(s, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used == 0 || used != s.size() || !std::isfinite(v) || v < lo || v > hi) {
                std::ostringstream range;
                range << lo << " to " << hi;
                return "'" + s + "' is not " + what + " from " + range.str();
            }
            return "";
        },
        "NUMBER");
}

}  // namespace

void add_input_options(CLI::App* cmd, InputOptions& opt, bool per_frame) {
    cmd->add_option("FILE", opt.file, "Skinned, animated mesh (.fbx, .gltf, .glb)")->required();
    cmd->add_option("--mesh", opt.mesh, "Mesh name or index (default: every mesh)");
    cmd->add_option("--weld", opt.weld, "Weld vertices that share a position and skin influences")
        ->check(CLI::IsMember({"on", "off"}));
    cmd->add_option("--max-memory", opt.max_memory_mib, "Memory budget of loading a file: refuse files that need more (MiB)")
        ->check(finite_in("a size in MiB", 1.0 / 1024, kMaxMemoryMiB));
    cmd->add_flag("--allow-outside-uris", opt.allow_outside_uris,
                  "glTF: read buffers and images named by absolute URIs or outside the file's folder (UNSAFE for files from outside)");
    if (!per_frame) return;
    cmd->add_option("--frames", opt.frames, "Frames: 1..91, 1..91:5, 0,10,20, bind (default: every frame of the clip)");
    cmd->add_option("--clip", opt.clip, "Animation by name or index (default: the first)");
    cmd->add_option("--fps", opt.fps, "Frame rate for frame numbers (default: the file's, else 24)")
        ->check(finite_in("a frame rate", 1e-6, kMaxFps));
    cmd->add_option("--animation", opt.animation, "Take the clip from this file, matched by joint name");
    cmd->add_option("--retarget", opt.retarget,
                    "With --animation: 'rotation' (default: the clip's rotations and root translation on this rig's rest) "
                    "or 'full' (every channel as the animation file has it)")
        ->check(CLI::IsMember({"rotation", "full"}));
    cmd->add_option("--chunk", opt.chunk, "Process part I of N contiguous parts of the frames (I counts from 0)");
    cmd->add_option("--rig", opt.rig, "Rig file (docs/rig.md): joystick controls that drive morph targets");
    cmd->add_option("--threads", opt.threads, "Threads for per-frame work (default: every core); output is the same for any count")
        ->check(CLI::Range(1u, 1024u));
    auto* rom = cmd->add_flag("--rom", opt.rom, "Evaluate a synthetic range-of-motion clip instead of the file's (README: Rig CI)");
    rom->excludes(cmd->get_option("--clip"))->excludes(cmd->get_option("--animation"));
    cmd->add_option("--rom-angle", opt.rom_options.angle_deg, "--rom: sweep each joint axis to +/- this many degrees (default 60)")
        ->needs(rom);
    cmd->add_option("--rom-frames", opt.rom_options.frames_per_sweep, "--rom: frames per joint-axis sweep, a multiple of 4 (default 24)")
        ->needs(rom);
    cmd->add_option("--joints", opt.joints, "--rom: sweep only these joints (comma-separated names)")->needs(rom);
}

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

namespace {

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

void parse_chunk(const std::string& spec, int& index, int& count) {
    auto slash = spec.find('/');
    try {
        if (slash == std::string::npos) throw std::invalid_argument("");
        std::size_t a = 0, b = 0;
        index = std::stoi(spec.substr(0, slash), &a);
        count = std::stoi(spec.substr(slash + 1), &b);
        if (a != slash || b != spec.size() - slash - 1) throw std::invalid_argument("");
    } catch (const std::exception&) {
        throw Error(kExitUsage, "--chunk '" + spec + "': expected I/N, e.g. 0/4");
    }
    if (count < 1 || index < 0 || index >= count)
        throw Error(kExitUsage, "--chunk '" + spec + "': need 0 <= I < N");
    if (count > kMaxChunkCount)
        throw Error(kExitUsage, "--chunk '" + spec + "': at most " + std::to_string(kMaxChunkCount) + " chunks");
}

}  // namespace

std::vector<int> select_meshes(const Scene& scene, const std::string& spec) {
    std::vector<int> out;
    if (spec.empty()) {
        for (std::size_t i = 0; i < scene.meshes.size(); ++i) out.push_back(static_cast<int>(i));
        return out;
    }
    for (std::size_t i = 0; i < scene.meshes.size(); ++i)
        if (scene.meshes[i].name == spec) out.push_back(static_cast<int>(i));
    if (!out.empty()) return out;
    char* end = nullptr;
    long i = std::strtol(spec.c_str(), &end, 10);
    if (end && *end == '\0' && i >= 0 && i < static_cast<long>(scene.meshes.size())) return {static_cast<int>(i)};
    std::string names;
    for (const Mesh& m : scene.meshes) names += (names.empty() ? "" : ", ") + m.name;
    throw Error(kExitUsage, scene.source + ": no mesh '" + spec + "' (meshes: " + (names.empty() ? "none" : names) + ")");
}

LoadOptions load_options(const InputOptions& opt) {
    // The option's validator saw the command line; a value read back from a chunk record did not
    // (converting NaN or 1e300 to an integer is undefined behaviour).
    if (!(opt.max_memory_mib > 0 && opt.max_memory_mib <= kMaxMemoryMiB))
        throw Error(kExitUsage, "--max-memory " + std::to_string(opt.max_memory_mib) + ": not a size in MiB up to 2^40");
    LoadOptions lo;
    lo.max_memory = static_cast<std::uint64_t>(opt.max_memory_mib * 1024.0 * 1024.0);
    lo.allow_outside_uris = opt.allow_outside_uris;
    return lo;
}

Input load_input(const InputOptions& opt, bool per_frame) {
    const LoadOptions lo = load_options(opt);
    Input in;
    // A rig is checked before the scene loads: a typo in it should not wait on a large file.
    Rig rig;
    if (per_frame && !opt.rig.empty()) rig = read_rig(opt.rig);
    in.scene = load_scene(opt.file, lo);
    in.paths.push_back(opt.file);
    // `info` reports warnings in its own output; per-frame commands log them.
    if (per_frame)
        for (const auto& w : in.scene.warnings) spdlog::warn("{}", w);
    in.weld = opt.weld != "off";
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
    if (!opt.animation.empty()) {
        Scene motion = load_scene(opt.animation, lo);
        in.paths.push_back(opt.animation);
        for (const auto& w : motion.warnings) spdlog::warn("{}", w);
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
        in.rom = make_rom(in.scene, ro, in.fps);
        in.clip = in.rom.clip;
        in.has_clip = in.has_rom = true;
        if (in.clip.channels.empty()) throw Error(kExitUsage, opt.file + ": --rom: no joint to sweep");
    } else if (const Clip* c = pick_clip(in.scene, opt.clip, opt.file)) {
        in.clip = *c;
        in.has_clip = true;
    }
    if (in.has_clip && in.clip.channels.empty())
        throw Error(kExitBadInput, opt.file + ": clip '" + in.clip.name + "' has no channels (empty animation)");

    if (!opt.rig.empty()) {
        in.rig = resolve_rig(rig, in.scene);
        in.paths.push_back(opt.rig);
    }

    try {
        in.frames = opt.frames.empty() ? default_frames(in.clip_ptr(), in.fps) : parse_frames(opt.frames, in.fps);
        check_frames_in_clip(in.frames, in.clip_ptr(), in.fps);
    } catch (const Error& e) {
        // A clip the frame selection cannot use is the file's fault: name the file it came from.
        if (e.code() != kExitBadInput) throw;
        throw bad_input(opt.animation.empty() ? opt.file : opt.animation, e.what());
    }
    if (!opt.chunk.empty()) {
        parse_chunk(opt.chunk, in.chunk_index, in.chunk_count);
        in.frames = chunk_frames(in.frames, in.chunk_index, in.chunk_count);
    }
    return in;
}

void pose_at(const Input& in, const Frame& f, Pose& pose) {
    if (f.bind) pose = bind_pose(in.scene);
    else sample_pose(in.scene, in.clip_ptr(), f.time, pose);
    apply_rig(in.rig, in.scene, pose);
}

std::string output_format(const std::string& format, const std::string& out, const std::string& fallback) {
    if (!format.empty()) return format;
    // The extension of the file name only: a dot in a folder name (v1.2/out) is not one.
    const auto slash = out.find_last_of('/');
    const auto dot = out.find_last_of('.');
    if (out.empty() || out == "-" || dot == std::string::npos || (slash != std::string::npos && dot < slash))
        return fallback;
    std::string ext = out.substr(dot + 1);
    for (auto& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (ext == "glb" || ext == "gltf") return "gltf";
    if (ext == "csv" || ext == "json") return ext;
    throw Error(kExitUsage, out + ": cannot tell the format from the extension '." + ext + "' (use --format)");
}

Progress::Progress(std::size_t total, const char* what)
    : total_(total), what_(what), enabled_(!g_quiet && isatty(STDERR_FILENO)),
      start_(std::chrono::steady_clock::now()), last_(start_) {}

void Progress::step(std::size_t done) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    if (elapsed < 1.0 || std::chrono::duration<double>(now - last_).count() < 0.2) return;
    last_ = now;
    const double rate = done / elapsed;
    const double left = rate > 0 ? (total_ - done) / rate : 0;
    std::fprintf(stderr, "\r%s %zu/%zu frames, %.1f frames/s, %.0f s left   ", what_, done, total_, rate, std::ceil(left));
    std::fflush(stderr);
    shown_ = true;
}

void Progress::finish() {
    if (shown_) std::fprintf(stderr, "\r\033[K");
}

}  // namespace rigscope::cli
