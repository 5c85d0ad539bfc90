// The diff run: two versions of a rig (OLD and NEW) posed on the same frames, meshes paired by
// name, vertices by index or by rest position, and per frame how far each vertex moved and how
// its T changed. The CLI and the Python module both call it; the writers are io/diff_output.h.
#pragma once

#include <string>

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
    double match_tolerance = kDefaultMatchTolerance;
    bool has_match_tolerance = false;
    std::string align;  // "" | start: NEW's first clip frame on OLD's
    long frame_offset = 0;  // OLD frame f is NEW frame f + frame_offset
    bool has_frame_offset = false;
    double max_displacement = 0, max_t_change = 0;
    bool has_displacement = false, has_t_change = false;
    int worst = 10;

    // Throws Error (exit 2) naming the option whose value is out of range or that excludes another.
    void validate() const;
    DiffLimits limits() const;
};

// Loads OLD and NEW, pairs them and evaluates every frame. Throws Error: exit 5 for inputs that
// do not fit (a mesh in one file only, vertices without a partner, frames NEW lacks), exit 3 when
// the run would hold more than --max-memory.
DiffResult run_diff(const DiffOptions& options, const FrameProgress& progress = {});

}  // namespace rigscope
