// The order of a frame that keeps only its summary (MeshTension::keep_frame = false: the JSON
// frame's lowest and highest T and its degenerate count), where neither the deformed positions
// nor T outlive the frame: each task skins the file vertices its batches of the edge T read into
// a window of positions of its own thread, a step of batches at a time, runs those batches from
// it and folds their T into the task's extremes from a step-sized buffer. Nothing of the frame is
// written to the mesh-sized arrays, so a frame larger than the caches moves neither the
// positions (12 bytes a vertex written, and read for ownership first) nor T (4 and 4) through
// memory. A layout only: every batch computes the same bits as in FrameTiles' order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "rigscope/core/tension.h"

namespace rigscope {

struct FrameWindows {
    // Batches [previous step's batch_end, batch_end) of the task; before them the window holds
    // no vertex below keep_from that any later batch of the task reads, and every vertex the
    // step reads lies below skin_to.
    struct Step {
        std::uint32_t batch_end, keep_from, skin_to;
    };
    std::size_t window_vertices = 0;  // positions a thread's window holds
    std::size_t task_batches = 1;     // batches per task (the last task may have fewer)
    std::size_t step_batches = 1;     // batches per step at most
    std::vector<std::uint32_t> task_steps;  // per task, plus one: its steps in `steps`
    std::vector<Step> steps;

    // Whether the mesh's vertex order lets every step's reads fit a window; else the frame
    // keeps FrameTiles' order over the whole mesh's arrays.
    bool usable() const { return !task_steps.empty(); }
    std::size_t tasks() const { return task_steps.empty() ? 0 : task_steps.size() - 1; }
};

// The plan for `eb` over `vertices` file vertices, or an unusable one where a step would need
// more than `window_vertices` positions at once (a vertex order whose neighbours lie far apart)
// or the tasks would skin more than a quarter of the mesh twice over (their windows overlapping).
FrameWindows frame_windows(const EdgeBatches& eb, std::size_t vertices, std::size_t task_batches, std::size_t step_batches,
                           std::size_t window_vertices);

}  // namespace rigscope
