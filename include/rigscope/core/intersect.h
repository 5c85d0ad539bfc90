// Interpenetration per frame (`intersect`, issue 59): every pair of faces that cross, within
// a mesh and between meshes. docs/methods.md ("Interpenetration") states the rules: faces as the
// file stores them (a polygon as the fan of triangles from its first corner), faces of one mesh
// that share a vertex after welding are neighbours and never a pair, the exact crossing test of
// core/tri_tri.h, zero-area triangles skipped.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <tuple>
#include <vector>

#include "rigscope/core/pose.h"
#include "rigscope/core/scene.h"
#include "rigscope/core/triangle_bvh.h"

namespace rigscope {

class ThreadPool;

// Two faces that cross in a frame; (mesh_a, face_a) < (mesh_b, face_b), meshes as scene indices.
struct FacePair {
    std::uint32_t mesh_a = 0, face_a = 0, mesh_b = 0, face_b = 0;
    // The node of the heaviest influence over both faces' corners (face a's corners in order,
    // then face b's, each vertex's influences as stored; the first of equal weights wins);
    // -1 when neither face is skinned.
    int joint = -1;
    double length = 0;  // length of the segments where their triangles cross
};

struct IntersectFrame {
    std::vector<FacePair> pairs;  // sorted by (mesh_a, face_a, mesh_b, face_b), each pair once
    double length = 0;            // the pairs' lengths summed in that order
    std::size_t degenerate = 0;   // triangles skipped this frame: their corners on one line
};

class IntersectEngine {
public:
    // `meshes`: scene mesh indices. weld: faces sharing a welded vertex are neighbours (the
    // tension weld, core/topology.h); false: only faces sharing a file vertex are. `pool` (null:
    // this thread) runs the set-up (fans, weld, the BVHs' shape from the stored positions),
    // whose result does not depend on it.
    IntersectEngine(const Scene& scene, const std::vector<int>& meshes, bool weld, ThreadPool* pool = nullptr);

    // One frame: positions[i] are meshes[i]'s file vertices this frame. The BVHs get their boxes
    // at the first call (from the meshes' stored positions) and are refitted after. Throws Error (bad
    // input) for a position that is not finite, naming the mesh and vertex. The result does not
    // depend on the pool's size.
    //
    // `rigid` (null: not used): per mesh, per joint of its skin, whether the joint's skinning
    // matrix this frame is affine and invertible (rigid_joints gives it). Two triangles that the
    // same such joint alone moves (every corner weighted 1 to it, by linear skinning, no morph
    // target or cache) keep their relation: whether they cross is decided once on the stored
    // positions and kept, and only their length is measured again. Exact arithmetic gives the
    // same answer either way; in single precision only pairs within rounding of touching differ.
    void evaluate(const std::vector<std::vector<Eigen::Vector3f>>& positions, ThreadPool* pool, IntersectFrame& out,
                  const std::vector<std::vector<std::uint8_t>>* rigid = nullptr);

    std::size_t triangle_count() const;

private:
    struct Part {
        int mesh = -1;
        // Triangles numbered in the BVH's leaf order once it is built (a leaf's are contiguous).
        std::vector<std::uint32_t> corners;   // 3 file vertices per triangle (fans)
        // The same, welded: one array per corner in leaf order, followed by kLeafSize padding
        // entries so that a leaf's eight lanes can be read whatever its count, like the BVH's box lanes.
        std::vector<std::uint32_t> welded_lanes[3];
        std::vector<std::uint32_t> face;      // per triangle, its file face
        std::vector<std::uint8_t> whole;      // per triangle, 1 when its face is this one triangle
        std::vector<std::uint32_t> welded;    // per file vertex, its welded vertex
        std::vector<int> heavy_node;          // per file vertex, its heaviest influence's node (-1)
        std::vector<float> heavy_weight;
        std::vector<std::uint8_t> skip;       // per triangle, zero area this frame (its box: the BVH's lanes)
        std::vector<std::uint8_t> stored_skip;  // the same on the stored positions
        // Per triangle, the skin joint (index into the skin's joints) that alone moves its
        // corners, -1 for none; per BVH node, the same of all its triangles.
        std::vector<int> rigid;
        std::vector<int> node_rigid;
        std::vector<std::uint8_t> kept;       // this frame's `rigid` of the mesh's skin joints
        // Per triangle, bit i: the i-th triangle of its leaf comes later and is its neighbour
        // (or a triangle of the same face), so the self-leaf tests leave it out.
        std::vector<std::uint8_t> leaf_near;
        // The positions (and kept joints) the lanes, leaf boxes and flags were last computed
        // from (empty: none), and per file vertex whether this frame's differs from it bitwise.
        std::vector<Eigen::Vector3f> boxed;
        std::vector<std::uint8_t> boxed_kept;
        std::vector<std::uint8_t> moved;
        // Per BVH node, 1 for a leaf whose triangle lanes frame_boxes left unwritten (its box and
        // flags are computed): every triangle moved by one kept joint alone, so its pairs with
        // one another are kept and the traversal needs the lanes only where it meets another
        // leaf, where it computes them (half the leaves a frame on the bench tube).
        std::vector<std::uint8_t> unboxed;
        // Per BVH node: its triangles, and this frame's facing mask (src/core/intersect_patch.h:
        // an axis every one of its triangles faces, proved; a leaf's from frame_boxes, inner
        // nodes' from refit_inner). A self-test of a node small enough is skipped when its
        // boundary passes the star test along one of those axes.
        std::vector<std::uint32_t> node_size;
        std::vector<std::uint8_t> node_axes;
        // Per node, its boundary chain over file vertices (patch::Edge), made the first time a
        // self-test asks (fixed by the faces); rim_state 0: not yet, 1: made, 2: none (too long,
        // or a vertex past patch::kMaxVertex). Written during the traversal: a node's self-test
        // and all those below it belong to one job, and a chain is made from those below.
        mutable std::vector<std::vector<std::uint64_t>> rim;
        mutable std::vector<std::uint8_t> rim_state;
        TriangleBvh bvh;
    };
    // A crossing triangle pair, (mesh_a, face_a) < (mesh_b, face_b).
    struct Hit {
        std::uint32_t mesh_a, face_a, mesh_b, face_b, tri_a, tri_b;
        double length;
    };
    struct Job;
    struct WeldedLanes;

    bool neighbours(const Part& p, std::uint32_t ta, std::uint32_t tb) const;
    // Into the BVH's leaf order, blocks over `pool`; `alone`: per vertex, the joint that alone
    // moves it (-1; empty: none), for Part::rigid.
    void renumber(Part& p, const std::vector<int>& alone, ThreadPool* pool);
    class PairTest;  // the exact test of a job's triangle pairs
    std::vector<Job> split(std::vector<Job> jobs) const;  // the roots cut into about kJobs node pairs
    std::vector<Hit> traverse(std::vector<Job> roots, const std::vector<std::vector<Eigen::Vector3f>>& positions, ThreadPool* pool) const;
    void run_job(const Job& job, const std::vector<std::vector<Eigen::Vector3f>>& positions, std::vector<Hit>& hits) const;
    bool kept(std::uint32_t part, int joint) const;  // a pair both moved by `joint` alone is kept from the stored positions
    // Whether node n's triangles are proved to cross none of one another this frame (intersect_patch.h).
    bool untangled(std::uint32_t part, std::uint32_t n, const Eigen::Vector3f* x) const;
    const std::vector<std::uint64_t>* rim_of(const Part& p, std::uint32_t n) const;  // Part::rim[n], made if not yet (null: none)
    void build(const std::vector<std::vector<Eigen::Vector3f>>& positions, ThreadPool* pool);
    int joint_of(const FacePair& p) const;

    const Scene& scene_;
    std::vector<Part> parts_;
    std::vector<int> part_of_mesh_;  // scene mesh -> part, -1
    bool built_ = false;
    // While the stored positions are tested once: only pairs of triangles moved by one joint alone.
    bool rigid_pass_ = false;
    std::vector<Hit> rigid_hits_;  // those pairs that cross, from the stored positions
};

// Per selected mesh, per joint of its skin: whether the joint's skinning matrix (skin_matrices:
// world x inverse bind) is finite with a determinant of at least 1e-18 (a joint scaled to
// nothing collapses its faces, which then cross nothing). IntersectEngine::evaluate's `rigid`.
std::vector<std::vector<std::uint8_t>> rigid_joints(const Scene& scene, const std::vector<int>& meshes, const Pose& pose);

}  // namespace rigscope
