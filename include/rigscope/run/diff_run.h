// The diff run: two versions of a rig (OLD and NEW) posed on the same frames, meshes paired by
// name, vertices by index or by rest position, and per frame how far each vertex moved and how
// its T changed. The CLI and the Python module both call it; the writers are io/diff_output.h.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "rigscope/io/diff_output.h"
#include "rigscope/run/input.h"
#include "rigscope/run/progress.h"

namespace rigscope {

// --match-tolerance's default, relative to OLD's mesh diagonal: well above the rounding of a
// re-export (float positions, a unit conversion: ~1e-7), well below any real edge.
constexpr double kDefaultMatchTolerance = 1e-5;

struct DiffOptions {
    InputOptions input;  // OLD is input.file; the other options apply to NEW too
    std::string new_file;
    std::string match = "index";  // index | position
    std::optional<double> match_tolerance;  // --match position: unset is kDefaultMatchTolerance
    std::string align;                      // "" | start: NEW's first clip frame on OLD's
    std::optional<long> frame_offset;       // OLD frame f is NEW frame f + frame_offset (unset: 0)
    std::optional<double> max_displacement, max_t_change;  // limits, each where given
    int worst = 10;
    // What the caller writes, judged with the rest: the per-vertex output's path (-o; "" for
    // none) and format (the CLI resolves it from -o; "" for none), and --junit's path ("" for
    // none). run_diff writes none of them (write_diff_output does the first).
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

// Loads OLD and NEW, pairs them and evaluates every frame. Throws Error: exit 5 for inputs that
// do not fit (a mesh in one file only, vertices without a partner, frames NEW lacks), exit 3 when
// the run would hold more than --max-memory.
DiffResult run_diff(const DiffOptions& options, const FrameProgress& progress = {});

// The per-vertex output's format as diff chooses it for every front end (the CLI, its batch of
// pairs, Python's output=): `format` where given, else `out`'s extension, else csv; "" when
// there is no output.
std::string diff_output_format(const std::string& format, const std::string& out);

// The per-vertex output in `format` (csv, json or gltf; io/diff_output.h), as `diff -o` and
// Python's diff(output=) write it.
void write_diff_output(const DiffResult& result, const std::string& format, OutputFile& out);

// run_diff, then options.out (in options.format) and options.junit (the verdict's JUnit report)
// written, each in full before either takes its name: `diff -o FILE --junit FILE` and Python's
// diff(output=).
DiffResult run_and_write_diff(const DiffOptions& options, const FrameProgress& progress = {});

// What a diff chunk's record keeps for merge (farm/diff_chunk.h): per-vertex extremes, frame
// maxima and the run's timing.
std::vector<std::pair<std::string, std::string>> diff_chunk_state(const DiffResult& result);

}  // namespace rigscope
