#include "io/alembic/abc_normals.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>

namespace rigscope::abc {

namespace {

// The frame at a vertex: its smooth normal n, the edge e made orthogonal to n, and n x e; false
// where either degenerates (a vertex on no smooth face, or an edge along the normal).
bool frame(const Eigen::Vector3f& smooth, const Eigen::Vector3f& edge, Eigen::Matrix3f& f) {
    const float ln = smooth.norm();
    if (!(ln > 1e-30f) || !std::isfinite(ln)) return false;
    const Eigen::Vector3f n = smooth / ln;
    Eigen::Vector3f t = edge - edge.dot(n) * n;
    const float lt = t.norm();
    if (!(lt > 1e-12f * std::max(1.0f, edge.norm())) || !std::isfinite(lt)) return false;
    t /= lt;
    f.col(0) = n;
    f.col(1) = t;
    f.col(2) = n.cross(t);
    return true;
}

// A polygon's unit normal (Newell's sum; a triangle's cross product), or zero when degenerate.
Eigen::Vector3f face_normal(const std::vector<Eigen::Vector3f>& p, const std::uint32_t* c, std::uint32_t n) {
    Eigen::Vector3f s = Eigen::Vector3f::Zero();
    if (n == 3) {
        s = (p[c[1]] - p[c[0]]).cross(p[c[2]] - p[c[0]]);
    } else {
        for (std::uint32_t k = 0; k < n; ++k) s += p[c[k]].cross(p[c[k + 1 < n ? k + 1 : 0]]);
    }
    const float l = s.norm();
    return l > 1e-30f && std::isfinite(l) ? Eigen::Vector3f(s / l) : Eigen::Vector3f::Zero();
}

}  // namespace

CarriedNormals::CarriedNormals(const std::vector<Eigen::Vector3f>& rest, const std::vector<Eigen::Vector3f>& normals,
                               const std::vector<std::uint32_t>& face_offsets, const std::vector<std::uint32_t>& face_indices)
    : offsets_(face_offsets), indices_(face_indices) {
    const std::size_t n = rest.size();
    const std::size_t faces = offsets_.empty() ? 0 : offsets_.size() - 1;
    fallback_.resize(n);
    for (std::size_t v = 0; v < n; ++v) {
        const float len = normals[v].norm();
        fallback_[v] = len > 0 && std::isfinite(len) ? Eigen::Vector3f(normals[v] / len) : Eigen::Vector3f(0, 1, 0);
    }
    // Flat faces as Blender's glTF importer finds them: every corner's normal is the face's.
    flat_.assign(faces, 0);
    for (std::size_t f = 0; f < faces; ++f) {
        const std::uint32_t a = offsets_[f], b = offsets_[f + 1];
        if (b - a < 3) continue;
        const Eigen::Vector3f fn = face_normal(rest, &indices_[a], b - a);
        if (fn.isZero()) continue;
        bool flat = true;
        for (std::uint32_t k = a; k < b && flat; ++k) flat = fallback_[indices_[k]].dot(fn) > 0.9999999f;
        if (flat) flat_[f] = 1, flat_faces_.push_back(std::uint32_t(f));
    }
    corners_.resize(indices_.size());
    for (std::size_t f = 0, flat_index = 0; f < faces; ++f) {
        for (std::uint32_t k = offsets_[f]; k < offsets_[f + 1]; ++k) corners_[k] = flat_[f] ? std::uint32_t(n + flat_index) : indices_[k];
        if (flat_[f]) ++flat_index;
    }
    // A vertex's first edge: from it to the next corner of the first smooth face it is a corner of.
    edge_.resize(n);
    for (std::uint32_t v = 0; v < n; ++v) edge_[v] = v;
    std::vector<char> seen(n, 0);
    for (std::size_t f = 0; f < faces; ++f) {
        if (flat_[f]) continue;
        const std::uint32_t a = offsets_[f], b = offsets_[f + 1];
        for (std::uint32_t k = a; k < b; ++k) {
            const std::uint32_t v = indices_[k];
            if (seen[v]) continue;
            seen[v] = 1;
            edge_[v] = indices_[k + 1 < b ? k + 1 : a];
        }
    }
    accumulate(rest);
    coeffs_.resize(n);
    for (std::size_t v = 0; v < n; ++v) {
        Eigen::Matrix3f f;
        // No frame at rest: the normal follows the smooth one (coefficient 1 on it).
        coeffs_[v] = frame(smooth_[v], rest[edge_[v]] - rest[v], f) ? Eigen::Vector3f(f.transpose() * fallback_[v])
                                                                      : Eigen::Vector3f(1, 0, 0);
    }
}

void CarriedNormals::accumulate(const std::vector<Eigen::Vector3f>& p) {
    smooth_.assign(p.size(), Eigen::Vector3f::Zero());
    flat_normals_.resize(flat_faces_.size());
    const std::size_t faces = offsets_.empty() ? 0 : offsets_.size() - 1;
    for (std::size_t f = 0, fi = 0; f < faces; ++f) {
        const std::uint32_t a = offsets_[f], b = offsets_[f + 1];
        const Eigen::Vector3f fn = b - a >= 3 ? face_normal(p, &indices_[a], b - a) : Eigen::Vector3f::Zero();
        if (flat_[f]) {
            flat_normals_[fi++] = fn;
            continue;
        }
        if (fn.isZero()) continue;
        // Each corner adds the face's normal times the face's angle there (Blender's weighting).
        for (std::uint32_t k = a; k < b; ++k) {
            const Eigen::Vector3f& c = p[indices_[k]];
            const Eigen::Vector3f e1 = p[indices_[k + 1 < b ? k + 1 : a]] - c;
            const Eigen::Vector3f e0 = p[indices_[k > a ? k - 1 : b - 1]] - c;
            const float l = e0.norm() * e1.norm();
            if (!(l > 0)) continue;
            const float angle = std::acos(std::clamp(e0.dot(e1) / l, -1.0f, 1.0f));
            smooth_[indices_[k]] += angle * fn;
        }
    }
}

void CarriedNormals::at(const std::vector<Eigen::Vector3f>& p, std::vector<Eigen::Vector3f>& out) {
    accumulate(p);
    out.resize(p.size() + flat_faces_.size());
    for (std::size_t v = 0; v < p.size(); ++v) {
        Eigen::Matrix3f f;
        if (!frame(smooth_[v], p[edge_[v]] - p[v], f)) {
            out[v] = fallback_[v];
            continue;
        }
        const Eigen::Vector3f c = f * coeffs_[v];
        const float len = c.norm();
        out[v] = len > 0 ? Eigen::Vector3f(c / len) : f.col(0);
    }
    // A flat face's corners: its normal (a face degenerate at this sample: the file's normal of
    // its first corner).
    for (std::size_t i = 0; i < flat_faces_.size(); ++i)
        out[p.size() + i] = flat_normals_[i].isZero() ? fallback_[indices_[offsets_[flat_faces_[i]]]] : flat_normals_[i];
}

}  // namespace rigscope::abc
