// Volume of a skinned mesh per frame (issue 59, docs/methods.md "Volume"): the signed volume a
// closed mesh encloses, by the divergence theorem over its faces, and per joint region the
// signed volume swept from the joint's origin over the region's faces (Rohmer, Hahmann and Cani
// 2008), each with its ratio to the same measure on the stored bind mesh.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

#include "rigscope/core/pose.h"
#include "rigscope/core/scene.h"
#include "rigscope/core/simd.h"
#include "rigscope/core/skin.h"
#include "rigscope/core/topology.h"

namespace rigscope {

class ThreadPool;

// How the welded faces close. Closed: every welded edge is shared by exactly two faces that run
// along it in opposite directions (a consistently oriented 2-manifold without boundary).
struct VolumeClosure {
    bool closed = false;
    std::size_t boundary_edges = 0;      // welded edges of one face (a hole's rim)
    std::size_t nonmanifold_edges = 0;   // of more than two faces
    std::size_t misoriented_edges = 0;   // two faces running the same way along them
};

// One joint region: the faces whose corners' heaviest influence is mostly this joint.
struct VolumeRegion {
    int skin_joint = -1;  // index into the skin's joints
    int node = -1;        // the joint's node: the region's name
    std::size_t faces = 0;       // file faces in the region
    std::size_t quads = 0;       // their fan triangles, paired into quads (VolumeLayout::quads)
    double bind = 0;             // the region's measure on the bind mesh, joint at its bind position
};

// What is fixed for a mesh: its welded fan triangles grouped by region, the regions, whether it
// is closed, and the bind measures. Built once, evaluated per frame.
struct VolumeLayout {
    // Fan triangles as welded representatives (file vertex ids), 4 per entry: two triangles
    // (p0, p1, p2), (p0, p2, p3) in a row (a polygon's fan, a split quad) are one quad
    // (p0, p1, p2, p3), a lone triangle the quad (p0, p1, p2, p2). Grouped: region r's are quads
    // [group_begin[r], group_begin[r+1]); the last group (r = regions.size()) is the faces in no
    // region (corners without influences).
    std::vector<std::uint32_t> quads;
    // The highest vertex id in `quads` (0 when none): the AVX2 sums read each lower vertex with
    // one 16-byte load, which reaches into the next vertex, and this one (perhaps the array's
    // last) within its own 12 bytes.
    std::uint32_t highest_vertex = 0;
    std::vector<std::uint32_t> group_begin;
    std::vector<VolumeRegion> regions;
    VolumeClosure closure;
    std::size_t faces = 0;              // file faces
    std::size_t degenerate_faces = 0;   // faces that collapse onto fewer than 3 welded corners: skipped
    // Per file face, its region (index into regions), -1 for a face in none or skipped: the
    // report page marks a region by its faces (check --html --max-volume-loss).
    std::vector<std::int32_t> face_region;
    // Per skin joint, its position where the stored mesh is bound (inverse of its inverse bind).
    std::vector<Eigen::Vector3d> bind_joints;
    double bind_volume = 0;             // the closed mesh's volume as stored (0 when open)
};

// The layout of scene.meshes[mesh_index] (weld as --weld says), its bind measures taken from
// `bind_positions` (the mesh deformed at the bind pose). Regions only for a skinned mesh
// without a point cache: a cache, not the joints, moves the others.
VolumeLayout volume_layout(const Scene& scene, int mesh_index, bool weld, const std::vector<Eigen::Vector3f>& bind_positions);

// The measures of one set of positions: the mesh's signed volume (every triangle, whichever
// region) and each region's measure swept from joints[r] (its joint's position). Triangles are
// summed in fixed blocks whose partial sums are added in block order: the same bits for any
// thread count, and on the AVX2 kernel or not (`avx2`: simd.h's avx2_default() decides). Throws
// Error (bad input) when a position is not finite.
struct VolumeMeasures {
    double volume = 0;
    std::vector<double> regions;
};
void measure_volume(const VolumeLayout& layout, const Eigen::Vector3f* positions, const std::vector<Eigen::Vector3d>& region_joints,
                    VolumeMeasures& out, ThreadPool* pool = nullptr, bool avx2 = avx2_default());

// Per frame: the mesh deformed at a pose, then measured. Holds what stays between frames.
class MeshVolume {
public:
    MeshVolume(const Scene& scene, int mesh_index, bool weld);

    int mesh() const { return mesh_; }
    const VolumeLayout& layout() const { return layout_; }
    // Deforms at `pose` and measures; the result stays until the next call.
    void evaluate(const Scene& scene, const Pose& pose, ThreadPool* pool = nullptr);
    const VolumeMeasures& measures() const { return measures_; }
    // Where each region's joint is at the last pose evaluated (its world position).
    const std::vector<Eigen::Vector3d>& joints() const { return joints_; }

    // Quads a task sums: large enough to outweigh its dispatch.
    static constexpr std::size_t kBlock = 32768;

private:
    int mesh_ = -1;
    VolumeLayout layout_;
    MeshDeformer deformer_;
    std::vector<Eigen::Vector3f> positions_;
    std::vector<Eigen::Vector3d> joints_;
    VolumeMeasures measures_;
    bool evaluated_ = false;
    bool avx2_ = avx2_default();  // the triangle sums' AVX2 kernel (the same bits either way)
};

// A region's ratio: measure over bind measure; NaN where the bind measure is too close to 0 to
// divide by (|bind| at most 1e-9 of the mesh's bounding-box diagonal cubed).
double volume_ratio(double measure, double bind, double diagonal);

}  // namespace rigscope
