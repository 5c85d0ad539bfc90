// OpenUSD's dual-quaternion rule (SkinningMethod::UsdDualQuaternion, src/core/skin_dq_usd.cpp):
// the split of a joint matrix, and the skinned points against the same rule evaluated by hand
// in double. The oracle of the whole reader path is UsdSkel.BakeSkinning itself
// (tests/cli/usd/usd_skel.sh, scene dual_quaternion); these rows pin what the core does alone.
// Tolerances: the split is in double (1e-12 on unit-sized matrices); skinning runs in float on
// unit-sized points (1e-5 absolute is 100 float roundings, while Blender's sign rule moves the
// first point by 0.05 or more, checked below).
#include <catch2/catch.hpp>
#include <Eigen/Eigenvalues>
#include <cmath>

#include "rigscope/core/pose.h"
#include "rigscope/core/skin.h"
#include "rigscope/core/skin_dq.h"

using namespace rigscope;

namespace {

Eigen::Matrix4d affine(const Eigen::Matrix3d& a, const Eigen::Vector3d& t) {
    Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
    m.topLeftCorner<3, 3>() = a;
    m.topRightCorner<3, 1>() = t;
    return m;
}

// Three joints at the origin (inverse binds the identity, so each joint matrix is its world
// matrix), one point of three influences whose heaviest is listed last.
Scene three_joints(const Eigen::Matrix4d& geom) {
    Scene s;
    s.nodes.resize(4);
    for (int j = 0; j < 3; ++j) s.nodes[std::size_t(j)].name = "j" + std::to_string(j);
    s.nodes[3].name = "Body";
    s.nodes[3].mesh = 0;
    Skin skin;
    skin.joints = {0, 1, 2};
    for (int j = 0; j < 3; ++j) skin.inverse_bind.push_back(geom);  // bind = identity, times G
    skin.geom_bind = geom;
    skin.method = SkinningMethod::UsdDualQuaternion;
    s.skins.push_back(skin);
    Mesh m;
    m.name = "Body";
    m.node = 3;
    m.skin = 0;
    m.positions = {Eigen::Vector3f(0.4f, 1.0f, -0.3f), Eigen::Vector3f(-0.7f, 0.2f, 0.5f)};
    m.influences.offsets = {0, 3, 6};
    m.influences.joints = {0, 1, 2, 0, 1, 2};
    m.influences.weights = {0.2f, 0.3f, 0.5f, 0.5f, 0.3f, 0.2f};
    s.meshes.push_back(m);
    return s;
}

}  // namespace

TEST_CASE("OpenUSD's split of a joint matrix: a rotation U, S = U^T A symmetric, and a reflection carried by both", "[skin][usd]") {
    const Eigen::Matrix3d r = Eigen::AngleAxisd(0.9, Eigen::Vector3d(1, 2, -1).normalized()).toRotationMatrix();
    Eigen::Matrix3d shear;
    shear << 1.3, 0.2, 0.0, 0.1, 0.8, -0.3, 0.0, 0.4, 1.1;
    for (double mirror : {1.0, -1.0}) {
        const Eigen::Matrix3d a = r * shear * Eigen::Vector3d(mirror, 1, 1).asDiagonal();
        const UsdJointSplit s = usd_split_joint(affine(a, Eigen::Vector3d(0.5, -1, 2)));
        const Eigen::Matrix3d u = s.rotation.toRotationMatrix();
        const Eigen::Matrix3d p = s.scale.topLeftCorner<3, 3>();
        CHECK(!s.singular);
        CHECK(s.scaled);
        CHECK((u * p - a).cwiseAbs().maxCoeff() < 1e-12);
        CHECK((p - p.transpose()).cwiseAbs().maxCoeff() < 1e-12);
        CHECK(std::abs(u.determinant() - 1) < 1e-12);
        // S's sign follows det A: positive definite for a rotation, negative for a mirror.
        CHECK(p.eigenvalues().real().minCoeff() * mirror > 0);
        CHECK((s.translation - Eigen::Vector3d(0.5, -1, 2)).norm() == 0);
    }
    const UsdJointSplit rigid = usd_split_joint(affine(r, Eigen::Vector3d(1, 0, 0)));
    CHECK(!rigid.scaled);
    CHECK(usd_split_joint(affine(Eigen::Matrix3d::Zero(), Eigen::Vector3d(1, 0, 0))).singular);
}

TEST_CASE("UsdDualQuaternion skins as the rule in double says: G first, the heaviest influence's hemisphere, S blended", "[skin][usd]") {
    // A non-uniform G: folded into the joints (Blender's way), it would change their polar split.
    const Eigen::Matrix4d geom = affine(Eigen::AngleAxisd(0.3, Eigen::Vector3d::UnitZ()).toRotationMatrix() * Eigen::Vector3d(1.2, 0.9, 1.1).asDiagonal(),
                                        Eigen::Vector3d(0.1, 0.2, 0));
    Scene s = three_joints(geom);
    Pose pose = rest_pose(s);
    // Joint 2 turned more than a half turn from joint 0, so the sign against the heaviest
    // influence differs from the sign against the first; joint 1 scaled.
    const Eigen::Matrix3d r0 = Eigen::AngleAxisd(0.2, Eigen::Vector3d::UnitX()).toRotationMatrix();
    const Eigen::Matrix3d r1 = Eigen::AngleAxisd(1.9, Eigen::Vector3d::UnitX()).toRotationMatrix() *
                               Eigen::Vector3d(1.4, 0.8, 1.0).asDiagonal();
    const Eigen::Matrix3d r2 = Eigen::AngleAxisd(4.0, Eigen::Vector3d::UnitX()).toRotationMatrix();
    pose.world = {affine(r0, Eigen::Vector3d(0, 0.5, 0)), affine(r1, Eigen::Vector3d(0.3, 0, 0)), affine(r2, Eigen::Vector3d(0, 0, -0.4)),
                  Eigen::Matrix4d::Identity()};
    std::vector<Eigen::Vector3f> out;
    deform_mesh(s, 0, pose, out);
    const Mesh& m = s.meshes[0];
    for (std::size_t v = 0; v < 2; ++v) {
        // The rule by hand: split each joint, sign each against the heaviest, blend, normalise.
        const std::uint32_t b = m.influences.offsets[v];
        std::uint32_t pivot = b;
        for (std::uint32_t k = b; k < b + 3; ++k)
            if (m.influences.weights[k] > m.influences.weights[pivot]) pivot = k;
        const Eigen::Vector3d p0 = (geom * m.positions[v].cast<double>().homogeneous()).head<3>();
        const Eigen::Quaterniond qp = usd_split_joint(pose.world[m.influences.joints[pivot]]).rotation;
        Eigen::Vector4d real = Eigen::Vector4d::Zero(), dual = Eigen::Vector4d::Zero();
        Eigen::Vector3d scaled = Eigen::Vector3d::Zero();
        for (std::uint32_t k = b; k < b + 3; ++k) {
            const UsdJointSplit js = usd_split_joint(pose.world[m.influences.joints[k]]);
            const double w = m.influences.weights[k] * (js.rotation.coeffs().dot(qp.coeffs()) < 0 ? -1 : 1);
            const Eigen::Quaterniond d = Eigen::Quaterniond(0, 0.5 * js.translation.x(), 0.5 * js.translation.y(), 0.5 * js.translation.z()) * js.rotation;
            real += w * js.rotation.coeffs();
            dual += w * d.coeffs();
            scaled += m.influences.weights[k] * js.scale.topLeftCorner<3, 3>() * p0;
        }
        const double n = real.norm();
        const Eigen::Quaterniond qr(Eigen::Vector4d(real / n)), qd(Eigen::Vector4d(dual / n));
        const Eigen::Vector3d t = 2 * (qd * qr.conjugate()).vec();
        const Eigen::Vector3d want = qr * scaled + t;
        INFO("vertex " << v << ": " << out[v].transpose() << " against " << want.transpose());
        CHECK((out[v].cast<double>() - want).norm() < 1e-5);
        // The same vertex by the rivet's transform in double.
        const Eigen::Matrix<double, 3, 4> tv = dq_vertex_transform(s, m, pose, std::uint32_t(v));
        CHECK((tv * m.positions[v].cast<double>().homogeneous() - want).norm() < 1e-6);
        // Vertex 0's heaviest influence is its last: Blender's rule, which signs against the
        // first, puts it elsewhere (vertex 1, whose heaviest is its first, it happens to match).
        if (v != 0) continue;
        Scene blender = s;
        blender.skins[0].method = SkinningMethod::DualQuaternion;
        std::vector<Eigen::Vector3f> other;
        deform_mesh(blender, 0, pose, other);
        CHECK((other[v].cast<double>() - want).norm() > 0.05);
    }
}
