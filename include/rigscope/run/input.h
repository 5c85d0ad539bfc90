// An evaluation's input: the scene, the clip, the frames, the rig and the meshes, loaded from the
// options every per-frame command (and the Python module) shares. The option names here are
// the CLI's and the Python module's alike, so messages name them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rigscope/core/error.h"
#include "rigscope/core/frames.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/rig.h"
#include "rigscope/core/rom.h"
#include "rigscope/core/scene.h"
#include "rigscope/io/load.h"
#include "rigscope/io/run_info.h"

namespace rigscope {

struct InputOptions {
    std::string file;
    std::string animation;  // --animation: clip from another file, matched by joint name
    std::string retarget = "rotation";  // --retarget rotation|full
    std::string clip;       // --clip NAME|INDEX
    double fps = 0;         // --fps; 0: the file's
    std::string frames;     // --frames; empty: every frame of the clip
    std::string mesh;       // --mesh NAME|INDEX; empty: every mesh
    std::string weld = "on";
    std::string chunk;      // --chunk I/N
    std::string rig;        // --rig RIG.json: joystick controls driving morph targets
    double max_memory_mib = 8192;
    double max_output_mb = 2000;  // --max-output: the largest output a run may start (10^6 bytes; run_budget.h)
    bool allow_outside_uris = false;  // --allow-outside-uris (unsafe for files from outside)
    unsigned threads = 0;   // --threads; 0: every core
    bool rom = false;       // --rom: a synthetic range-of-motion clip instead of the file's
    std::string joints;     // --joints A,B: the joints --rom sweeps (default: every joint)
    RomOptions rom_options; // --rom-angle, --rom-frames
    // --skinning file|linear|dq: each skin's own method (FBX SkinningType), or every skin
    // linear, or every skin dual-quaternion (docs/methods.md "Skinning methods").
    std::string skinning = "file";
    // --cache FILE: a point cache (PC2, MDD, numbered OBJ sequence) animates the selected mesh;
    // its samples are the frames (point_cache_reader.h).
    std::string cache;
    // --abc-unit m|cm|mm: the unit of every Alembic archive the run reads (input, --cache,
    // --reference), which Alembic does not store; m (as Blender writes; Maya writes cm).
    std::string abc_unit = "m";
    // Not an option: a job that writes the input's scene back whole (drive, regions and rivet
    // as glTF) or keeps it for later calls (the Python module's session) sets it, so that the
    // load reads every mesh, not only the ones --mesh selects (LoadOptions::mesh).
    bool read_every_mesh = false;
};

// Metres per unit of an --abc-unit value; throws Error (bad value) for another word.
double abc_unit_metres(const std::string& unit);

// The largest --max-memory: 2^40 MiB (a petabyte) is far past any machine and still far from
// overflowing the byte count.
constexpr double kMaxMemoryMiB = 1099511627776.0;
// --fps: above a million frames a second is past any camera, and larger rates push frame
// numbers past what a long holds.
constexpr double kMinFps = 1e-6, kMaxFps = 1e6;
// --threads: more than any machine this runs on.
constexpr unsigned kMaxThreads = 1024;

// A loaded input ready for evaluation.
struct Input {
    Scene scene;
    Clip clip;                   // the selected clip (retargeted with --animation)
    bool has_clip = false;
    double fps = 24;
    std::vector<Frame> frames;   // selected (and chunked) frames
    std::vector<int> meshes;     // selected meshes
    bool weld = true;
    int chunk_index = 0, chunk_count = 1;
    unsigned threads = 0;        // --threads for per-frame work; 0: every core
    std::vector<ReadFile> paths;    // every input file, so outputs never overwrite one
    ResolvedRig rig;             // --rig, resolved against scene; empty without one
    std::uint64_t max_memory = 0;  // --max-memory in bytes: the whole run's budget, not only the load's
    bool allow_outside_uris = false;  // --allow-outside-uris, for a writer that reads the input's stage again
    bool has_cache = false;      // --cache: clip spans the cache's samples and has no channels
    bool has_rom = false;        // --rom: clip is rom.clip, and rom names each frame's sweep
    RomPlan rom;

    const Clip* clip_ptr() const { return has_clip ? &clip : nullptr; }
};

// Throws Error (bad value) naming the option whose value is out of range: the CLI's validators
// see the command line, this sees what the Python module and chunk records pass. load_input
// calls it.
void check_input_options(const InputOptions& opt);

// Loads and selects. `per_frame` false: the scene and meshes only (info).
Input load_input(const InputOptions& opt, bool per_frame = true);

// load_input over a scene already in memory (a fuzz target's, a test's): the same checks and
// selection, and opt.file is not read again. opt.file names where `scene` came from, for
// messages and in.paths; --animation and --rig are read from their files, under opt's
// --max-memory.
Input input_from_scene(Scene scene, const InputOptions& opt, bool per_frame = true);

// The frames `spec` (--frames; empty: every frame of the clip) names on in's clip and fps, checked
// against the clip; `clip_file` is blamed when the clip itself is unusable.
std::vector<Frame> select_frames(const Input& in, const std::string& spec, const std::string& clip_file);

// The clip --clip `spec` names in `scene` (read from `path`): by name, else by index; the first
// for an empty spec; null for a file without clips and no spec. Throws Error (exit 5) naming the
// file's clips for one it does not hold.
const Clip* pick_clip(const Scene& scene, const std::string& spec, const std::string& path);

// "A,B" as {"A", "B"} (--joints).
std::vector<std::string> split_joint_list(const std::string& list);

// f(), with a bad-input Error from the core (a mesh the weld refuses) blamed on `file`.
template <typename F>
decltype(auto) blaming(const std::string& file, F&& f) {
    try {
        return f();
    } catch (const Error& e) {
        if (e.code() != kExitBadInput) throw;
        throw bad_input(file, e.what());
    }
}

// f(), with a bad-value Error from the core (whose messages name no option) given the name of
// the option the value came from: "--frames: '1..x': 'x' is not a frame number".
template <typename F>
decltype(auto) for_option(const char* option, F&& f) {
    try {
        return f();
    } catch (const Error& e) {
        if (e.code() != kExitUsage) throw;
        throw Error(kExitUsage, std::string(option) + ": " + e.what());
    }
}

// Refuses (exit 2), before any work, an output path that names a file the run reads: in.paths,
// the inputs and every file they read (a stage's layers, a glTF's buffers), through any link.
// Every job calls it once its input is loaded, so no frame is evaluated for an output that could
// never be written; OutputFile checks again when it opens the file. Empty and "-" are skipped.
void refuse_outputs_over_inputs(const Input& in, const std::vector<std::string>& outputs);

// The reader's options (--max-memory, --allow-outside-uris).
LoadOptions load_options(const InputOptions& opt);

// The pose of `in` at frame f: the bind pose, or the clip sampled at f's time. Every per-frame
// evaluation goes through here, so whatever drives the pose (a rig's joystick controls) applies
// to all of them alike.
void pose_at(const Input& in, const Frame& f, Pose& pose);

// What outputs say of the run: `file` as named, and in's clip, fps and frames (pointers into in).
RunInfo output_run_info(const Input& in, const std::string& file);

// Selects meshes by name or index; throws Error (bad value) for an unknown one, listing the names.
std::vector<int> select_meshes(const Scene& scene, const std::string& spec);

}  // namespace rigscope
