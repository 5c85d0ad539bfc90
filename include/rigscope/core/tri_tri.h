// Exact predicates on single-precision points and the triangle-triangle crossing test that
// `intersect` counts with (docs/methods.md "Interpenetration"): signs are exact for any finite
// float input, so a pair's verdict never depends on the order of evaluation or the thread.
#pragma once

#include <Eigen/Core>

namespace rigscope {

// Sign (-1, 0, 1) of the determinant | a 1; b 1; c 1; d 1 | (rows x y z 1): positive when d lies
// on the side of plane abc that (b - a) x (c - a) points away from. Exact: a double-precision
// estimate with an error bound decides, else the determinant is summed as an exact expansion.
int orient3d(const Eigen::Vector3f& a, const Eigen::Vector3f& b, const Eigen::Vector3f& c, const Eigen::Vector3f& d);

// s[i] = orient3d(t[0], t[1], t[2], p[i]) for three points p[0..2]: the crossing test's plane
// test, the plane's estimate shared and the three points side by side.
void orient3d_signs(const Eigen::Vector3f* t, const Eigen::Vector3f* p, int* s);

// Whether orient3d(u, v, q_i, q_(i+1)) for i = 0, 1, 2 are one sign, not zero: the line through
// u and v passes strictly inside triangle q (the crossing test's edge test).
bool line_through(const Eigen::Vector3f& u, const Eigen::Vector3f& v, const Eigen::Vector3f* q);

// Whether a, b and c lie on one line (the triangle has zero area), exactly.
bool collinear(const Eigen::Vector3f& a, const Eigen::Vector3f& b, const Eigen::Vector3f& c);

// Whether triangles p and q cross: an edge of one passes strictly through the inside of the
// other (its ends strictly on both sides of the other's plane, the crossing point strictly
// inside the other's three edges). Contact is not crossing: coplanar pairs, and pairs that only
// touch at a vertex or along an edge, are not counted. Both triangles must have nonzero area.
bool triangles_cross(const Eigen::Vector3f* p, const Eigen::Vector3f* q);

// triangles_cross(p, q) for one p against several q: p's plane (its float estimate's normal and
// error factors) is set up once instead of per pair. The same answer as triangles_cross.
class CrossingTriangle {
public:
    explicit CrossingTriangle(const Eigen::Vector3f* p);
    bool crosses(const Eigen::Vector3f* q) const;
    const Eigen::Vector3f* corners() const { return p_; }

private:
    Eigen::Vector3f p_[3];
    // The first corner, the normal's x, y, z and its permanent's, each in four lanes (SSE2).
    alignas(16) float plane_[7][4];
};

// Length of the segment where two crossing triangles meet (double precision, not exact).
double crossing_length(const Eigen::Vector3f* p, const Eigen::Vector3f* q);

}  // namespace rigscope
