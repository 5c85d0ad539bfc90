// The steps of the USD scene builder (usd_scene.cpp runs them), private to the USD reader: the
// composed stage in, the plain scene model out. SceneBuild is what every step writes into (the
// scene, its budget, the stage's units and rate, the one clip); what a step makes for a later
// one is handed over as a value: the walk's SkelWalk (skeletons read, meshes to skin and to give
// blend shapes, xform stacks), and each mesh's Binding.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "io/load_budget.h"
#include "io/usd/usd_layer.h"
#include "io/usd/usd_transforms.h"
#include "rigscope/core/scene.h"

namespace rigscope::usd {

constexpr double kDefaultTime = std::numeric_limits<double>::quiet_NaN();  // a property's default, not a time sample

// The stage's defined prims by path, as Usd's default traversal sees them (over-only and class
// prims are not defined, inactive ones are pruned).
struct StagePrims {
    std::map<std::string, const PrimSpec*> prims;
    std::map<const PrimSpec*, std::string> paths;

    const std::string& path_of(const PrimSpec& p) const { return paths.at(&p); }
    const PrimSpec* prim_at(const std::string& path) const;
    // A relationship target as written, made absolute against the prim that holds it.
    std::string resolve(const PrimSpec& owner, const std::string& target) const;
    // Whether `child` of the prim at `parent_path` is the defined prim at its path.
    bool defined(const std::string& parent_path, const PrimSpec& child) const;
};

struct SceneBuild {
    SceneBuild(const Layer& l, std::uint64_t max_memory) : layer(l), budget(l.path, max_memory) {}
    const Layer& layer;
    LoadBudget budget;  // the scene's arrays (the layer's own were charged as it was parsed)
    Scene scene;
    double mpu = 0.01;   // metersPerUnit
    double tcps = 24.0;  // timeCodesPerSecond
    StagePrims stage;
    Clip clip;
    bool have_keys = false;

    [[noreturn]] void fail(const std::string& what) const;
    void charge(double bytes);
    double seconds(double time_code) const { return time_code / tcps; }
    // A key at `t` seconds widens the clip's span.
    void add_key_span(double t);
    int add_node(const std::string& name, int parent, const Transform& rest);
    TransformPlace place(const std::string& prim) const { return {layer.path, prim}; }
};

// The binding properties of UsdSkelBindingAPI, each inherited down namespace from the nearest
// ancestor under the SkelRoot that authors it (UsdSkel's cache carries them the same way).
struct Binding {
    const PrimSpec* skeleton_owner = nullptr;  // prim whose skel:skeleton is in effect
    std::string skeleton;                      // its target, resolved
    std::string animation;                     // skel:animationSource in effect, resolved
    const PropertySpec* joint_indices = nullptr;
    const PropertySpec* joint_weights = nullptr;
    const PropertySpec* geom_bind = nullptr;
    const PropertySpec* joints = nullptr;
    const PropertySpec* method = nullptr;
    std::string missing_api;  // the first prim without SkelBindingAPI a property in effect comes from
};

struct SkeletonInfo {
    std::vector<std::string> joints;      // the skeleton's joint paths
    std::vector<int> nodes;               // node per joint
    std::vector<Eigen::Matrix4d> bind;    // skeleton-space bind transforms, unit-scaled
    const PrimSpec* animation = nullptr;  // its SkelAnimation, whose blendShapeWeights drive blend shapes
    int node = -1;                        // the Skeleton prim's node: the space of `bind`
};

// A mesh whose skin or blend shapes wait for every skeleton to be read (a mesh may come before
// its skeleton in namespace).
struct PendingMesh {
    const PrimSpec* prim;
    int mesh;
    Binding binding;
};

// Nodes whose transforms OpenUSD evaluates in ways channels cannot say (usd_transforms.h):
// the clip's LocalMatrices.
struct XformStacks {
    std::vector<int> nodes;
    std::vector<std::vector<XformOp>> stacks;
    std::vector<TransformPlace> places;
};

// What the walk of the prim tree hands to the steps after it.
struct SkelWalk {
    std::map<std::string, SkeletonInfo> skeletons;  // by the Skeleton prim's path
    std::vector<PendingMesh> skins, shapes;
    XformStacks xforms;
    std::set<std::string> missing_api_prims;  // prims with binding properties and no SkelBindingAPI
};

// ---- xform (usd_scene_xform.cpp) ----
// The node's rest transform from a matrix: translate/rotate/scale, and the matrix itself
// where those cannot hold it (a shear, a quaternion not of length 1).
void set_rest(SceneBuild& b, int node, const Eigen::Matrix4d& m);
// Translation, rotation and scale channels of the node at the time codes, widening the clip.
void trs_channels(SceneBuild& b, int node, const std::vector<double>& times, const std::vector<Transform>& values);
void keep_quaternions_near(std::vector<Transform>& xs);
// The prim's node with its xformOp stack's rest transform, and its animation when time-sampled.
int xform_node(SceneBuild& b, const PrimSpec& p, int parent, XformStacks& stacks);

// ---- UsdSkel binding (usd_skel_binding.cpp) ----
bool has_api(const PrimSpec& p, const std::string& api);
// The prim's own binding properties over the ones inherited.
void inherit_binding(const StagePrims& stage, const PrimSpec& p, Binding& b, std::set<std::string>& missing_api_prims);

// ---- UsdSkel skeleton (usd_skeleton.cpp) ----
SkeletonInfo read_skeleton(SceneBuild& b, const PrimSpec& p, int node, const Binding& binding);

// ---- meshes (usd_mesh.cpp) ----
// A primvar's interpolation ("constant" when unauthored) and elementSize (1 when unauthored).
std::string interpolation(const PropertySpec& p);
int element_size(const PropertySpec& p);
// The mesh, its UVs and point cache into the scene; false when it has no points (skipped).
bool read_mesh(SceneBuild& b, const PrimSpec& p, int node);

// ---- skin (usd_skin.cpp) and blend shapes (usd_blend_shapes.cpp) ----
void skin_mesh(SceneBuild& b, const PrimSpec& p, Mesh& m, const Binding& binding, const std::map<std::string, SkeletonInfo>& skeletons);
void blend_shapes(SceneBuild& b, const PrimSpec& p, int mesh_index, const Binding& binding, const std::map<std::string, SkeletonInfo>& skeletons);

}  // namespace rigscope::usd
