// The `volume` job (issue 59): per frame each closed mesh's volume and each joint region's swept
// volume, with their ratios to the bind mesh (core/volume.h, docs/methods.md "Volume"), for the
// CLI, Python and check alike.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "rigscope/core/volume.h"
#include "rigscope/io/output.h"
#include "rigscope/io/volume_output.h"
#include "rigscope/run/input.h"
#include "rigscope/run/progress.h"

namespace rigscope {

struct VolumeJobOptions {
    InputOptions input;
    std::string format = "csv";   // csv or json (the CLI resolves it from -o)
    std::string out = "-";        // -o
    // Throws Error (exit 2) for options that cannot make the run asked for, before any file is read.
    void validate() const;
};

// What the run measured (plain data; io/volume_output.h names the parts the writers read).
using VolumeJobResult = VolumeTable;

// Runs on an input already loaded with opt.input (a Python session's, its frames selected).
VolumeJobResult run_volume(const VolumeJobOptions& opt, const Input& in, const FrameProgress& progress = {});

// Validates, loads opt.input and runs; the input comes back too (the writers name its frames).
struct VolumeJobLoaded {
    Input input;
    VolumeJobResult result;
};
VolumeJobLoaded load_and_run_volume(const VolumeJobOptions& opt, const FrameProgress& progress = {});

// The output in opt.format (io/volume_output.h), written to `out` (not committed).
void write_volume_output(const VolumeJobOptions& opt, const Input& in, const VolumeJobResult& r, OutputFile& out);

// --clip all: the job over every clip in turn, each with its -o ({clip} replaced: run/clip_select.h).
void run_volume_clips(const VolumeJobOptions& opt, const FrameProgress& progress,
                      const std::function<void(const VolumeJobOptions&, const Input&, const VolumeJobResult&)>& each);

// The measuring itself, for a caller with its own options (check's --max-volume-loss): every
// selected mesh with faces, every selected frame, on in.threads. `file` names the input in errors.
VolumeTable measure_volumes(const Input& in, const std::string& file, const FrameProgress& progress = {});

}  // namespace rigscope
