// A composed stage into the scene (usd_scene.h), in steps: the stage's units and rate; the
// defined prims indexed by path; a walk of the prim tree that makes each prim's node
// (usd_scene_xform.cpp), carries UsdSkel bindings down namespace (usd_skel_binding.cpp), reads
// skeletons (usd_skeleton.cpp) and meshes (usd_mesh.cpp); then, with every skeleton known,
// skins (usd_skin.cpp) and blend shapes (usd_blend_shapes.cpp); last the clip.
#include "io/usd/usd_scene.h"

#include <cmath>

#include "io/usd/usd_scene_build.h"

namespace rigscope::usd {

const PrimSpec* StagePrims::prim_at(const std::string& path) const {
    auto it = prims.find(path);
    return it == prims.end() ? nullptr : it->second;
}

std::string StagePrims::resolve(const PrimSpec& owner, const std::string& target) const {
    if (!target.empty() && target[0] == '/') return target;
    std::string base = paths.at(&owner);
    std::string rest = target;
    while (rest.compare(0, 3, "../") == 0) {
        base = base.substr(0, base.find_last_of('/'));
        rest = rest.substr(3);
    }
    if (rest == "..") return base.substr(0, base.find_last_of('/'));
    if (rest == "." || rest.empty()) return base;
    return base + "/" + rest;
}

bool StagePrims::defined(const std::string& parent_path, const PrimSpec& child) const {
    auto it = prims.find(parent_path + "/" + child.name);
    return it != prims.end() && it->second == &child;
}

namespace {

bool number_meta(const Layer& layer, const char* key, double& out) {
    auto it = layer.metadata.find(key);
    if (it == layer.metadata.end() || it->second.kind != Value::Kind::Number) return false;
    out = it->second.number;
    return true;
}

// metersPerUnit, timeCodesPerSecond (else framesPerSecond, else USD's 24) and upAxis, each
// with the note info prints of where it came from.
void stage_units(SceneBuild& b) {
    Scene& scene = b.scene;
    if (number_meta(b.layer, "metersPerUnit", b.mpu)) {
        if (!(b.mpu > 0) || !std::isfinite(b.mpu)) b.fail("metersPerUnit is " + std::to_string(b.mpu));
        scene.units_note = "USD metersPerUnit " + std::to_string(b.mpu);
    } else {
        scene.units_note = "USD metersPerUnit not authored: UsdGeom's fallback 0.01 (centimetres)";
    }
    scene.unit_scale = b.mpu;
    double fps = 0;
    if (number_meta(b.layer, "timeCodesPerSecond", b.tcps)) {
        scene.fps_note = "timeCodesPerSecond";
    } else if (number_meta(b.layer, "framesPerSecond", fps)) {
        b.tcps = fps;
        scene.fps_note = "framesPerSecond (no timeCodesPerSecond)";
    } else {
        scene.fps_note = "neither timeCodesPerSecond nor framesPerSecond: USD's 24";
    }
    if (!(b.tcps > 0) || !std::isfinite(b.tcps)) b.fail("timeCodesPerSecond is " + std::to_string(b.tcps));
    scene.fps = b.tcps;
    scene.fps_from_file = scene.fps_note.compare(0, 7, "neither") != 0;
    if (auto it = b.layer.metadata.find("upAxis"); it != b.layer.metadata.end()) {
        const std::string up = it->second.text;
        if (up != "Y" && up != "Z") b.fail("upAxis is '" + up + "' (USD knows Y and Z)");
        scene.up_axis = up;
    }
}

void index(SceneBuild& b, const PrimSpec& p, const std::string& parent_path) {
    const std::string path = parent_path + "/" + p.name;
    // The layer is composed (usd_compose.cpp): arcs are resolved, each prim is one spec.
    // Usd's default traversal: over-only and class prims are not defined, inactive ones are pruned.
    if (p.specifier != PrimSpec::Specifier::Def) return;
    if (const Value* a = p.meta("active"); a && a->kind == Value::Kind::Number && a->number == 0) return;
    if (b.stage.prims.count(path)) b.fail("prim " + path + " is declared twice");
    b.stage.prims[path] = &p;
    b.stage.paths[&p] = path;
    for (const auto& c : p.children) index(b, *c, path);
}

bool is_gprim_not_mesh(const std::string& type) {
    return type == "Sphere" || type == "Cube" || type == "Cylinder" || type == "Cone" || type == "Capsule" || type == "BasisCurves" ||
           type == "Points" || type == "NurbsCurves";
}

// One prim and its defined children: its node, the binding in effect under a SkelRoot, and
// what it is (a Skeleton, a Mesh).
void walk(SceneBuild& b, const PrimSpec& p, int parent, Binding binding, bool in_skel_root, SkelWalk& out) {
    const std::string& path = b.stage.path_of(p);
    const int node = xform_node(b, p, parent, out.xforms);
    if (p.type == "SkelRoot") in_skel_root = true;
    if (in_skel_root) inherit_binding(b.stage, p, binding, out.missing_api_prims);
    if (p.type == "Skeleton" && in_skel_root) out.skeletons[path] = read_skeleton(b, p, node, binding);
    if (p.type == "Mesh") {
        if (read_mesh(b, p, node) && in_skel_root && !binding.skeleton.empty()) {
            const int mesh = int(b.scene.meshes.size()) - 1;
            // Skinned once every skeleton is read: a mesh may come before its skeleton in namespace.
            if (binding.joint_indices && binding.joint_weights) out.skins.push_back({&p, mesh, binding});
            // Blend shapes are read from the mesh's own skel:blendShapes, with the weights of its
            // skeleton's animation (UsdSkel's skinning query of the mesh).
            if (p.property("skel:blendShapes") || p.property("skel:blendShapeTargets")) out.shapes.push_back({&p, mesh, binding});
        }
    } else if (in_skel_root && binding.joint_indices && is_gprim_not_mesh(p.type)) {
        b.scene.warnings.push_back({WarningKind::Skipped, "prim " + path + " is a " + p.type + ", not a Mesh: rigscope reads meshes only and skips it"});
    }
    for (const auto& c : p.children)
        if (b.stage.defined(path, *c)) walk(b, *c, node, binding, in_skel_root, out);
}

// The clip, when anything is keyed: its span widened to the stage's startTimeCode and
// endTimeCode, which the frames of a run default to.
void finish_clip(SceneBuild& b) {
    if (!b.have_keys) return;
    Clip& clip = b.clip;
    clip.name = "animation";
    double start = 0, end = 0;
    if (number_meta(b.layer, "startTimeCode", start) && number_meta(b.layer, "endTimeCode", end) && end >= start) {
        clip.has_take = true;
        clip.take_start = b.seconds(start);
        clip.take_end = b.seconds(end);
        clip.key_start = clip.start;
        clip.key_end = clip.end;
        clip.start = std::min(clip.start, clip.take_start);
        clip.end = std::max(clip.end, clip.take_end);
    }
    b.scene.clips.push_back(std::move(clip));
}

}  // namespace

Scene build_scene(const Layer& layer, std::uint64_t max_memory) {
    SceneBuild b(layer, max_memory);
    b.scene.source = layer.path;
    b.scene.format = "USD";
    stage_units(b);
    b.scene.vertex_ids = "USD: vertex ids are a Mesh's points, in the layer's order";
    for (const auto& r : layer.roots) index(b, *r, "");
    SkelWalk w;
    for (const auto& r : layer.roots)
        if (b.stage.defined("", *r)) walk(b, *r, -1, Binding{}, false, w);
    for (const auto& ps : w.skins) skin_mesh(b, *ps.prim, b.scene.meshes[std::size_t(ps.mesh)], ps.binding, w.skeletons);
    for (const auto& ps : w.shapes) blend_shapes(b, *ps.prim, ps.mesh, ps.binding, w.skeletons);
    for (const auto& p : w.missing_api_prims)
        b.scene.warnings.push_back({WarningKind::SkinWeights, "prim " + p + " has UsdSkel binding properties without SkelBindingAPI applied: rigscope reads them, "
                                   "USD 23.08 and later ignore them"});
    if (!w.xforms.nodes.empty())
        b.clip.matrices.push_back(xform_matrices(w.xforms.nodes, w.xforms.stacks, w.xforms.places, b.mpu, b.tcps));
    finish_clip(b);
    return std::move(b.scene);
}

}  // namespace rigscope::usd
