// The Skin deformer's skinning method (SkinningType) and its per-control-point blend weights
// (BlendWeights at Indexes), read apart from the rest of the skin so that any FBX reader that
// has the Skin record can call it in one line.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "io/fbx/fbx_records.h"
#include "rigscope/core/scene.h"

namespace rigscope::fbx {

// Sets skin.method and, for Blend, skin.blend_weights (one per control point, 0 where the file
// lists none). No SkinningType: Linear, the FBX SDK's default. Throws Malformed for an unknown
// method, mismatched arrays, an index past the `control_points` or a non-finite weight; a weight
// outside [0, 1] is clamped with a warning. `what` names the mesh in messages.
void read_skinning(const Record& skin, std::size_t control_points, std::uint64_t max_memory, const std::string& what,
                   Skin& out, std::vector<Warning>& warnings);

}  // namespace rigscope::fbx
