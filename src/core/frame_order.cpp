#include "rigscope/core/frame_order.h"

#include <algorithm>
#include <numeric>

#include "rigscope/core/parallel.h"

namespace rigscope {

namespace {

// Welded vertex w's neighbours, as welded vertices in its list's order, to fn: read back from
// the batches (a MeshTension releases the lists once they are built). Lane l of slot s holds
// the lane's s-th neighbour's representative, or the lane's own while it has no more (a vertex
// is never its own neighbour).
template <typename Fn>
void each_neighbour(const EdgeBatches& eb, const Topology& topo, std::size_t w, Fn&& fn) {
    const std::size_t lanes = eb.lanes, b = w / lanes, l = w % lanes;
    auto lane = [&](std::uint32_t k) {
        const std::uint32_t e = eb.index[k];
        return (e & EdgeBatches::kRun) ? (e & ~EdgeBatches::kRun) + static_cast<std::uint32_t>(l) : eb.index[k + l];
    };
    auto next = [&](std::uint32_t k) { return k + ((eb.index[k] & EdgeBatches::kRun) ? 1 : static_cast<std::uint32_t>(lanes)); };
    const std::uint32_t self = lane(eb.start[b]);
    for (std::uint32_t k = next(eb.start[b]); k < eb.start[b + 1]; k = next(k)) {
        const std::uint32_t v = lane(k);
        if (v != self) fn(topo.welded_of[v]);
    }
}

}  // namespace

FrameOrder frame_order(const EdgeBatches& eb, const Topology& topo, ThreadPool* pool) {
    FrameOrder fo;
    const std::size_t wn = topo.welded_count();
    if (wn == 0 || eb.batch_count() == 0 || eb.lanes == 0) return fo;
    // Breadth first: a batch of frame vertices is a stretch of one front, and its neighbours
    // lie in the fronts before and after it, a front's length away.
    constexpr std::uint32_t kNone = 0xFFFFFFFFu;
    std::vector<std::uint32_t> frame_of(wn, kNone);
    fo.welded.reserve(wn);
    std::size_t next_seed = 0;
    for (std::size_t head = 0; fo.welded.size() < wn;) {
        if (head == fo.welded.size()) {  // a new component: the lowest vertex not reached
            while (frame_of[next_seed] != kNone) ++next_seed;
            frame_of[next_seed] = static_cast<std::uint32_t>(fo.welded.size());
            fo.welded.push_back(static_cast<std::uint32_t>(next_seed));
        }
        each_neighbour(eb, topo, fo.welded[head++], [&](std::uint32_t u) {
            if (frame_of[u] != kNone) return;
            frame_of[u] = static_cast<std::uint32_t>(fo.welded.size());
            fo.welded.push_back(u);
        });
    }
    // The frame's topology: the same lists, in the new numbering and each in its own order;
    // counted, then written at their offsets, in chunks of a fixed size (any thread count).
    Topology& t = fo.topo;
    t.welded_of.resize(wn);
    std::iota(t.welded_of.begin(), t.welded_of.end(), 0u);
    t.representative = t.welded_of;
    t.neighbour_offsets.assign(wn + 1, 0);
    constexpr std::size_t kChunk = 16384;
    const std::size_t chunks = (wn + kChunk - 1) / kChunk;
    run_tasks(pool, chunks, [&](std::size_t c) {
        for (std::size_t k = c * kChunk, e = std::min(wn, k + kChunk); k < e; ++k) {
            std::uint32_t n = 0;
            each_neighbour(eb, topo, fo.welded[k], [&](std::uint32_t) { ++n; });
            t.neighbour_offsets[k + 1] = n;
        }
    });
    for (std::size_t k = 0; k < wn; ++k) t.neighbour_offsets[k + 1] += t.neighbour_offsets[k];
    t.neighbours.resize(t.neighbour_offsets[wn]);
    run_tasks(pool, chunks, [&](std::size_t c) {
        for (std::size_t k = c * kChunk, e = std::min(wn, k + kChunk); k < e; ++k) {
            std::uint32_t* out = t.neighbours.data() + t.neighbour_offsets[k];
            each_neighbour(eb, topo, fo.welded[k], [&](std::uint32_t u) { *out++ = frame_of[u]; });
        }
    });
    t.unique_edges = topo.unique_edges;
    return fo;
}

}  // namespace rigscope
