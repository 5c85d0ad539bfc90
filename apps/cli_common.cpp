#include "cli_common.h"
#include "rigscope/run/output_formats.h"
#include "rigscope/run/output_names.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <cstdio>
#include <sstream>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include "rigscope/core/error.h"
#include "rigscope/io/output.h"

namespace rigscope::cli {

namespace {


// A number the validator `ok` accepts, else "'s' is not <what>". Unlike CLI::PositiveNumber it
// refuses NaN (which compares false with everything, so it passed, and a NaN budget disabled
// the budget) and infinity, and its message writes numbers as people do ("0 to 1", not
// "0.000000 to 1.000000", nor DBL_MAX in 300 digits).
template <typename Ok>
CLI::Validator number_check(const std::string& what, Ok ok) {
    return CLI::Validator(
        [what, ok](std::string& s) -> std::string {
            double v = 0;
            std::size_t used = 0;
            try {
                v = std::stod(s, &used);
            } catch (const std::exception&) {
                used = 0;
            }
            if (used == 0 || used != s.size() || !std::isfinite(v) || !ok(v)) return "'" + s + "' is not " + what;
            return "";
        },
        "NUMBER");
}

CLI::Validator finite_in(const std::string& what, double lo, double hi) {
    return number_check(what + " from " + number_text(lo) + " to " + number_text(hi), [lo, hi](double v) { return v >= lo && v <= hi; });
}

}  // namespace

CLI::Validator number_in(double lo, double hi) { return finite_in("a number", lo, hi); }
CLI::Validator positive_number() { return number_check("a positive number", [](double v) { return v > 0; }); }
CLI::Validator non_negative_number() { return number_check("a number of 0 or more", [](double v) { return v >= 0; }); }

void add_weld_option(CLI::App* cmd, InputOptions& opt) {
    cmd->add_option("--weld", opt.weld, "Weld vertices that share a position and skin influences")
        ->check(CLI::IsMember({"on", "off"}));
}

void add_skinning_option(CLI::App* cmd, InputOptions& opt) {
    cmd->add_option("--skinning", opt.skinning,
                    "Skinning method: 'file' (each skin's own, FBX SkinningType; default), 'linear' or 'dq' (dual quaternion) for every skin")
        ->check(CLI::IsMember({"file", "linear", "dq"}));
}

void add_threads_option(CLI::App* cmd, InputOptions& opt) {
    cmd->add_option("--threads", opt.threads, "Threads for per-frame work (default and 0: every core); output is the same for any count")
        ->check(number_in(0, kMaxThreads));
}

void add_max_output_option(CLI::App* cmd, InputOptions& opt) {
    cmd->add_option("--max-output", opt.max_output_mb,
                    "Refuse a run whose output would be larger than this, in MB (10^6 bytes; default 2000), before writing (docs/commands.md: --max-output)")
        ->check(finite_in("a size in MB", 1e-6, 1e12));
}

void add_format_option(CLI::App* cmd, const char* verb, std::string& format) {
    const VerbFormats& v = verb_formats(verb);
    std::string help = or_list(v.formats);
    help += std::string(" (default: from -o's extension") + (*v.fallback ? std::string(", else ") + v.fallback : "") + ")";
    cmd->add_option("--format", format, help)->check(CLI::IsMember(v.formats));
}

void add_input_options(CLI::App* cmd, InputOptions& opt, bool per_frame) {
    cmd->add_option("FILE", opt.file, "Skinned or cached, animated mesh (.fbx, .gltf, .glb, .dae, .usd, .usda, .usdc, .usdz, .abc; .obj, .ply with --cache)")->required();
    cmd->add_option("--mesh", opt.mesh, "Mesh name or index (default: every mesh)");
    cmd->add_option("--max-memory", opt.max_memory_mib, "Memory budget of loading a file: refuse files that need more (MiB)")
        ->check(finite_in("a size in MiB", 1.0 / 1024, kMaxMemoryMiB));
    cmd->add_flag("--allow-outside-uris", opt.allow_outside_uris,
                  "glTF buffers and images, USD sublayers, references and payloads: read files named by absolute paths or outside the file's folder (UNSAFE for files from outside)");
    cmd->add_option("--abc-unit", opt.abc_unit,
                    "Unit of Alembic (.abc) inputs, caches and references, which Alembic does not store: m (default; Blender), cm "
                    "(Maya) or mm; points and translations are scaled to metres")
        ->check(CLI::IsMember({"m", "cm", "mm"}));
    if (!per_frame) return;
    cmd->add_option("--frames", opt.frames, "Frames: 1..91, 1..91:5, 0,10,20, bind (default: every frame of the clip)");
    cmd->add_option("--clip", opt.clip,
                    "Animation by name or index, or all (check, diff: every clip by default; tension, report, rivet: the first by "
                    "default, all writes an output per clip, {clip} in -o)");
    cmd->add_option("--fps", opt.fps, "Frame rate for frame numbers (default: the file's, else 24)")
        ->check(finite_in("a frame rate", kMinFps, kMaxFps));
    cmd->add_option("--animation", opt.animation, "Take the clip from this file, matched by joint name");
    cmd->add_option("--cache", opt.cache,
                    "Animate the mesh with this point cache instead: PC2, MDD, or a numbered OBJ sequence (cloth_0001.obj, or the pattern "
                    "cloth_####.obj)");
    cmd->add_option("--retarget", opt.retarget,
                    "With --animation: 'rotation' (default: the clip's rotations and root translation on this rig's rest) "
                    "or 'full' (every channel as the animation file has it)")
        ->check(CLI::IsMember({"rotation", "full"}));
    cmd->add_option("--chunk", opt.chunk, "Process part I of N contiguous parts of the frames (I counts from 0)");
    cmd->add_option("--rig", opt.rig, "Rig file (docs/rig.md): joystick controls that drive morph targets");
    auto* rom = cmd->add_flag("--rom", opt.rom, "Evaluate a synthetic range-of-motion clip instead of the file's (docs/rig_ci.md: rom)");
    rom->excludes(cmd->get_option("--clip"))->excludes(cmd->get_option("--animation"));
    cmd->add_option("--rom-angle", opt.rom_options.angle_deg, "--rom: sweep each joint axis to +/- this many degrees (default 60)")
        ->needs(rom);
    cmd->add_option("--rom-frames", opt.rom_options.frames_per_sweep, "--rom: frames per joint-axis sweep, a multiple of 4 (default 24)")
        ->needs(rom);
    cmd->add_option("--joints", opt.joints, "--rom: sweep only these joints (comma-separated names)")->needs(rom);
}

namespace {

// The file-name part of a path.
std::string file_name_of(const std::string& path) {
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

void check_parsed_paths(const CLI::App& cmd) {
    // Options whose value names a file or lists something: an empty one is a slip, never "none".
    static const char* const kValued[] = {"output", "junit", "json", "html", "summary", "reference", "rig",
                                          "animation", "vertices", "cache", "joints", "mesh", "clip", "frames"};
    // The options that write a file.
    static const char* const kOutputs[] = {"output", "junit", "json", "html", "summary"};
    std::vector<std::pair<std::string, std::string>> outputs;
    for (const CLI::Option* o : cmd.get_options()) {
        if (o->count() == 0 || o->get_lnames().empty()) continue;
        const std::string& name = o->get_lnames().front();
        const std::string shown = name == "output" && !o->get_snames().empty() ? "-" + o->get_snames().front() : "--" + name;
        if (std::find(std::begin(kValued), std::end(kValued), name) != std::end(kValued))
            for (const std::string& v : o->results()) refuse_empty_path(shown, v);
        if (std::find(std::begin(kOutputs), std::end(kOutputs), name) == std::end(kOutputs)) continue;
        for (const std::string& v : o->results()) {
            outputs.emplace_back(shown, v);
            // '#' stands for the frame number where frames are written one file each: tension's
            // glTF (its run checks the format); anywhere else it would be a file named with hashes.
            if (file_name_of(v).find('#') != std::string::npos && !(name == "output" && cmd.get_name() == "tension"))
                throw Error(kExitUsage, shown + " " + v + ": '#' numbers one file per frame, which only tension's glTF output writes (-o out_####.glb)");
        }
    }
    check_output_paths(outputs);
    for (const auto& [option, path] : outputs) refuse_misnamed_output(option, path);  // --junit x.json, --json x.xml
}

void print_text(const std::string& text) {
    OutputFile out("-");
    out.write(text);
    out.commit();
}

Progress::Progress(std::size_t total, const char* what)
    : total_(total), what_(what), enabled_(spdlog::should_log(spdlog::level::info) && isatty(STDERR_FILENO)),
      timer_() {}

void Progress::step(std::size_t done) {
    if (!enabled_) return;
    const double elapsed = timer_.seconds();
    if (elapsed < 1.0 || elapsed - last_ < 0.2) return;
    last_ = elapsed;
    const double rate = done / elapsed;
    const double left = rate > 0 ? (total_ - done) / rate : 0;
    std::fprintf(stderr, "\r%s %zu/%zu frames, %.1f frames/s, %.0f s left   ", what_, done, total_, rate, std::ceil(left));
    std::fflush(stderr);
    shown_ = true;
}

void Progress::finish() {
    if (shown_) std::fprintf(stderr, "\r\033[K");
}

FrameProgress terminal_progress(const char* what) {
    auto shown = std::make_shared<std::unique_ptr<Progress>>();
    return [shown, what](std::size_t done, std::size_t total) {
        if (!*shown) *shown = std::make_unique<Progress>(total, what);
        (*shown)->step(done);
        if (done == total) (*shown)->finish();
    };
}

}  // namespace rigscope::cli
