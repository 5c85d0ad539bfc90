// Rivet pivots (methods.md section 2): a transform pinned to a skinned vertex that survives export
// because it is only a parent and a rotation, not a deformer.
//
// A constraint-only rivet is a pivot node under the joint J's parent at p (parent space) that
// rotates with J, and a child at o (the pivot's space). Its world position at frame f is
//     r(f) = M_parent(f) p + A_J(f) o
// with A_J(f) the linear part of J's world matrix. The full linear part, scale included, not
// J's rotation alone: a pivot node that copies J's local rotation and scale gets world linear part
// M_parent_linear * R_J_local * S_J_local = A_J exactly, whatever scale the chain carries, so the
// exported node hierarchy reproduces the fit and not an approximation of it.
// fit_rivet chooses p, o minimising sum_f |r(f) - v(f)|^2 over the frames.
//
// A baked rivet is a transform per frame instead (position and a frame from the vertex normal
// and an edge): always exact, but keyframes rather than a constraint.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "rigscope/core/pose.h"
#include "rigscope/core/scene.h"
#include "rigscope/core/topology.h"

namespace rigscope {

struct RivetInfluence {
    int joint = -1;  // node index
    double weight = 0.0;
};

// The vertex's influences as node indices, a joint listed twice by the file merged into one,
// heaviest first (file order among equal weights).
std::vector<RivetInfluence> vertex_influences(const Scene& scene, const Mesh& mesh, std::uint32_t vertex);

// The joint a rivet follows by default: the heaviest influence whose parent node is also an
// influence (the joint that bends the vertex against its parent), else the heaviest. -1 for a
// vertex without influences.
int default_rivet_joint(const Scene& scene, const std::vector<RivetInfluence>& influences);

// The world matrix of `node` in `pose`. In the bind pose a joint of `mesh`'s skin is at its bind
// matrix, the inverse of its inverse bind, so the skeleton agrees with the stored mesh even when
// the file's rest pose does not; other nodes are at their rest world matrices.
Eigen::Matrix4d rivet_node_world(const Scene& scene, const Mesh& mesh, const Pose& pose, int node);

// The blended skinning transform of one file vertex, sum of weight x world(joint) x
// inverse_bind(joint), in double (dual-quaternion and blended skins: skin_dq.h's
// dq_vertex_transform); the identity in the bind pose or without influences.
Eigen::Matrix<double, 3, 4> vertex_skin_transform(const Scene& scene, const Mesh& mesh, const Pose& pose, std::uint32_t vertex);

// The deformed world position of one file vertex (morph, then skinning by the skin's method), in double:
// the same rule as deform_mesh without its float joint matrices, and without deforming the
// whole mesh for a handful of vertices. The mesh must be skinned.
Eigen::Vector3d skinned_vertex(const Scene& scene, int mesh_index, const Pose& pose, std::uint32_t vertex);

// The note's closed-form pivot, world space at bind: p_J + (v - p_J)(1 - w_J), with p_J J's
// bind position and v the stored vertex. Empty unless the vertex has exactly two influences and
// the other one is J's parent: only then does the vertex move on a circle about it.
std::optional<Eigen::Vector3d> analytic_pivot(const Scene& scene, const Mesh& mesh, std::uint32_t vertex, int joint);

// What the fit needs from one frame.
struct RivetSample {
    Eigen::Matrix4d parent_world = Eigen::Matrix4d::Identity();  // identity when J is a root
    Eigen::Matrix3d joint_linear = Eigen::Matrix3d::Identity();  // A_J: linear part of J's world matrix
    Eigen::Vector3d vertex = Eigen::Vector3d::Zero();            // v(f), world
};

RivetSample rivet_sample(const Scene& scene, int mesh_index, const Pose& pose, std::uint32_t vertex, int joint);

// Pivots whose magnitude is below this fraction of the largest are treated as zero by the
// rank-revealing solve: the data are float at heart (keys, matrices), so a direction the frames
// determine only through rounding noise must count as undetermined, not be solved for.
constexpr double kRivetRankThreshold = 1e-6;

struct RivetFit {
    Eigen::Vector3d pivot_parent = Eigen::Vector3d::Zero();  // p, in J's parent's space
    Eigen::Vector3d offset = Eigen::Vector3d::Zero();        // o, in J's (pivot's) space
    int rank = 0;                                            // of the 3F x 6 system; 6 = fully determined
    double rms_error = 0.0;  // sqrt(mean_f |r(f) - v(f)|^2), scene units
    double max_error = 0.0;  // max_f |r(f) - v(f)|
};

// Least squares over the samples with a complete orthogonal decomposition: where the frames
// leave directions undetermined (all rotations about one axis leave p + o free along it) the
// minimum-norm (p, o) among the exact minimisers.
RivetFit fit_rivet(const std::vector<RivetSample>& samples);

// r(f) for a fitted rivet.
inline Eigen::Vector3d rivet_position(const RivetSample& s, const Eigen::Vector3d& p, const Eigen::Vector3d& o) {
    return s.parent_world.topLeftCorner<3, 3>() * p + s.parent_world.topRightCorner<3, 1>() + s.joint_linear * o;
}

// --- Baked rivets --------------------------------------------------------------------------

// What a baked rivet reads of the mesh around its vertex: the faces around its welded vertex and
// the neighbours its tangent may follow, as indices into `points` (file vertices to deform).
struct BakeStencil {
    std::uint32_t vertex = 0;
    std::vector<std::uint32_t> points;        // points[0] is the vertex itself
    std::vector<std::uint32_t> face_offsets{0};
    std::vector<std::uint32_t> face_corners;  // into points
    std::vector<std::uint32_t> edge_ends;     // into points, the welded vertex's edges in topology order
    Eigen::Vector3d bind_normal = Eigen::Vector3d::Zero();  // area-weighted, of the stored faces, unit
};

// Throws Error (exit 5) when the vertex lies on no face of at least three distinct corners
// (no normal to orient by).
BakeStencil bake_stencil(const Mesh& mesh, const Topology& topo, std::uint32_t vertex);

struct BakedTransform {
    Eigen::Vector3d position = Eigen::Vector3d::Zero();
    // Columns: x = y cross z, y = the area-weighted normal of the deformed faces around the
    // vertex, z = the first edge that is not along the normal, projected onto the normal plane
    // (Maya's rivet: aim Y at the normal, up Z along the surface).
    Eigen::Quaterniond rotation = Eigen::Quaterniond::Identity();
};

// The transform from the deformed positions of stencil.points, the normal's sign chosen to agree
// with `side` (zero: no preference). `previous` (the transform of the previous frame) picks the
// quaternion's sign so consecutive keys lie in one hemisphere and interpolate the short way;
// without it w >= 0.
BakedTransform bake_transform(const BakeStencil& stencil, const std::vector<Eigen::Vector3d>& points,
                              const Eigen::Vector3d& side, const BakedTransform* previous);

// bake_transform at `pose`, the stencil's points deformed by skinned_vertex. The normal's side:
// the previous frame's normal when there is one, else the bind normal carried by the vertex's
// blended skinning transform (as a renderer skins normals). Where skinning folds the surface over
// itself (the inside of a sharp bend: bend_cylinder's inner seam past 63 degrees) the deformed
// faces turn inside out and their area-weighted normal reverses within a frame; following the
// previous frame keeps the rivet from spinning by 180 degrees there, and neither the skinned normal
// nor any other single-frame rule is a reliable outside in such a fold (next to the seam the
// skinned normal and the faces' normal end up more than 90 degrees apart).
BakedTransform bake_rivet(const Scene& scene, int mesh_index, const Pose& pose, const BakeStencil& stencil,
                          const BakedTransform* previous);

// --- Rivet nodes in a scene ----------------------------------------------------------------

// Adds a fitted rivet to `scene`: node "rivet_<vertex>_pivot" under J's parent (a root when J
// is one) at translation p with J's rest rotation and scale, and its child "rivet_<vertex>" at
// o. Every clip channel animating J's rotation or scale is copied onto the pivot, so the pivot
// turns with J in every clip; J's translation is not followed (the fit assumes the pivot stays
// at p in its parent's space). Returns the child's node index.
int add_rivet_nodes(Scene& scene, std::uint32_t vertex, int joint, const RivetFit& fit);

// Adds a baked rivet: root node "rivet_<vertex>" at rest transform `rest`, with LINEAR
// translation and rotation channels in scene.clips[clip] keyed at `times` (seconds, increasing).
// No channels when clip < 0 or times is empty. Returns the node index.
int add_baked_rivet_node(Scene& scene, std::uint32_t vertex, const BakedTransform& rest, int clip,
                         const std::vector<double>& times, const std::vector<BakedTransform>& keys);

}  // namespace rigscope
