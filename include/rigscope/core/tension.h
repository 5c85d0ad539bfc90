// The tension map (methods.md section 1): T per welded vertex, the ratio of mean connected edge
// length at rest to the same when deformed, and the node group's remap of T into compress and
// stretch maps in [0, 1].
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "rigscope/core/topology.h"

namespace rigscope {

class ThreadPool;

// Mean connected edge length per welded vertex; positions are per file vertex and each welded
// vertex reads its representative's. A vertex without edges gets 0. Lengths are summed in float
// in the order of the vertex's neighbour list, the same in every path below.
void mean_edge_lengths(const Topology& topo, const std::vector<Eigen::Vector3f>& positions, std::vector<float>& out);

// The neighbour lists of a Topology regrouped for the per-frame loop: welded vertices in batches
// of `lanes` evaluated side by side in SIMD registers. A batch holds a group of its lanes' file
// vertices (representatives), then a group per neighbour slot, one neighbour per lane; a lane
// with fewer neighbours repeats itself, a zero length that leaves its sum exactly as it is. A
// group is `lanes` file vertices, or, when they are consecutive (v, v+1, ...: common in meshes
// stored in strips or grids), one entry v | kRun, loaded as one contiguous block (v | kRun | kPair:
// below).
// Each lane's sum runs over its own neighbours in its own order whatever the lane count, so
// every layout gives the same bits: 4 lanes for the SSE loop, 8 for the AVX2 one.
struct EdgeBatches {
    static constexpr std::size_t kLanes = 4;      // the SSE loop's
    static constexpr std::size_t kWideLanes = 8;     // the AVX2 loop's
    static constexpr std::size_t kWidestLanes = 16;  // the AVX-512 loop's
    static constexpr std::uint32_t kRun = 0x80000000u;
    // On a run of slot s, with the selves a run from a: slot s holds a - 1, a, ... and slot s + 1
    // (the next entry, a run) a + 1, a + 2, ...: lane l's edge to its lower neighbour is lane
    // l - 1's edge to its upper one. A kernel may take one root for both (lane 0's edge to a - 1
    // apart): the ascending lists of a mesh stored in strips or grids put the two side by side.
    // Reading the entry as a plain run gives the same bits (the two differences are negatives).
    static constexpr std::uint32_t kPair = 0x40000000u;
    static constexpr std::uint32_t kFlags = kRun | kPair;
    std::size_t lanes = kLanes;         // welded vertices per batch
    std::size_t welded = 0;             // welded vertices; the last batch may be partial
    std::vector<std::uint32_t> start;   // per batch, plus one: offset of its entries in `index`
    std::vector<std::uint32_t> index;   // groups: the selves, then one per slot
    std::vector<float> degree;          // per lane (batches x lanes): edge count, 1 where none
    // Per batch: the degree all its lanes share (every lane of a grid's or a closed surface's
    // regular part), 0 where they differ or it exceeds 255. The loops then read this byte, not
    // the batch's lanes of `degree`: a 4M-vertex frame's per-lane degrees were 16 MB read from
    // memory (4 bytes a vertex of about 30); float(d) is the stored float, the same bits.
    std::vector<std::uint8_t> uniform_degree;
    // Per batch: whether it reads the mesh's last file vertex. The SIMD loads read 16 bytes for
    // a 12-byte position, so those batches load lane by lane (same arithmetic).
    std::vector<std::uint8_t> reads_last;

    std::size_t batch_count() const { return start.empty() ? 0 : start.size() - 1; }
};

// The lane count the frame loop runs fastest with here: kWideLanes where the AVX2 kernel is
// chosen (avx2_default()), else kLanes.
std::size_t edge_lanes_default();
// pool: batches built on its threads, the same layout for any thread count.
EdgeBatches edge_batches(const Topology& topo, std::size_t lanes = edge_lanes_default(), ThreadPool* pool = nullptr);

// Mean edge lengths of the welded vertices of batches [begin, end) into out (per welded vertex).
void mean_edge_lengths(const EdgeBatches& eb, const Eigen::Vector3f* positions, std::size_t begin, std::size_t end,
                       float* out);
// The same, then T = rest / length by tension_values' rule, in one pass over batches [begin,
// end). Returns how many of their vertices fell back to T = 1. lengths may be null: the mean
// lengths are then not kept (a per-frame store nobody reads).
std::size_t tension_block(const EdgeBatches& eb, const Eigen::Vector3f* positions, const float* rest, std::size_t begin,
                          std::size_t end, float* lengths, float* t);
// Both choose their loop by the layout's lanes: AVX2 for kWideLanes (where built and the CPU has
// it), SSE for kLanes, else the scalar loops below.
// The two above as scalar loops, for any lane count: what runs where the SIMD kernels are not
// built (non-x86, or RIGSCOPE_SIMD=OFF); the same bits (tests compare them).
void mean_edge_lengths_scalar(const EdgeBatches& eb, const Eigen::Vector3f* positions, std::size_t begin, std::size_t end,
                              float* out);
std::size_t tension_block_scalar(const EdgeBatches& eb, const Eigen::Vector3f* positions, const float* rest,
                                 std::size_t begin, std::size_t end, float* lengths, float* t);

// The lowest and highest of values[begin, end) and the first index holding each (values has no
// NaN; an empty range gives the rest's 1 at index 0).
struct ValueExtremes {
    float min = 1, max = 1;
    std::uint32_t min_at = 0, max_at = 0;
};
ValueExtremes value_extremes(const float* values, std::size_t begin, std::size_t end);
// The extremes of two disjoint ranges as one: the lower min, on a tie the lower index (the first
// holding it), and the higher max likewise; in any order of folding, one pass's answer.
ValueExtremes fold_extremes(const ValueExtremes& a, const ValueExtremes& b);
// fold_extremes(a, value_extremes(values, begin, end)), the same bits, without looking for the
// index of a side where the range cannot win.
ValueExtremes fold_value_extremes(const ValueExtremes& a, const float* values, std::size_t begin, std::size_t end);

// T = rest / deformed per welded vertex. Where either length is 0 (isolated vertex, collapsed
// edges) T is 1 and the vertex is counted in the return value: never NaN or infinity.
std::size_t tension_values(const std::vector<float>& rest_lengths, const std::vector<float>& deformed_lengths,
                           std::vector<float>& t);

// The node group's inputs, under its own names.
struct TensionParams {
    double falloff = 1.0;
    double stretch_area = 0.75;
    double compress_area = 0.6;
    double weight_limit = 1.0;
    double smooth_k = 0.1;  // smoothing distance of the smooth min / max
};

// T at which each map reaches full strength.
struct TensionRange {
    double t_s = 0.75;  // stretch is full at T <= t_s
    double t_c = 1.0 / 0.6;  // compress is full at T >= t_c
};

// Blender's Math node: polynomial smooth minimum / maximum with smoothing distance k (k = 0 is
// the plain min / max).
double smooth_min(double a, double b, double k);
double smooth_max(double a, double b, double k);

TensionRange tension_range(const TensionParams& p);

// The remap of one run with its constants worked out once, inline: a loop that fills a map per
// vertex (the writers, the Python module's arrays) then needs no call per value and vectorises.
// The arithmetic is the node group's, in double, so every caller gets the same bits.
class TensionRemap {
public:
    TensionRemap(const TensionRange& r, const TensionParams& p)
        : stretch_ramp_(1.0 - r.t_s > 1e-12), compress_ramp_(r.t_c - 1.0 > 1e-12),
          stretch_scale_(stretch_ramp_ ? 1.0 / (1.0 - r.t_s) : 0.0), compress_scale_(compress_ramp_ ? 1.0 / (r.t_c - 1.0) : 0.0),
          power_(p.falloff > 0 ? 1.0 / p.falloff : 0.0), plain_(p.falloff == 1.0), step_(!(p.falloff > 0)),
          weight_limit_(p.weight_limit) {}

    // With t_s at 1 the ramp has no width: any stretch at all is full stretch. The ramp multiplies
    // by the reciprocal of its width: a division per value was most of a whole run's remap time.
    float stretch(float t) const { return shape(stretch_ramp_ ? (1.0 - t) * stretch_scale_ : (t < 1.0f ? 1.0 : 0.0)); }
    float compress(float t) const { return shape(compress_ramp_ ? (t - 1.0) * compress_scale_ : (t > 1.0f ? 1.0 : 0.0)); }

    // n values at once, value by value the same arithmetic as above: what depends on the run only
    // is decided once per call, so that the loop vectorises.
    void stretch(const float* t, std::size_t n, float* out) const {
        if (stretch_ramp_) shape_n(t, n, out, [s = stretch_scale_](float x) { return (1.0 - x) * s; });
        else shape_n(t, n, out, [](float x) { return x < 1.0f ? 1.0 : 0.0; });
    }
    void compress(const float* t, std::size_t n, float* out) const {
        if (compress_ramp_) shape_n(t, n, out, [s = compress_scale_](float x) { return (x - 1.0) * s; });
        else shape_n(t, n, out, [](float x) { return x > 1.0f ? 1.0 : 0.0; });
    }

private:
    // std::clamp's result (a NaN stays NaN) in the form compilers turn into min and max
    // instructions; std::clamp itself kept the loop scalar and branching.
    static double clamp01(double r) {
        r = r < 0.0 ? 0.0 : r;
        return 1.0 < r ? 1.0 : r;
    }
    float shape(double ramp) const;
    template <typename Ramp>
    void shape_n(const float* t, std::size_t n, float* out, Ramp ramp) const {
        if (kVectorLoop && plain_)
            for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<float>(weight_limit_ * clamp01(ramp(t[i])));
        else
            for (std::size_t i = 0; i < n; ++i) out[i] = shape(ramp(t[i]));
    }

    // RIGSCOPE_SIMD=OFF: no loop written to vectorise, shape() per value (the same bits).
#if defined(RIGSCOPE_NO_SIMD)
    static constexpr bool kVectorLoop = false;
#else
    static constexpr bool kVectorLoop = true;
#endif
    bool stretch_ramp_, compress_ramp_;
    double stretch_scale_, compress_scale_;
    double power_;
    bool plain_, step_;
    double weight_limit_;
};

inline float TensionRemap::shape(double ramp) const {
    ramp = clamp01(ramp);
    // falloff <= 0 would divide by zero; the CLI refuses it, the core treats it as a hard step.
    // pow(x, 1) is x exactly: the default falloff skips the call.
    const double v = plain_ ? ramp : step_ ? (ramp > 0 ? 1.0 : 0.0) : std::pow(ramp, power_);
    return static_cast<float>(weight_limit_ * v);
}

// stretch and compress for one T value; both in [0, weight_limit].
inline float stretch_of(float t, const TensionRange& r, const TensionParams& p) { return TensionRemap(r, p).stretch(t); }
inline float compress_of(float t, const TensionRange& r, const TensionParams& p) { return TensionRemap(r, p).compress(t); }

}  // namespace rigscope
