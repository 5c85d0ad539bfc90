// The triangle BVH of `intersect` (core/triangle_bvh.h).
#include "rigscope/core/triangle_bvh.h"

#include <algorithm>
#include <limits>
#include <memory>

#include "rigscope/core/huge_pages.h"
#include "rigscope/core/parallel.h"

namespace rigscope {

namespace {

BvhBox empty_box() {
    const float inf = std::numeric_limits<float>::infinity();
    return BvhBox{{inf, inf, inf}, {-inf, -inf, -inf}};
}

void grow(BvhBox& b, const BvhBox& o) {
    for (int k = 0; k < 3; ++k) {
        b.lo[k] = std::min(b.lo[k], o.lo[k]);
        b.hi[k] = std::max(b.hi[k], o.hi[k]);
    }
}

}  // namespace

namespace {

// Spreads the low 21 bits of v to every third bit of 63.
std::uint64_t spread(std::uint64_t v) {
    v &= 0x1fffff;
    v = (v | v << 32) & 0x1f00000000ffffULL;
    v = (v | v << 16) & 0x1f0000ff0000ffULL;
    v = (v | v << 8) & 0x100f00f00f00f00fULL;
    v = (v | v << 4) & 0x10c30c30c30c30c3ULL;
    v = (v | v << 2) & 0x1249249249249249ULL;
    return v;
}

struct Keyed {
    std::uint64_t code;
    std::uint32_t index;
};


// Triangles per task of the build's sweeps: fixed, so the blocks never depend on the threads.
constexpr std::size_t kBuildBlock = std::size_t(1) << 16;

std::size_t build_blocks(std::size_t n) { return (n + kBuildBlock - 1) / kBuildBlock; }

// Sorts by code, keeping the given order among equal codes: a least-significant-digit radix sort
// over 11-bit digits (six passes cover the 63-bit codes), a pass skipped where every element has
// the same digit: linear in the triangles where std::sort of the pairs was n log n. Each pass
// counts digits per block of elements, then places each block's elements from its own offsets
// (digit by digit, and within a digit block by block: the given order kept), blocks spread over
// `pool`: the build would otherwise run on one thread while the others wait.
void radix_sort(std::unique_ptr<Keyed[]>& v, std::size_t n, ThreadPool* pool) {
    constexpr int kBits = 11, kPasses = 6;
    constexpr std::size_t kBuckets = std::size_t(1) << kBits;
    const std::size_t blocks = build_blocks(n);
    std::vector<std::uint32_t> count(blocks * kBuckets);
    std::unique_ptr<Keyed[]> tmp = detail::huge_scratch<Keyed>(n);
    for (int pass = 0; pass < kPasses; ++pass) {
        const int shift = pass * kBits;
        run_tasks(pool, blocks, [&](std::size_t b) {
            std::uint32_t* c = &count[b * kBuckets];
            std::fill(c, c + kBuckets, 0u);
            for (std::size_t i = b * kBuildBlock, end = std::min(n, i + kBuildBlock); i < end; ++i) ++c[v[i].code >> shift & (kBuckets - 1)];
        });
        std::uint32_t sum = 0;
        bool one_digit = false;
        for (std::size_t d = 0; d < kBuckets; ++d) {
            const std::uint32_t first = sum;
            for (std::size_t b = 0; b < blocks; ++b) {
                const std::uint32_t k = count[b * kBuckets + d];
                count[b * kBuckets + d] = sum;
                sum += k;
            }
            one_digit = one_digit || sum - first == n;
        }
        if (one_digit) continue;
        run_tasks(pool, blocks, [&](std::size_t b) {
            std::uint32_t* c = &count[b * kBuckets];
            for (std::size_t i = b * kBuildBlock, end = std::min(n, i + kBuildBlock); i < end; ++i) tmp[c[v[i].code >> shift & (kBuckets - 1)]++] = v[i];
        });
        v.swap(tmp);
    }
}

// The tree over triangles sorted along a Morton curve of their box centres: a node's range is
// split where the codes' highest differing bit changes (the middle when all codes are equal),
// so a node is a cell of the curve's octree. One sort instead of a partition per level.
struct Builder {
    std::vector<TriangleBvh::Node>& nodes;
    const Keyed* keyed;  // sorted by code

    std::uint32_t build(std::uint32_t begin, std::uint32_t end) {
        const std::uint32_t index = static_cast<std::uint32_t>(nodes.size());
        nodes.emplace_back();
        if (end - begin <= TriangleBvh::kLeafSize) {
            nodes[index].first = begin;
            nodes[index].count = end - begin;
            return index;
        }
        std::uint32_t mid = begin + (end - begin) / 2;
        const std::uint64_t diff = keyed[begin].code ^ keyed[end - 1].code;
        if (diff != 0) {
            int bit = 63;
            while (!(diff >> bit & 1)) --bit;
            // The first code with that bit set (codes in the range agree above it).
            mid = static_cast<std::uint32_t>(
                std::partition_point(keyed + begin, keyed + end, [bit](const Keyed& k) { return !(k.code >> bit & 1); }) - keyed);
        }
        build(begin, mid);
        const std::uint32_t right = build(mid, end);
        nodes[index].first = right;
        nodes[index].count = 0;
        return index;
    }
};

}  // namespace

void TriangleBvh::build(const std::vector<std::uint32_t>& corners, const std::vector<Eigen::Vector3f>& x, ThreadPool* pool) {
    nodes_.clear();
    order_.clear();
    leaves_.clear();
    lanes_.reset();
    lane_size_ = 0;
    const std::size_t n = corners.size() / 3, blocks = build_blocks(n);
    if (n == 0) return;
    // Triangle i's box centre doubled (lo + hi, each a min or max of its corners, in float): the
    // origin for a triangle with a corner that is not finite. Computed where it is used, twice,
    // rather than kept: reading the corners again costs less than an array of boxes.
    auto centre = [&](std::size_t i, float c[3]) {
        const Eigen::Vector3f &a = x[corners[3 * i]], &b = x[corners[3 * i + 1]], &d = x[corners[3 * i + 2]];
        const bool finite = a.allFinite() && b.allFinite() && d.allFinite();
        for (int k = 0; k < 3; ++k)
            c[k] = finite ? std::min(std::min(a[k], b[k]), d[k]) + std::max(std::max(a[k], b[k]), d[k]) : 0.f;
    };
    // The centres quantised over their bounds to 21 bits an axis. Bounds per block, then over the
    // blocks: a min and max are the same in any order.
    std::vector<BvhBox> bounds(blocks, empty_box());
    run_tasks(pool, blocks, [&](std::size_t blk) {
        BvhBox& c = bounds[blk];
        for (std::size_t i = blk * kBuildBlock, end = std::min(n, i + kBuildBlock); i < end; ++i) {
            float m[3];
            centre(i, m);
            for (int k = 0; k < 3; ++k) {
                c.lo[k] = std::min(c.lo[k], m[k]);
                c.hi[k] = std::max(c.hi[k], m[k]);
            }
        }
    });
    BvhBox all = empty_box();
    for (const BvhBox& c : bounds) grow(all, c);
    const float* lo = all.lo;
    const float* hi = all.hi;
    std::unique_ptr<Keyed[]> keyed = detail::huge_scratch<Keyed>(n);
    run_tasks(pool, blocks, [&](std::size_t blk) {
        for (std::size_t i = blk * kBuildBlock, end = std::min(n, i + kBuildBlock); i < end; ++i) {
            float m[3];
            centre(i, m);
            std::uint64_t code = 0;
            for (int k = 0; k < 3; ++k) {
                const double span = double(hi[k]) - lo[k];
                const double q = span > 0 ? (double(m[k]) - lo[k]) / span : 0.0;
                code |= spread(static_cast<std::uint64_t>(std::min(q, 1.0) * 2097151.0)) << k;
            }
            keyed[i] = {code, static_cast<std::uint32_t>(i)};
        }
    });
    // Ties by triangle index: the radix sort is stable over the index order.
    radix_sort(keyed, n, pool);
    order_.resize(n);
    run_tasks(pool, blocks, [&](std::size_t blk) {
        for (std::size_t i = blk * kBuildBlock, end = std::min(n, i + kBuildBlock); i < end; ++i) order_[i] = keyed[i].index;
    });
    detail::reserve_huge(nodes_, 2 * (n / kLeafSize + 1));
    Builder{nodes_, keyed.get()}.build(0, static_cast<std::uint32_t>(n));
    for (std::size_t i = 0; i < nodes_.size(); ++i)
        if (nodes_[i].leaf()) leaves_.push_back(static_cast<std::uint32_t>(i));
    // Every box empty (Node's box starts as zeros); the lanes' padding stays so for good, and
    // their triangles' entries are the first refit's to write (not filled here: 12.6 MB on the
    // bench tube, on the calling thread).
    const BvhBox none = empty_box();
    for (Node& node : nodes_) node.box = none;
    lane_size_ = n + kLeafSize;
    lanes_ = detail::huge_scratch<float>(6 * lane_size_);
    for (int k = 0; k < 3; ++k) {
        std::fill(lanes(k) + n, lanes(k) + lane_size_, none.lo[k]);
        std::fill(lanes(3 + k) + n, lanes(3 + k) + lane_size_, none.hi[k]);
    }
}

std::vector<std::uint32_t> TriangleBvh::take_order() { return std::move(order_); }

void TriangleBvh::refit_range(std::size_t begin, std::size_t end, std::uint8_t* and_flags) {
    // Children follow their parent: one backward sweep sees every child before its parent.
    for (std::size_t n = end; n-- > begin;) {
        Node& node = nodes_[n];
        if (node.leaf()) continue;
        BvhBox b = nodes_[n + 1].box;
        grow(b, nodes_[node.first].box);
        node.box = b;
        if (and_flags) and_flags[n] = and_flags[n + 1] & and_flags[node.first];
    }
}

void TriangleBvh::refit_inner(ThreadPool* pool, std::uint8_t* and_flags) {
    if (nodes_.empty()) return;
    // The subtrees a few levels down, each a contiguous run of nodes (a node, its left subtree,
    // its right subtree), refitted side by side; then the nodes above them. A box is a min and max
    // of the same boxes whatever the order, so the threads change nothing.
    struct Range {
        std::size_t begin, end;
    };
    std::vector<Range> ranges;
    std::vector<std::size_t> top;  // the nodes above the ranges, parents before children
    std::vector<std::pair<Range, int>> stack{{{0, nodes_.size()}, 0}};
    while (!stack.empty()) {
        const auto [r, depth] = stack.back();
        stack.pop_back();
        const Node& node = nodes_[r.begin];
        if (node.leaf() || depth == kRefitDepth) {
            ranges.push_back(r);
            continue;
        }
        top.push_back(r.begin);
        stack.push_back({{node.first, r.end}, depth + 1});
        stack.push_back({{r.begin + 1, node.first}, depth + 1});
    }
    run_tasks(pool, ranges.size(), [&](std::size_t i) { refit_range(ranges[i].begin, ranges[i].end, and_flags); });
    std::sort(top.begin(), top.end());
    for (std::size_t k = top.size(); k-- > 0;) refit_range(top[k], top[k] + 1, and_flags);
}

}  // namespace rigscope
