// UsdSkelBindingAPI's properties as the prim walk carries them down namespace (usd_scene_build.h
// Binding). A prim that authors them without the schema applied is still read (USD before 23.08
// did), and named, since USD 23.08 and later ignore such properties.
#include "io/usd/usd_scene_build.h"
#include "io/usd/usd_values.h"

namespace rigscope::usd {

bool has_api(const PrimSpec& p, const std::string& api) {
    const Value* v = p.meta("apiSchemas");
    if (!v) return false;
    for (const auto& s : strings_of(*v))
        if (s == api) return true;
    return false;
}

void inherit_binding(const StagePrims& stage, const PrimSpec& p, Binding& b, std::set<std::string>& missing_api_prims) {
    const bool api = has_api(p, "SkelBindingAPI");
    auto no_api = [&] {
        if (api) return;
        if (b.missing_api.empty()) b.missing_api = stage.path_of(p);
        missing_api_prims.insert(stage.path_of(p));
    };
    auto take = [&](const char* name, const PropertySpec*& slot) {
        const PropertySpec* prop = p.property(name);
        if (!prop || (!prop->has_default && prop->samples.empty())) return;
        slot = prop;
        no_api();
    };
    if (const PropertySpec* rel = p.property("skel:skeleton"); rel && !rel->targets.empty()) {
        b.skeleton = stage.resolve(p, rel->targets.front());
        no_api();
    }
    if (const PropertySpec* rel = p.property("skel:animationSource"); rel && !rel->targets.empty()) {
        b.animation = stage.resolve(p, rel->targets.front());
        no_api();
    }
    take("primvars:skel:jointIndices", b.joint_indices);
    take("primvars:skel:jointWeights", b.joint_weights);
    take("primvars:skel:geomBindTransform", b.geom_bind);
    take("skel:joints", b.joints);
    take("primvars:skel:skinningMethod", b.method);
}

}  // namespace rigscope::usd
