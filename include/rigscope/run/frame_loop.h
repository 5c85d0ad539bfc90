// The one frame loop of the per-frame engines (DeformEngine, DriveEngine): evaluate frame fi of the
// input's selection, hand it on, count it.
#pragma once

#include <cstddef>
#include <functional>

#include "rigscope/run/input.h"
#include "rigscope/run/progress.h"

namespace rigscope {

template <typename Evaluate>
void for_each_selected_frame(const Input& in, Evaluate&& evaluate, const std::function<void(std::size_t)>& each, const FrameProgress& progress) {
    for (std::size_t fi = 0; fi < in.frames.size(); ++fi) {
        evaluate(fi);
        each(fi);
        report_progress(progress, fi + 1, in.frames.size());
    }
}

}  // namespace rigscope
