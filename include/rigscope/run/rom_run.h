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

    // Throws Error (exit 2) for an output that is not glTF, before the file is read.
    void validate() const;
};

struct RomJobResult {
    RomPlan plan;        // the clip and its sweeps (each naming its joint)
    std::string text;    // the listing, one line per sweep
    std::string json;    // the same as JSON (rom --list json)
    std::string written; // out, once written
};

RomJobResult run_rom(const RomJobOptions& opt);

// The same on a scene already loaded (a Python session's; opt.input.file names where it came
// from, and no output may replace it) with opt.input's ROM options.
RomJobResult run_rom(const RomJobOptions& opt, const Scene& scene);

}  // namespace rigscope
