// Motion from one file applied to the skeleton of another, matched by node name: the common
// pipeline layout of a skinned character file plus separate animation files.
#pragma once

#include <string>
#include <vector>

#include "rigscope/core/scene.h"

namespace rigscope {

// Channels of `clip` (from `source`) re-addressed to the nodes of `target` with the same name.
// Names of source nodes with channels but no match go to `unmatched`; channels on them are
// dropped. Returns the clip with only matched channels.
Clip retarget_clip(const Scene& target, const Scene& source, const Clip& clip, std::vector<std::string>& unmatched);

enum class RetargetMode {
    Rotation,  // the clip's rotations, plus the root's translation, on the target's own rest
    Full       // every channel as the source has it (translations change the target's limb lengths)
};

// Rest rotations of matched joints that differ by more than this many degrees make a warning:
// copied rotations then pose the two skeletons differently.
constexpr double kRetargetRestToleranceDegrees = 5.0;

struct RetargetReport {
    std::vector<std::string> unmatched;  // animated source nodes with no target node of that name
    std::string root;                    // the target joint whose translation is kept (rotation mode)
    int rest_differs = 0;                // matched joints whose rest rotations differ past the tolerance
    std::string worst_joint;
    double worst_degrees = 0.0;
};

// Names match after a namespace prefix (`prefix:`, up to the last colon) is removed on both
// sides. In rotation mode translation channels are kept only on the root (the matched node
// with a translation channel that has no animated matched ancestor) and scale channels are
// dropped, so limbs keep the target's lengths.
Clip retarget_clip(const Scene& target, const Scene& source, const Clip& clip, RetargetMode mode, RetargetReport& report);

}  // namespace rigscope
