// Motion from one file applied to the skeleton of another, matched by node name: the common
// pipeline layout of a skinned character file plus separate animation files.
#pragma once

#include <string>
#include <vector>

#include "rigscope/scene.h"

namespace rigscope {

// Channels of `clip` (from `source`) re-addressed to the nodes of `target` with the same name.
// Names of source nodes with channels but no match go to `unmatched`; channels on them are
// dropped. Returns the clip with only matched channels.
Clip retarget_clip(const Scene& target, const Scene& source, const Clip& clip, std::vector<std::string>& unmatched);

}  // namespace rigscope
