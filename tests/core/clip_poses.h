// Poses of a corpus scene's first clip and a mesh's bind positions, as the tension tests that
// compare a frame with a fresh evaluation build them.
#pragma once

#include <vector>

#include "rigscope/core/pose.h"
#include "rigscope/core/skin.h"

namespace rigscope::test {

// The scene's first clip sampled at `time` seconds.
inline Pose clip_pose(const Scene& s, double time) {
    Pose p = rest_pose(s);
    sample_pose(s, &s.clips[0], time, p);
    return p;
}

// Mesh `mesh`'s positions at the rest pose (its bind).
inline std::vector<Eigen::Vector3f> bind_positions(const Scene& s, int mesh) {
    std::vector<Eigen::Vector3f> out;
    deform_mesh(s, mesh, rest_pose(s), out);
    return out;
}

}  // namespace rigscope::test
