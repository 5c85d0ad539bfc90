// Oracles for `intersect` written apart from the product's code (tests/core/test_intersect.cpp,
// tests/run/test_intersect_job.cpp): in double, for generic made meshes where no pair is within
// rounding of touching.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>

namespace rigscope_test {

using V = Eigen::Vector3d;

// Oracle 1: the signed distances of one triangle's corners to the other's plane give the
// interval where it meets that plane's line with the other plane; the triangles cross when both
// straddle and the two intervals overlap.
inline bool interval(const V* p, const V& n, const V& o, const V& dir, double& lo, double& hi) {
    double d[3];
    for (int i = 0; i < 3; ++i) d[i] = n.dot(p[i] - o);
    if ((d[0] > 0 && d[1] > 0 && d[2] > 0) || (d[0] < 0 && d[1] < 0 && d[2] < 0)) return false;
    lo = 1e300;
    hi = -1e300;
    for (int i = 0; i < 3; ++i) {
        const int k = (i + 1) % 3;
        if ((d[i] < 0) != (d[k] < 0)) {
            const V x = p[i] + (p[k] - p[i]) * (d[i] / (d[i] - d[k]));
            lo = std::min(lo, dir.dot(x));
            hi = std::max(hi, dir.dot(x));
        }
    }
    return lo < hi;
}

inline bool brute_cross(const V* p, const V* q, double* length = nullptr) {
    const V np = (p[1] - p[0]).cross(p[2] - p[0]), nq = (q[1] - q[0]).cross(q[2] - q[0]);
    const V dir = np.cross(nq).normalized();
    double a0, a1, b0, b1;
    if (!interval(p, nq, q[0], dir, a0, a1) || !interval(q, np, p[0], dir, b0, b1)) return false;
    const double overlap = std::min(a1, b1) - std::max(a0, b0);
    if (length) *length = overlap;
    return overlap > 0;
}

// Oracle 2: segment u-v strictly through triangle q, by barycentric coordinates of the hit.
inline bool segment_hits(const V& u, const V& v, const V* q) {
    const V d = v - u, e1 = q[1] - q[0], e2 = q[2] - q[0];
    const V h = d.cross(e2);
    const double a = e1.dot(h);
    if (std::abs(a) < 1e-300) return false;
    const V s = u - q[0];
    const double b1 = s.dot(h) / a;
    const V w = s.cross(e1);
    const double b2 = d.dot(w) / a, t = e2.dot(w) / a;
    return b1 > 0 && b2 > 0 && b1 + b2 < 1 && t > 0 && t < 1;
}

inline bool edges_cross(const V* p, const V* q) {
    for (int i = 0; i < 3; ++i) {
        if (segment_hits(p[i], p[(i + 1) % 3], q)) return true;
        if (segment_hits(q[i], q[(i + 1) % 3], p)) return true;
    }
    return false;
}

}  // namespace rigscope_test
