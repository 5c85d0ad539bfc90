// Morph targets and linear blend skinning of one mesh.
#pragma once

#include <cstdint>
#include <vector>

#include "rigscope/core/point_cache.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/scene.h"
#include "rigscope/core/skin_dq.h"
#include "rigscope/core/simd.h"

namespace rigscope {

class ThreadPool;

// Row-major 3x4 affine matrix: the skinning kernel's joint matrix (joint world x inverse bind).
struct Affine3x4 {
    float m[12];
};

// Joint matrices of mesh's skin under pose: world(joint) * inverse_bind(joint). Empty when the
// mesh has no skin.
void skin_matrices(const Scene& scene, const Mesh& mesh, const Pose& pose, std::vector<Affine3x4>& out);

// The deformed mesh in world space at `pose`: morph, then skin with the glTF rule (the skinned
// mesh node's own transform is ignored) by the skin's method (skin_dq.h for DualQuaternion and
// Blend). An unskinned mesh is placed by its node's world matrix. A mesh with a point cache
// (Mesh::cache) takes the cache's positions at pose.time instead, at every pose but the bind pose
// (point_cache.h: a time between two samples blends them linearly); skin and morphs are ignored.
// pool: vertex blocks spread over its threads (a run's set-up of one large mesh); the same bits.
void deform_mesh(const Scene& scene, int mesh_index, const Pose& pose, std::vector<Eigen::Vector3f>& out, ThreadPool* pool = nullptr);

// deform_mesh for a run of frames: the influences regrouped once for the loop, buffers kept
// between frames, vertex blocks spread over a thread pool. Gives exactly deform_mesh's result,
// whatever the thread count.
class MeshDeformer {
public:
    MeshDeformer() = default;
    MeshDeformer(const Scene& scene, int mesh_index);

    // Joint matrices and morph weights of `pose`; call before deform_block / deform.
    // pool: a point-cached mesh whose cache is read whole reads it on its threads
    // (PointCache::positions_at); one read in parts is read by deform_block.
    void set_pose(const Scene& scene, const Pose& pose, ThreadPool* pool = nullptr);
    // Deforms file vertices [begin, end) into out (sized vertex_count() by the caller).
    void deform_block(const Scene& scene, std::size_t begin, std::size_t end, Eigen::Vector3f* out) const {
        deform_block(scene, in_, begin, end, out);
    }
    // What deform_block reads of the pose set_pose() set. A copy taken after each of several
    // set_pose calls lets a caller skin those frames from one pass over the mesh's arrays
    // (MeshTension::evaluate_summaries): the skin's inputs are read from memory once for all.
    struct PoseInputs {
        std::vector<Eigen::Matrix4f> joints;  // column-major; an unskinned mesh's world matrix is joint 0
        MorphList morphs;                     // the morph targets with a non-zero weight, in target order
        DqFrame dq_frame;                     // dual-quaternion skins only
        bool cached = false;                  // positions from the mesh's point cache
        bool cache_parts = false;             // read by deform_block, part by part, at cache_at
        PointCache::Lookup cache_at;
    };
    const PoseInputs& pose_inputs() const { return in_; }
    // Whether pose_inputs() holds all deform_block reads of any pose: false for a mesh whose
    // point cache is read whole (its positions are one array, the last pose's alone).
    bool pose_inputs_whole(const Scene& scene) const;
    // deform_block of the pose `in` (a copy of pose_inputs(), where pose_inputs_whole()).
    void deform_block(const Scene& scene, const PoseInputs& in, std::size_t begin, std::size_t end, Eigen::Vector3f* out) const;
    // Whole mesh in blocks of `block` vertices; out is resized.
    void deform(const Scene& scene, const Pose& pose, std::vector<Eigen::Vector3f>& out, ThreadPool* pool = nullptr,
                std::size_t block = kBlock);
    // deform() after set_pose(): the pose already set.
    void deform_posed(const Scene& scene, std::vector<Eigen::Vector3f>& out, ThreadPool* pool = nullptr,
                      std::size_t block = kBlock) const;
    // Whether the last set_pose() gave the same inputs, bit for bit, as the one before it: the
    // same joint (or node) matrices and the same morph weights, no point cache. The positions
    // are then the same bits as that pose's, and a caller that kept them need not deform again
    // (a static prop in a rig, a held pose).
    bool pose_unchanged() const { return unchanged_; }

    // Where only some joints moved since the last set_pose (a clip that holds a limb, a range of
    // motion sweeping one joint, a rig's still root), the vertices that no moved joint weighs
    // keep the last pose's positions bit for bit. The unit is a block of kStillBlock file
    // vertices; a joint is a bit (joint index mod 64), so two joints may share one: a block may
    // be called moved that did not, never the other way.
    static constexpr std::size_t kStillBlock = 16;
    // The bits of the joints whose matrices changed since the last pose; every bit where anything
    // else may have changed (the first pose, morph weights, a point cache, dual quaternions, an
    // unskinned mesh's node).
    std::uint64_t moved_joints() const { return moved_joints_; }
    bool all_moved() const { return moved_joints_ == kAllJoints; }
    // Per block of kStillBlock file vertices, the bits of the joints its vertices list (every
    // influence as stored); empty until a pose left some joints still.
    const std::vector<std::uint64_t>& block_joints() const { return block_joints_; }
    // deform_block over the blocks of [begin, end) that a moved joint weighs; the others are left
    // as they are in `out`, which must hold the last pose's positions there (deform_block's, of
    // the pose before this set_pose).
    void deform_moved(const Scene& scene, std::size_t begin, std::size_t end, Eigen::Vector3f* out) const;

    std::size_t vertex_count() const { return vertices_; }
    // The bytes of joint indices and weights a linear-blend frame reads from the mesh's
    // influences by the runs below (rigscope_bench's memory bound counts them).
    std::size_t influence_bytes_read() const;
    // Linear skinning on the AVX2 kernel (src/core/skin_avx2.cpp) where the build has it and the
    // CPU runs it, as the dual-quaternion kernel's switch decides; false: the Eigen loop. The
    // same bits either way (tests/core/test_skin_simd.cpp sets it both ways).
    bool avx2 = avx2_default();
    // Vertices per task when spread over threads: large enough that a task outweighs its
    // dispatch, small enough to balance two busy cores.
    static constexpr std::size_t kBlock = 16384;

private:
    // Consecutive vertices with the same influence count share a run: the loop over a run has a
    // fixed trip count per vertex. The influences themselves stay in the mesh's compressed rows
    // (already in vertex order, so a run's are contiguous): no copy of the largest skin arrays.
    // A run is also cut where at least kSharedMin consecutive vertices list the same joints in
    // the same order (a ring of a limb, a region painted to one bone): such a run reads its
    // first vertex's joints once, not a row per vertex, and where they have one influence of
    // weight exactly 1 no weight either. A 4M-vertex tube's frame read 2.6 bytes of joints and
    // 5.2 of weights a vertex from memory; 2.4 of weights remain (its blended vertices').
    struct Run {
        enum Kind : std::uint32_t {
            rows,    // each vertex's joints and weights from its own row
            shared,  // every vertex lists the run's first vertex's joints; weights per vertex
            unit,    // shared, one influence, every weight exactly 1: 1.0f * x is x, none read
        };
        std::uint32_t begin, end;  // file vertices
        std::uint32_t count;       // influences per vertex
        std::uint32_t first;       // the run's first entry in Influences::joints / weights
        Kind kind = rows;
    };
    static constexpr std::uint32_t kSharedMin = 16;  // two groups of the AVX2 loop
    // Appends `run` (vertices of one influence count) to runs_, cut into shared and unit runs.
    void split_shared(const Influences& inf, const Run& run);

    int mesh_ = -1;
    std::size_t vertices_ = 0;
    bool skinned_ = false;
    std::vector<Run> runs_;
    PoseInputs in_;  // the pose set_pose() set
    std::vector<Eigen::Matrix4f> last_joints_;  // the pose before: pose_unchanged()
    MorphList last_morphs_;
    bool dq_ = false;  // the skin blends dual quaternions (skin_dq.h): in_.dq_frame
    DqLanes dq_lanes_;  // the influences regrouped for the AVX2 kernel, when it runs
    // The pose's positions from the mesh's point cache (Mesh::cache). A cache that reads parts
    // and maps point i to vertex i is read by deform_block, block by block, straight into out
    // (in_.cache_parts, at in_.cache_at); another whole by set_pose into cache_positions_.
    bool unchanged_ = false;  // pose_unchanged()
    static constexpr std::uint64_t kAllJoints = ~std::uint64_t{0};
    std::uint64_t moved_joints_ = kAllJoints;     // moved_joints()
    std::vector<std::uint64_t> block_joints_;     // block_joints()
    bool posed_ = false;      // set_pose has run
    std::vector<Eigen::Vector3f> cache_positions_;
    CacheScratch cache_scratch_;
};

}  // namespace rigscope
