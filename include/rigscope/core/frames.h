// Frame selection: which times of a clip a command evaluates.
#pragma once

#include <string>
#include <vector>

#include "rigscope/core/scene.h"

namespace rigscope {

// One selected frame: a frame number on the file's timeline (time = number / fps), or the bind
// pose (no animation at all).
struct Frame {
    bool bind = false;
    long number = 0;
    double time = 0.0;
};

// Parses "1..91", "1..91:5", "0,10,20", "bind" and comma-separated mixes of them. Throws
// rigscope::Error (exit 2) on a malformed list.
std::vector<Frame> parse_frames(const std::string& spec, double fps);

// Every frame from the clip's first key to its last (the bind pose alone without a clip).
std::vector<Frame> default_frames(const Clip* clip, double fps);

// Throws rigscope::Error (exit 2) naming the first frame outside [first key, last key] of clip.
void check_frames_in_clip(const std::vector<Frame>& frames, const Clip* clip, double fps);

// Contiguous part `index` of `count` parts (for farm chunks): part sizes differ by at most one.
std::vector<Frame> chunk_frames(const std::vector<Frame>& frames, int index, int count);

}  // namespace rigscope
