// How a run reports how far it has got. The run layer only counts frames; showing them (a
// terminal line, nothing when piped, a Python callback) is its caller's business.
#pragma once

#include <cstddef>
#include <functional>

namespace rigscope {

// Called after each evaluated frame with the frames done so far and the total. Empty: silent.
using FrameProgress = std::function<void(std::size_t done, std::size_t total)>;

inline void report_progress(const FrameProgress& progress, std::size_t done, std::size_t total) {
    if (progress) progress(done, total);
}

}  // namespace rigscope
