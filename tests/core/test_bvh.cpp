// The triangle BVH of `intersect` (src/core/triangle_bvh.cpp): its leaf order against a Morton
// order computed here (the bits interleaved one at a time, a std::stable_sort: nothing of the
// product's spread or radix sort), its shape's invariants, the same tree on 1, 2 and 3 threads
// over several of the build's blocks of 65,536 triangles, and a refit's boxes.
#include <catch2/catch.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "rigscope/core/parallel.h"
#include "rigscope/core/triangle_bvh.h"

using namespace rigscope;

namespace {

struct Soup {
    std::vector<Eigen::Vector3f> x;
    std::vector<std::uint32_t> corners;
};

// n triangles over shared random vertices: corners drawn from the vertex list (some triangles
// share corners, a few have a repeated corner).
Soup soup(std::mt19937& rng, std::size_t vertices, std::size_t n) {
    std::uniform_real_distribution<float> u(-3.f, 5.f);
    std::uniform_int_distribution<std::uint32_t> pick(0, static_cast<std::uint32_t>(vertices - 1));
    Soup s;
    for (std::size_t v = 0; v < vertices; ++v) s.x.emplace_back(u(rng), u(rng) * 0.5f, u(rng) * 2.f);
    for (std::size_t i = 0; i < 3 * n; ++i) s.corners.push_back(pick(rng));
    return s;
}

// The Morton code of each triangle's box centre, doubled, over the centres' bounds: 21 bits an
// axis, axis k's bit b at bit 3b + k. A triangle with a corner that is not finite sits at the
// origin (the documented rule).
std::vector<std::uint64_t> morton(const Soup& s) {
    const std::size_t n = s.corners.size() / 3;
    std::vector<std::array<float, 3>> c(n);
    for (std::size_t t = 0; t < n; ++t) {
        const Eigen::Vector3f &a = s.x[s.corners[3 * t]], &b = s.x[s.corners[3 * t + 1]], &d = s.x[s.corners[3 * t + 2]];
        const bool finite = a.allFinite() && b.allFinite() && d.allFinite();
        for (int k = 0; k < 3; ++k) {
            const float lo = std::min({a[k], b[k], d[k]}), hi = std::max({a[k], b[k], d[k]});
            c[t][k] = finite ? lo + hi : 0.f;
        }
    }
    float lo[3], hi[3];
    for (int k = 0; k < 3; ++k) {
        lo[k] = std::numeric_limits<float>::infinity();
        hi[k] = -lo[k];
        for (const auto& p : c) {
            lo[k] = std::min(lo[k], p[k]);
            hi[k] = std::max(hi[k], p[k]);
        }
    }
    std::vector<std::uint64_t> code(n, 0);
    for (std::size_t t = 0; t < n; ++t)
        for (int k = 0; k < 3; ++k) {
            const double span = double(hi[k]) - lo[k];
            const double q = span > 0 ? (double(c[t][k]) - lo[k]) / span : 0.0;
            const auto cell = static_cast<std::uint64_t>(std::min(q, 1.0) * 2097151.0);
            for (int b = 0; b < 21; ++b) code[t] |= (cell >> b & 1) << (3 * b + k);
        }
    return code;
}

std::vector<std::uint32_t> morton_order(const Soup& s) {
    const std::vector<std::uint64_t> code = morton(s);
    std::vector<std::uint32_t> order(code.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return code[a] < code[b]; });
    return order;
}

// Every node's range: a leaf's [first, first + count), an inner node's its children's, which
// follow it (the left one next); each leaf at most kLeafSize; leaves() the leaves in order.
void check_shape(const TriangleBvh& bvh, std::size_t n) {
    const auto& nodes = bvh.nodes();
    std::vector<std::pair<std::uint32_t, std::uint32_t>> range(nodes.size());
    for (std::size_t i = nodes.size(); i-- > 0;) {
        const TriangleBvh::Node& node = nodes[i];
        if (node.leaf()) {
            REQUIRE(node.count <= TriangleBvh::kLeafSize);
            range[i] = {node.first, node.first + node.count};
        } else {
            REQUIRE(node.first > i + 1);
            REQUIRE(node.first < nodes.size());
            REQUIRE(range[i + 1].second == range[node.first].first);  // the left child's range, then the right's
            range[i] = {range[i + 1].first, range[node.first].second};
        }
    }
    REQUIRE(range[0].first == 0);
    REQUIRE(range[0].second == n);
    std::uint32_t next = 0;
    for (std::uint32_t leaf : bvh.leaves()) {
        REQUIRE(nodes[leaf].leaf());
        REQUIRE(nodes[leaf].first == next);
        next += nodes[leaf].count;
    }
    REQUIRE(next == n);
}

}  // namespace

TEST_CASE("triangle_bvh: leaves in the Morton order of the boxes' centres, ties by index, a tree over all of them", "[intersect][bvh]") {
    std::mt19937 rng(31);
    for (std::size_t n : {1u, 7u, 8u, 9u, 1000u, 70000u}) {
        Soup s = soup(rng, std::max<std::size_t>(3, n / 2), n);
        if (n >= 9) s.x[s.corners[3]] = Eigen::Vector3f(std::nanf(""), 0.f, 0.f);  // triangle 1 at the origin
        TriangleBvh bvh;
        bvh.build(s.corners, s.x);
        REQUIRE(bvh.order() == morton_order(s));
        check_shape(bvh, n);
        const std::vector<std::uint32_t> order = bvh.take_order();
        REQUIRE(order == morton_order(s));
        REQUIRE(bvh.order().empty());
    }
}

TEST_CASE("triangle_bvh: equal centres keep the triangles' order, and a flat axis quantises to zero", "[intersect][bvh]") {
    // Every triangle in the plane z = 1, many of them the same triangle.
    Soup s;
    for (int i = 0; i < 40; ++i) s.x.emplace_back(float(i % 7), float(i / 7), 1.f);
    for (int t = 0; t < 300; ++t)
        for (int k = 0; k < 3; ++k) s.corners.push_back(static_cast<std::uint32_t>(t % 5 == 0 ? k : (t * 7 + k * 13) % 40));
    TriangleBvh bvh;
    bvh.build(s.corners, s.x);
    REQUIRE(bvh.order() == morton_order(s));
    check_shape(bvh, 300);
}

TEST_CASE("triangle_bvh: the same tree on 1, 2 and 3 threads across several build blocks", "[intersect][bvh]") {
    std::mt19937 rng(62);
    const Soup s = soup(rng, 90000, 200000);  // four blocks of the build's sweeps
    TriangleBvh one;
    one.build(s.corners, s.x, nullptr);
    REQUIRE(one.order() == morton_order(s));
    for (unsigned threads : {2u, 3u}) {
        ThreadPool pool(threads);
        TriangleBvh many;
        many.build(s.corners, s.x, &pool);
        REQUIRE(many.order() == one.order());
        REQUIRE(many.leaves() == one.leaves());
        REQUIRE(many.nodes().size() == one.nodes().size());
        for (std::size_t i = 0; i < one.nodes().size(); ++i) {
            REQUIRE(many.nodes()[i].first == one.nodes()[i].first);
            REQUIRE(many.nodes()[i].count == one.nodes()[i].count);
        }
    }
}

TEST_CASE("triangle_bvh: a refit's inner boxes are their triangles' bounds, and the lanes' padding is empty", "[intersect][bvh]") {
    std::mt19937 rng(5);
    const Soup s = soup(rng, 3000, 5000);
    TriangleBvh bvh;
    bvh.build(s.corners, s.x);
    const std::vector<std::uint32_t> order = bvh.take_order();
    const std::size_t n = order.size();
    for (std::uint32_t k = 0; k < TriangleBvh::kLeafSize; ++k) {
        for (int b = 0; b < 3; ++b) {
            REQUIRE(bvh.lanes(b)[n + k] == std::numeric_limits<float>::infinity());
            REQUIRE(bvh.lanes(3 + b)[n + k] == -std::numeric_limits<float>::infinity());
        }
    }
    // Boxes of the triangles in leaf order, as a caller writes them, then the inner nodes.
    std::vector<BvhBox> box(n);
    for (std::size_t i = 0; i < n; ++i)
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t* c = &s.corners[3 * order[i]];
            box[i].lo[k] = std::min({s.x[c[0]][k], s.x[c[1]][k], s.x[c[2]][k]});
            box[i].hi[k] = std::max({s.x[c[0]][k], s.x[c[1]][k], s.x[c[2]][k]});
            bvh.lanes(k)[i] = box[i].lo[k];
            bvh.lanes(3 + k)[i] = box[i].hi[k];
        }
    for (std::uint32_t leaf : bvh.leaves()) {
        const TriangleBvh::Node& node = bvh.nodes()[leaf];
        BvhBox b = box[node.first];
        for (std::uint32_t i = node.first + 1; i < node.first + node.count; ++i)
            for (int k = 0; k < 3; ++k) {
                b.lo[k] = std::min(b.lo[k], box[i].lo[k]);
                b.hi[k] = std::max(b.hi[k], box[i].hi[k]);
            }
        bvh.set_leaf_box(leaf, b);
    }
    ThreadPool pool(2);
    bvh.refit_inner(&pool);
    // Each node's box, by brute force over the triangles under it.
    const auto& nodes = bvh.nodes();
    std::vector<std::pair<std::uint32_t, std::uint32_t>> range(nodes.size());
    for (std::size_t i = nodes.size(); i-- > 0;) {
        range[i] = nodes[i].leaf() ? std::pair{nodes[i].first, nodes[i].first + nodes[i].count}
                                   : std::pair{range[i + 1].first, range[nodes[i].first].second};
        for (int k = 0; k < 3; ++k) {
            float lo = std::numeric_limits<float>::infinity(), hi = -lo;
            for (std::uint32_t t = range[i].first; t < range[i].second; ++t) {
                lo = std::min(lo, box[t].lo[k]);
                hi = std::max(hi, box[t].hi[k]);
            }
            REQUIRE(nodes[i].box.lo[k] == lo);
            REQUIRE(nodes[i].box.hi[k] == hi);
        }
    }
}
