// The `diff` job: two versions of a rig (OLD and NEW) posed on the same frames, meshes paired by
// name, vertices by index or by rest position, and per frame how far each vertex moved and how
// its T changed. The CLI, its batch of pairs and the Python module call load_and_run_diff; the
// writers are io/diff_output.h.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "rigscope/io/diff_output.h"
#include "rigscope/run/input.h"
#include "rigscope/run/progress.h"
#include "rigscope/run/run_start.h"

namespace rigscope {

// --match-tolerance's default, relative to OLD's mesh diagonal: well above the rounding of a
// re-export (float positions, a unit conversion: ~1e-7), well below any real edge.
constexpr double kDefaultMatchTolerance = 1e-5;

struct DiffJobOptions {
    InputOptions input;  // OLD is input.file; the other options apply to NEW too
    std::string new_file;
    std::string match = "index";  // index | position
    std::optional<double> match_tolerance;  // --match position: unset is kDefaultMatchTolerance
    std::string align;                      // "" | start: NEW's first clip frame on OLD's
    std::optional<long> frame_offset;       // OLD frame f is NEW frame f + frame_offset (unset: 0)
    std::optional<double> max_displacement, max_t_change;  // limits, each where given
    int worst = 10;
    // What the job writes: the per-vertex output's path (-o; "" for none) and format (the
    // caller resolves it from -o with verb_output_format (run/output_formats.h); "" for none), and --junit's path (""
    // for none).
    std::string out;
    std::string format;
    std::string junit;
    // OLD's path relative to a batch's root, in the JUnit class names ("" for one pair).
    std::string relpath;

    // Throws Error (exit 2) naming the option whose value is out of range or that excludes another.
    void validate() const;
    DiffLimits limits() const;
    double match_tolerance_or_default() const { return match_tolerance.value_or(kDefaultMatchTolerance); }
    long frame_offset_or_zero() const { return frame_offset.value_or(0); }
};

// What the job writes and returns: the worst clip's per-vertex values and the file's verdict.
using DiffJobResult = DiffResult;

// The two inputs a diff compares, loaded by load_diff_input. NEW is loaded for OLD: on OLD's
// clip (by --clip), with OLD's --rom sweep's joints in OLD's order, and without OLD's --frames,
// --chunk and --mesh (its frames are OLD's mapped, its meshes found by name). When OLD's every
// clip is judged (several), NEW is loaded on the first one's partner and new_clips names NEW's
// clip for each, by name.
struct DiffJobInput {
    Input old_input, new_input;
    std::vector<int> new_clips;  // NEW's clip index for each clip of OLD judged; empty for one clip
};

// Loads OLD, refuses a file without animation (require_animation) and, before NEW is read,
// options its clips cannot take; then loads NEW. Throws Error: exit 5 for a clip NEW lacks.
DiffJobInput load_diff_input(const DiffJobOptions& opt);

// Validates, pairs OLD and NEW of `in` and evaluates every frame of every clip judged, each
// against NEW's clip of its name; the file's verdict is the worst clip's. Writes opt.out (in
// opt.format) and opt.junit, each in full before either takes its name. `in` is consumed: NEW's
// scene moves into the result (the glTF output's). The run's time counts from `start`. Throws
// Error: exit 5 for inputs that do not fit (a mesh in one file only, vertices without a partner,
// frames NEW lacks), exit 3 when the run would hold more than --max-memory.
DiffJobResult run_diff(const DiffJobOptions& opt, DiffJobInput in, const FrameProgress& progress = {}, const RunStart& start = {});

// Validates, loads (load_diff_input) and runs: `diff OLD NEW`, each pair of its batch and
// Python's diff() alike.
DiffJobResult load_and_run_diff(const DiffJobOptions& opt, const FrameProgress& progress = {});

// The per-vertex output in `format` (csv, json or gltf; io/diff_output.h), as `diff -o` and
// Python's diff(output=) write it.
void write_diff_output(const DiffResult& result, const std::string& format, OutputFile& out);

// What a diff chunk's record keeps for merge (farm/diff_chunk.h): per-vertex extremes, frame
// maxima and the run's timing.
std::vector<std::pair<std::string, std::string>> diff_chunk_state(const DiffResult& result);

}  // namespace rigscope
