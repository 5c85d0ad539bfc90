// UsdSkel Skeletons into joint nodes, and their SkelAnimation into the clip, as UsdSkel poses
// them (UsdSkel.BakeSkinning is the reference; docs/usd_notes.md states the rules): topology
// from the joint paths, rest from restTransforms or the animation's default, an animation's
// sparse joints over the rest, and poses from the joints' matrices at each frame's time.
#include <algorithm>
#include <map>
#include <set>

#include "io/usd/usd_scene_build.h"
#include "io/usd/usd_values.h"

namespace rigscope::usd {

namespace {

const char* const kAnimNames[3] = {"translations", "rotations", "scales"};
const int kAnimWidths[3] = {3, 4, 3};

std::vector<Eigen::Matrix4d> matrices(const SceneBuild& b, const PropertySpec* prop, const std::string& what, std::size_t count) {
    std::vector<double> n;
    int w = 1;
    if (!prop || !numbers_at(*prop, kDefaultTime, n, w)) return {};
    if (w != 16 || n.size() != count * 16)
        b.fail(what + " holds " + std::to_string(n.size() / std::size_t(std::max(w, 1))) + " matrices for " + std::to_string(count) + " joints");
    std::vector<Eigen::Matrix4d> out;
    for (std::size_t j = 0; j < count; ++j) {
        Eigen::Matrix4d m = usd_matrix(&n[16 * j]);
        m.block<3, 1>(0, 3) *= b.mpu;
        out.push_back(m);
    }
    return out;
}

// Topology as UsdSkelTopology builds it: a joint's parent is its nearest ancestor path
// that the list holds (`a/b/c` under `a` when `a/b` is not listed), else the skeleton.
std::vector<int> joint_parents(const SceneBuild& b, const std::string& path, const std::vector<std::string>& joints,
                               const std::map<std::string, int>& index) {
    std::vector<int> parent(joints.size(), -1);
    for (std::size_t j = 0; j < joints.size(); ++j) {
        const std::string& jn = joints[j];
        for (auto slash = jn.find_last_of('/'); slash != std::string::npos && slash > 0; slash = jn.find_last_of('/', slash - 1)) {
            auto it = index.find(jn.substr(0, slash));
            if (it == index.end()) continue;
            if (it->second >= int(j)) b.fail("Skeleton " + path + ": joint '" + jn + "' comes before its parent");
            parent[j] = it->second;
            break;
        }
    }
    return parent;
}

// The animation's translations, rotations and scales at `t`, one transform per animation joint.
void joint_values_at(const SceneBuild& b, const std::string& anim_path, const PropertySpec* const props[3], std::size_t joints, double t,
                     std::vector<Transform>& out) {
    std::vector<double> v[3];
    for (int k = 0; k < 3; ++k) {
        int w = 1;
        if (!numbers_at(*props[k], t, v[k], w) || w != kAnimWidths[k] || v[k].size() != joints * std::size_t(kAnimWidths[k]))
            b.fail("SkelAnimation " + anim_path + "'s " + kAnimNames[k] + " do not hold one value per joint (" + std::to_string(joints) + ")");
    }
    out.resize(joints);
    for (std::size_t j = 0; j < joints; ++j) {
        out[j].translation = Eigen::Vector3d(v[0][3 * j], v[0][3 * j + 1], v[0][3 * j + 2]) * b.mpu;
        out[j].rotation = usd_quaternion(&v[1][4 * j]).normalized();
        out[j].scale = Eigen::Vector3d(v[2][3 * j], v[2][3 * j + 1], v[2][3 * j + 2]);
    }
}

// The time-sampled animation: the joints' matrices for poses, and TRS channels at the samples.
void animation_channels(SceneBuild& b, const std::string& anim_path, const PropertySpec* const props[3], const std::vector<std::string>& joints,
                        const std::vector<int>& skel_index, const SkeletonInfo& info, const std::set<double>& times) {
    // Poses take the joints' matrices as UsdSkel computes them at the frame's time
    // (usd_transforms.h); the channels below hold them at the samples for what reads channels.
    std::vector<int> anim_nodes;
    for (std::size_t j = 0; j < joints.size(); ++j) anim_nodes.push_back(skel_index[j] >= 0 ? info.nodes[skel_index[j]] : -1);
    b.clip.matrices.push_back(
        skel_animation_matrices(std::move(anim_nodes), joints, *props[0], *props[1], *props[2], {b.layer.path, anim_path}, b.mpu, b.tcps));
    std::vector<double> ts(times.begin(), times.end());
    std::vector<std::vector<Transform>> per_joint(joints.size());
    b.charge(ts.size() * joints.size() * sizeof(Transform));
    for (double t : ts) {
        std::vector<Transform> x;
        joint_values_at(b, anim_path, props, joints.size(), t, x);
        for (std::size_t j = 0; j < joints.size(); ++j) per_joint[j].push_back(x[j]);
    }
    for (std::size_t j = 0; j < joints.size(); ++j) {
        if (skel_index[j] < 0) continue;
        keep_quaternions_near(per_joint[j]);
        trs_channels(b, info.nodes[skel_index[j]], ts, per_joint[j]);
    }
}

// False when UsdSkel would ignore the animation (it then poses the skeleton at rest).
bool animation(SceneBuild& b, const std::string& anim_path, const std::string& skel_path, SkeletonInfo& info,
               const std::map<std::string, int>& index, bool has_rest) {
    const PrimSpec* a = b.stage.prim_at(anim_path);
    if (!a) b.fail("Skeleton " + skel_path + "'s skel:animationSource " + anim_path + " is not a defined prim");
    if (a->type != "SkelAnimation") b.fail("Skeleton " + skel_path + "'s skel:animationSource " + anim_path + " is a " + a->type + ", not a SkelAnimation");
    // Unauthored, `joints` is its fallback, an empty list, as UsdSkel reads it: an animation of
    // blend-shape weights alone, which Blender writes for a mesh with shape keys and no
    // armature. It poses no joint (the skeleton stays at rest), and its weights still drive
    // the mesh's shapes (usd_blend_shapes.cpp).
    const PropertySpec* jp = a->property("joints");
    const auto joints = jp && jp->has_default ? strings_of(jp->value) : std::vector<std::string>{};
    if (joints.empty()) return false;
    const PropertySpec* props[3] = {a->property("translations"), a->property("rotations"), a->property("scales")};
    std::set<double> times;
    for (int k = 0; k < 3; ++k) {
        if (!props[k] || ((!props[k]->has_default || props[k]->value.is_none()) && props[k]->samples.empty())) {
            // UsdSkel's animation query needs all three; without one it falls back to the rest pose.
            b.scene.warnings.push_back({WarningKind::Skipped, "SkelAnimation " + anim_path + " has no " + kAnimNames[k] +
                                       ": UsdSkel ignores the animation and poses Skeleton " + skel_path + " at rest"});
            return false;
        }
        for (double t : sample_times(*props[k])) times.insert(t);
    }
    std::vector<int> skel_index;
    for (const auto& j : joints) {
        auto it = index.find(j);
        skel_index.push_back(it == index.end() ? -1 : it->second);
    }
    bool sparse = false;
    for (std::size_t j = 0; j < info.joints.size(); ++j)
        if (std::find(skel_index.begin(), skel_index.end(), int(j)) == skel_index.end()) sparse = true;
    if (sparse && !has_rest)
        b.fail("SkelAnimation " + anim_path + " animates some of Skeleton " + skel_path + "'s joints and the skeleton has no restTransforms for the others");
    // The default's matrices as UsdSkelMakeTransform makes them (the quaternions as stored).
    std::vector<double> v[3];
    for (int k = 0; k < 3; ++k) {
        int w = 1;
        numbers_at(*props[k], kDefaultTime, v[k], w);
    }
    std::vector<Transform> base;
    joint_values_at(b, anim_path, props, joints.size(), kDefaultTime, base);
    for (std::size_t j = 0; j < joints.size(); ++j)
        if (skel_index[j] >= 0) set_rest(b, info.nodes[skel_index[j]], skel_joint_matrix(&v[0][3 * j], &v[1][4 * j], &v[2][3 * j], b.mpu));
    if (times.empty()) return true;
    animation_channels(b, anim_path, props, joints, skel_index, info, times);
    return true;
}

}  // namespace

SkeletonInfo read_skeleton(SceneBuild& b, const PrimSpec& p, int node, const Binding& binding) {
    const std::string& path = b.stage.path_of(p);
    SkeletonInfo info;
    info.node = node;
    // Unauthored, `joints` is its fallback, an empty list: a skeleton of no joints, which
    // UsdSkel takes as valid (a blend-shape-only character: Pixar's own blendshapes.usda binds
    // its mesh to such a skeleton, whose animation drives the shapes alone).
    const PropertySpec* jp = p.property("joints");
    if (jp && jp->has_default) info.joints = strings_of(jp->value);
    const std::size_t n = info.joints.size();
    b.charge(n * (sizeof(Eigen::Matrix4d) * 3 + 64));
    info.bind = matrices(b, p.property("bindTransforms"), "Skeleton " + path + "'s bindTransforms", n);
    if (info.bind.size() != n) b.fail("Skeleton " + path + " has no bindTransforms");
    std::vector<Eigen::Matrix4d> rest = matrices(b, p.property("restTransforms"), "Skeleton " + path + "'s restTransforms", n);
    std::map<std::string, int> index;
    for (std::size_t j = 0; j < n; ++j) {
        const std::string& jn = info.joints[j];
        if (index.count(jn)) b.fail("Skeleton " + path + " lists joint '" + jn + "' twice");
        index[jn] = int(j);
    }
    const std::vector<int> parent = joint_parents(b, path, info.joints, index);
    // Local rest transforms: restTransforms; without them only an animation of every joint poses
    // the skeleton (UsdSkel's skeleton query fails otherwise, and BakeSkinning leaves the mesh).
    std::vector<Eigen::Matrix4d> local(n, Eigen::Matrix4d::Identity());
    if (!rest.empty()) local = rest;
    for (std::size_t j = 0; j < n; ++j) {
        const std::string& jn = info.joints[j];
        const std::string leaf = jn.substr(jn.find_last_of('/') + 1);
        info.nodes.push_back(b.add_node(leaf, parent[j] < 0 ? node : info.nodes[parent[j]], Transform{}));
        set_rest(b, info.nodes.back(), local[j]);
    }
    std::string anim = binding.animation;
    if (const PropertySpec* rel = p.property("skel:animationSource"); rel && !rel->targets.empty()) anim = b.stage.resolve(p, rel->targets.front());
    const bool animated = !anim.empty() && animation(b, anim, path, info, index, !rest.empty());
    if (!anim.empty()) info.animation = b.stage.prim_at(anim);
    if (!animated && rest.empty() && n > 0)
        b.fail("Skeleton " + path + " has no restTransforms and no animation that poses all its joints: UsdSkel cannot pose it");
    return info;
}

}  // namespace rigscope::usd
