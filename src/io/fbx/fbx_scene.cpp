// FBX (7.x binary and ASCII; 6.x upgraded by fbx_v6.cpp) -> the plain scene model, read from the
// file itself: control points as vertices, skin clusters, blend shapes with in-between shapes, the
// full FBX transform chain, every animation stack on the file's own timeline. The steps are
// fbx_scene_builder.h's; this file holds the models and the scene's global settings. See
// docs/fbx_notes.md.
#include "io/fbx/fbx_scene.h"

#include <Eigen/Geometry>
#include <Eigen/LU>
#include <cmath>
#include <cstdlib>

#include "io/fbx/fbx_common.h"
#include "io/fbx/fbx_scene_builder.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/error.h"

namespace rigscope::fbx {

int enum_value(double v, int fallback) { return v >= -2147483648.0 && v <= 2147483647.0 ? static_cast<int>(v) : fallback; }

namespace {

// A model's vector properties by their FBX names, in the order they are read. One the model
// lacks keeps ModelProps' default, the SDK's: zero, one for the scalings.
struct Vec3Property {
    Eigen::Vector3d ModelProps::*field;
    const char* name;
};
constexpr Vec3Property kVec3Properties[] = {
    {&ModelProps::t, "Lcl Translation"},       {&ModelProps::r, "Lcl Rotation"},        {&ModelProps::s, "Lcl Scaling"},
    {&ModelProps::roff, "RotationOffset"},     {&ModelProps::rp, "RotationPivot"},      {&ModelProps::rpre, "PreRotation"},
    {&ModelProps::rpost, "PostRotation"},      {&ModelProps::soff, "ScalingOffset"},    {&ModelProps::sp, "ScalingPivot"},
    {&ModelProps::gt, "GeometricTranslation"}, {&ModelProps::gr, "GeometricRotation"}, {&ModelProps::gs, "GeometricScaling"}};

}  // namespace

ModelProps model_props(const Document& doc, const Object& o) {
    ModelProps m;
    for (const Vec3Property& p : kVec3Properties) m.*p.field = doc.vec3(o, p.name, m.*p.field);
    m.order = enum_value(doc.number(o, "RotationOrder", 0), 0);
    m.inherit = enum_value(doc.number(o, "InheritType", 1), 1);
    for (const Vec3Property& p : kVec3Properties)
        if (!(m.*p.field).allFinite()) throw Malformed("model '" + o.name + "' has a NaN or infinite transform property");
    if (m.order < 0 || m.order > 5) m.order = 0;
    return m;
}

InheritScale inherit_scale(int inherit_type) {
    switch (inherit_type) {
        case 0: return InheritScale::Componentwise;      // RrSs
        case 2: return InheritScale::IgnoreParentScale;  // Rrs
        default: return InheritScale::Full;              // RSrs, and values the SDK does not define
    }
}

std::vector<double> array_of(const Record& rec, const char* child, std::uint64_t max_memory) {
    const Record* r = rec.child(child);
    if (!r || r->props.empty()) return {};
    return as_doubles(r->props[0], max_memory);
}

bool written_by_blender(const std::string& creator) {
    return creator.rfind("Blender", 0) == 0 && creator.rfind("Blender version", 0) != 0;
}

std::int64_t ktime_property(const Document& doc, const Object& o, const char* name, std::int64_t fallback) {
    const Record* p = doc.property(o, name);
    if (!p || p->props.size() < 5 || p->props[4].type != 'L') return fallback;
    return p->props[4].integer;
}

void Builder::nodes() {
    std::unordered_map<std::int64_t, int> index;
    for (const Object& o : doc_.objects())
        if (o.kind == "Model") {
            index.emplace(o.id, static_cast<int>(models_.size()));
            Model m;
            m.obj = &o;
            m.props = model_props(doc_, o);
            models_.push_back(m);
        }
    std::vector<std::vector<int>> children(models_.size());
    std::vector<int> roots;
    for (std::size_t i = 0; i < models_.size(); ++i) {
        for (const auto& [dst, link] : doc_.destinations(models_[i].obj->id, "Model")) {
            if (!link->prop.empty()) continue;
            models_[i].parent = index.at(dst->id);
            break;
        }
        if (models_[i].parent >= 0) children[models_[i].parent].push_back(static_cast<int>(i));
        else roots.push_back(static_cast<int>(i));
    }
    // Parents before children (the scene model's order), depth first in file order.
    node_of_.assign(models_.size(), -1);
    std::vector<int> stack(roots.rbegin(), roots.rend());
    while (!stack.empty()) {
        const int m = stack.back();
        stack.pop_back();
        Node n;
        n.name = models_[m].obj->name;
        const Model* parent = models_[m].parent >= 0 ? &models_[models_[m].parent] : nullptr;
        n.parent = parent ? node_of_[models_[m].parent] : -1;
        n.rest = decompose(local_matrix(models_[m].props));
        n.inherit = inherit_scale(models_[m].props.inherit);
        node_of_[m] = static_cast<int>(scene_.nodes.size());
        if (n.parent >= 0) scene_.nodes[n.parent].children.push_back(node_of_[m]);
        scene_.nodes.push_back(std::move(n));
        model_of_node_.push_back(m);
        for (auto c = children[m].rbegin(); c != children[m].rend(); ++c) stack.push_back(*c);
    }
    for (std::size_t i = 0; i < models_.size(); ++i)
        if (node_of_[i] < 0) throw Malformed("model '" + models_[i].obj->name + "' is part of a cycle of parents");
    model_index_ = std::move(index);
    // Rest world matrices (file units), each node inheriting scale by its InheritType.
    std::vector<Transform> rest;
    for (const Node& n : scene_.nodes) rest.push_back(n.rest);
    world_matrices(scene_, rest, world_);
}

Scene read_fbx_scene(const RecordFile& file, const std::string& path, const LoadOptions& options) {
    const Document doc(file);
    Scene scene;
    scene.source = path;
    scene.format = "FBX";
    scene.vertex_ids = "FBX: vertex ids are control points, in the file's own order";

    const double unit = doc.global_number("UnitScaleFactor", std::nan(""));
    const bool has_unit = !std::isnan(unit);
    if (has_unit && (!(unit > 0) || !std::isfinite(unit)))
        throw Malformed("UnitScaleFactor " + format_number(unit) + " is not a positive number");
    const double s = 0.01 * (has_unit ? unit : 1.0);
    scene.unit_scale = s;
    scene.units_note = has_unit ? "FBX UnitScaleFactor " + format_number(unit, 6) +
                                      (unit == 1.0 ? " (centimetres)" : unit == 100.0 ? " (metres)" : "") + ": scaled by " +
                                      format_number(s, 6) + " to metres"
                                : "FBX without UnitScaleFactor: taken as centimetres, scaled by 0.01 to metres";
    const int up = enum_value(doc.global_number("UpAxis", 1), 1);
    const double sign = doc.global_number("UpAxisSign", 1);
    if (up >= 0 && up <= 2) scene.up_axis = std::string(sign < 0 ? "-" : "") + "XYZ"[up];
    FrameRate rate = time_mode_fps(doc.global_number("TimeMode", std::nan("")), doc.global_number("CustomFrameRate", -1));
    // FBX 6 files (3ds Max 2009's) may give no TimeMode but their scene rate as Version5's
    // Settings FrameRate, a string ("30"), which the FBX SDK and ufbx read.
    if (std::isnan(doc.global_number("TimeMode", std::nan(""))))
        if (const Record* v5 = file.section("Version5"))
            if (const Record* st = v5->child("Settings"))
                if (const Record* fr = st->child("FrameRate"); fr && !fr->props.empty() && fr->props[0].is_string()) {
                    const std::string text = fr->props[0].str();
                    char* end = nullptr;
                    const double f = std::strtod(text.c_str(), &end);
                    if (end != text.c_str() && *end == '\0' && f > 0 && f <= 1e6)
                        rate = {f, true, "FBX 6 Version5 Settings FrameRate \"" + text + "\": " + format_number(f, 9) + " fps"};
                }
    scene.fps = rate.fps;
    scene.fps_from_file = rate.from_file;
    scene.fps_note = rate.note;

    Builder(doc, path, options, file.budget, scene).build();
    scale_lengths(scene, s);
    warn_rest_not_bind(scene);
    return scene;
}

}  // namespace rigscope::fbx
