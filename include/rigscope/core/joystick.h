// The asymmetric joystick (methods.md section 3): a 2D control's offset to four corner weights,
// and applying a resolved rig to a pose.
#pragma once

#include <array>

#include "rigscope/core/pose.h"
#include "rigscope/core/rig.h"

namespace rigscope {

// Offset along one axis to [-1, 1]: offset / max on the positive side, offset / -min on the
// negative side, clamped. The rest position (offset 0) is always 0.
double joystick_axis(double offset, const Travel& travel);

// Normalised (X, Y) in [-1, 1]^2 to weights by Corner: up_left, up_right, down_left, down_right.
std::array<double, 4> joystick_weights(double x, double y);

// The control's normalised (X, Y) under pose: its local translation minus its rest translation,
// read along the rig's signed axes (the parent space's axes; see docs/rig.md).
std::array<double, 2> control_xy(const ResolvedControl& control, const Scene& scene, const Pose& pose);

// Overwrites the driven morph weights of pose: per driven target the sum over the controls that
// drive it, clamped to [0, 1]. Targets no control drives keep their animated or default weight.
// Call after sampling (reads pose.local) and before deforming.
void apply_rig(const ResolvedRig& rig, const Scene& scene, Pose& pose);

// `source` (null: no animation) with the rig evaluated into it, so that the result plays the
// driven weights without the rig: per node that carries a driven mesh, the node's weights
// channels are replaced by one LINEAR channel keyed at `times` (seconds, increasing) with every
// target's weight as sample_pose + apply_rig give it there. Where meshes sharing one node (FBX)
// would need different weights, the first driven mesh's are kept and a line is added to
// `warnings`. Throws std::invalid_argument for empty or non-increasing times.
Clip bake_rig(const ResolvedRig& rig, const Scene& scene, const Clip* source, const std::vector<double>& times,
              const std::string& name, std::vector<Warning>& warnings);

}  // namespace rigscope
