// Mesh and joint-region volumes per frame (core/volume.h; the rules are docs/methods.md "Volume").
#include "rigscope/core/volume.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "rigscope/core/error.h"
#include "rigscope/core/parallel.h"

namespace rigscope {

namespace {

// The skin joint a vertex leans on most: its heaviest influence, a tie going to the lower skin
// joint index (the file's order of the skin's joints); -1 without influences.
int heaviest_joint(const Influences& inf, std::size_t v) {
    if (v >= inf.vertex_count()) return -1;
    int best = -1;
    float weight = 0;
    for (std::uint32_t k = inf.offsets[v]; k < inf.offsets[v + 1]; ++k) {
        const int j = inf.joints[k];
        const float w = inf.weights[k];
        if (!(w > 0)) continue;
        if (best < 0 || w > weight || (w == weight && j < best)) {
            best = j;
            weight = w;
        }
    }
    return best;
}

// The face's region: the joint most of its corners lean on; a tie goes to the lower skin joint
// index. Corners without influences do not vote; -1 when none does.
int face_joint(const std::vector<std::uint32_t>& corners, const std::vector<int>& joint_of) {
    int best = -1, best_votes = 0;
    for (std::size_t i = 0; i < corners.size(); ++i) {
        const int j = joint_of.empty() ? -1 : joint_of[corners[i]];
        if (j < 0) continue;
        int votes = 0;
        for (std::uint32_t c : corners)
            if (joint_of[c] == j) ++votes;
        if (votes > best_votes || (votes == best_votes && j < best)) {
            best = j;
            best_votes = votes;
        }
    }
    return best;
}

struct DirectedEdge {
    std::uint64_t key;  // (smaller welded id << 32) | larger
    bool forward;       // the face runs from the smaller to the larger
};

VolumeClosure closure_of(std::vector<DirectedEdge>& edges, std::size_t faces) {
    std::sort(edges.begin(), edges.end(), [](const DirectedEdge& a, const DirectedEdge& b) {
        return a.key != b.key ? a.key < b.key : a.forward < b.forward;
    });
    VolumeClosure c;
    for (std::size_t i = 0; i < edges.size();) {
        std::size_t j = i;
        while (j < edges.size() && edges[j].key == edges[i].key) ++j;
        const std::size_t n = j - i;
        if (n == 1) ++c.boundary_edges;
        else if (n > 2) ++c.nonmanifold_edges;
        else if (edges[i].forward == edges[i + 1].forward) ++c.misoriented_edges;
        i = j;
    }
    c.closed = faces > 0 && !edges.empty() && c.boundary_edges == 0 && c.nonmanifold_edges == 0 && c.misoriented_edges == 0;
    return c;
}

// The sums a run of triangles gives, relative to an origin o: s = sum p0.(p1 x p2) and
// a = sum (p0 x p1 + p1 x p2 + p2 x p0). The volume swept from any point q over them is then
// (s - (q - o).a) / 6, so one pass serves the mesh (o itself) and every region (its joint).
struct TriangleSums {
    double s = 0;
    Eigen::Vector3d a = Eigen::Vector3d::Zero();
};

TriangleSums sum_triangles(const std::uint32_t* tri, std::size_t count, const Eigen::Vector3f* p, const Eigen::Vector3d& origin) {
    TriangleSums out;
    for (std::size_t t = 0; t < count; ++t, tri += 3) {
        const Eigen::Vector3d a = p[tri[0]].cast<double>() - origin;
        const Eigen::Vector3d b = p[tri[1]].cast<double>() - origin;
        const Eigen::Vector3d c = p[tri[2]].cast<double>() - origin;
        const Eigen::Vector3d bc = b.cross(c);
        out.s += a.dot(bc);
        out.a += a.cross(b) + bc + c.cross(a);
    }
    return out;
}

}  // namespace

VolumeLayout volume_layout(const Scene& scene, int mesh_index, bool weld, const std::vector<Eigen::Vector3f>& bind_positions) {
    const Mesh& mesh = scene.meshes[mesh_index];
    VolumeLayout L;
    L.faces = mesh.face_count();
    const Topology topo = build_topology(mesh, weld, kWeldRelativeTolerance, /*edge_list=*/false);
    const bool skinned = mesh.skin >= 0 && !mesh.influences.empty() && !mesh.cache;
    const std::size_t joint_count = skinned ? scene.skins[mesh.skin].joints.size() : 0;

    // Per welded vertex, its region's skin joint (welded vertices share their influences).
    std::vector<int> joint_of;
    if (skinned) {
        joint_of.resize(topo.welded_count());
        for (std::size_t w = 0; w < topo.welded_count(); ++w) joint_of[w] = heaviest_joint(mesh.influences, topo.representative[w]);
    }

    std::vector<DirectedEdge> edges;
    edges.reserve(mesh.face_indices.size());
    std::vector<std::uint32_t> tris;     // welded ids, file order
    std::vector<int> tri_joint;          // per triangle, its face's skin joint (-1: none)
    std::vector<std::size_t> faces_of(joint_count, 0);
    std::vector<std::uint32_t> corners;
    tris.reserve(mesh.face_indices.size() * 3);
    for (std::size_t f = 0; f < L.faces; ++f) {
        // The face's welded corners, a corner repeated by the next one collapsed (also around
        // the end): an edge the weld shrank to a point is no edge.
        corners.clear();
        for (std::uint32_t k = mesh.face_offsets[f]; k < mesh.face_offsets[f + 1]; ++k) {
            const std::uint32_t w = topo.welded_of[mesh.face_indices[k]];
            if (corners.empty() || corners.back() != w) corners.push_back(w);
        }
        while (corners.size() > 1 && corners.back() == corners.front()) corners.pop_back();
        if (corners.size() < 3) {
            ++L.degenerate_faces;
            continue;
        }
        for (std::size_t i = 0; i < corners.size(); ++i) {
            const std::uint32_t a = corners[i], b = corners[(i + 1) % corners.size()];
            edges.push_back({a < b ? (std::uint64_t(a) << 32 | b) : (std::uint64_t(b) << 32 | a), a < b});
        }
        const int joint = face_joint(corners, joint_of);
        if (joint >= 0) ++faces_of[joint];
        // A polygon as the fan from its first corner; a fan triangle with a repeated corner
        // (a polygon that passes through one point twice) has no area and is left out.
        for (std::size_t i = 1; i + 1 < corners.size(); ++i) {
            const std::uint32_t a = corners[0], b = corners[i], c = corners[i + 1];
            if (a == b || b == c || a == c) continue;
            tris.insert(tris.end(), {a, b, c});
            tri_joint.push_back(joint);
        }
    }
    L.closure = closure_of(edges, L.faces - L.degenerate_faces);
    edges = {};

    // Regions: the skin joints with faces, in the skin's order; groups in that order, then the
    // faces in no region. Within a group triangles keep the file's order.
    std::vector<int> region_of(joint_count, -1);
    for (std::size_t j = 0; j < joint_count; ++j)
        if (faces_of[j]) {
            region_of[j] = static_cast<int>(L.regions.size());
            VolumeRegion r;
            r.skin_joint = static_cast<int>(j);
            r.node = scene.skins[mesh.skin].joints[j];
            r.faces = faces_of[j];
            L.regions.push_back(r);
        }
    const std::size_t groups = L.regions.size() + 1;
    std::vector<std::uint32_t> count(groups + 1, 0);
    auto group_of = [&](std::size_t t) { return tri_joint[t] < 0 ? L.regions.size() : std::size_t(region_of[tri_joint[t]]); };
    for (std::size_t t = 0; t < tri_joint.size(); ++t) ++count[group_of(t) + 1];
    for (std::size_t g = 0; g < groups; ++g) count[g + 1] += count[g];
    L.group_begin = count;
    for (std::size_t r = 0; r < L.regions.size(); ++r) L.regions[r].triangles = count[r + 1] - count[r];
    L.triangles.resize(tris.size());
    for (std::size_t t = 0; t < tri_joint.size(); ++t) {
        const std::uint32_t slot = count[group_of(t)]++;
        for (int c = 0; c < 3; ++c) L.triangles[3 * std::size_t(slot) + c] = topo.representative[tris[3 * t + c]];
    }

    if (skinned) {
        const Skin& skin = scene.skins[mesh.skin];
        L.bind_joints.resize(joint_count);
        for (std::size_t j = 0; j < joint_count; ++j) L.bind_joints[j] = skin.inverse_bind[j].inverse().block<3, 1>(0, 3);
    }
    std::vector<Eigen::Vector3d> joints;
    for (const VolumeRegion& r : L.regions) joints.push_back(L.bind_joints[r.skin_joint]);
    VolumeMeasures bind;
    measure_volume(L, bind_positions.data(), joints, bind);
    for (std::size_t r = 0; r < L.regions.size(); ++r) L.regions[r].bind = bind.regions[r];
    L.bind_volume = L.closure.closed ? bind.volume : 0.0;
    return L;
}

void measure_volume(const VolumeLayout& layout, const Eigen::Vector3f* positions, const std::vector<Eigen::Vector3d>& region_joints,
                    VolumeMeasures& out, ThreadPool* pool) {
    const std::size_t groups = layout.group_begin.empty() ? 0 : layout.group_begin.size() - 1;
    out.regions.assign(layout.regions.size(), 0.0);
    out.volume = 0;
    if (layout.triangles.empty()) return;
    // Tasks: each group cut into blocks of kBlock triangles, so a task's triangles share a region
    // and the cuts do not depend on the thread count.
    std::vector<std::pair<std::size_t, std::size_t>> tasks;  // (group, first triangle)
    for (std::size_t g = 0; g < groups; ++g)
        for (std::size_t t = layout.group_begin[g]; t < layout.group_begin[g + 1]; t += MeshVolume::kBlock) tasks.emplace_back(g, t);
    // Relative to a corner of the mesh itself: a mesh far from the file's origin keeps its
    // digits (the closed volume does not depend on the point; the regions' measures are moved
    // back to their joints below).
    const Eigen::Vector3d origin = positions[layout.triangles[0]].cast<double>();
    std::vector<TriangleSums> sums(tasks.size());
    run_tasks(pool, tasks.size(), [&](std::size_t i) {
        const auto [g, first] = tasks[i];
        const std::size_t end = std::min<std::size_t>(layout.group_begin[g + 1], first + MeshVolume::kBlock);
        sums[i] = sum_triangles(layout.triangles.data() + 3 * first, end - first, positions, origin);
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
    measure_volume(layout_, positions_.data(), joints_, measures_, pool);
    evaluated_ = true;
}

double volume_ratio(double measure, double bind, double diagonal) {
    const double floor = 1e-9 * diagonal * diagonal * diagonal;
    if (!(std::fabs(bind) > floor)) return std::numeric_limits<double>::quiet_NaN();
    return measure / bind;
}

}  // namespace rigscope
