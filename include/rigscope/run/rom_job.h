// The `rom` job: the synthetic range-of-motion clip that --rom evaluates, planned for a file,
// listed (which frames sweep which joint and axis) and, with `out`, written as a glTF animation
// of the file (io/rom_writer.h writes both).
#pragma once

#include <string>
#include <vector>

#include "rigscope/core/rom.h"
#include "rigscope/run/input.h"

namespace rigscope {

struct RomJobOptions {
    InputOptions input;  // file, --fps, --rom-angle, --rom-frames, --joints, --max-memory
    std::string out;     // .glb to write the clip to; empty: none
    std::string listing = "text";  // --list: which of the result's listings the CLI prints, text or json

    // Throws Error (exit 2) for an output that is not glTF, before the file is read.
    void validate() const;
};

struct RomJobResult {
    RomPlan plan;        // the clip and its sweeps (each naming its joint)
    std::string text;    // the listing, one line per sweep
    std::string json;    // the same as JSON (rom --list json)
    std::string written; // out, once written
};

// What rom loads: opt.input with --rom on and neither frames, a chunk nor a rig (the plan is the
// whole clip of the file's joints).
InputOptions rom_input_options(const RomJobOptions& opt);

// Lists the plan of `in` (loaded with rom_input_options(opt): load_input's, or input_from_scene
// for a Python session's scene, where opt.input.file names where it came from and no output may
// replace it) and writes opt.out. Validates opt first. No progress: no frame is evaluated.
RomJobResult run_rom(const RomJobOptions& opt, const Input& in);

// Validates, loads opt.input's file with rom_input_options and runs: the CLI's entry.
RomJobResult load_and_run_rom(const RomJobOptions& opt);

}  // namespace rigscope
