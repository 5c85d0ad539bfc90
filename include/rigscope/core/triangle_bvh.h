// A bounding-volume hierarchy over a mesh's triangles for `intersect`: its shape (which
// triangles share a node) is built once, from one set of positions (intersect: the stored ones), and each frame
// only refits the boxes, since a skinned mesh keeps its neighbourhoods as it moves.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <Eigen/Core>

namespace rigscope {

class ThreadPool;

struct BvhBox {
    float lo[3], hi[3];
    // Open boxes: boxes that only touch hold triangles that can only touch. (Were the triangles
    // to cross, the crossing point would lie strictly inside one of them, in the plane where the
    // boxes touch, with that whole triangle on one side of the plane: so the triangle lies in the
    // plane, and the other's edge cannot pass through it from one side to the other.)
    bool overlaps(const BvhBox& o) const {
        return lo[0] < o.hi[0] && o.lo[0] < hi[0] && lo[1] < o.hi[1] && o.lo[1] < hi[1] && lo[2] < o.hi[2] && o.lo[2] < hi[2];
    }
};

class TriangleBvh {
public:
    // A leaf (count > 0) holds order()[first .. first + count) (after take_order, the triangles
    // first .. first + count in the caller's numbering); an inner node's children are the
    // next node and node `first`, so a node's children always follow it in the array.
    struct Node {
        BvhBox box;
        std::uint32_t first = 0;
        std::uint32_t count = 0;
        bool leaf() const { return count > 0; }
    };

    // Eight, not four: on the bench tube half the node pairs a frame opens are gone, for a few
    // more box tests inside a leaf pair (CPU time about 6% lower). The triangles' order, the
    // Morton sort's, does not depend on it, so neither do the lengths' sums.
    static constexpr std::uint32_t kLeafSize = 8;

    // The tree over the triangles `corners` lists (three vertex indices each) at positions x:
    // their boxes' centres (a triangle with a corner not finite: at the origin) sorted along a
    // Morton curve, split where the curve's cells do. Only the shape is built: every box, the
    // nodes' and lanes()', is empty until the caller's first refit (set_leaf_box and lanes(),
    // then refit_inner), which computes them anyway (a box array here, its copy into the lanes
    // and a refit had cost a third of the build, mostly in page faults on 25 MB). The sweeps over
    // the triangles are spread over `pool` (null: this thread), with the same tree on any number
    // of threads.
    void build(const std::vector<std::uint32_t>& corners, const std::vector<Eigen::Vector3f>& x, ThreadPool* pool = nullptr);

    // The triangles in leaf order, and order() from then on empty (a leaf's positions are then
    // its triangles' numbers): for a caller that renumbers its triangles so that each leaf's are
    // contiguous in its own arrays.
    std::vector<std::uint32_t> take_order();

    // A frame's refit, in two steps. First the caller writes each triangle's box into lanes()
    // (position i in leaf order) and each leaf's box (set_leaf_box), leaf by leaf: the triangle
    // boxes are read once, while they are computed. Then refit_inner() grows the inner nodes'
    // boxes from their children's (subtrees spread over `pool`, null: this thread).
    void set_leaf_box(std::uint32_t node, const BvhBox& box) { nodes_[node].box = box; }
    // `and_flags` (null: none), one byte per node: an inner node's becomes its children's ANDed
    // (a leaf's kept as the caller wrote it), in the same sweep as the boxes.
    void refit_inner(ThreadPool* pool, std::uint8_t* and_flags = nullptr);

    // The triangles' boxes, one array per bound: lo x, y, z, then hi x, y, z, each in leaf order
    // and followed by kLeafSize empty boxes, so that a leaf's kLeafSize lanes can be read
    // whatever its count (the lanes past it belong to the next leaf, or are empty). A caller
    // writes an empty box (lo +inf, hi -inf) for a triangle it skips: it then overlaps nothing.
    // Until the first refit the triangles' entries are unset.
    float* lanes(int bound) { return lanes_.get() + std::size_t(bound) * lane_size_; }
    const float* lanes(int bound) const { return lanes_.get() + std::size_t(bound) * lane_size_; }

    bool empty() const { return nodes_.empty(); }
    const std::vector<Node>& nodes() const { return nodes_; }
    const std::vector<std::uint32_t>& order() const { return order_; }
    const std::vector<std::uint32_t>& leaves() const { return leaves_; }  // leaf nodes, in triangle order

private:
    static constexpr int kRefitDepth = 5;  // 32 subtrees for the threads; the 31 nodes above after
    // Refits inner nodes [begin, end) from their children (a leaf kept as set_leaf_box left it).
    void refit_range(std::size_t begin, std::size_t end, std::uint8_t* and_flags);

    std::vector<Node> nodes_;
    std::vector<std::uint32_t> order_;  // triangle indices, leaf by leaf
    std::vector<std::uint32_t> leaves_;
    // The six lanes one after another in one block (one allocation on 2 MB pages), each
    // lane_size_ floats: the triangles and kLeafSize of padding.
    std::unique_ptr<float[]> lanes_;
    std::size_t lane_size_ = 0;
};

}  // namespace rigscope
