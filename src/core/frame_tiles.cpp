#include "rigscope/core/frame_tiles.h"

#include <algorithm>

namespace rigscope {

std::size_t FrameTiles::fused_batches() const {
    std::size_t n = 0;
    for (const Range& r : ranges) n += r.end - r.begin;
    return n;
}

void batch_reads(const EdgeBatches& eb, std::size_t b, std::size_t vertices, std::uint32_t& lo, std::uint32_t& need) {
    std::uint32_t hi = 0;
    lo = 0xFFFFFFFFu;
    for_each_batch_read(eb, b, [&](std::uint32_t v) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    });
    // A scattered vertex is loaded as 16 bytes, its 12 and the next vertex's x (the batches
    // that read the last vertex load lane by lane): that next vertex must be done too, by the
    // same task, or another thread could be writing the float while it is read.
    need = lo <= hi ? std::min<std::uint32_t>(hi + 1, static_cast<std::uint32_t>(vertices - 1)) : 0;
}

FrameTiles frame_tiles(const EdgeBatches& eb, std::size_t vertices, std::size_t task_vertices, std::size_t tile_vertices,
                       std::size_t deferred_batches, std::size_t deferred_task_batches) {
    FrameTiles ft;
    ft.vertices = vertices;
    ft.task_vertices = std::max<std::size_t>(task_vertices, 1);
    ft.tile_vertices = std::clamp<std::size_t>(tile_vertices, 1, ft.task_vertices);
    deferred_batches = std::max<std::size_t>(deferred_batches, 1);
    const std::size_t tasks = (vertices + ft.task_vertices - 1) / ft.task_vertices;
    const std::size_t lanes = std::max<std::size_t>(eb.lanes, 1);
    const std::size_t tile_batches = std::max<std::size_t>(ft.tile_vertices / lanes, 1);
    std::vector<std::vector<FrameTiles::Range>> per_task(tasks);
    auto add = [](std::vector<FrameTiles::Range>& list, std::uint32_t b, std::uint32_t need, std::size_t most) {
        if (!list.empty() && list.back().end == b && b + 1 - list.back().begin <= most) {
            list.back().end = b + 1;
            list.back().need = std::max(list.back().need, need);
        } else {
            list.push_back({b, b + 1, need});
        }
    };
    for (std::size_t b = 0; b < eb.batch_count(); ++b) {
        std::uint32_t lo, need;
        batch_reads(eb, b, vertices, lo, need);
        const std::size_t task = lo / ft.task_vertices;
        if (lo <= need && need / ft.task_vertices == task) add(per_task[task], static_cast<std::uint32_t>(b), need, tile_batches);
        else add(ft.deferred, static_cast<std::uint32_t>(b), need, deferred_batches);
    }
    ft.task_ranges.push_back(0);
    for (auto& list : per_task) {
        std::stable_sort(list.begin(), list.end(), [](const auto& a, const auto& c) { return a.need < c.need; });
        ft.ranges.insert(ft.ranges.end(), list.begin(), list.end());
        ft.task_ranges.push_back(static_cast<std::uint32_t>(ft.ranges.size()));
    }
    if (deferred_task_batches == 0) deferred_task_batches = deferred_batches;
    std::size_t held = 0;  // batches in the task being filled
    for (std::size_t r = 0; r < ft.deferred.size(); ++r) {
        const std::size_t n = ft.deferred[r].end - ft.deferred[r].begin;
        if (r == 0 || held + n > deferred_task_batches) {
            ft.deferred_tasks.push_back(static_cast<std::uint32_t>(r));
            held = 0;
        }
        held += n;
    }
    ft.deferred_tasks.push_back(static_cast<std::uint32_t>(ft.deferred.size()));
    return ft;
}

}  // namespace rigscope
