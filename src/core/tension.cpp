#include "rigscope/core/tension.h"

#include <algorithm>
#include <cmath>

#include "rigscope/core/huge_pages.h"
#include "rigscope/core/parallel.h"
#include "rigscope/core/simd.h"
#include "simd_points.h"
#include "edge_lanes.h"
#include "tension_avx2.h"

namespace rigscope {

namespace {

constexpr std::size_t L = EdgeBatches::kLanes;
constexpr std::size_t kMaxLanes = 16;  // what edge_batches builds at most

}  // namespace

static_assert(detail::EdgeBatchView::kRun == EdgeBatches::kRun && detail::EdgeBatchView::kPair == EdgeBatches::kPair);
[[maybe_unused]] static detail::EdgeBatchView view(const EdgeBatches& eb) {
    return {eb.start.data(), eb.index.data(), eb.degree.data(), eb.uniform_degree.data(), eb.reads_last.data(), eb.welded};
}

#if defined(RIGSCOPE_SSE_KERNELS)
namespace detail {
namespace {

// The SSE lane type of edge_lanes.h's loop.
struct V4 {
    using R = __m128;
    static constexpr std::size_t N = EdgeBatches::kLanes;
    static R loadu(const float* p) { return _mm_loadu_ps(p); }
    static R set1(float x) { return _mm_set1_ps(x); }
    static R sqrt(R a) { return _mm_sqrt_ps(a); }
    static constexpr bool kPairs = false;  // kPair entries read as plain runs

    // Four consecutive vertices: three 16-byte loads over their 48 bytes, no index per lane.
    static void run(const float* p, R& x, R& y, R& z) {
        const R r0 = _mm_loadu_ps(p);      // x0 y0 z0 x1
        const R r1 = _mm_loadu_ps(p + 4);  // y1 z1 x2 y2
        const R r2 = _mm_loadu_ps(p + 8);  // z2 x3 y3 z3
        const R t = _mm_shuffle_ps(r1, r2, _MM_SHUFFLE(1, 0, 3, 2));  // x2 y2 z2 x3
        const R u = _mm_shuffle_ps(r0, r1, _MM_SHUFFLE(1, 0, 2, 1));  // y0 z0 y1 z1
        const R v = _mm_shuffle_ps(t, r2, _MM_SHUFFLE(3, 2, 2, 1));   // y2 z2 y3 z3
        x = _mm_shuffle_ps(r0, t, _MM_SHUFFLE(3, 0, 3, 0));
        y = _mm_shuffle_ps(u, v, _MM_SHUFFLE(2, 0, 2, 0));
        z = _mm_shuffle_ps(u, v, _MM_SHUFFLE(3, 1, 3, 1));
    }
    template <bool Wide>
    static void points(const float* P, const std::uint32_t* i, R& x, R& y, R& z) {
        load_points<Wide>(P, i, x, y, z);
    }

    static void storeu(float* p, R v) { _mm_storeu_ps(p, v); }
    static void store_lanes(R v, float* out, std::size_t lanes) { store_lanes_copied<V4>(v, out, lanes); }
    static R load_lanes(const float* in, std::size_t lanes) { return load_lanes_copied<V4>(in, lanes); }

    static R tension(R r, R d, std::size_t lanes, std::size_t& degenerate) {
        const R zero = _mm_setzero_ps(), v = _mm_div_ps(r, d);
        // r > 0, d > 0 and v finite (v - v is 0 only for a finite v).
        const R ok = _mm_and_ps(_mm_and_ps(_mm_cmpgt_ps(r, zero), _mm_cmpgt_ps(d, zero)), _mm_cmpeq_ps(_mm_sub_ps(v, v), zero));
        // Bits set per 4-bit mask: the baseline x86-64 target has no popcnt instruction.
        static constexpr unsigned char kBits[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
        degenerate += kBits[~_mm_movemask_ps(ok) & ((1 << lanes) - 1)];
        return _mm_or_ps(_mm_and_ps(ok, v), _mm_andnot_ps(ok, _mm_set1_ps(1.0f)));
    }
};

}  // namespace
}  // namespace detail
#endif

std::size_t edge_lanes_default() {
    return avx512_default() ? EdgeBatches::kWidestLanes : avx2_default() ? EdgeBatches::kWideLanes : EdgeBatches::kLanes;
}

EdgeBatches edge_batches(const Topology& topo, std::size_t lanes, ThreadPool* pool) {
    EdgeBatches eb;
    const std::size_t wn = topo.welded_count();
    eb.lanes = lanes = std::clamp<std::size_t>(lanes, 1, kMaxLanes);
    eb.welded = wn;
    if (wn == 0) return eb;
    const std::size_t batches = (wn + lanes - 1) / lanes;
    const std::uint32_t last = static_cast<std::uint32_t>(topo.welded_of.size() - 1);
    eb.degree.assign(batches * lanes, 1.0f);
    eb.reads_last.assign(batches, 0);
    eb.uniform_degree.assign(batches, 0);
    // Runs only while a vertex index cannot reach the flag bits.
    const bool runs = topo.welded_of.size() < EdgeBatches::kPair;
    // Emits batch b's groups to `put` (a group: `lanes` vertices, or one entry for a run of as
    // many consecutive ones); called once to size the index, once to fill it.
    auto emit = [&](std::size_t b, auto&& put) {
        std::uint32_t self[kMaxLanes], first[kMaxLanes], count[kMaxLanes] = {};
        std::uint32_t slots = 0;
        for (std::size_t l = 0; l < lanes; ++l) {
            // Lanes past the end repeat the last vertex; their results are never stored.
            const std::size_t w = std::min(b * lanes + l, wn - 1);
            const bool real = b * lanes + l < wn;
            self[l] = topo.representative[w];
            first[l] = topo.neighbour_offsets[w];
            count[l] = real ? topo.neighbour_offsets[w + 1] - first[l] : 0;
            slots = std::max(slots, count[l]);
        }
        auto is_run = [&](const std::uint32_t* g) {
            bool run = runs;
            for (std::size_t l = 1; l < lanes && run; ++l) run = g[l] == g[0] + l;
            return run;
        };
        auto group = [&](const std::uint32_t* g, bool run) {
            if (run) {
                put(g[0] | EdgeBatches::kRun, false);
            } else {
                for (std::size_t l = 0; l < lanes; ++l) put(g[l], g[l] == last);
            }
        };
        auto slot = [&](std::uint32_t s, std::uint32_t* g) {
            for (std::size_t l = 0; l < lanes; ++l)
                g[l] = s < count[l] ? topo.representative[topo.neighbours[first[l] + s]] : self[l];
        };
        const bool self_run = is_run(self);
        group(self, self_run);
        for (std::uint32_t s = 0; s < slots; ++s) {
            std::uint32_t g[kMaxLanes], h[kMaxLanes];
            slot(s, g);
            const bool run = is_run(g);
            // A run from self - 1 then one from self + 1: one entry flagged kPair, then the other.
            if (run && self_run && self[0] > 0 && g[0] == self[0] - 1 && s + 1 < slots) {
                slot(s + 1, h);
                if (is_run(h) && h[0] == self[0] + 1) {
                    put(g[0] | EdgeBatches::kRun | EdgeBatches::kPair, false);
                    put(h[0] | EdgeBatches::kRun, false);
                    ++s;
                    continue;
                }
            }
            group(g, run);
        }
        bool uniform = count[0] > 0 && count[0] <= 255;
        for (std::size_t l = 0; l < lanes; ++l) {
            if (count[l]) eb.degree[b * lanes + l] = static_cast<float>(count[l]);
            uniform = uniform && count[l] == count[0];  // a partial last batch's lanes past the end have 0
        }
        if (uniform) eb.uniform_degree[b] = static_cast<std::uint8_t>(count[0]);
    };
    // Each chunk of batches makes its entries once, into an array of its own, with each batch's
    // count; after a prefix over the counts, the chunks are copied to their offsets. A batch
    // reads the topology and writes its own entries only, so the chunks are made on the pool's
    // threads (a chunk's size is fixed, not the thread count's: the same layout for any count).
    // Counting the entries in a pass of their own had cost as much as making them (the same
    // gathers from the neighbour lists).
    constexpr std::size_t kChunk = 2048;
    const std::size_t chunks = (batches + kChunk - 1) / kChunk;
    eb.start.assign(batches + 1, 0);
    // Reserved here, on the calling thread: its heap holds memory freed by the load and the
    // topology (huge_pages.h keep_freed_memory), where a worker's own arena would fault in fresh
    // pages. Four groups of `lanes` entries a batch (the tube needs one or two), grown past that
    // if need be.
    std::vector<std::vector<std::uint32_t>> made(chunks);
    for (std::size_t c = 0; c < chunks; ++c) made[c].reserve((std::min(batches, (c + 1) * kChunk) - c * kChunk) * lanes * 4);
    run_tasks(pool, chunks, [&](std::size_t c) {
        std::vector<std::uint32_t>& out = made[c];
        const std::size_t b0 = c * kChunk, b1 = std::min(batches, b0 + kChunk);
        for (std::size_t b = b0; b < b1; ++b) {
            const std::size_t before = out.size();
            emit(b, [&](std::uint32_t v, bool reads_last) {
                out.push_back(v);
                if (reads_last) eb.reads_last[b] = 1;
            });
            eb.start[b + 1] = static_cast<std::uint32_t>(out.size() - before);
        }
    });
    for (std::size_t b = 0; b < batches; ++b) eb.start[b + 1] += eb.start[b];
    detail::reserve_huge(eb.index, eb.start[batches]);
    eb.index.resize(eb.start[batches]);
    run_tasks(pool, chunks, [&](std::size_t c) {
        std::copy(made[c].begin(), made[c].end(), eb.index.begin() + eb.start[c * kChunk]);
        std::vector<std::uint32_t>().swap(made[c]);
    });
    return eb;
}

// The loop for the layout's lanes: AVX-512 (16), AVX2 (8), SSE (4), else the scalar one.
void mean_edge_lengths(const EdgeBatches& eb, const Eigen::Vector3f* positions, std::size_t begin, std::size_t end,
                       float* out) {
#if defined(RIGSCOPE_AVX2_KERNEL)
    if (eb.lanes == EdgeBatches::kWidestLanes && avx512_supported())
        return detail::mean_edge_lengths_avx512(view(eb), positions->data(), begin, end, out);
    if (eb.lanes == EdgeBatches::kWideLanes && avx2_supported())
        return detail::mean_edge_lengths_avx2(view(eb), positions->data(), begin, end, out);
#endif
#if defined(RIGSCOPE_SSE_KERNELS)
    if (eb.lanes == L) return detail::mean_edge_lengths_lanes<detail::V4>(view(eb), positions->data(), begin, end, out);
#endif
    mean_edge_lengths_scalar(eb, positions, begin, end, out);
}

std::size_t tension_block(const EdgeBatches& eb, const Eigen::Vector3f* positions, const float* rest, std::size_t begin,
                          std::size_t end, float* lengths, float* t) {
#if defined(RIGSCOPE_AVX2_KERNEL)
    if (eb.lanes == EdgeBatches::kWidestLanes && avx512_supported())
        return detail::tension_block_avx512(view(eb), positions->data(), rest, begin, end, lengths, t);
    if (eb.lanes == EdgeBatches::kWideLanes && avx2_supported())
        return detail::tension_block_avx2(view(eb), positions->data(), rest, begin, end, lengths, t);
#endif
#if defined(RIGSCOPE_SSE_KERNELS)
    if (eb.lanes == L) return detail::tension_block_lanes<detail::V4>(view(eb), positions->data(), rest, begin, end, lengths, t);
#endif
    return tension_block_scalar(eb, positions, rest, begin, end, lengths, t);
}

// The portable path, for any lane count: the SIMD kernels' operations lane by lane, in the
// same order (the same bits; tests compare them). What a build without them runs.
void mean_edge_lengths_scalar(const EdgeBatches& eb, const Eigen::Vector3f* positions, std::size_t begin, std::size_t end,
                              float* out) {
    const std::size_t n = eb.lanes;
    for (std::size_t b = begin; b < end; ++b) {
        const std::uint32_t* idx = eb.index.data() + eb.start[b];
        const std::uint32_t* stop = eb.index.data() + eb.start[b + 1];
        auto group = [&](std::uint32_t* g) {  // decodes one group into its lanes' vertices
            if (idx[0] & EdgeBatches::kRun) {
                for (std::size_t l = 0; l < n; ++l) g[l] = (idx[0] & ~EdgeBatches::kFlags) + static_cast<std::uint32_t>(l);
                ++idx;
            } else {
                std::copy_n(idx, n, g);
                idx += n;
            }
        };
        std::uint32_t self[kMaxLanes], g[kMaxLanes];
        float sum[kMaxLanes] = {};
        group(self);
        while (idx < stop) {
            group(g);
            for (std::size_t l = 0; l < n; ++l) {
                const Eigen::Vector3f& p = positions[self[l]];
                const Eigen::Vector3f& q = positions[g[l]];
                const float dx = q.x() - p.x(), dy = q.y() - p.y(), dz = q.z() - p.z();
                sum[l] += std::sqrt(dx * dx + dy * dy + dz * dz);
            }
        }
        const std::size_t lanes = std::min(n, eb.welded - b * n);
        const std::uint8_t u = eb.uniform_degree[b];
        for (std::size_t l = 0; l < lanes; ++l) out[b * n + l] = sum[l] / (u ? static_cast<float>(u) : eb.degree[b * n + l]);
    }
}

std::size_t tension_block_scalar(const EdgeBatches& eb, const Eigen::Vector3f* positions, const float* rest,
                                 std::size_t begin, std::size_t end, float* lengths, float* t) {
    // Without a lengths buffer, t holds the lengths until each is replaced by its T.
    float* d_out = lengths ? lengths : t;
    mean_edge_lengths_scalar(eb, positions, begin, end, d_out);
    const std::size_t w0 = begin * eb.lanes, w1 = std::min(eb.welded, end * eb.lanes);
    std::size_t degenerate = 0;
    for (std::size_t w = w0; w < w1; ++w) {
        const float r = rest[w], d = d_out[w], v = r / d;
        const bool ok = r > 0 && d > 0 && std::isfinite(v);
        t[w] = ok ? v : 1.0f;
        degenerate += !ok;
    }
    return degenerate;
}

void mean_edge_lengths(const Topology& topo, const std::vector<Eigen::Vector3f>& positions, std::vector<float>& out) {
    const EdgeBatches eb = edge_batches(topo);
    out.assign(topo.welded_count(), 0.0f);
    mean_edge_lengths(eb, positions.data(), 0, eb.batch_count(), out.data());
}

std::size_t tension_values(const std::vector<float>& rest, const std::vector<float>& deformed, std::vector<float>& t) {
    t.resize(rest.size());
    std::size_t degenerate = 0;
    for (std::size_t i = 0; i < rest.size(); ++i) {
        const float r = rest[i], d = deformed[i];
        const float v = r / d;
        if (r > 0 && d > 0 && std::isfinite(v)) {
            t[i] = v;
        } else {
            t[i] = 1.0f;
            ++degenerate;
        }
    }
    return degenerate;
}

double smooth_min(double a, double b, double k) {
    if (k <= 0) return std::min(a, b);
    const double h = std::max(k - std::abs(a - b), 0.0) / k;
    return std::min(a, b) - h * h * h * k * (1.0 / 6.0);
}

double smooth_max(double a, double b, double k) { return -smooth_min(-a, -b, k); }

TensionRange tension_range(const TensionParams& p) {
    TensionRange r;
    r.t_s = smooth_min(p.stretch_area, 1.0, p.smooth_k);
    r.t_c = smooth_max(1.0 / std::max(p.compress_area, 0.001), 1.0, p.smooth_k);
    return r;
}

}  // namespace rigscope
