#include "rigscope/core/frame_windows.h"

#include <algorithm>

#include "rigscope/core/frame_tiles.h"

namespace rigscope {

FrameWindows frame_windows(const EdgeBatches& eb, std::size_t vertices, std::size_t task_batches, std::size_t step_batches,
                           std::size_t window_vertices) {
    FrameWindows fw;
    fw.window_vertices = window_vertices;
    fw.task_batches = std::max<std::size_t>(task_batches, 1);
    fw.step_batches = std::max<std::size_t>(step_batches, 1);
    const std::size_t nb = eb.batch_count();
    if (nb == 0 || vertices == 0) return fw;
    std::vector<std::uint32_t> lo(nb), need(nb);
    for (std::size_t b = 0; b < nb; ++b) batch_reads(eb, b, vertices, lo[b], need[b]);
    FrameWindows out = fw;
    out.task_steps.push_back(0);
    std::vector<std::uint32_t> later(fw.task_batches + 1);  // per batch of a task: the least lo from it on
    std::size_t skinned = 0;
    for (std::size_t b0 = 0; b0 < nb; b0 += fw.task_batches) {
        const std::size_t b1 = std::min(nb, b0 + fw.task_batches);
        later[b1 - b0] = 0xFFFFFFFFu;
        for (std::size_t b = b1; b-- > b0;) later[b - b0] = std::min(later[b + 1 - b0], lo[b]);
        std::uint32_t skin_to = 0, window_from = 0;
        for (std::size_t s = b0; s < b1; s += fw.step_batches) {
            const std::size_t e = std::min(b1, s + fw.step_batches);
            for (std::size_t b = s; b < e; ++b)
                if (lo[b] <= need[b]) skin_to = std::max(skin_to, need[b] + 1);
            // What the window holds from the step on: [keep_from, skin_to), as the executor
            // keeps it (it drops what no later batch reads only when the window is full).
            const std::uint32_t keep_from = std::min(later[s - b0], skin_to);
            if (skin_to - keep_from > window_vertices) return fw;
            // Vertices skinned by the task: the step's new ones (a window that restarts above
            // what it held skins the gap in between no more).
            const std::uint32_t from = std::max(window_from, keep_from);
            if (skin_to > from) skinned += skin_to - from;
            window_from = std::max(from, skin_to);
            out.steps.push_back({static_cast<std::uint32_t>(e), keep_from, skin_to});
        }
        out.task_steps.push_back(static_cast<std::uint32_t>(out.steps.size()));
    }
    if (4 * skinned > 5 * vertices) return fw;
    return out;
}

}  // namespace rigscope
