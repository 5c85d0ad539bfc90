// The triangle BVH of `intersect` (core/triangle_bvh.h).
#include "rigscope/core/triangle_bvh.h"

#include <algorithm>
#include <limits>
#include <numeric>

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

void TriangleBvh::build(const std::vector<BvhBox>& boxes) {
    nodes_.clear();
    order_.resize(boxes.size());
    std::iota(order_.begin(), order_.end(), 0u);
    if (boxes.empty()) return;
    nodes_.reserve(2 * (boxes.size() / kLeafSize + 1));
    build_range(boxes, 0, static_cast<std::uint32_t>(boxes.size()));
    refit(boxes);
}

std::uint32_t TriangleBvh::build_range(const std::vector<BvhBox>& boxes, std::uint32_t begin, std::uint32_t end) {
    const std::uint32_t index = static_cast<std::uint32_t>(nodes_.size());
    nodes_.emplace_back();
    if (end - begin <= kLeafSize) {
        nodes_[index].first = begin;
        nodes_[index].count = end - begin;
        return index;
    }
    // Centres doubled (lo + hi) to stay in floats without a division.
    BvhBox c = empty_box();
    for (std::uint32_t i = begin; i < end; ++i) {
        const BvhBox& b = boxes[order_[i]];
        for (int k = 0; k < 3; ++k) {
            const float m = b.lo[k] + b.hi[k];
            c.lo[k] = std::min(c.lo[k], m);
            c.hi[k] = std::max(c.hi[k], m);
        }
    }
    int axis = 0;
    for (int k = 1; k < 3; ++k)
        if (c.hi[k] - c.lo[k] > c.hi[axis] - c.lo[axis]) axis = k;
    const std::uint32_t mid = begin + (end - begin) / 2;
    // Ties broken by triangle index: the split is the same whatever order the library sorts in.
    std::nth_element(order_.begin() + begin, order_.begin() + mid, order_.begin() + end, [&](std::uint32_t a, std::uint32_t b) {
        const float ma = boxes[a].lo[axis] + boxes[a].hi[axis], mb = boxes[b].lo[axis] + boxes[b].hi[axis];
        return ma < mb || (ma == mb && a < b);
    });
    build_range(boxes, begin, mid);
    const std::uint32_t right = build_range(boxes, mid, end);
    nodes_[index].first = right;
    nodes_[index].count = 0;
    return index;
}

void TriangleBvh::refit(const std::vector<BvhBox>& boxes) {
    // Children follow their parent: one backward sweep sees every child before its parent.
    for (std::size_t n = nodes_.size(); n-- > 0;) {
        Node& node = nodes_[n];
        BvhBox b = empty_box();
        if (node.leaf()) {
            for (std::uint32_t i = node.first; i < node.first + node.count; ++i) grow(b, boxes[order_[i]]);
        } else {
            b = nodes_[n + 1].box;
            grow(b, nodes_[node.first].box);
        }
        node.box = b;
    }
}

}  // namespace rigscope
