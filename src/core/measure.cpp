#include "rigscope/core/measure.h"

#include <algorithm>
#include <cmath>

#include "rigscope/core/error.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rigscope {

std::vector<std::uint32_t> welded_triangles(const Mesh& mesh, const Topology& topo) {
    std::vector<std::uint32_t> tris;
    tris.reserve(mesh.face_indices.size());
    for (std::size_t f = 0; f + 1 < mesh.face_offsets.size(); ++f) {
        const std::uint32_t b = mesh.face_offsets[f], e = mesh.face_offsets[f + 1];
        if (e < b + 3) continue;
        const std::uint32_t a = topo.welded_of[mesh.face_indices[b]];
        for (std::uint32_t k = b + 1; k + 1 < e; ++k) {
            const std::uint32_t p = topo.welded_of[mesh.face_indices[k]], q = topo.welded_of[mesh.face_indices[k + 1]];
            if (a == p || p == q || a == q) continue;
            tris.insert(tris.end(), {a, p, q});
        }
    }
    return tris;
}

namespace {

// The one-ring of the triangles `keep` accepts; a vertex lists its triangles in triangle order,
// each as its two other corners in the face's winding (b, c after a).
template <typename Keep>
OneRing one_ring(const std::vector<std::uint32_t>& tris, const Topology& topo, Keep keep) {
    OneRing r;
    const std::size_t wn = topo.welded_count();
    r.self = topo.representative;
    r.offsets.assign(wn + 1, 0);
    const std::size_t nt = tris.size() / 3;
    std::vector<std::uint8_t> kept(nt);
    for (std::size_t t = 0; t < nt; ++t) {
        kept[t] = keep(t) ? 1 : 0;
        if (kept[t])
            for (int k = 0; k < 3; ++k) ++r.offsets[tris[3 * t + k] + 1];
    }
    // Entries are counted in 32 bits, three per triangle: sum in 64 first.
    std::uint64_t total = 0;
    for (std::size_t w = 0; w < wn; ++w) total += r.offsets[w + 1];
    if (total > 0xFFFFFFFFull) throw Error(kExitBadInput, "mesh has too many triangles for the measures' one-rings (3 x triangles must fit 32 bits)");
    for (std::size_t w = 0; w < wn; ++w) r.offsets[w + 1] += r.offsets[w];
    r.corners.assign(2 * std::size_t(r.offsets[wn]), 0);
    std::vector<std::uint32_t> fill(r.offsets.begin(), r.offsets.end() - 1);
    for (std::size_t t = 0; t < nt; ++t) {
        if (!kept[t]) continue;
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t w = tris[3 * t + k];
            const std::uint32_t e = fill[w]++;
            r.corners[2 * std::size_t(e)] = topo.representative[tris[3 * t + (k + 1) % 3]];
            r.corners[2 * std::size_t(e) + 1] = topo.representative[tris[3 * t + (k + 2) % 3]];
        }
    }
    return r;
}

Eigen::Vector3d rest_of(const std::vector<Eigen::Vector3f>& p, std::uint32_t v) { return p[v].cast<double>(); }

}  // namespace

AreaKernel::AreaKernel(const std::vector<std::uint32_t>& tris, const Topology& topo, const std::vector<Eigen::Vector3f>& rest_positions)
    : ring(one_ring(tris, topo, [](std::size_t) { return true; })) {
    const std::size_t wn = topo.welded_count();
    rest.assign(wn, 0.0f);
    for (std::size_t w = 0; w < wn; ++w) {
        const Eigen::Vector3d p = rest_of(rest_positions, ring.self[w]);
        double sum = 0;
        for (std::uint32_t e = ring.offsets[w]; e < ring.offsets[w + 1]; ++e)
            sum += (rest_of(rest_positions, ring.corners[2 * e]) - p).cross(rest_of(rest_positions, ring.corners[2 * e + 1]) - p).norm();
        rest[w] = static_cast<float>(sum);
    }
}

std::size_t AreaKernel::evaluate(const Eigen::Vector3f* P, std::size_t begin, std::size_t end, float* t) const {
    std::size_t degenerate = 0;
    const std::uint32_t* corner = ring.corners.data();
    for (std::size_t w = begin; w < end; ++w) {
        const Eigen::Vector3f p = P[ring.self[w]];
        float sum = 0;
        for (std::uint32_t e = ring.offsets[w]; e < ring.offsets[w + 1]; ++e) {
            const Eigen::Vector3f a = P[corner[2 * e]] - p, b = P[corner[2 * e + 1]] - p;
            const float x = a.y() * b.z() - a.z() * b.y(), y = a.z() * b.x() - a.x() * b.z(), z = a.x() * b.y() - a.y() * b.x();
            sum += std::sqrt(x * x + y * y + z * z);
        }
        const float r = rest[w], v = r / sum;
        const bool ok = r > 0 && sum > 0 && v - v == 0.0f;
        t[w] = ok ? v : 1.0f;
        degenerate += !ok;
    }
    return degenerate;
}

namespace {

// A rest triangle too thin to define a plane (area below 1e-12 of its longest edge squared) has
// no deformation gradient; it is left out of the principal one-ring.
bool plane_of(const std::vector<Eigen::Vector3f>& rest, const std::uint32_t* tri, const Topology& topo) {
    const Eigen::Vector3d a = rest_of(rest, topo.representative[tri[0]]);
    const Eigen::Vector3d e1 = rest_of(rest, topo.representative[tri[1]]) - a;
    const Eigen::Vector3d e2 = rest_of(rest, topo.representative[tri[2]]) - a;
    const double longest = std::max({e1.squaredNorm(), e2.squaredNorm(), (e2 - e1).squaredNorm()});
    return longest > 0 && e1.cross(e2).norm() > 1e-12 * longest;
}

// The rotation of least angle taking unit vector a to unit vector b, applied to x.
Eigen::Vector3d rotate_onto(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& x,
                            const Eigen::Vector3d& fallback_axis) {
    const double c = a.dot(b);
    if (c < -1 + 1e-9) {
        // Opposite normals (a fold): a half turn about an axis in the triangle's plane.
        return 2 * fallback_axis.dot(x) * fallback_axis - x;
    }
    const Eigen::Vector3d v = a.cross(b);
    return c * x + v.cross(x) + v * (v.dot(x) / (1 + c));
}

}  // namespace

PrincipalKernel::PrincipalKernel(const std::vector<std::uint32_t>& tris, const Topology& topo,
                                 const std::vector<Eigen::Vector3f>& rest_positions)
    : ring(one_ring(tris, topo, [&](std::size_t t) { return plane_of(rest_positions, &tris[3 * t], topo); })) {
    const std::size_t wn = topo.welded_count();
    coef.assign(kCoef * ring.entry_count(), 0.0f);
    for (std::size_t w = 0; w < wn; ++w) {
        const std::uint32_t e0 = ring.offsets[w], e1 = ring.offsets[w + 1];
        if (e0 == e1) continue;
        const Eigen::Vector3d p = rest_of(rest_positions, ring.self[w]);
        auto edges = [&](std::uint32_t e, Eigen::Vector3d& a, Eigen::Vector3d& b) {
            a = rest_of(rest_positions, ring.corners[2 * e]) - p;
            b = rest_of(rest_positions, ring.corners[2 * e + 1]) - p;
        };
        // The vertex's rest normal: area-weighted mean of its triangles' normals.
        Eigen::Vector3d n = Eigen::Vector3d::Zero(), a, b;
        double total = 0;
        for (std::uint32_t e = e0; e < e1; ++e) {
            edges(e, a, b);
            n += a.cross(b);
            total += a.cross(b).norm();
        }
        edges(e0, a, b);
        if (n.norm() <= 1e-9 * total) n = a.cross(b);  // the normals cancel (a pinched fan)
        n.normalize();
        const Eigen::Vector3d t1 = (a - n * n.dot(a)).norm() > 0 ? (a - n * n.dot(a)).normalized() : n.unitOrthogonal();
        const Eigen::Vector3d t2 = n.cross(t1);
        for (std::uint32_t e = e0; e < e1; ++e) {
            edges(e, a, b);
            const Eigen::Vector3d c = a.cross(b);
            const Eigen::Vector3d nt = c.normalized();
            const Eigen::Vector3d ra = rotate_onto(nt, n, a, a.normalized()), rb = rotate_onto(nt, n, b, a.normalized());
            // Dm: the rotated rest edges in (t1, t2); K = Dm^-1.
            const double d00 = t1.dot(ra), d01 = t1.dot(rb), d10 = t2.dot(ra), d11 = t2.dot(rb);
            const double det = d00 * d11 - d01 * d10;
            float* k = &coef[kCoef * e];
            k[0] = static_cast<float>(d11 / det);
            k[1] = static_cast<float>(-d01 / det);
            k[2] = static_cast<float>(-d10 / det);
            k[3] = static_cast<float>(d00 / det);
            k[4] = static_cast<float>(c.norm() / total);
        }
    }
    constexpr std::size_t L = kLanes;
    const std::size_t batches = (wn + L - 1) / L;
    batch_self.assign(batches * L, 0);
    slot_start.assign(batches + 1, 0);
    for (std::size_t b = 0; b < batches; ++b) {
        std::uint32_t slots = 0;
        for (std::size_t l = 0; l < L; ++l) {
            const std::size_t w = std::min(b * L + l, wn - 1);  // lanes past the end repeat the last vertex
            batch_self[b * L + l] = ring.self[w];
            if (b * L + l < wn) slots = std::max(slots, ring.offsets[w + 1] - ring.offsets[w]);
        }
        slot_start[b + 1] = slot_start[b] + slots;
    }
    slot_corner.assign(2 * L * std::size_t(slot_start[batches]), 0);
    slot_coef.assign(kCoef * L * std::size_t(slot_start[batches]), 0.0f);
    for (std::size_t b = 0; b < batches; ++b)
        for (std::uint32_t s = slot_start[b]; s < slot_start[b + 1]; ++s)
            for (std::size_t l = 0; l < L; ++l) {
                const std::size_t w = b * L + l;
                const std::uint32_t e = w < wn ? ring.offsets[w] + (s - slot_start[b]) : 0;
                const bool real = w < wn && e < ring.offsets[w + 1];
                slot_corner[2 * L * s + l] = real ? ring.corners[2 * e] : batch_self[b * L + l];
                slot_corner[2 * L * s + L + l] = real ? ring.corners[2 * e + 1] : batch_self[b * L + l];
                for (std::size_t k = 0; k < kCoef; ++k) slot_coef[kCoef * L * s + k * L + l] = real ? coef[kCoef * e + k] : 0.0f;
            }
    const std::uint32_t last = static_cast<std::uint32_t>(topo.welded_of.size() - 1);
    batch_reads_last.assign(batches, 0);
    for (std::size_t b = 0; b < batches; ++b) {
        for (std::size_t l = 0; l < L; ++l) batch_reads_last[b] |= batch_self[b * L + l] == last;
        for (std::uint32_t s = slot_start[b]; s < slot_start[b + 1]; ++s)
            for (std::size_t i = 0; i < 2 * L; ++i) batch_reads_last[b] |= slot_corner[2 * L * s + i] == last;
    }
}

#if defined(__SSE2__)

namespace {

inline __m128 gather(const float* P, const std::uint32_t* i, int axis) {
    return _mm_setr_ps(P[3 * std::size_t(i[0]) + axis], P[3 * std::size_t(i[1]) + axis], P[3 * std::size_t(i[2]) + axis],
                       P[3 * std::size_t(i[3]) + axis]);
}

// x, y and z of four file vertices: a 16-byte load per vertex (x, y, z and the next one's x)
// transposed, or lane by lane where a batch reads the last vertex (no 16 bytes after its x).
inline void gather3(const float* P, const std::uint32_t* i, bool wide, __m128& x, __m128& y, __m128& z) {
    if (!wide) {
        x = gather(P, i, 0);
        y = gather(P, i, 1);
        z = gather(P, i, 2);
        return;
    }
    const __m128 r0 = _mm_loadu_ps(P + 3 * std::size_t(i[0]));
    const __m128 r1 = _mm_loadu_ps(P + 3 * std::size_t(i[1]));
    const __m128 r2 = _mm_loadu_ps(P + 3 * std::size_t(i[2]));
    const __m128 r3 = _mm_loadu_ps(P + 3 * std::size_t(i[3]));
    const __m128 t0 = _mm_unpacklo_ps(r0, r1);  // x0 x1 y0 y1
    const __m128 t1 = _mm_unpacklo_ps(r2, r3);  // x2 x3 y2 y3
    const __m128 t2 = _mm_unpackhi_ps(r0, r1);  // z0 z1 . .
    const __m128 t3 = _mm_unpackhi_ps(r2, r3);  // z2 z3 . .
    x = _mm_movelh_ps(t0, t1);
    y = _mm_movehl_ps(t1, t0);
    z = _mm_movelh_ps(t2, t3);
}

inline __m128 madd(__m128 acc, __m128 a, __m128 b) { return _mm_add_ps(acc, _mm_mul_ps(a, b)); }

inline __m128 select(__m128 mask, __m128 a, __m128 b) { return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b)); }

}  // namespace

// Four vertices per register, the scalar path's arithmetic lane by lane (the same operations in
// the same order, so the same bits).
std::size_t PrincipalKernel::evaluate(const Eigen::Vector3f* positions, std::size_t begin, std::size_t end, float* lambda_max,
                                      float* lambda_min, float* dir) const {
    constexpr std::size_t L = kLanes;
    const float* P = positions->data();
    const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f), half = _mm_set1_ps(0.5f);
    const __m128 abs_mask = _mm_castsi128_ps(_mm_set1_epi32(0x7FFFFFFF));
    std::size_t degenerate = 0;
    for (std::size_t b = begin / L; b * L < end; ++b) {
        const std::uint32_t* self = &batch_self[b * L];
        const bool wide = !batch_reads_last[b];
        __m128 px, py, pz;
        gather3(P, self, wide, px, py, pz);
        __m128 c00 = zero, c01 = zero, c11 = zero;
        __m128 f0x = zero, f0y = zero, f0z = zero, f1x = zero, f1y = zero, f1z = zero;
        for (std::uint32_t s = slot_start[b]; s < slot_start[b + 1]; ++s) {
            const std::uint32_t* q = &slot_corner[2 * L * s];
            const std::uint32_t* r = q + L;
            const float* k = &slot_coef[kCoef * L * s];
            __m128 qx, qy, qz, rx, ry, rz;
            gather3(P, q, wide, qx, qy, qz);
            gather3(P, r, wide, rx, ry, rz);
            const __m128 ax = _mm_sub_ps(qx, px), ay = _mm_sub_ps(qy, py), az = _mm_sub_ps(qz, pz);
            const __m128 bx = _mm_sub_ps(rx, px), by = _mm_sub_ps(ry, py), bz = _mm_sub_ps(rz, pz);
            const __m128 k0 = _mm_loadu_ps(k), k1 = _mm_loadu_ps(k + L), k2 = _mm_loadu_ps(k + 2 * L), k3 = _mm_loadu_ps(k + 3 * L);
            const __m128 wt = _mm_loadu_ps(k + 4 * L);
            const __m128 ux = _mm_add_ps(_mm_mul_ps(ax, k0), _mm_mul_ps(bx, k2));
            const __m128 uy = _mm_add_ps(_mm_mul_ps(ay, k0), _mm_mul_ps(by, k2));
            const __m128 uz = _mm_add_ps(_mm_mul_ps(az, k0), _mm_mul_ps(bz, k2));
            const __m128 vx = _mm_add_ps(_mm_mul_ps(ax, k1), _mm_mul_ps(bx, k3));
            const __m128 vy = _mm_add_ps(_mm_mul_ps(ay, k1), _mm_mul_ps(by, k3));
            const __m128 vz = _mm_add_ps(_mm_mul_ps(az, k1), _mm_mul_ps(bz, k3));
            c00 = madd(c00, wt, _mm_add_ps(_mm_add_ps(_mm_mul_ps(ux, ux), _mm_mul_ps(uy, uy)), _mm_mul_ps(uz, uz)));
            c01 = madd(c01, wt, _mm_add_ps(_mm_add_ps(_mm_mul_ps(ux, vx), _mm_mul_ps(uy, vy)), _mm_mul_ps(uz, vz)));
            c11 = madd(c11, wt, _mm_add_ps(_mm_add_ps(_mm_mul_ps(vx, vx), _mm_mul_ps(vy, vy)), _mm_mul_ps(vz, vz)));
            f0x = madd(f0x, wt, ux); f0y = madd(f0y, wt, uy); f0z = madd(f0z, wt, uz);
            f1x = madd(f1x, wt, vx); f1y = madd(f1y, wt, vy); f1z = madd(f1z, wt, vz);
        }
        const __m128 m = _mm_mul_ps(half, _mm_add_ps(c00, c11)), h = _mm_mul_ps(half, _mm_sub_ps(c00, c11));
        const __m128 s = _mm_sqrt_ps(_mm_add_ps(_mm_mul_ps(h, h), _mm_mul_ps(c01, c01)));
        const __m128 lmax = _mm_sqrt_ps(_mm_max_ps(_mm_add_ps(m, s), zero));
        const __m128 lmin = _mm_sqrt_ps(_mm_max_ps(_mm_sub_ps(m, s), zero));
        const __m128 hpos = _mm_cmpge_ps(h, zero);
        __m128 x = select(hpos, c01, _mm_sub_ps(h, s));
        __m128 y = select(hpos, _mm_sub_ps(_mm_sub_ps(zero, h), s), c01);
        const __m128 big = _mm_max_ps(_mm_and_ps(x, abs_mask), _mm_and_ps(y, abs_mask));
        const __m128 some = _mm_cmpgt_ps(big, zero);
        x = select(some, _mm_div_ps(x, big), one);
        y = select(some, _mm_div_ps(y, big), zero);
        const __m128 dx = _mm_add_ps(_mm_mul_ps(f0x, x), _mm_mul_ps(f1x, y));
        const __m128 dy = _mm_add_ps(_mm_mul_ps(f0y, x), _mm_mul_ps(f1y, y));
        const __m128 dz = _mm_add_ps(_mm_mul_ps(f0z, x), _mm_mul_ps(f1z, y));
        const __m128 len = _mm_sqrt_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy)), _mm_mul_ps(dz, dz)));
        const __m128 inv = _mm_and_ps(_mm_cmpgt_ps(len, zero), _mm_div_ps(one, len));
        alignas(16) float out[6][L];
        _mm_store_ps(out[0], lmax);
        _mm_store_ps(out[1], lmin);
        _mm_store_ps(out[2], _mm_mul_ps(dx, inv));
        _mm_store_ps(out[3], _mm_mul_ps(dy, inv));
        _mm_store_ps(out[4], _mm_mul_ps(dz, inv));
        // Only this call's lanes: a batch split between two calls is computed by both, each
        // writing its own vertices.
        for (std::size_t l = 0; l < L; ++l) {
            const std::size_t w = b * L + l;
            if (w < begin || w >= end) continue;
            float* d = dir + 3 * w;
            if (ring.offsets[w] == ring.offsets[w + 1]) {
                lambda_max[w] = lambda_min[w] = 1.0f;
                d[0] = d[1] = d[2] = 0.0f;
                ++degenerate;
                continue;
            }
            lambda_max[w] = out[0][l];
            lambda_min[w] = out[1][l];
            d[0] = out[2][l];
            d[1] = out[3][l];
            d[2] = out[4][l];
        }
    }
    return degenerate;
}

#else

std::size_t PrincipalKernel::evaluate(const Eigen::Vector3f* P, std::size_t begin, std::size_t end, float* lambda_max,
                                      float* lambda_min, float* dir) const {
    std::size_t degenerate = 0;
    const std::uint32_t* corner = ring.corners.data();
    for (std::size_t w = begin; w < end; ++w) {
        const std::uint32_t e0 = ring.offsets[w], e1 = ring.offsets[w + 1];
        float* d = dir + 3 * w;
        if (e0 == e1) {
            lambda_max[w] = lambda_min[w] = 1.0f;
            d[0] = d[1] = d[2] = 0.0f;
            ++degenerate;
            continue;
        }
        const float* P0 = P[ring.self[w]].data();
        const float px = P0[0], py = P0[1], pz = P0[2];
        float c00 = 0, c01 = 0, c11 = 0;
        float f0x = 0, f0y = 0, f0z = 0, f1x = 0, f1y = 0, f1z = 0;
        for (std::uint32_t e = e0; e < e1; ++e) {
            const float* q = P[corner[2 * e]].data();
            const float* r = P[corner[2 * e + 1]].data();
            const float ax = q[0] - px, ay = q[1] - py, az = q[2] - pz;
            const float bx = r[0] - px, by = r[1] - py, bz = r[2] - pz;
            const float* k = &coef[kCoef * e];
            // F = [a b] K: the deformed images of the tangent basis vectors.
            const float ux = ax * k[0] + bx * k[2], uy = ay * k[0] + by * k[2], uz = az * k[0] + bz * k[2];
            const float vx = ax * k[1] + bx * k[3], vy = ay * k[1] + by * k[3], vz = az * k[1] + bz * k[3];
            const float wt = k[4];
            c00 += wt * (ux * ux + uy * uy + uz * uz);
            c01 += wt * (ux * vx + uy * vy + uz * vz);
            c11 += wt * (vx * vx + vy * vy + vz * vz);
            f0x += wt * ux; f0y += wt * uy; f0z += wt * uz;
            f1x += wt * vx; f1y += wt * vy; f1z += wt * vz;
        }
        const float m = 0.5f * (c00 + c11), h = 0.5f * (c00 - c11);
        const float s = std::sqrt(h * h + c01 * c01);
        lambda_max[w] = std::sqrt(std::max(m + s, 0.0f));
        lambda_min[w] = std::sqrt(std::max(m - s, 0.0f));
        // Eigenvector of the smaller eigenvalue m - s, from whichever row of C - (m - s) I keeps
        // more digits; (1, 0) where C is isotropic (every direction is one).
        float x = h >= 0 ? c01 : h - s, y = h >= 0 ? -h - s : c01;
        // Scaled to order 1 first: near isotropy both components are rounding noise, whose
        // squares below would lose their digits as subnormals.
        const float big = std::max(std::abs(x), std::abs(y));
        if (big > 0) {
            x /= big;
            y /= big;
        } else {
            x = 1;
        }
        float dx = f0x * x + f1x * y, dy = f0y * x + f1y * y, dz = f0z * x + f1z * y;
        const float len = std::sqrt(dx * dx + dy * dy + dz * dz);
        const float inv = len > 0 ? 1.0f / len : 0.0f;
        d[0] = dx * inv;
        d[1] = dy * inv;
        d[2] = dz * inv;
    }
    return degenerate;
}

#endif

}  // namespace rigscope
