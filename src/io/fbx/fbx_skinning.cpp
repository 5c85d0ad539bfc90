#include "io/fbx/fbx_skinning.h"

#include <algorithm>
#include <cmath>

namespace rigscope::fbx {

namespace {

std::vector<double> numbers(const Record& rec, const char* child, std::uint64_t max_memory) {
    const Record* r = rec.child(child);
    if (!r || r->props.empty()) return {};
    return as_doubles(r->props[0], max_memory);
}

}  // namespace

void read_skinning(const Record& skin, std::size_t control_points, std::uint64_t max_memory, const std::string& what,
                   Skin& out, std::vector<Warning>& warnings) {
    out.method = SkinningMethod::Linear;
    out.blend_weights.clear();
    const Record* type = skin.child("SkinningType");
    if (!type || type->props.empty()) return;
    if (!type->props[0].is_string()) throw Malformed(what + ": the skin's SkinningType is not a name");
    const std::string name = type->props[0].str();
    if (name == "Linear") out.method = SkinningMethod::Linear;
    else if (name == "DualQuaternion") out.method = SkinningMethod::DualQuaternion;
    else if (name == "Blend") out.method = SkinningMethod::Blend;
    else if (name == "Rigid") out.method = SkinningMethod::Rigid;
    else throw Malformed(what + ": SkinningType '" + name + "' is not Linear, DualQuaternion, Blend or Rigid");
    if (out.method != SkinningMethod::Blend) return;

    // Blend without BlendWeights blends nothing in: every vertex linear, as the SDK reads it.
    const std::vector<double> idx = numbers(skin, "Indexes", max_memory);
    const std::vector<double> b = numbers(skin, "BlendWeights", max_memory);
    if (idx.size() != b.size())
        throw Malformed(what + ": the skin has " + std::to_string(idx.size()) + " blend indexes and " + std::to_string(b.size()) +
                        " blend weights");
    out.blend_weights.assign(control_points, 0.0f);
    std::size_t clamped = 0;
    for (std::size_t i = 0; i < idx.size(); ++i) {
        if (!(idx[i] >= 0 && idx[i] < double(control_points)) || idx[i] != std::floor(idx[i]))
            throw Malformed(what + ": the skin blends control point " + std::to_string(idx[i]) + ", past the mesh's " +
                            std::to_string(control_points));
        if (!std::isfinite(b[i])) throw Malformed(what + ": the skin has a NaN or infinite blend weight");
        const double c = std::clamp(b[i], 0.0, 1.0);
        clamped += c != b[i];
        out.blend_weights[std::size_t(idx[i])] = static_cast<float>(c);
    }
    if (clamped)
        warnings.push_back({WarningKind::SkinWeights, what + ": clamped " + std::to_string(clamped) + " blend weights outside 0..1 (dual-quaternion share)"});
}

}  // namespace rigscope::fbx
