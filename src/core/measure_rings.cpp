// The measures' common setup: the welded triangles, each vertex's one-ring in fans, and the
// batches of fans the SIMD kernels read (fan_batches).
#include <algorithm>

#include "measure_rings.h"
#include "rigscope/core/error.h"

namespace rigscope {

std::vector<std::uint32_t> welded_triangles(const Mesh& mesh, const Topology& topo) {
    std::vector<std::uint32_t> tris;
    tris.reserve(mesh.face_indices.size());
    for (std::size_t f = 0; f + 1 < mesh.face_offsets.size(); ++f) {
        const std::uint32_t b = mesh.face_offsets[f], e = mesh.face_offsets[f + 1];
        if (e < b + 3) continue;
        const std::uint32_t a = topo.welded_of[mesh.face_indices[b]];
        for (std::uint32_t k = b + 1; k + 1 < e; ++k) {
            const std::uint32_t p = topo.welded_of[mesh.face_indices[k]], q = topo.welded_of[mesh.face_indices[k + 1]];
            if (a == p || p == q || a == q) continue;
            tris.insert(tris.end(), {a, p, q});
        }
    }
    return tris;
}

namespace detail {

void order_fans(OneRing& r) {
    std::vector<std::uint32_t> by_first, order;
    std::vector<std::uint8_t> used;
    std::vector<std::uint32_t> corners;
    for (std::size_t w = 0; w + 1 < r.offsets.size(); ++w) {
        const std::uint32_t o0 = r.offsets[w], n = r.offsets[w + 1] - o0;
        if (n < 2) continue;
        const std::uint32_t* c = &r.corners[2 * std::size_t(o0)];
        // Entries by first corner (ties in order), to find a chain's next entry; a plain scan
        // for the few entries of most vertices.
        const bool scan = n <= 32;
        if (!scan) {
            by_first.resize(n);
            for (std::uint32_t i = 0; i < n; ++i) by_first[i] = i;
            std::sort(by_first.begin(), by_first.end(),
                      [&](std::uint32_t a, std::uint32_t b) { return c[2 * a] != c[2 * b] ? c[2 * a] < c[2 * b] : a < b; });
        }
        auto first_of = [&](std::uint32_t i) { return c[2 * i]; };
        // The first unused entry (in the previous order) whose first corner is v; n if none.
        auto next_from = [&](std::uint32_t v) -> std::uint32_t {
            if (scan) {
                for (std::uint32_t i = 0; i < n; ++i)
                    if (!used[i] && first_of(i) == v) return i;
                return n;
            }
            auto it = std::lower_bound(by_first.begin(), by_first.end(), v, [&](std::uint32_t a, std::uint32_t x) { return first_of(a) < x; });
            for (; it != by_first.end() && first_of(*it) == v; ++it)
                if (!used[*it]) return *it;
            return n;
        };
        // Whether some entry's second corner is v (then a chain can arrive at an entry starting at v).
        auto reached = [&](std::uint32_t v) {
            for (std::uint32_t i = 0; i < n; ++i)
                if (c[2 * i + 1] == v) return true;
            return false;
        };
        used.assign(n, 0);
        order.clear();
        auto walk = [&](std::uint32_t i) {
            while (i < n) {
                used[i] = 1;
                order.push_back(i);
                i = next_from(c[2 * i + 1]);
            }
        };
        if (scan) {
            for (std::uint32_t i = 0; i < n; ++i)
                if (!used[i] && !reached(first_of(i))) walk(i);
        } else {
            std::vector<std::uint32_t> seconds(n);
            for (std::uint32_t i = 0; i < n; ++i) seconds[i] = c[2 * i + 1];
            std::sort(seconds.begin(), seconds.end());
            for (std::uint32_t i = 0; i < n; ++i)
                if (!used[i] && !std::binary_search(seconds.begin(), seconds.end(), first_of(i))) walk(i);
        }
        for (std::uint32_t i = 0; i < n; ++i)
            if (!used[i]) walk(i);
        corners.resize(2 * std::size_t(n));
        for (std::uint32_t i = 0; i < n; ++i) {
            corners[2 * std::size_t(i)] = c[2 * order[i]];
            corners[2 * std::size_t(i) + 1] = c[2 * order[i] + 1];
        }
        std::copy(corners.begin(), corners.end(), r.corners.begin() + 2 * std::size_t(o0));
    }
}

}  // namespace detail

FanBatches fan_batches(const OneRing& ring, std::uint32_t last, std::size_t lanes, bool runs, const Topology* edges) {
    const std::size_t L = lanes;
    constexpr std::uint32_t kNone = FanBatches::kNone;
    FanBatches fb;
    const std::size_t wn = ring.offsets.empty() ? 0 : ring.offsets.size() - 1;
    fb.welded = wn;
    fb.lanes = L;
    fb.runs = runs;
    if (wn == 0) return fb;
    if (runs && last >= FanBatches::kRun)
        throw Error(kExitBadInput, "mesh has too many vertices for the measures' layout (vertex ids must fit 31 bits)");
    const std::size_t batches = (wn + L - 1) / L;
    fb.self.assign(batches * L, 0);
    fb.slot_start.assign(batches + 1, 0);
    fb.reads_last.assign(batches, 0);
    fb.full.assign(batches, 1);
    if (runs) fb.group_start.assign(batches + 1, 0);
    if (edges) {
        fb.sum_start.assign(batches + 1, 0);
        fb.sum_uniform.assign(batches, 0);
        fb.degree.assign(batches * L, 1.0f);
    }
    // One group of L file vertices: packed into one word where they are consecutive.
    auto put_group = [&](const std::uint32_t* v) {
        bool run = runs;
        for (std::size_t l = 1; l < L && run; ++l) run = v[l] == v[0] + l;
        if (run) fb.corner.push_back(v[0] | FanBatches::kRun);
        else fb.corner.insert(fb.corner.end(), v, v + L);
    };
    std::vector<std::uint32_t> group(L);
    // A lane's corner sequence and the entry of each slot (between two consecutive corners).
    std::vector<std::vector<std::uint32_t>> seq(L), ent(L);
    // With edges: per lane, the slot of each neighbour in its list's order; (second corner, slot)
    // pairs sorted, to find a neighbour's first slot.
    std::vector<std::vector<std::uint32_t>> order(L);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> reach;
    for (std::size_t b = 0; b < batches; ++b) {
        std::size_t slots = 0;
        for (std::size_t l = 0; l < L; ++l) {
            const std::size_t w = std::min(b * L + l, wn - 1);
            const std::uint32_t self = ring.self[w];
            fb.self[b * L + l] = self;
            seq[l].clear();
            ent[l].clear();
            fb.full[b] &= b * L + l < wn && ring.offsets[w] < ring.offsets[w + 1];
            if (b * L + l < wn)
                for (std::uint32_t e = ring.offsets[w]; e < ring.offsets[w + 1]; ++e) {
                    const std::uint32_t first = ring.corners[2 * std::size_t(e)], second = ring.corners[2 * std::size_t(e) + 1];
                    if (seq[l].empty()) {
                        seq[l].push_back(first);
                    } else if (seq[l].back() != first) {  // a new chain: through the vertex itself
                        seq[l].insert(seq[l].end(), {self, first});
                        ent[l].insert(ent[l].end(), {kNone, kNone});
                    }
                    seq[l].push_back(second);
                    ent[l].push_back(e);
                }
            if (seq[l].empty()) seq[l].push_back(self);
            order[l].clear();
            if (edges && b * L + l < wn) {
                // The first corner is no slot's second unless a chain comes back to it: then a
                // slot from the vertex itself reaches it (as between two chains).
                if (std::find(seq[l].begin() + 1, seq[l].end(), seq[l][0]) == seq[l].end() && seq[l][0] != self) {
                    seq[l].insert(seq[l].begin(), self);
                    ent[l].insert(ent[l].begin(), kNone);
                }
                reach.clear();
                for (std::size_t s = 0; s < ent[l].size(); ++s) reach.emplace_back(seq[l][s + 1], static_cast<std::uint32_t>(s));
                std::sort(reach.begin(), reach.end());
                for (std::uint32_t i = edges->neighbour_offsets[w]; i < edges->neighbour_offsets[w + 1]; ++i) {
                    const std::uint32_t q = edges->representative[edges->neighbours[i]];
                    const auto it = std::lower_bound(reach.begin(), reach.end(), std::make_pair(q, std::uint32_t(0)));
                    if (it != reach.end() && it->first == q) {
                        order[l].push_back(it->second);
                        continue;
                    }
                    // No slot reaches q: from the vertex itself (a zero edge), then to q.
                    if (seq[l].back() != self) {
                        seq[l].push_back(self);
                        ent[l].push_back(kNone);
                    }
                    seq[l].push_back(q);
                    ent[l].push_back(kNone);
                    order[l].push_back(static_cast<std::uint32_t>(ent[l].size() - 1));
                }
                if (!order[l].empty()) fb.degree[b * L + l] = static_cast<float>(order[l].size());
            }
            slots = std::max(slots, ent[l].size());
        }
        fb.max_slots = std::max(fb.max_slots, slots);
        if (edges) {
            // Uniform: every real lane sums the same slots in the same order.
            std::size_t rows = 0;
            bool uniform = true;
            for (std::size_t l = 0; l < L; ++l) {
                rows = std::max(rows, order[l].size());
                if (l > 0 && b * L + l < wn) uniform &= order[l] == order[0];
            }
            fb.sum_uniform[b] = uniform;
            if (uniform) {
                fb.sum_slot.insert(fb.sum_slot.end(), order[0].begin(), order[0].end());
            } else {
                for (std::size_t j = 0; j < rows; ++j)
                    for (std::size_t l = 0; l < L; ++l) fb.sum_slot.push_back(j < order[l].size() ? order[l][j] : kNone);
            }
            if (fb.sum_slot.size() > 0xFFFFFFFFull)
                throw Error(kExitBadInput, "mesh has too many edges for the measures' layout (edge slots must fit 32 bits)");
            fb.sum_start[b + 1] = static_cast<std::uint32_t>(fb.sum_slot.size());
        }
        if (fb.slot_start[b] + slots > 0xFFFFFFFFull - batches)
            throw Error(kExitBadInput, "mesh has too many triangles for the measures' layout (slots must fit 32 bits)");
        fb.slot_start[b + 1] = static_cast<std::uint32_t>(fb.slot_start[b] + slots);
        if (runs) put_group(&fb.self[b * L]);
        for (std::size_t s = 0; s <= slots; ++s) {
            for (std::size_t l = 0; l < L; ++l) {
                group[l] = s < seq[l].size() ? seq[l][s] : fb.self[b * L + l];
                fb.reads_last[b] |= group[l] == last;
            }
            put_group(group.data());
        }
        if (runs) {
            if (fb.corner.size() > 0xFFFFFFFFull)
                throw Error(kExitBadInput, "mesh has too many triangles for the measures' layout (groups must fit 32 bits)");
            fb.group_start[b + 1] = static_cast<std::uint32_t>(fb.corner.size());
        }
        for (std::size_t s = 0; s < slots; ++s)
            for (std::size_t l = 0; l < L; ++l) fb.entry.push_back(s < ent[l].size() ? ent[l][s] : kNone);
        for (std::size_t l = 0; l < L; ++l) fb.reads_last[b] |= fb.self[b * L + l] == last;
    }
    return fb;
}

}  // namespace rigscope
