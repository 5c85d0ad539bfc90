// KHR_mesh_quantization on skinned meshes: a skinned mesh ignores its node's transform, so
// quantizers (gltfpack) fold the dequantization D, a uniform scale and an offset, into every
// inverse bind matrix instead (IBM' = IBM x D) and store the mesh in quantized units. Deformation
// is right either way, but the stored mesh is then no longer the bind-pose mesh that tension's
// rest reference and the bind check take it to be (T came out thousands of times too large).
// Signature: every joint's rest world x IBM has the same uniform scale s, not 1 (without
// quantization it is a rigid motion: the identity, or rest pose against bind pose). Then
// M = rest world x IBM of the skin's first joint, which is D up to a rigid motion, is moved
// into the mesh: positions p -> M p, morph deltas by M's linear part, IBM -> IBM x M^-1. Skinned
// positions are unchanged (IBM M^-1 M p = IBM p) and edge lengths are those of the bind pose.
#include <Eigen/Dense>

#include "io/gltf/gltf_extensions.h"
#include "rigscope/core/pose.h"

namespace rigscope::gltf {

namespace {

// The uniform scale of a matrix's linear part, or 0 when it is not uniform (a shear, unequal axes).
double uniform_scale(const Eigen::Matrix4d& m) {
    const Eigen::Vector3d sv = Eigen::JacobiSVD<Eigen::Matrix3d>(m.topLeftCorner<3, 3>()).singularValues();
    if (!(sv[0] > 0) || sv[2] < sv[0] * (1 - 1e-5)) return 0;
    return sv[0];
}

}  // namespace

void move_dequantization_into_meshes(Scene& scene) {
    if (scene.skins.empty()) return;
    const Pose rest = rest_pose(scene);
    for (std::size_t s = 0; s < scene.skins.size(); ++s) {
        Skin& skin = scene.skins[s];
        const Eigen::Matrix4d d = rest.world[skin.joints[0]] * skin.inverse_bind[0];
        const double scale = uniform_scale(d);
        if (scale == 0 || std::abs(scale - 1) < 1e-5 || !d.allFinite()) continue;
        bool common = true;
        for (std::size_t j = 1; j < skin.joints.size() && common; ++j)
            common = std::abs(uniform_scale(rest.world[skin.joints[j]] * skin.inverse_bind[j]) - scale) <= 1e-5 * scale;
        if (!common) continue;
        const Eigen::Matrix4d d_inv = d.inverse();
        for (auto& ibm : skin.inverse_bind) ibm = ibm * d_inv;
        const Eigen::Matrix3f linear = d.topLeftCorner<3, 3>().cast<float>();
        const Eigen::Vector3f offset = d.topRightCorner<3, 1>().cast<float>();
        for (Mesh& mesh : scene.meshes) {
            if (mesh.skin != static_cast<int>(s)) continue;
            for (auto& p : mesh.positions) p = linear * p + offset;
            for (auto& t : mesh.targets)
                for (auto& delta : t.deltas) delta = linear * delta;
        }
    }
}

}  // namespace rigscope::gltf
