// The FBX-specific parts of turning Assimp's meshes into the scene model: blend-shape channel
// names and weights, and inverse binds checked against the raw clusters. The rest is
// assimp_scene.cpp, shared with Collada.
#include <assimp/scene.h>

#include <algorithm>
#include <string>

#include "io/assimp_scene.h"
#include "io/fbx_internal.h"

namespace rigscope::fbx {

bool inverse_bind_from_link(const Eigen::Matrix4d& assimp, const RawCluster& cluster, const Eigen::Matrix4d& mesh_bind,
                            const Eigen::Vector3d& lo, const Eigen::Vector3d& hi, Eigen::Matrix4d& out) {
    if (!cluster.has_link) return false;
    const Eigen::Matrix4d expected = cluster.transform_link.inverse() * mesh_bind;
    if (!expected.allFinite()) return false;
    // Compared by where the two matrices take the mesh's bounding box, relative to the box's
    // size in bone space, so neither the unit nor the skeleton's scale sets the tolerance.
    double gap = 0.0;
    for (int c = 0; c < 8; ++c) {
        const Eigen::Vector4d p((c & 1) ? hi.x() : lo.x(), (c & 2) ? hi.y() : lo.y(), (c & 4) ? hi.z() : lo.z(), 1.0);
        gap = std::max(gap, ((assimp - expected) * p).head<3>().norm());
    }
    const double size = (expected.topLeftCorner<3, 3>() * (hi - lo)).norm();
    if (!(gap > 1e-4 * std::max(size, 1e-12))) return false;
    out = expected;
    return true;
}

void build_meshes(const aiScene& ai, const NodeMap& map, const RawFbx& raw, const std::string& path,
                  Scene& scene) {
    assimp::MeshHooks hooks;
    hooks.target = [&raw](MorphTarget& mt) {
        auto ch = raw.shape_channels.find(mt.name);
        if (ch == raw.shape_channels.end()) return 0.0f;
        mt.name = ch->second.name;  // the blend-shape channel's name, not its shape's
        return static_cast<float>(ch->second.deform_percent / 100.0);
    };
    // Assimp 5.2.4+ takes the inverse bind from the cluster's Transform alone. Where the file also
    // has TransformLink, check it against TransformLink^-1 x the mesh's bind placement and
    // rebuild the inverse binds that disagree.
    hooks.inverse_binds = [&raw](const aiNode& node, const Eigen::Matrix4d& world, const std::string& what, const Mesh& mesh,
                                 Skin& skin, Scene& scene) {
        if (!raw.parsed || mesh.positions.empty()) return;
        Eigen::Vector3d lo = mesh.positions[0].cast<double>(), hi = lo;
        for (const auto& p : mesh.positions) {
            lo = lo.cwiseMin(p.cast<double>());
            hi = hi.cwiseMax(p.cast<double>());
        }
        const std::string mesh_node = node.mName.C_Str();
        auto bp = raw.bind_pose.find(mesh_node);
        const Eigen::Matrix4d mesh_bind = bp != raw.bind_pose.end() ? bp->second : world;
        std::vector<std::string> rebuilt;
        for (std::size_t j = 0; j < skin.joints.size(); ++j) {
            const std::string& bone = scene.nodes[skin.joints[j]].name;
            for (const RawCluster& cl : raw.clusters) {
                if (cl.bone != bone || !cl.has_link || std::find(cl.meshes.begin(), cl.meshes.end(), mesh_node) == cl.meshes.end())
                    continue;
                if (inverse_bind_from_link(skin.inverse_bind[j], cl, mesh_bind, lo, hi, skin.inverse_bind[j]))
                    rebuilt.push_back(bone);
                break;
            }
        }
        if (!rebuilt.empty()) {
            std::string names;
            for (const auto& r : rebuilt) names += (names.empty() ? "" : ", ") + r;
            scene.warnings.push_back(what + ": Assimp's inverse binds for " + names +
                                     " disagree with the file's cluster TransformLink and bind pose; rebuilt from those");
        }
    };
    assimp::build_meshes(ai, map, hooks, path, scene);
}

}  // namespace rigscope::fbx
