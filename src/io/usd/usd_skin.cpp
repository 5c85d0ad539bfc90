// A mesh's UsdSkel skin (its Binding in effect) into the scene's Skin and the mesh's influences,
// as UsdSkel skins: the mesh's joint order mapped onto the skeleton's, geomBindTransform folded
// into the inverse binds, the weights as stored (UsdSkel does not normalise them), and
// classicLinear or OpenUSD's own dualQuaternion rule.
#include <algorithm>
#include <cmath>

#include "io/usd/usd_scene_build.h"
#include "io/usd/usd_values.h"

namespace rigscope::usd {

namespace {

// classicLinear (the fallback) or dualQuaternion, which is OpenUSD's own rule (core's
// UsdDualQuaternion), not Blender's.
SkinningMethod skinning_method(const SceneBuild& b, const std::string& path, const Binding& binding) {
    SkinningMethod skinning = SkinningMethod::Linear;
    if (binding.method) {
        const auto method = strings_of(binding.method->value);
        if (!method.empty() && method[0] == "dualQuaternion") skinning = SkinningMethod::UsdDualQuaternion;
        else if (!method.empty() && method[0] != "classicLinear") b.fail("Mesh " + path + ": unknown skinning method '" + method[0] + "'");
    }
    return skinning;
}

// The mesh's joint order: its own skel:joints mapped onto the skeleton's, else the skeleton's.
std::vector<int> joint_map(const SceneBuild& b, const std::string& path, const Binding& binding, const SkeletonInfo& info) {
    std::vector<int> map;
    if (binding.joints && binding.joints->has_default) {
        for (const auto& j : strings_of(binding.joints->value)) {
            auto f = std::find(info.joints.begin(), info.joints.end(), j);
            if (f == info.joints.end()) b.fail("Mesh " + path + "'s skel:joints names '" + j + "', which Skeleton " + binding.skeleton + " does not have");
            map.push_back(int(f - info.joints.begin()));
        }
    } else {
        for (std::size_t j = 0; j < info.joints.size(); ++j) map.push_back(int(j));
    }
    return map;
}

Eigen::Matrix4d geom_bind_transform(const SceneBuild& b, const std::string& path, const Binding& binding) {
    Eigen::Matrix4d geom = Eigen::Matrix4d::Identity();
    if (binding.geom_bind) {
        std::vector<double> g;
        int w = 1;
        if (numbers_at(*binding.geom_bind, kDefaultTime, g, w)) {
            if (g.size() != 16) b.fail("Mesh " + path + "'s geomBindTransform is not a matrix");
            geom = usd_matrix(g.data());
            geom.block<3, 1>(0, 3) *= b.mpu;
        }
    }
    return geom;
}

// jointIndices and jointWeights into the mesh's influences, `k` a point (one set for all points
// when constant). Returns how many points' weights do not sum to 1.
std::size_t influences(SceneBuild& b, const std::string& path, const Numbers& idx, const Numbers& wts, int k, bool constant, std::size_t count,
                       std::size_t joints, Influences& inf) {
    std::size_t off_sums = 0;
    inf.offsets.reserve(count + 1);
    inf.stored_sums.reserve(count);
    inf.offsets.push_back(0);
    idx.visit([&](const auto* ji, std::size_t) {
        wts.visit([&](const auto* jw, std::size_t) {
            // The influences kept (non-zero weights) counted first: the lists are sized once, not
            // grown by doubling (each doubling a copy, and fresh pages, of a mesh-sized array).
            std::size_t kept = 0;
            for (std::size_t i = 0, n = constant ? std::size_t(k) : count * std::size_t(k); i < n; ++i) kept += jw[i] != 0;
            if (constant) kept *= count;
            inf.joints.reserve(inf.joints.size() + kept);
            inf.weights.reserve(inf.weights.size() + kept);
            for (std::size_t v = 0; v < count; ++v) {
                const std::size_t base = constant ? 0 : v * std::size_t(k);
                double sum = 0;
                for (int e = 0; e < k; ++e) {
                    const double j = double(ji[base + e]);
                    if (!(j >= 0) || j >= double(joints) || j != std::floor(j))
                        b.fail("Mesh " + path + "'s jointIndices hold " + std::to_string(j) + ", past its " + std::to_string(joints) + " joints");
                    sum += double(jw[base + e]);
                }
                inf.stored_sums.push_back(float(sum));
                // UsdSkel skins with the weights as stored (its LBS sums w x M x p without normalising),
                // so rigscope keeps them too; a sum away from 1 is reported by the caller.
                if (std::abs(sum - 1.0) > 1e-5) ++off_sums;
                for (int e = 0; e < k; ++e) {
                    if (jw[base + e] == 0) continue;
                    inf.joints.push_back(std::uint16_t(ji[base + e]));
                    inf.weights.push_back(float(jw[base + e]));
                }
                inf.offsets.push_back(std::uint32_t(inf.joints.size()));
            }
        });
    });
    return off_sums;
}

}  // namespace

void skin_mesh(SceneBuild& b, const PrimSpec& p, Mesh& m, const Binding& binding, const std::map<std::string, SkeletonInfo>& skeletons) {
    const std::string& path = b.stage.path_of(p);
    const PrimSpec* sk = b.stage.prim_at(binding.skeleton);
    auto it = skeletons.find(binding.skeleton);
    if (!sk || sk->type != "Skeleton" || it == skeletons.end())
        b.fail("Mesh " + path + "'s skel:skeleton " + binding.skeleton + " is not a Skeleton under a SkelRoot");
    const SkeletonInfo& info = it->second;
    if (m.cache)
        b.fail("Mesh " + path + " has time-sampled points and a skin: UsdSkel skins each sample of the points, which rigscope "
                                "does not evaluate (it reads time-sampled points of unskinned meshes)");
    const SkinningMethod skinning = skinning_method(b, path, binding);
    const std::vector<int> map = joint_map(b, path, binding, info);
    const Eigen::Matrix4d geom = geom_bind_transform(b, path, binding);
    Skin s;
    s.name = p.name;
    s.method = skinning;
    if (!binding.missing_api.empty())
        s.legacy_binding = "Mesh " + path + " is bound through UsdSkel properties on " + binding.missing_api +
                           ", which has no SkelBindingAPI applied: rigscope and USD before 23.08 skin it, USD 23.08 and later ignore "
                           "the properties and leave the mesh unskinned (apply the schema: prepend apiSchemas = [\"SkelBindingAPI\"])";
    // The dual-quaternion rule factors world x bind^-1 apart from G (Skin::geom_bind), which
    // rigscope recovers as inverse_bind x G^-1.
    if (skinning == SkinningMethod::UsdDualQuaternion && !(std::abs(geom.topLeftCorner<3, 3>().determinant()) > 1e-12))
        b.fail("Mesh " + path + "'s geomBindTransform is singular, which rigscope's dualQuaternion skinning cannot take apart");
    s.geom_bind = geom;
    s.bind_space = info.node;
    for (int j : map) {
        s.joints.push_back(info.nodes[j]);
        s.inverse_bind.push_back(info.bind[j].inverse() * geom);
    }
    Numbers idx, wts;
    int wi = 1, ww = 1;
    if (!stored_numbers(*binding.joint_indices, idx, wi) || !stored_numbers(*binding.joint_weights, wts, ww))
        b.fail("Mesh " + path + "'s jointIndices or jointWeights have no value");
    const int k = element_size(*binding.joint_indices);
    if (k != element_size(*binding.joint_weights) || k < 1 || k > 4096)
        b.fail("Mesh " + path + "'s jointIndices and jointWeights have elementSize " + std::to_string(k) + " and " +
               std::to_string(element_size(*binding.joint_weights)));
    const std::string interp = interpolation(*binding.joint_indices);
    if (interp != interpolation(*binding.joint_weights)) b.fail("Mesh " + path + "'s jointIndices and jointWeights differ in interpolation");
    const std::size_t count = m.positions.size();
    const bool constant = interp == "constant";
    if (!constant && interp != "vertex") b.fail("Mesh " + path + "'s joint influences have interpolation '" + interp + "' (UsdSkel reads vertex and constant)");
    const std::size_t want = constant ? std::size_t(k) : count * std::size_t(k);
    if (idx.size() != want || wts.size() != want)
        b.fail("Mesh " + path + " has " + std::to_string(idx.size()) + " joint indices and " + std::to_string(wts.size()) +
               " weights for " + std::to_string(count) + " points of " + std::to_string(k) + " influences");
    b.charge(count * std::size_t(k) * 6 + count * 8);
    const std::size_t off_sums = influences(b, path, idx, wts, k, constant, count, map.size(), m.influences);
    if (map.size() > 65535) b.fail("Mesh " + path + " is bound to more than 65535 joints");
    if (off_sums)
        b.scene.warnings.push_back({WarningKind::SkinWeights, "Mesh " + path + ": " + std::to_string(off_sums) +
                                   " points have joint weights that do not sum to 1; UsdSkel uses them as stored, and so does rigscope"});
    b.scene.skins.push_back(std::move(s));
    m.skin = int(b.scene.skins.size()) - 1;
}

}  // namespace rigscope::usd
