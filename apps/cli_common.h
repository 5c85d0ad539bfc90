// What every per-frame command shares: the input options, loading with them, and progress.
#pragma once

#include <CLI/CLI.hpp>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "rigscope/error.h"
#include "rigscope/frames.h"
#include "rigscope/load.h"
#include "rigscope/pose.h"
#include "rigscope/rig.h"
#include "rigscope/rom.h"
#include "rigscope/scene.h"

namespace rigscope::cli {

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
    bool allow_outside_uris = false;  // --allow-outside-uris (unsafe for files from outside)
    unsigned threads = 0;   // --threads; 0: every core
    bool rom = false;       // --rom: a synthetic range-of-motion clip instead of the file's
    std::string joints;     // --joints A,B: the joints --rom sweeps (default: every joint)
    RomOptions rom_options; // --rom-angle, --rom-frames
};

// Adds FILE and the options above to a subcommand; `per_frame` adds frame selection too.
void add_input_options(CLI::App* cmd, InputOptions& opt, bool per_frame = true);

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
    std::vector<std::string> paths;  // every input file, so outputs never overwrite one
    ResolvedRig rig;             // --rig, resolved against scene; empty without one
    bool has_rom = false;        // --rom: clip is rom.clip, and rom names each frame's sweep
    RomPlan rom;

    const Clip* clip_ptr() const { return has_clip ? &clip : nullptr; }
};

Input load_input(const InputOptions& opt, bool per_frame = true);

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

// The reader's options from the command line (--max-memory, --allow-outside-uris).
LoadOptions load_options(const InputOptions& opt);

// The pose of `in` at frame f: the bind pose, or the clip sampled at f's time. Every per-frame
// command goes through here, so whatever drives the pose (a rig's joystick controls) applies to
// all of them alike.
void pose_at(const Input& in, const Frame& f, Pose& pose);

// Selects meshes by name or index; throws Error (exit 2) for an unknown one, listing the names.
std::vector<int> select_meshes(const Scene& scene, const std::string& spec);

// Progress on stderr for long runs: only when stderr is a terminal and not quiet, and only
// once a run has taken more than a moment, so short runs print nothing.
class Progress {
public:
    Progress(std::size_t total, const char* what);
    void step(std::size_t done);
    void finish();

private:
    std::size_t total_;
    const char* what_;
    bool enabled_;
    bool shown_ = false;
    std::chrono::steady_clock::time_point start_, last_;
};

extern bool g_quiet;

// Output format from --format, else -o's extension, else `fallback`.
std::string output_format(const std::string& format, const std::string& out, const std::string& fallback);

}  // namespace rigscope::cli
