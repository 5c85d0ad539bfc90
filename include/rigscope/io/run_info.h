// What a report says of the run that made it: the input as named, the clip, the frames. The
// run layer fills it from its evaluation; writers see only this.
#pragma once

#include <string>
#include <vector>

#include "rigscope/core/frames.h"
#include "rigscope/core/scene.h"

namespace rigscope {

struct RunInfo {
    std::string input;                          // FILE as given
    const Scene* scene = nullptr;
    const Clip* clip = nullptr;                 // null: no clip (the bind pose only)
    double fps = 24;
    const std::vector<Frame>* frames = nullptr;  // the frames evaluated, in order
};

}  // namespace rigscope
