// Mesh and joint-region volumes per frame (core/volume.h; the rules are docs/methods.md "Volume").
#include "rigscope/core/volume.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "rigscope/core/error.h"
#include "rigscope/core/parallel.h"
#include "rigscope/core/simd.h"
#include "volume_lanes.h"

namespace rigscope {

namespace {

// The skin joint a vertex leans on most: its heaviest influence, a tie going to the lower skin
// joint index (the file's order of the skin's joints); -1 without influences.
int heaviest_joint(const Influences& inf, std::size_t v, std::size_t joint_count) {
    if (v >= inf.vertex_count()) return -1;
    int best = -1;
    float weight = 0;
    for (std::uint32_t k = inf.offsets[v]; k < inf.offsets[v + 1]; ++k) {
        const int j = inf.joints[k];
        const float w = inf.weights[k];
        if (!(w > 0) || std::size_t(j) >= joint_count) continue;  // readers refuse a joint past the skin's; never trusted here
        if (best < 0 || w > weight || (w == weight && j < best)) {
            best = j;
            weight = w;
        }
    }
    return best;
}

// The face's region: the joint most of its corners lean on; a tie goes to the lower skin joint
// index. Corners without influences do not vote; -1 when none does. Sorted votes: a polygon of
// many corners costs n log n, not n^2.
int face_joint(const std::vector<std::uint32_t>& corners, const std::vector<int>& joint_of, std::vector<int>& votes) {
    if (joint_of.empty()) return -1;
    votes.clear();
    for (std::uint32_t c : corners)
        if (joint_of[c] >= 0) votes.push_back(joint_of[c]);
    std::sort(votes.begin(), votes.end());
    int best = -1;
    std::size_t best_count = 0;
    for (std::size_t i = 0; i < votes.size();) {
        std::size_t j = i;
        while (j < votes.size() && votes[j] == votes[i]) ++j;
        if (j - i > best_count) {  // ascending joints: an equal count keeps the lower one
            best = votes[i];
            best_count = j - i;
        }
        i = j;
    }
    return best;
}

// How many faces run along each welded edge each way, counted in the topology's neighbour lists
// (the same polygon edges, each list ascending): the count of a -> b sits at b's place in a's
// list. Linear in the corners, no sort.
struct EdgeRuns {
    const Topology& topo;
    std::vector<std::uint16_t> runs;  // per neighbour entry, saturating
    explicit EdgeRuns(const Topology& t) : topo(t), runs(t.neighbours.size(), 0) {}

    std::size_t slot(std::uint32_t a, std::uint32_t b) const {
        const std::uint32_t* first = topo.neighbours.data() + topo.neighbour_offsets[a];
        const std::uint32_t* last = topo.neighbours.data() + topo.neighbour_offsets[a + 1];
        const std::uint32_t* it = std::lower_bound(first, last, b);
        if (it == last || *it != b) throw internal_error("volume: a face edge missing from the welded topology");
        return static_cast<std::size_t>(it - topo.neighbours.data());
    }
    void add(std::uint32_t a, std::uint32_t b) {
        std::uint16_t& r = runs[slot(a, b)];
        if (r < 0xffff) ++r;
    }
};

VolumeClosure closure_of(const EdgeRuns& e, std::size_t faces) {
    VolumeClosure c;
    bool any = false;
    const Topology& t = e.topo;
    for (std::uint32_t a = 0; a + 1 < t.neighbour_offsets.size(); ++a)
        for (std::uint32_t k = t.neighbour_offsets[a]; k < t.neighbour_offsets[a + 1]; ++k) {
            const std::uint32_t b = t.neighbours[k];
            if (b < a) continue;  // each edge once, from its smaller end
            const unsigned forward = e.runs[k], backward = e.runs[e.slot(b, a)];
            const unsigned n = forward + backward;
            if (n == 0) continue;  // an edge of skipped (degenerate) faces only
            any = true;
            if (n == 1) ++c.boundary_edges;
            else if (n > 2) ++c.nonmanifold_edges;
            else if (forward != 1) ++c.misoriented_edges;
        }
    c.closed = faces > 0 && any && c.boundary_edges == 0 && c.nonmanifold_edges == 0 && c.misoriented_edges == 0;
    return c;
}

// The sums a run of triangles gives, relative to an origin o: with n = (p1 - p0) x (p2 - p0)
// (twice the triangle's area vector), s = sum (p0 - o).n and a = sum n. The volume swept from any
// point q over them is then (s - (q - o).a) / 6, since (p0 - q).((p1 - q) x (p2 - q)) =
// (p0 - q).n: one pass serves the mesh (o itself) and every region (its joint). Two fan
// triangles (p0, p1, p2), (p0, p2, p3) are one quad with n = (p2 - p0) x (p3 - p1) (the sum of
// theirs), so a quad costs one cross and one dot product. Summed in four lanes (volume_lanes.h),
// on AVX2 where the CPU has it: the same bits either way.
struct TriangleSums {
    double s = 0;
    Eigen::Vector3d a = Eigen::Vector3d::Zero();
};

TriangleSums sum_quads(const std::uint32_t* quads, std::size_t count, const Eigen::Vector3f* p, std::uint32_t highest, const Eigen::Vector3d& origin,
                       bool avx2) {
    detail::VolumeLanes lanes;
    const double o[3] = {origin.x(), origin.y(), origin.z()};
    const float* points = p->data();
#if defined(RIGSCOPE_AVX2_KERNEL)
    if (avx2) detail::add_quads_avx2(quads, count, points, highest, o, lanes);
    else detail::add_quads_scalar(quads, 0, count, points, o, lanes);
#else
    (void)avx2;
    (void)highest;
    detail::add_quads_scalar(quads, 0, count, points, o, lanes);
#endif
    TriangleSums out;
    out.s = detail::lane_total(lanes.s);
    out.a = Eigen::Vector3d(detail::lane_total(lanes.ax), detail::lane_total(lanes.ay), detail::lane_total(lanes.az));
    return out;
}

// Whether triangles t = (a, b, c) and u make one quad (p, q, r, s) with t = (p, q, r) and
// u = (p, r, s), each turned any way round: two triangles sharing the diagonal p-r, run opposite
// ways along it (a split quad, consecutive fan triangles of a polygon).
bool quad_of(const std::uint32_t* t, const std::uint32_t* u, std::uint32_t* quad) {
    for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t p = t[i], q = t[(i + 1) % 3], r = t[(i + 2) % 3];
            if (u[k] != p || u[(k + 1) % 3] != r) continue;
            const std::uint32_t s = u[(k + 2) % 3];
            if (s == q) return false;  // the same triangle turned over: no quad
            quad[0] = p, quad[1] = q, quad[2] = r, quad[3] = s;
            return true;
        }
    return false;
}

// Per welded vertex, its region's skin joint (welded vertices share their influences); empty
// for a mesh that is not skinned.
std::vector<int> vertex_joints(const Mesh& mesh, const Topology& topo, bool skinned, std::size_t joint_count) {
    std::vector<int> joint_of;
    if (!skinned) return joint_of;
    joint_of.resize(topo.welded_count());
    for (std::size_t w = 0; w < topo.welded_count(); ++w) joint_of[w] = heaviest_joint(mesh.influences, topo.representative[w], joint_count);
    return joint_of;
}

// The face's welded corners, a corner repeated by the next one collapsed (also around the end):
// an edge the weld shrank to a point is no edge.
void welded_corners(const Mesh& mesh, const Topology& topo, std::size_t f, std::vector<std::uint32_t>& corners) {
    corners.clear();
    for (std::uint32_t k = mesh.face_offsets[f]; k < mesh.face_offsets[f + 1]; ++k) {
        const std::uint32_t w = topo.welded_of[mesh.face_indices[k]];
        if (corners.empty() || corners.back() != w) corners.push_back(w);
    }
    while (corners.size() > 1 && corners.back() == corners.front()) corners.pop_back();
}

// The faces as fan triangles over welded vertices, each with its face's skin joint.
struct FaceFans {
    std::vector<std::uint32_t> tris;      // fan triangles, welded ids, file order
    std::vector<int> tri_joint;           // per triangle, its face's skin joint (-1: none)
    std::vector<int> face_joint_of;       // per file face, its skin joint (-1: none, skipped)
    std::vector<std::size_t> faces_of;    // per skin joint, its faces
    std::size_t degenerate_faces = 0;     // faces of fewer than 3 welded corners, skipped
};

// Step 1: every face's edges counted (for the closure) and its fan triangles. A polygon is the
// fan from its first corner; a fan triangle with a repeated corner (a polygon that passes
// through one point twice) has no area and is left out.
FaceFans fan_faces(const Mesh& mesh, const Topology& topo, const std::vector<int>& joint_of, std::size_t joint_count, EdgeRuns& edges) {
    const std::size_t faces = mesh.face_count();
    FaceFans ff;
    ff.face_joint_of.assign(faces, -1);
    ff.faces_of.assign(joint_count, 0);
    std::vector<std::uint32_t> corners;
    std::vector<int> votes;
    ff.tris.reserve(mesh.face_indices.size());  // a triangle mesh's exactly; polygons grow it
    for (std::size_t f = 0; f < faces; ++f) {
        welded_corners(mesh, topo, f, corners);
        if (corners.size() < 3) {
            ++ff.degenerate_faces;
            continue;
        }
        for (std::size_t i = 0; i < corners.size(); ++i) edges.add(corners[i], corners[(i + 1) % corners.size()]);
        const int joint = face_joint(corners, joint_of, votes);
        if (joint >= 0) ++ff.faces_of[joint];
        ff.face_joint_of[f] = joint;
        for (std::size_t i = 1; i + 1 < corners.size(); ++i) {
            const std::uint32_t a = corners[0], b = corners[i], c = corners[i + 1];
            if (a == b || b == c || a == c) continue;
            ff.tris.insert(ff.tris.end(), {a, b, c});
            ff.tri_joint.push_back(joint);
        }
    }
    return ff;
}

// Step 2, regions: the skin joints with faces, in the skin's order, and each face's region.
// Returns per skin joint its region (-1: none).
std::vector<int> add_regions(const Scene& scene, const Mesh& mesh, const FaceFans& ff, VolumeLayout& L) {
    const std::size_t joint_count = ff.faces_of.size();
    std::vector<int> region_of(joint_count, -1);
    for (std::size_t j = 0; j < joint_count; ++j)
        if (ff.faces_of[j]) {
            region_of[j] = static_cast<int>(L.regions.size());
            VolumeRegion r;
            r.skin_joint = static_cast<int>(j);
            r.node = scene.skins[mesh.skin].joints[j];
            r.faces = ff.faces_of[j];
            L.regions.push_back(r);
        }
    L.face_region.resize(L.faces);
    for (std::size_t f = 0; f < L.faces; ++f) L.face_region[f] = ff.face_joint_of[f] < 0 ? -1 : region_of[ff.face_joint_of[f]];
    return region_of;
}

// Step 3: fan triangles paired into quads where two in a row of one group share a diagonal run
// both ways (a polygon's fan, a split quad: half the work); a lone one is the quad (a, b, c, c).
// The groups are the regions in order, then the faces in no region.
struct GroupedQuads {
    std::vector<std::uint32_t> quads;  // welded ids, four a quad, in triangle order
    std::vector<std::uint32_t> group;  // per quad
};

GroupedQuads pair_quads(const FaceFans& ff, const std::vector<int>& region_of, std::size_t regions) {
    const std::vector<std::uint32_t>& tris = ff.tris;
    auto group_of = [&](std::size_t t) { return ff.tri_joint[t] < 0 ? regions : std::size_t(region_of[ff.tri_joint[t]]); };
    GroupedQuads g;
    g.quads.reserve(tris.size() / 3 * 4);
    for (std::size_t t = 0; t < ff.tri_joint.size(); ++t) {
        std::uint32_t q[4] = {tris[3 * t], tris[3 * t + 1], tris[3 * t + 2], tris[3 * t + 2]};
        const bool paired = t + 1 < ff.tri_joint.size() && group_of(t) == group_of(t + 1) && quad_of(&tris[3 * t], &tris[3 * t + 3], q);
        g.quads.insert(g.quads.end(), q, q + 4);
        g.group.push_back(static_cast<std::uint32_t>(group_of(t)));
        if (paired) ++t;
    }
    return g;
}

// Step 4: the quads sorted by group (a stable counting sort: within a group triangles keep the
// file's order), as file vertices.
void place_quads(const GroupedQuads& g, const Topology& topo, VolumeLayout& L) {
    const std::size_t groups = L.regions.size() + 1;
    std::vector<std::uint32_t> count(groups + 1, 0);
    for (std::uint32_t k : g.group) ++count[k + 1];
    for (std::size_t k = 0; k < groups; ++k) count[k + 1] += count[k];
    L.group_begin = count;
    for (std::size_t r = 0; r < L.regions.size(); ++r) L.regions[r].quads = count[r + 1] - count[r];
    L.quads.resize(g.quads.size());
    for (std::size_t k = 0; k < g.group.size(); ++k) {
        const std::uint32_t slot = count[g.group[k]]++;
        for (int c = 0; c < 4; ++c) L.quads[4 * std::size_t(slot) + c] = topo.representative[g.quads[4 * k + c]];
    }
    for (std::uint32_t v : L.quads) L.highest_vertex = std::max(L.highest_vertex, v);
}

// Step 5: the bind pose's joints and volumes, what each frame's ratio divides by.
void measure_bind(const Scene& scene, const Mesh& mesh, bool skinned, std::size_t joint_count, const std::vector<Eigen::Vector3f>& bind_positions,
                  VolumeLayout& L) {
    if (skinned) {
        const Skin& skin = scene.skins[mesh.skin];
        L.bind_joints.resize(joint_count);
        for (std::size_t j = 0; j < joint_count && j < skin.inverse_bind.size(); ++j)
            L.bind_joints[j] = skin.inverse_bind[j].inverse().block<3, 1>(0, 3);
    }
    std::vector<Eigen::Vector3d> joints;
    for (const VolumeRegion& r : L.regions) joints.push_back(L.bind_joints[r.skin_joint]);
    VolumeMeasures bind;
    measure_volume(L, bind_positions.data(), joints, bind);
    for (std::size_t r = 0; r < L.regions.size(); ++r) L.regions[r].bind = bind.regions[r];
    L.bind_volume = L.closure.closed ? bind.volume : 0.0;
}

}  // namespace

VolumeLayout volume_layout(const Scene& scene, int mesh_index, bool weld, const std::vector<Eigen::Vector3f>& bind_positions) {
    const Mesh& mesh = scene.meshes[mesh_index];
    VolumeLayout L;
    L.faces = mesh.face_count();
    const Topology topo = build_topology(mesh, weld, kWeldRelativeTolerance, /*edge_list=*/false);
    const bool skinned = mesh.skin >= 0 && !mesh.influences.empty() && !mesh.cache;
    const std::size_t joint_count = skinned ? scene.skins[mesh.skin].joints.size() : 0;
    EdgeRuns edges(topo);
    const FaceFans ff = fan_faces(mesh, topo, vertex_joints(mesh, topo, skinned, joint_count), joint_count, edges);
    L.degenerate_faces = ff.degenerate_faces;
    L.closure = closure_of(edges, L.faces - L.degenerate_faces);
    const std::vector<int> region_of = add_regions(scene, mesh, ff, L);
    place_quads(pair_quads(ff, region_of, L.regions.size()), topo, L);
    measure_bind(scene, mesh, skinned, joint_count, bind_positions, L);
    return L;
}

void measure_volume(const VolumeLayout& layout, const Eigen::Vector3f* positions, const std::vector<Eigen::Vector3d>& region_joints,
                    VolumeMeasures& out, ThreadPool* pool, bool avx2) {
    const std::size_t groups = layout.group_begin.empty() ? 0 : layout.group_begin.size() - 1;
    out.regions.assign(layout.regions.size(), 0.0);
    out.volume = 0;
    if (layout.quads.empty()) return;
    // Tasks: each group cut into blocks of kBlock quads, so a task's quads share a region and the
    // cuts do not depend on the thread count.
    std::vector<std::pair<std::size_t, std::size_t>> tasks;  // (group, first quad)
    for (std::size_t g = 0; g < groups; ++g)
        for (std::size_t t = layout.group_begin[g]; t < layout.group_begin[g + 1]; t += MeshVolume::kBlock) tasks.emplace_back(g, t);
    // Relative to a corner of the mesh itself: a mesh far from the file's origin keeps its
    // digits (the closed volume does not depend on the point; the regions' measures are moved
    // back to their joints below).
    const Eigen::Vector3d origin = positions[layout.quads[0]].cast<double>();
    std::vector<TriangleSums> sums(tasks.size());
    run_tasks(pool, tasks.size(), [&](std::size_t i) {
        const auto [g, first] = tasks[i];
        const std::size_t end = std::min<std::size_t>(layout.group_begin[g + 1], first + MeshVolume::kBlock);
        sums[i] = sum_quads(layout.quads.data() + 4 * first, end - first, positions, layout.highest_vertex, origin, avx2);
    });
    // Added in task order: the same bits for any thread count.
    std::vector<TriangleSums> group(groups);
    double s = 0;
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        group[tasks[i].first].s += sums[i].s;
        group[tasks[i].first].a += sums[i].a;
        s += sums[i].s;
    }
    out.volume = s / 6.0;
    for (std::size_t r = 0; r < layout.regions.size(); ++r) out.regions[r] = (group[r].s - (region_joints[r] - origin).dot(group[r].a)) / 6.0;
    bool finite = std::isfinite(out.volume);
    for (double v : out.regions) finite = finite && std::isfinite(v);
    if (!finite) throw Error(kExitBadInput, "a deformed position is not finite (NaN or infinite): no volume");
}

MeshVolume::MeshVolume(const Scene& scene, int mesh_index, bool weld) : mesh_(mesh_index), deformer_(scene, mesh_index) {
    std::vector<Eigen::Vector3f> bind;
    deform_mesh(scene, mesh_index, bind_pose(scene), bind);
    layout_ = volume_layout(scene, mesh_index, weld, bind);
    joints_.resize(layout_.regions.size());
}

void MeshVolume::evaluate(const Scene& scene, const Pose& pose, ThreadPool* pool) {
    deformer_.set_pose(scene, pose, pool);
    // The same joint matrices and morph weights as the frame before, bit for bit: the same
    // positions and joints, so the same measures (a held pose, a static prop).
    if (evaluated_ && deformer_.pose_unchanged()) return;
    deformer_.deform_posed(scene, positions_, pool);
    for (std::size_t r = 0; r < layout_.regions.size(); ++r) {
        const VolumeRegion& reg = layout_.regions[r];
        joints_[r] = pose.bind ? layout_.bind_joints[reg.skin_joint] : Eigen::Vector3d(pose.world[reg.node].block<3, 1>(0, 3));
    }
    measure_volume(layout_, positions_.data(), joints_, measures_, pool, avx2_);
    evaluated_ = true;
}

double volume_ratio(double measure, double bind, double diagonal) {
    const double floor = 1e-9 * diagonal * diagonal * diagonal;
    if (!(std::fabs(bind) > floor)) return std::numeric_limits<double>::quiet_NaN();
    return measure / bind;
}

}  // namespace rigscope
