// A scene whose nodes inherit scale in FBX's other ways (Node::inherit: Rrs, RrSs) rewritten for
// formats that know only world = parent world x local (glTF): each such node's local becomes its
// world relative to its parent's, at rest and at every time a clip samples.
#pragma once

#include "rigscope/core/scene.h"

namespace rigscope {

// True when some node inherits scale other than Full.
bool has_scale_inheritance(const Scene& scene);

// The same motion with every node Full: exact at the rest pose and at every key time of each
// clip's transform channels (the FBX reader samples every frame), linear between. Where the
// relative transform shears (a compensated node under a parent scaled unevenly, rotated against
// it), no TRS holds it: throws Error (exit 5) naming the node, its parent and the time.
Scene with_full_inheritance(const Scene& scene);

}  // namespace rigscope
