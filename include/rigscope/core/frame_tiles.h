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
    std::vector<Range> deferred;  // run after every task
    // Per task of the deferred pass, plus one: its ranges in `deferred`, consecutive ones. A
    // vertex order that jumps scatters the deferred batches into hundreds of short ranges (the
    // bench tube's, in Blender's order: 468 ranges of 3.4 batches): a task each cost a lock of
    // the pool's queue and a fold of the extremes for each few dozen vertices.
    std::vector<std::uint32_t> deferred_tasks;

    std::size_t tasks() const { return task_ranges.empty() ? 0 : task_ranges.size() - 1; }
    // Batches run inside the tasks, against all.
    std::size_t fused_batches() const;
};

// Calls fn(v) for every file vertex batch b of `eb` reads (its selves, then each slot), decoded as
// the kernels decode its groups: a run is `lanes` consecutive vertices from its first, any other
// group a vertex a lane.
template <typename Fn>
void for_each_batch_read(const EdgeBatches& eb, std::size_t b, Fn&& fn) {
    const std::uint32_t lanes = static_cast<std::uint32_t>(eb.lanes > 0 ? eb.lanes : 1);
    for (std::uint32_t k = eb.start[b]; k < eb.start[b + 1];) {
        const std::uint32_t e = eb.index[k];
        if (e & EdgeBatches::kRun) {
            for (std::uint32_t l = 0; l < lanes; ++l) fn((e & ~EdgeBatches::kFlags) + l);
            ++k;
        } else {
            for (std::uint32_t l = 0; l < lanes; ++l) fn(eb.index[k + l]);
            k += lanes;
        }
    }
}

// The file vertices batch b of `eb` reads: lo, the lowest, and need, the highest a load touches
// (a scattered vertex's 16-byte load takes the next vertex's x too), below `vertices`; lo > need
// for a batch that reads none.
void batch_reads(const EdgeBatches& eb, std::size_t b, std::size_t vertices, std::uint32_t& lo, std::uint32_t& need);

// The plan for `eb` over `vertices` file vertices. Ranges hold at most a tile's worth of lanes
// inside tasks and `deferred_batches` batches in the deferred pass, whose tasks hold at most
// `deferred_task_batches` batches (0: deferred_batches) unless one range alone is longer.
FrameTiles frame_tiles(const EdgeBatches& eb, std::size_t vertices, std::size_t task_vertices, std::size_t tile_vertices,
                       std::size_t deferred_batches, std::size_t deferred_task_batches = 0);

}  // namespace rigscope
