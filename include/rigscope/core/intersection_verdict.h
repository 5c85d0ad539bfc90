// check --max-intersections (issue 59): the verdict on the face pairs that cross, decided here
// once from what the intersect job found; check's reports only say it (io/intersection_report.h).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "rigscope/core/frames.h"
#include "rigscope/core/intersect.h"
#include "rigscope/core/scene.h"

namespace rigscope {

struct IntersectionVerdict {
    std::size_t limit = 0;        // the most face pairs a frame may have
    std::size_t frames = 0;       // frames tested, over every clip
    std::size_t frames_over = 0;  // frames with more pairs than the limit
    // The worst frame: the most pairs (the first such frame, clips in order), and of its pairs the
    // meshes ("Arm with Torso", "Cylinder with itself", in the pairs' order) and the joint with the
    // most pairs (the first by name on a tie; "" for unskinned faces).
    std::string clip;
    Frame frame;
    std::size_t pairs = 0;
    std::vector<std::string> meshes;
    std::string joint;
    std::size_t joint_pairs = 0;

    bool failed() const { return pairs > limit; }
};

// Adds one clip's frames (results[i] is frames[i]) to the verdict.
void add_intersection_frames(IntersectionVerdict& v, const std::string& clip, const Scene& scene, const std::vector<Frame>& frames,
                             const std::vector<IntersectFrame>& results);

}  // namespace rigscope
