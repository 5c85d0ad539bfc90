#include <algorithm>
#include <cmath>

#include "rigscope/core/measure.h"

namespace rigscope {

// The scalar loops: what runs where the SIMD kernels are not built (non-x86, or
// RIGSCOPE_SIMD=OFF); per vertex the same operations in the same order as each lane of the SIMD
// kernels, so the same bits (tests compare them).

std::size_t PrincipalKernel::map_t_scalar(const float* lmax, const float* lmin, std::size_t begin, std::size_t end,
                                          float* tc, float* ts) const {
    std::size_t bad = 0;
    for (std::size_t w = begin; w < end; ++w) {
        const bool ok_c = t_of_lambda(lmin[w], tc[w]);
        const bool ok_s = t_of_lambda(lmax[w], ts[w]);
        // A vertex without rest triangles has lambdas of exactly 1 and no direction.
        bad += !(ok_c && ok_s) || ring.offsets[w] == ring.offsets[w + 1];
    }
    return bad;
}

std::size_t AreaKernel::evaluate_scalar(const Eigen::Vector3f* P, std::size_t begin, std::size_t end, float* t) const {
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

std::size_t PrincipalKernel::evaluate_scalar(const Eigen::Vector3f* P, std::size_t begin, std::size_t end, float* lambda_max,
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
            // (u, v) = sqrt(w) F: sqrt(w) times the deformed images of the tangent basis vectors.
            const float ux = ax * k[0] + bx * k[2], uy = ay * k[0] + by * k[2], uz = az * k[0] + bz * k[2];
            const float vx = ax * k[1] + bx * k[3], vy = ay * k[1] + by * k[3], vz = az * k[1] + bz * k[3];
            const float sw = k[4];
            c00 += ux * ux + uy * uy + uz * uz;
            c01 += ux * vx + uy * vy + uz * vz;
            c11 += vx * vx + vy * vy + vz * vz;
            f0x += sw * ux; f0y += sw * uy; f0z += sw * uz;
            f1x += sw * vx; f1y += sw * vy; f1z += sw * vz;
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

std::size_t PrincipalKernel::evaluate_and_map_scalar(const Eigen::Vector3f* positions, std::size_t begin, std::size_t end,
                                              float* lambda_max, float* lambda_min, float* dir, float* t_compress,
                                              float* t_stretch) const {
    evaluate_scalar(positions, begin, end, lambda_max, lambda_min, dir);
    return map_t_scalar(lambda_max, lambda_min, begin, end, t_compress, t_stretch);
}

}  // namespace rigscope
