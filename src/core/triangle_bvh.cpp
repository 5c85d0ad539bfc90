// The triangle BVH of `intersect` (core/triangle_bvh.h).
#include "rigscope/core/triangle_bvh.h"

#include <algorithm>
#include <limits>
#include <numeric>

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

// Sorts by code, keeping the given order among equal codes: a least-significant-digit radix sort
// over 11-bit digits (six passes cover the 63-bit codes), a pass skipped where every element has
// the same digit: linear in the triangles where std::sort of the pairs was n log n, and the build
// runs on one thread while the others wait.
void radix_sort(std::vector<Keyed>& v) {
    constexpr int kBits = 11, kPasses = 6;
    constexpr std::size_t kBuckets = std::size_t(1) << kBits;
    std::vector<std::uint32_t> count(kPasses * kBuckets, 0);
    for (const Keyed& k : v)
        for (int pass = 0; pass < kPasses; ++pass) ++count[pass * kBuckets + (k.code >> (pass * kBits) & (kBuckets - 1))];
    std::vector<Keyed> tmp(v.size());
    for (int pass = 0; pass < kPasses; ++pass) {
        std::uint32_t* c = &count[pass * kBuckets];
        if (std::any_of(c, c + kBuckets, [&](std::uint32_t n) { return n == v.size(); })) continue;
        std::uint32_t sum = 0;
        for (std::size_t b = 0; b < kBuckets; ++b) {
            const std::uint32_t n = c[b];
            c[b] = sum;
            sum += n;
        }
        for (const Keyed& k : v) tmp[c[k.code >> (pass * kBits) & (kBuckets - 1)]++] = k;
        v.swap(tmp);
    }
}

// The tree over triangles sorted along a Morton curve of their box centres: a node's range is
// split where the codes' highest differing bit changes (the middle when all codes are equal),
// so a node is a cell of the curve's octree. One sort instead of a partition per level.
struct Builder {
    std::vector<TriangleBvh::Node>& nodes;
    const std::vector<std::uint64_t>& codes;  // sorted

    std::uint32_t build(std::uint32_t begin, std::uint32_t end) {
        const std::uint32_t index = static_cast<std::uint32_t>(nodes.size());
        nodes.emplace_back();
        if (end - begin <= TriangleBvh::kLeafSize) {
            nodes[index].first = begin;
            nodes[index].count = end - begin;
            return index;
        }
        std::uint32_t mid = begin + (end - begin) / 2;
        const std::uint64_t diff = codes[begin] ^ codes[end - 1];
        if (diff != 0) {
            int bit = 63;
            while (!(diff >> bit & 1)) --bit;
            // The first code with that bit set (codes in the range agree above it).
            mid = static_cast<std::uint32_t>(
                std::partition_point(codes.begin() + begin, codes.begin() + end, [bit](std::uint64_t c) { return !(c >> bit & 1); }) - codes.begin());
        }
        build(begin, mid);
        const std::uint32_t right = build(mid, end);
        nodes[index].first = right;
        nodes[index].count = 0;
        return index;
    }
};

}  // namespace

void TriangleBvh::build(const std::vector<BvhBox>& boxes) {
    nodes_.clear();
    order_.clear();
    leaves_.clear();
    if (boxes.empty()) return;
    // Centres doubled (lo + hi), quantised over their bounds to 21 bits an axis.
    float lo[3], hi[3];
    for (int k = 0; k < 3; ++k) {
        lo[k] = std::numeric_limits<float>::infinity();
        hi[k] = -lo[k];
    }
    for (const BvhBox& b : boxes)
        for (int k = 0; k < 3; ++k) {
            lo[k] = std::min(lo[k], b.lo[k] + b.hi[k]);
            hi[k] = std::max(hi[k], b.lo[k] + b.hi[k]);
        }
    std::vector<Keyed> keyed(boxes.size());
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        std::uint64_t code = 0;
        for (int k = 0; k < 3; ++k) {
            const double span = double(hi[k]) - lo[k];
            const double x = span > 0 ? (double(boxes[i].lo[k] + boxes[i].hi[k]) - lo[k]) / span : 0.0;
            code |= spread(static_cast<std::uint64_t>(std::min(x, 1.0) * 2097151.0)) << k;
        }
        keyed[i] = {code, static_cast<std::uint32_t>(i)};
    }
    // Ties by triangle index: the radix sort is stable over the index order.
    radix_sort(keyed);
    std::vector<std::uint64_t> codes(boxes.size());
    order_.resize(boxes.size());
    for (std::size_t i = 0; i < keyed.size(); ++i) {
        codes[i] = keyed[i].code;
        order_[i] = keyed[i].index;
    }
    nodes_.reserve(2 * (boxes.size() / kLeafSize + 1));
    Builder{nodes_, codes}.build(0, static_cast<std::uint32_t>(boxes.size()));
    for (std::size_t n = 0; n < nodes_.size(); ++n)
        if (nodes_[n].leaf()) leaves_.push_back(static_cast<std::uint32_t>(n));
    refit(&boxes, nullptr);
    const BvhBox none = empty_box();
    for (int k = 0; k < 3; ++k) {
        lanes_[k].assign(boxes.size() + kLeafSize, none.lo[k]);
        lanes_[3 + k].assign(boxes.size() + kLeafSize, none.hi[k]);
        for (std::size_t i = 0; i < boxes.size(); ++i) {
            lanes_[k][i] = boxes[order_[i]].lo[k];
            lanes_[3 + k][i] = boxes[order_[i]].hi[k];
        }
    }
}

std::vector<std::uint32_t> TriangleBvh::take_order() {
    std::vector<std::uint32_t> out(order_.size());
    std::iota(out.begin(), out.end(), 0u);
    out.swap(order_);
    return out;
}

void TriangleBvh::refit_range(std::size_t begin, std::size_t end, const std::vector<BvhBox>* boxes) {
    // Children follow their parent: one backward sweep sees every child before its parent.
    for (std::size_t n = end; n-- > begin;) {
        Node& node = nodes_[n];
        if (node.leaf()) {
            if (!boxes) continue;
            BvhBox b = empty_box();
            for (std::uint32_t i = node.first; i < node.first + node.count; ++i) grow(b, (*boxes)[order_[i]]);
            node.box = b;
        } else {
            BvhBox b = nodes_[n + 1].box;
            grow(b, nodes_[node.first].box);
            node.box = b;
        }
    }
}

void TriangleBvh::refit_inner(ThreadPool* pool) { refit(nullptr, pool); }

void TriangleBvh::refit(const std::vector<BvhBox>* boxes, ThreadPool* pool) {
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
    run_tasks(pool, ranges.size(), [&](std::size_t i) { refit_range(ranges[i].begin, ranges[i].end, boxes); });
    std::sort(top.begin(), top.end());
    for (std::size_t k = top.size(); k-- > 0;) refit_range(top[k], top[k] + 1, boxes);
}

}  // namespace rigscope
