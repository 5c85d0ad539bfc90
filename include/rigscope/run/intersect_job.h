// The `intersect` job (issue 59; the CLI's and Python's): every pair of faces that cross, per
// frame, within a mesh and between meshes (core/intersect.h; docs/methods.md "Interpenetration").
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "rigscope/core/intersect.h"
#include "rigscope/io/output.h"
#include "rigscope/run/input.h"
#include "rigscope/run/progress.h"

namespace rigscope {

struct IntersectJobOptions {
    InputOptions input;
    std::string format = "json";  // json or csv (the CLI resolves it from -o)
    std::string out = "-";        // -o; Python's intersect() writes nothing

    // Throws Error (exit 2) for options that cannot make the run asked for, before any file is read.
    void validate() const;
};

struct IntersectJobResult {
    std::vector<int> meshes;              // the scene meshes tested (in.meshes)
    std::vector<IntersectFrame> frames;   // per selected frame, in.frames' order
    std::size_t triangles = 0;            // triangles of the meshes' fans
    std::size_t zero_area_triangles = 0;  // the most skipped in any frame (corners on one line)
    // The frame with the most pairs (the first of equal counts), -1 for no frames.
    long worst_frame() const;
};

// Runs on an input already loaded with opt.input (a Python session's, its frames selected).
// Refuses an output over an input before any frame. Frames run in order; each frame's BVH work
// is spread over in.threads. Throws Error (exit 3) naming the file and frame for a position that
// is not finite, and when what the run keeps is past --max-memory.
IntersectJobResult run_intersect(const IntersectJobOptions& opt, const Input& in, const FrameProgress& progress = {});

struct IntersectJobLoaded {
    Input input;
    IntersectJobResult result;
};
// Validates, loads opt.input and runs.
IntersectJobLoaded load_and_run_intersect(const IntersectJobOptions& opt, const FrameProgress& progress = {});

// The output in opt.format (io/intersect_output.h), written to `out` (not committed).
void write_intersect_output(const IntersectJobOptions& opt, const Input& in, const IntersectJobResult& r, OutputFile& out);

// --clip all: the job over every clip of the file in turn, each with the output -o names for it
// ({clip} replaced: run/clip_select.h clip_outputs), `each` called while that clip is selected.
void run_intersect_clips(const IntersectJobOptions& opt, const FrameProgress& progress,
                         const std::function<void(const IntersectJobOptions&, const Input&, const IntersectJobResult&)>& each);

}  // namespace rigscope
