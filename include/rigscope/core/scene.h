// The plain scene model every reader produces and every operation consumes.
//
// Nothing here knows about a file format: readers (src/io) convert FBX or glTF into these structs,
// and the core works on them alone. Units are the file's own after the reader's unit conversion
// (metres for FBX); the axes are the file's (glTF is Y-up).
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rigscope/core/read_file.h"
#include "rigscope/core/warning.h"

namespace rigscope {

class PointCache;     // core/point_cache.h
class LocalMatrices;  // core/local_matrices.h

// Translation, rotation, scale: the local transform of a node, composed as T * R * S.
struct Transform {
    Eigen::Vector3d translation = Eigen::Vector3d::Zero();
    Eigen::Quaterniond rotation = Eigen::Quaterniond::Identity();
    Eigen::Vector3d scale = Eigen::Vector3d::Ones();

    Eigen::Matrix4d matrix() const;
};

// Translation, rotation, scale of a matrix that has no shear (a mirror carried by negating all
// three scales, Assimp's convention); a sheared matrix loses its shear.
Transform decompose(const Eigen::Matrix4d& m);

// How a node takes on its parent's scale. glTF and Collada know only Full (world = parent world x
// local); FBX's InheritType names all three, and Maya (segment scale compensation, on by default
// for joints) and MotionBuilder write the other two. The rules are ufbx's and the FBX SDK's, which
// reproduce the DCCs' own exports (docs/fbx_notes.md, "Inherit types"):
// - Full (RSrs): the plain matrix product.
// - IgnoreParentScale (Rrs): the parent's own scale moves the node's translation but does not
//   scale or shear the node; the scale above the parent is inherited as usual.
// - Componentwise (RrSs): the parent's scale is multiplied into the node's scale axis by axis,
//   after the node's rotation, so it never shears.
enum class InheritScale { Full, IgnoreParentScale, Componentwise };

struct Node {
    std::string name;
    int parent = -1;            // index into Scene::nodes, -1 for a root
    std::vector<int> children;  // indices into Scene::nodes
    Transform rest;             // the node's local transform without animation
    int mesh = -1;              // index into Scene::meshes instantiated here, or -1
    InheritScale inherit = InheritScale::Full;
    // The local matrix at rest where `rest` cannot hold it (USD: an xformOp stack that shears, a
    // SkelAnimation quaternion of another length than 1), which poses use instead of `rest`;
    // null for every other node (`rest` is then exact).
    std::shared_ptr<const Eigen::Matrix4d> rest_matrix;
};

// Skin influences of a mesh's file vertices in compressed-row form: vertex v's influences are
// [offsets[v], offsets[v+1]). Joint indices address the mesh's Skin::joints. Weights are
// normalised to sum to 1 by the reader (a vertex whose weights sum to 0 has no influences).
struct Influences {
    std::vector<std::uint32_t> offsets;  // vertex count + 1 entries
    std::vector<std::uint16_t> joints;
    std::vector<float> weights;
    // Per vertex, the sum of its weights as the file stores them, before the reader normalised
    // them (lint's weights_sum). Empty where the reader does not keep it.
    std::vector<float> stored_sums;

    std::size_t vertex_count() const { return offsets.empty() ? 0 : offsets.size() - 1; }
    bool empty() const { return joints.empty(); }
};

struct MorphTarget {
    std::string name;
    std::vector<Eigen::Vector3f> deltas;  // one per file vertex: position offset at weight 1
};

// A blend-shape channel that holds several shapes (FBX in-between shapes): one weight drives
// them, each shape reached at its own full weight (core/morph_channel.h says how). Channels of a
// single shape need no entry: their weight is the target's.
struct MorphChannel {
    std::string name;
    std::vector<int> targets;  // indices into Mesh::targets
    std::vector<double> full;  // per target, the channel weight at which it is whole (1 = 100 %)
};

// A UV set as the file holds it (issue 60: bake): the values, and per face corner (per entry of
// Mesh::face_indices) the value that corner takes, so a seam is where two faces give one vertex
// two values (glTF splits vertices at seams instead: its corners index uv by vertex).
struct UvSet {
    std::string name;                   // glTF TEXCOORD_n, FBX's layer name, USD's primvar name (st)
    std::vector<Eigen::Vector2f> uv;    // (u, v) as stored, in the file's own v convention
    std::vector<std::uint32_t> corners; // per face corner: index into uv
};

struct Mesh {
    std::string name;
    int node = -1;  // node that instantiates the mesh (for an unskinned mesh, its world transform)
    int skin = -1;  // index into Scene::skins, or -1

    // File vertices: for glTF the primitives' vertices in order, concatenated; for FBX the
    // control points in order of first use (Assimp unrolls polygon corners; the reader folds them).
    std::vector<Eigen::Vector3f> positions;

    // Faces as the file holds them: polygons for FBX, triangles for glTF. Face f is
    // face_indices[face_offsets[f] .. face_offsets[f+1]).
    std::vector<std::uint32_t> face_offsets{0};
    std::vector<std::uint32_t> face_indices;

    Influences influences;  // empty when the mesh has no skin
    std::vector<MorphTarget> targets;
    std::vector<float> default_weights;  // morph weights without animation, one per target
    std::vector<MorphChannel> channels;  // channels of several targets (in-betweens), if any

    // Animation by point cache (core/point_cache.h), or null. With one, every frame that is not
    // the bind pose takes its positions from the cache at the frame's time, in the space of
    // `positions` (placed as the mesh is at the bind pose: a skinned mesh as stored, another by
    // its node's world matrix); the skin and morph targets are not applied.
    std::shared_ptr<const PointCache> cache;
    // Per file vertex, the cache point it takes (a cache of the welded vertices); empty: point i
    // is file vertex i.
    std::vector<std::uint32_t> cache_points;

    // UV sets, the file's first (glTF TEXCOORD_0, FBX's first layer, USD primvars:st) first;
    // empty where the file has none or the reader reads none.
    std::vector<UvSet> uv_sets;
    // glTF: v = 0 is the image's top row (its UV origin is the top left); FBX, USD, Alembic, OBJ:
    // v = 0 is the bottom row. The readers store v unchanged and say which here.
    bool uv_v_down = false;
    // The file's normals, one per file vertex in the space of `positions` (glTF NORMAL, when
    // every primitive has it); empty where the file has none or the reader reads none. No
    // measure uses them: outputs carry them (Alembic's N, docs/alembic_notes.md).
    std::vector<Eigen::Vector3f> normals;

    std::size_t vertex_count() const { return positions.size(); }
    std::size_t face_count() const { return face_offsets.empty() ? 0 : face_offsets.size() - 1; }
};

// How a skin blends its joints (FBX Skin deformer's SkinningType; glTF and Collada are always
// linear). Rigid (one joint per vertex by convention) evaluates as linear, as the FBX SDK does.
// DualQuaternion is Blender's rule (its Preserve Volume); UsdDualQuaternion is OpenUSD's
// (UsdSkel's `dualQuaternion`: the rotation from a polar decomposition, the pivot the heaviest
// influence), which the USD reader picks. The formulas are in docs/methods.md ("Skinning methods").
enum class SkinningMethod { Linear, DualQuaternion, Blend, Rigid, UsdDualQuaternion };
// The FBX names, which `info` uses too: Linear, DualQuaternion, Blend, Rigid; and UsdDualQuaternion.
inline const char* skinning_method_name(SkinningMethod m) {
    switch (m) {
        case SkinningMethod::Linear: return "Linear";
        case SkinningMethod::DualQuaternion: return "DualQuaternion";
        case SkinningMethod::Blend: return "Blend";
        case SkinningMethod::Rigid: return "Rigid";
        case SkinningMethod::UsdDualQuaternion: return "UsdDualQuaternion";
    }
    return "";
}

struct Skin {
    std::string name;
    std::vector<int> joints;                     // node indices
    std::vector<Eigen::Matrix4d> inverse_bind;   // one per joint
    SkinningMethod method = SkinningMethod::Linear;
    // Blend: per file vertex of the skinned mesh, the dual-quaternion share b in [0, 1]
    // (p = (1 - b) p_linear + b p_dq); a vertex past the end has b = 0. Empty otherwise.
    std::vector<float> blend_weights;
    // USD's geomBindTransform G, which inverse_bind already holds on its right (inverse_bind_j =
    // bind_j^-1 G, so every method skins the stored points). UsdDualQuaternion needs it apart
    // (OpenUSD factors the joint's own matrix world_j bind_j^-1 and applies G to the points
    // first), and so does the bind check (bind_check.h: where a point sits at bind). The identity
    // for every other reader.
    Eigen::Matrix4d geom_bind = Eigen::Matrix4d::Identity();
    // The node whose world matrix the bind transforms are relative to: USD's Skeleton prim (its
    // bindTransforms are in skeleton space, so at bind a point skins to world(bind_space) G p);
    // -1 where they are world-space matrices (glTF, FBX, Collada), which place the stored points.
    int bind_space = -1;
    // Why a newer reader of the format would not bind this skin at all, for lint's
    // legacy_binding (USD: binding properties on prims without SkelBindingAPI, which OpenUSD
    // 23.08 and later ignore); empty when every reader binds it.
    std::string legacy_binding;
};

enum class Interpolation { Step, Linear, CubicSpline };
// glTF's names of the modes, which `info` uses too: STEP, LINEAR, CUBICSPLINE.
inline const char* interpolation_name(Interpolation i) {
    switch (i) {
        case Interpolation::Step: return "STEP";
        case Interpolation::Linear: return "LINEAR";
        case Interpolation::CubicSpline: return "CUBICSPLINE";
    }
    return "";
}
enum class ChannelPath { Translation, Rotation, Scale, Weights };

// One animated property of one node. values holds, per key, `width` floats (3 for translation
// and scale, 4 for rotation as x,y,z,w, the mesh's target count for weights); CUBICSPLINE keys
// hold three such elements each: in-tangent, value, out-tangent, as glTF stores them.
struct Channel {
    int node = -1;
    ChannelPath path = ChannelPath::Translation;
    Interpolation interpolation = Interpolation::Linear;
    int width = 3;
    std::vector<float> times;   // seconds, increasing
    std::vector<float> values;
};

struct Clip {
    std::string name;
    std::vector<Channel> channels;
    double start = 0.0;  // first key time over all channels, seconds
    double end = 0.0;    // last key time

    // FBX takes: the take's own range (LocalStart..LocalStop), which the default frames follow,
    // and the span of the file's keys. start..end above covers both (the binary FBX reader
    // samples every frame of the two together).
    bool has_take = false;
    double take_start = 0.0, take_end = 0.0;
    double key_start = 0.0, key_end = 0.0;

    // Nodes whose local matrices the reader evaluates itself (core/local_matrices.h: USD's own
    // interpolation), which sample_pose takes over these nodes' channels. Empty for other formats.
    std::vector<std::shared_ptr<const LocalMatrices>> matrices;
};

struct Scene {
    std::string source;  // the path it was read from
    std::string format;  // "glTF" or "FBX"
    std::vector<Node> nodes;
    std::vector<Mesh> meshes;
    std::vector<Skin> skins;
    std::vector<Clip> clips;

    double fps = 24.0;          // the file's frame rate where it has one, else 24
    bool fps_from_file = false;
    std::string fps_note;       // where the reader took fps from, for `info` (FBX: the TimeMode)
    double unit_scale = 1.0;    // factor the reader applied to reach metres (FBX: 0.01 * UnitScaleFactor)
    std::string units_note;     // how the reader arrived at unit_scale, for `info`
    std::string up_axis = "Y";
    std::string vertex_ids;     // what a vertex id means for this file, for `info`
    std::vector<Warning> warnings;  // what the reader passed over or repaired (core/warning.h)
    std::vector<std::string> extensions;  // format extensions the file uses (glTF extensionsUsed), for `info`
    // What the reader composed the scene from, for `info` (USD: sublayers, references, payloads,
    // variant selections and instances, usd_compose.h); empty for a single-file format.
    std::vector<std::string> composed;
    // Every other file the reader opened, and how the file led to it (USD's sublayers,
    // references, payloads and packages, a glTF's external buffers), in the order opened: no
    // output of the run may be written over one (run/input.h).
    std::vector<ReadFile> read_files;
    // Per-mesh data the reader found and lists for `info` but does not evaluate (Alembic: uv, N,
    // arbGeomParams, visibility); empty for the other formats.
    std::vector<std::string> attributes;

    int find_node(const std::string& name) const;
};

}  // namespace rigscope
