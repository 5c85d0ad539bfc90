// A synthetic range-of-motion (ROM) clip: how riggers test a skeleton that has no animation yet.
// Each joint in turn is rotated about each of its local axes (X, Y, Z) from rest to +angle, back
// through rest to -angle and back to rest. Joints go parents first: depth first from the roots
// in node order, children in file order, so a parent's sweeps come before its children's.
#pragma once

#include <string>
#include <vector>

#include "rigscope/core/scene.h"

namespace rigscope {

struct RomOptions {
    std::vector<std::string> joints;  // joint names to sweep; empty: every joint of every skin
    double angle_deg = 60;            // 0 < angle < 180 (the slerp between keys is then exact)
    int frames_per_sweep = 24;        // frames of one joint-axis sweep; a multiple of 4
};

// One joint swept about one of its local axes over frames [first, last] (last = first + N).
// Consecutive sweeps share their boundary frame, where every joint is at rest.
struct RomSweep {
    int node = -1;
    int axis = 0;  // 0 X, 1 Y, 2 Z (the joint's local axes)
    long first = 0, last = 0;
    std::string joint;  // the node's name, so that a report can name it without the scene
};

struct RomPlan {
    Clip clip;                    // rotation channels, LINEAR, keyed at quarter sweeps
    std::vector<RomSweep> sweeps;
    double angle_deg = 60;
    int frames_per_sweep = 24;
    double fps = 24;
};

// The joints a ROM sweeps, parents first. Throws Error (exit 2) for a name in `names` that is
// not a joint of any skin (listing the joints), Error (exit 5) for a scene without skins.
std::vector<int> rom_joints(const Scene& scene, const std::vector<std::string>& names);

// The clip for `scene` at `fps` (frame f at time f / fps). Throws Error (exit 2) for options out
// of range.
RomPlan make_rom(const Scene& scene, const RomOptions& opt, double fps);

// The sweep that frame `frame` belongs to (a boundary frame to the later sweep, the last frame
// to the last sweep), or null outside the clip.
const RomSweep* rom_sweep_at(const RomPlan& plan, long frame);

// The requested angle of sweep s's joint about its axis at frame `frame`, degrees: piecewise
// linear through 0, +angle, 0, -angle, 0 at the quarter sweeps.
double rom_angle_at(const RomPlan& plan, const RomSweep& s, double frame);

const char* rom_axis_name(int axis);

}  // namespace rigscope
