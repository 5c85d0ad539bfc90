// The order of a frame's work that lets the edge T read positions its own thread has just
// written, from its core's cache, instead of reading the whole mesh back from memory after
// skinning it: each task skins its span of file vertices a tile at a time, and after each tile
// runs the batches of the edge T whose reads all lie in its span and are done. The batches that
// read across spans (or far away: a file whose vertex order jumps) run after every task, as
// before. A layout only: every batch computes the same bits whichever pass runs it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "rigscope/core/tension.h"

namespace rigscope {

struct FrameTiles {
    // Batches [begin, end) of an EdgeBatches, which read no file vertex above `need`.
    struct Range {
        std::uint32_t begin, end, need;
    };
    std::size_t vertices = 0;       // file vertices of the mesh
    std::size_t task_vertices = 1;  // file vertices per task (the last task may have fewer)
    std::size_t tile_vertices = 1;  // file vertices skinned at a time within a task
    std::vector<std::uint32_t> task_ranges;  // per task, plus one: its ranges in `ranges`, by need
    std::vector<Range> ranges;
    std::vector<Range> deferred;  // run after every task, a range a task

    std::size_t tasks() const { return task_ranges.empty() ? 0 : task_ranges.size() - 1; }
    // Batches run inside the tasks, against all.
    std::size_t fused_batches() const;
};

// The file vertices batch b of `eb` reads: lo, the lowest, and need, the highest a load touches
// (a scattered vertex's 16-byte load takes the next vertex's x too), below `vertices`; lo > need
// for a batch that reads none.
void batch_reads(const EdgeBatches& eb, std::size_t b, std::size_t vertices, std::uint32_t& lo, std::uint32_t& need);

// The plan for `eb` over `vertices` file vertices. Ranges hold at most a tile's worth of lanes
// inside tasks and `deferred_batches` batches in the deferred pass.
FrameTiles frame_tiles(const EdgeBatches& eb, std::size_t vertices, std::size_t task_vertices, std::size_t tile_vertices,
                       std::size_t deferred_batches);

}  // namespace rigscope
