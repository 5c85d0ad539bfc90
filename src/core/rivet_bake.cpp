// Baked rivets: a vertex's position and a frame from its normal and an edge, per frame.
#include <algorithm>
#include <unordered_map>

#include "rigscope/core/error.h"
#include "rigscope/core/rivet.h"

namespace rigscope {

namespace {

// Newell's sum per polygon is twice its area times its normal, so the sum over the faces is the
// area-weighted normal, for quads and n-gons as for triangles. Relative to the vertex for precision.
Eigen::Vector3d area_normal(const BakeStencil& st, const std::vector<Eigen::Vector3d>& points) {
    const Eigen::Vector3d c = points[0];
    Eigen::Vector3d n = Eigen::Vector3d::Zero();
    for (std::size_t f = 0; f + 1 < st.face_offsets.size(); ++f) {
        const std::uint32_t b = st.face_offsets[f], e = st.face_offsets[f + 1];
        for (std::uint32_t k = b; k < e; ++k) {
            const Eigen::Vector3d p = points[st.face_corners[k]] - c;
            const Eigen::Vector3d q = points[st.face_corners[k + 1 < e ? k + 1 : b]] - c;
            n += p.cross(q);
        }
    }
    return n;
}

// Any unit vector perpendicular to n: the last resort when every edge lies along the normal.
Eigen::Vector3d perpendicular(const Eigen::Vector3d& n) {
    const Eigen::Vector3d axis = std::abs(n.x()) < 0.9 ? Eigen::Vector3d::UnitX() : Eigen::Vector3d::UnitY();
    return (axis - axis.dot(n) * n).normalized();
}

}  // namespace

BakeStencil bake_stencil(const Mesh& mesh, const Topology& topo, std::uint32_t vertex) {
    BakeStencil st;
    st.vertex = vertex;
    const std::uint32_t w = topo.welded_of[vertex];
    std::unordered_map<std::uint32_t, std::uint32_t> index_of;
    auto point = [&](std::uint32_t file_vertex) {
        auto [it, added] = index_of.emplace(file_vertex, static_cast<std::uint32_t>(st.points.size()));
        if (added) st.points.push_back(file_vertex);
        return it->second;
    };
    point(vertex);
    // The welded vertex, not the file vertex: a seam splits the surface around one point into
    // faces that use different file vertices, and the normal must see all of them.
    for (std::size_t f = 0; f < mesh.face_count(); ++f) {
        const std::uint32_t b = mesh.face_offsets[f], e = mesh.face_offsets[f + 1];
        bool around = false;
        std::vector<std::uint32_t> welded;
        for (std::uint32_t k = b; k < e; ++k) {
            const std::uint32_t wk = topo.welded_of[mesh.face_indices[k]];
            around = around || wk == w;
            if (std::find(welded.begin(), welded.end(), wk) == welded.end()) welded.push_back(wk);
        }
        if (!around || welded.size() < 3) continue;
        for (std::uint32_t k = b; k < e; ++k) st.face_corners.push_back(point(mesh.face_indices[k]));
        st.face_offsets.push_back(static_cast<std::uint32_t>(st.face_corners.size()));
    }
    if (st.face_offsets.size() < 2)
        throw Error(kExitMismatch, "vertex " + std::to_string(vertex) + " lies on no face: no normal to orient a baked rivet by");
    for (std::uint32_t k = topo.neighbour_offsets[w]; k < topo.neighbour_offsets[w + 1]; ++k)
        st.edge_ends.push_back(point(topo.representative[topo.neighbours[k]]));
    std::vector<Eigen::Vector3d> stored;
    for (std::uint32_t p : st.points) stored.push_back(mesh.positions[p].cast<double>());
    st.bind_normal = area_normal(st, stored);
    if (st.bind_normal.squaredNorm() > 0) st.bind_normal.normalize();
    return st;
}

BakedTransform bake_transform(const BakeStencil& st, const std::vector<Eigen::Vector3d>& points, const Eigen::Vector3d& side,
                              const BakedTransform* previous) {
    BakedTransform out;
    const Eigen::Vector3d c = points[0];
    out.position = c;
    Eigen::Vector3d n = area_normal(st, points);
    const Eigen::Matrix3d before = previous ? previous->rotation.toRotationMatrix() : Eigen::Matrix3d::Identity();
    if (n.dot(side) < 0) n = -n;
    // A collapsed neighbourhood has no normal of its own; holding the last frame's keeps the
    // keys continuous instead of snapping to an arbitrary axis.
    if (n.squaredNorm() > 0) n.normalize();
    else n = before.col(1);
    Eigen::Vector3d t = Eigen::Vector3d::Zero();
    for (std::uint32_t e : st.edge_ends) {
        const Eigen::Vector3d d = points[e] - c;
        const Eigen::Vector3d proj = d - d.dot(n) * n;
        if (proj.norm() > 1e-6 * d.norm()) {
            t = proj.normalized();
            break;
        }
    }
    if (t.isZero()) {
        const Eigen::Vector3d z = before.col(2) - before.col(2).dot(n) * n;
        t = z.norm() > 1e-6 ? z.normalized() : perpendicular(n);
    }
    Eigen::Matrix3d r;
    r.col(0) = n.cross(t);
    r.col(1) = n;
    r.col(2) = t;
    out.rotation = Eigen::Quaterniond(r).normalized();
    // q and -q are one rotation; choosing by the previous key keeps per-frame rows continuous and
    // makes slerp between keys take the short way.
    const double dot = previous ? out.rotation.coeffs().dot(previous->rotation.coeffs()) : out.rotation.w();
    if (dot < 0) out.rotation.coeffs() *= -1.0;
    return out;
}

BakedTransform bake_rivet(const Scene& scene, int mesh_index, const Pose& pose, const BakeStencil& st, const BakedTransform* previous) {
    std::vector<Eigen::Vector3d> points;
    points.reserve(st.points.size());
    for (std::uint32_t p : st.points) points.push_back(skinned_vertex(scene, mesh_index, pose, p));
    if (previous) return bake_transform(st, points, previous->rotation * Eigen::Vector3d::UnitY(), previous);
    // Normals transform by the cofactor matrix (det x inverse transpose): continuous, and defined
    // even where a blend of joint matrices is singular.
    const Eigen::Matrix3d l = vertex_skin_transform(scene, scene.meshes[mesh_index], pose, st.vertex).leftCols<3>();
    Eigen::Matrix3d cofactor;
    cofactor.col(0) = l.col(1).cross(l.col(2));
    cofactor.col(1) = l.col(2).cross(l.col(0));
    cofactor.col(2) = l.col(0).cross(l.col(1));
    return bake_transform(st, points, cofactor * st.bind_normal, nullptr);
}

}  // namespace rigscope
