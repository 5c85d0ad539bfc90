// The FBX scene builder's steps, shared by fbx_scene.cpp (nodes), fbx_scene_mesh.cpp (meshes, skins,
// blend shapes) and fbx_scene_clips.cpp (animation stacks). Private to the FBX reader: the document
// (fbx_document.h) in, the plain scene model out.
#pragma once

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "io/fbx/fbx_curve.h"
#include "io/fbx/fbx_document.h"
#include "io/fbx/fbx_transform.h"
#include "rigscope/core/scene.h"
#include "rigscope/io/load.h"

namespace rigscope::fbx {

struct Model {
    const Object* obj = nullptr;
    int parent = -1;  // index into models
    ModelProps props;
};

// An enumeration property as an int; a number no int holds (a fuzzed 1e33) gives the fallback.
int enum_value(double v, int fallback);
ModelProps model_props(const Document& doc, const Object& o);
// InheritType (0 RrSs, 1 RSrs, 2 Rrs) as the scene model's Node::inherit, which pose_world applies.
InheritScale inherit_scale(int inherit_type);
std::vector<double> array_of(const Record& rec, const char* child, std::uint64_t max_memory);
// Whether Blender's FBX exporter (io_scene_fbx: "Blender (stable FBX IO) - 4.4.1 - 5.12.7") wrote
// the file, by its Creator string; Blender 2.4x's ASCII exporter ("Blender version 2.49") writes
// FullWeights as the FBX SDK does.
bool written_by_blender(const std::string& creator);
std::int64_t ktime_property(const Document& doc, const Object& o, const char* name, std::int64_t fallback);

// One blend-shape channel of a mesh: its shapes as targets, each with its full weight.
struct ShapeChannel {
    std::int64_t id = 0;
    MorphChannel channel;   // full weights as fractions (FullWeights / 100)
    double percent = 0.0;   // DeformPercent without animation
};

// Target weights of a channel at DeformPercent `percent` (core/morph_channel.h's rule).
void channel_weights(const ShapeChannel& ch, double percent, float* out);

struct MeshChannels {
    int mesh = -1;
    std::vector<ShapeChannel> channels;
};

// One animated transform property of a model in one layer: three component curves (null where
// the component is not animated: the curve node's default holds it).
struct PropAnim {
    std::array<const Curve*, 3> c{};
    Eigen::Vector3d defaults = Eigen::Vector3d::Zero();
};


// The curves of one animation stack, each read once: the transform properties they animate and
// the blend-shape channels' DeformPercent, with the span of their keys.
struct StackCurves {
    std::deque<Curve> store;  // a deque: the pointers below stay valid as it grows
    // (model, 0 T / 1 R / 2 S) -> per layer, in layer order; the first layer sets, later ones add.
    std::map<std::pair<int, int>, std::vector<PropAnim>> props;
    std::map<std::int64_t, const Curve*> shapes;  // blend-shape channel id -> DeformPercent curve
    std::int64_t first = std::numeric_limits<std::int64_t>::max(), last = std::numeric_limits<std::int64_t>::min();
    double keys = 0;
};

class Builder {
public:
    // budget: the load's (RecordFile::budget), which already holds the file and its records.
    Builder(const Document& doc, const std::string& path, const LoadOptions& options, LoadBudget& budget, Scene& scene)
        : doc_(doc), path_(path), max_memory_(options.max_memory), budget_(budget), scene_(scene),
          blender_(written_by_blender(doc.creator())) {
        // 3ds Max ("3ds Max", "3ds Max Design") saved the file: its automatic keys are unweighted.
        curves_.max_auto_unweighted = doc.application().find("3ds Max") != std::string::npos;
    }

    void build() {
        nodes();
        meshes();
        clips();
    }

private:
    // fbx_scene.cpp: models -> nodes, parents first, with their rest transforms.
    void nodes();
    // fbx_scene_mesh.cpp: each model's Mesh geometries, in node order.
    void meshes();
    void mesh(int node, const Model& model, const Object& geo);
    void polygons(const Object& geo, Mesh& mesh);
    const Object* first_skin(const Object& geo) const;
    void skin_from(const Object& skin_obj, std::size_t n, int node, const Eigen::Matrix4d& geometric, const std::string& what, Skin& skin,
                   std::vector<std::vector<std::pair<std::uint16_t, float>>>& rows, Eigen::Matrix4d& place);
    void influences_from(std::vector<std::vector<std::pair<std::uint16_t, float>>>& rows, const std::string& what, Influences& out);
    MeshChannels shapes(const Object& geo, const Eigen::Matrix4d& place, const std::string& what, Mesh& mesh);
    // fbx_scene_clips.cpp: each animation stack -> a clip.
    void clips();
    StackCurves stack_curves(const Object& stack) const;
    ModelProps animated_props(const StackCurves& curves, int m, std::int64_t t) const;
    void node_channels(const StackCurves& curves, int m, const std::vector<long>& frames, Clip& clip) const;
    Channel morph_channel(const StackCurves& curves, const MeshChannels& mc, const std::vector<long>& frames) const;

    // The scene's own arrays (every mesh instance, dense morph targets) count against the budget.
    void spend(double bytes, const std::string& what) { charge(budget_, bytes, what); }

    const Document& doc_;
    std::string path_;
    std::uint64_t max_memory_;  // the limit a single decoded array is checked against (as_doubles)
    LoadBudget& budget_;
    Scene& scene_;
    std::vector<Model> models_;
    std::unordered_map<std::int64_t, int> model_index_;
    std::vector<int> node_of_, model_of_node_;
    std::vector<Eigen::Matrix4d> world_;
    std::vector<MeshChannels> morphs_;
    bool blender_;  // Blender's exporter wrote the file: FullWeights are per-vertex shape weights
    CurveConventions curves_;  // whose tangent conventions the curves follow (read_curve)
};

}  // namespace rigscope::fbx
