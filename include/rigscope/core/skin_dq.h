// Dual-quaternion and blended skinning (Kavan, Collins, Zara, O'Sullivan 2008: "Geometric
// skinning with approximate dual quaternion blending"), each joint's scale and shear blended
// apart and applied first, as Blender's Preserve Volume and Maya's skinCluster do. The formulas
// are in docs/methods.md ("Skinning methods"); deform_mesh and MeshDeformer (skin.h) dispatch
// here for a skin whose method is DualQuaternion or Blend.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "rigscope/core/pose.h"
#include "rigscope/core/scene.h"
#include "rigscope/core/simd.h"

namespace rigscope {

// True for the methods that blend dual quaternions; Linear and Rigid go the linear way.
inline bool blends_dual_quaternions(SkinningMethod m) {
    return m == SkinningMethod::DualQuaternion || m == SkinningMethod::Blend || m == SkinningMethod::UsdDualQuaternion;
}

// A joint's skinning matrix M = world x inverse_bind split as M = R S: R rigid, S the joint's
// own scale and shear (relative to its bind), in bind space, so that S moves a stored vertex
// the way the joint's scale would before R carries it. The rigid frame of a matrix keeps its
// Y axis (Blender's orthogonalize_m4(.., 1)); R = rigid(world) rigid(bind)^-1.
struct JointSplit {
    Eigen::Quaterniond rotation = Eigen::Quaterniond::Identity();  // of R
    Eigen::Vector3d translation = Eigen::Vector3d::Zero();          // of R
    Eigen::Matrix4d scale = Eigen::Matrix4d::Identity();            // S
    bool scaled = false;  // S is not the identity (beyond 1e-9 relative rounding)
};
JointSplit split_joint(const Eigen::Matrix4d& world, const Eigen::Matrix4d& inverse_bind);

// OpenUSD's split of a joint's own matrix J = world x bind^-1 (UsdSkel's dualQuaternion, in
// skin_dq_usd.cpp): J's linear part A = U P (polar decomposition, U the rotation, with U and P
// negated when det A < 0 so that U stays a rotation), R = [U | t] with J's translation t, and
// S = [P | 0] = U^T A, about the origin of the mesh's bind space. `scaled`: S differs from the
// identity by more than 1e-6 in some entry (UsdSkel's test). A J whose |det A| < 1e-10 cannot be
// factored: `singular`, and UsdSkel gives it a zero dual quaternion and S = I.
struct UsdJointSplit : JointSplit {
    bool singular = false;
};
UsdJointSplit usd_split_joint(const Eigen::Matrix4d& joint);

// One pose's joints for the float kernel: each R as a unit dual quaternion (real, dual), each S
// when any joint of the skin is scaled.
struct DqFrame {
    struct alignas(32) Joint {
        Eigen::Vector4f real;  // rotation quaternion, (x, y, z, w)
        Eigen::Vector4f dual;  // (t/2) * real, t the translation as a pure quaternion
    };
    std::vector<Joint> joints;
    std::vector<Eigen::Matrix4f> scale;  // S per joint; empty when no joint is scaled
    // UsdDualQuaternion: the skin's geomBindTransform, applied to a point before S and the blend
    // (the identity at bind, where every joint is). Unused by the other methods.
    Eigen::Matrix4f geom = Eigen::Matrix4f::Identity();
    // The same per joint for the AVX2 kernel (src/core/skin_dq_layout.h's DqLayout::table): the
    // dual quaternion, S when scaled, and for Blend the linear matrix. Filled only when avx2, and
    // never for UsdDualQuaternion, which has the scalar loop alone.
    std::vector<float> table;
    // skin_dq_range runs the AVX2 kernel (the default where the build has it, the CPU runs it and
    // RIGSCOPE_NO_AVX2 is not set); false: the scalar loop, the reference it matches bit for bit.
    bool avx2 = avx2_default();

    // The bind pose: every joint the identity, as the linear path's rule. `linear`: the skin's
    // linear joint matrices of the same pose (skin.cpp's), which Blend mixes in.
    void set(const Scene& scene, const Mesh& mesh, const Pose& pose, const Eigen::Matrix4f* linear);

private:
    void set_joints(const Scene& scene, const Mesh& mesh, const Pose& pose);
    void set_usd_joints(const Scene& scene, const Mesh& mesh, const Pose& pose);
};

// A mesh's influences regrouped once for the AVX2 kernel (MeshDeformer keeps one): batches of 8
// consecutive vertices from vertex 0, each with as many slots as its largest influence count;
// per slot, each lane's joint row in DqFrame::table and weight (joint 0 and weight 0 past a
// lane's influences). Empty where the kernel does not run.
struct DqLanes {
    std::vector<std::uint32_t> slot_start;  // per batch, and one past the last
    std::vector<std::uint32_t> slot_min;    // per batch: its smallest influence count
    std::vector<std::int32_t> row;          // 8 per slot
    std::vector<float> weight;              // 8 per slot
    // Vertices [0, vertices) of inf (vertices <= inf.vertex_count()); whole batches only.
    void build(const Influences& inf, std::size_t vertices);
};

// Morph targets with a non-zero weight, in target order (skin.cpp's list).
using MorphList = std::vector<std::pair<float, const Eigen::Vector3f*>>;

// Skins file vertices [begin, end) (all below inf.vertex_count()) of a mesh whose skin
// blends dual quaternions (`lanes`: inf regrouped, which the AVX2 kernel reads faster; the same
// bits): morph deltas added in target order (as the linear path does), then
// the skin's method. `linear` holds the joints' linear matrices, which only Blend reads.
void skin_dq_range(const Skin& skin, const Influences& inf, const DqFrame& frame, const Eigen::Matrix4f* linear,
                   const Eigen::Vector3f* base, const MorphList& morphs, std::size_t begin, std::size_t end, Eigen::Vector3f* out,
                   const DqLanes* lanes = nullptr);

// The same rule for one vertex in double as a transform p' = T p: [R_v S_v | t_v] for
// DualQuaternion, (1 - b) L_v + b [R_v S_v | t_v] for Blend, [R_v | t_v] S_v G for
// UsdDualQuaternion. For rivets. The mesh's skin must
// blend dual quaternions, and the vertex have influences.
Eigen::Matrix<double, 3, 4> dq_vertex_transform(const Scene& scene, const Mesh& mesh, const Pose& pose, std::uint32_t vertex);

}  // namespace rigscope
