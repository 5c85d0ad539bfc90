// OpenUSD's split of a joint matrix for its dual-quaternion skinning (UsdSkel's dualQuaternion
// method; docs/methods.md, "Skinning methods"): the rotation is the orthogonal factor of the
// polar decomposition of the joint's linear part, and what remains of that part is the scale and
// shear applied linearly before the blend.
#include <Eigen/LU>
#include <cmath>

#include "rigscope/core/skin_dq.h"

namespace rigscope {

namespace {

// The orthogonal factor Q of A = Q H (H symmetric positive definite) by Newton's iteration
// X <- (X + X^-T) / 2, scaled while far from converged (Higham 1986), which converges
// quadratically for any nonsingular A. The factor is unique, so this is the rotation UsdSkel's
// eigen-decomposition (GfMatrix4d::Factor) arrives at, up to rounding.
Eigen::Matrix3d orthogonal_factor(const Eigen::Matrix3d& a) {
    Eigen::Matrix3d x = a;
    for (int i = 0; i < 100; ++i) {
        const Eigen::Matrix3d inv_t = x.inverse().transpose();
        const double change_hint = (x - inv_t).norm();
        // gamma = sqrt(|X^-1| / |X|) balances X and X^-T; near the fixed point it is ~1 and left out,
        // so the last steps are the plain iteration.
        const double g = change_hint > 1e-3 ? std::sqrt(inv_t.norm() / x.norm()) : 1.0;
        const Eigen::Matrix3d next = 0.5 * (g * x + inv_t / g);
        const double step = (next - x).norm();
        x = next;
        if (step <= 4e-16 * x.norm()) break;
    }
    return x;
}

}  // namespace

UsdJointSplit usd_split_joint(const Eigen::Matrix4d& joint) {
    UsdJointSplit out;
    const Eigen::Matrix3d a = joint.topLeftCorner<3, 3>();
    const double det = a.determinant();
    // GfMatrix4d::Factor's test (its default eps): such a joint does not move its points at all.
    if (!(std::abs(det) >= 1e-10)) {
        out.singular = true;
        return out;
    }
    Eigen::Matrix3d u = orthogonal_factor(a);
    // A reflection: Factor negates the scale, so that U is a rotation and S = -H.
    if (det < 0) u = -u;
    const Eigen::Matrix3d s = u.transpose() * a;
    out.rotation = Eigen::Quaterniond(u).normalized();
    out.translation = joint.topRightCorner<3, 1>();
    out.scale.topLeftCorner<3, 3>() = s;
    // UsdSkel tests the float S it skins with: GfIsClose(S, I, 1e-6), entry by entry.
    const Eigen::Matrix3f sf = s.cast<float>();
    out.scaled = !((sf - Eigen::Matrix3f::Identity()).cwiseAbs().maxCoeff() < 1e-6f);
    return out;
}

}  // namespace rigscope
