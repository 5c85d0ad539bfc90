// Pieces of the FBX reader shared between src/io/fbx_*.cpp; the format-neutral Assimp conversion is
// assimp_scene.h. Assimp types are only forward-declared here, so tests may include this header
// for the hooks at the bottom.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "io/assimp_scene.h"
#include "io/fbx_raw.h"
#include "rigscope/io/load.h"
#include "rigscope/core/scene.h"

struct aiScene;
struct aiNode;
struct aiMesh;
struct aiAnimation;

namespace rigscope::fbx {

using assimp::NodeMap;
using assimp::to_eigen;
using assimp::build_clips;  // Fills scene.clips (file units), times in seconds.

// The nodes Assimp adds for FBX pivots and offsets ("_$AssimpFbx$_"), folded away.
bool is_helper_name(const std::string& name);

// Fills scene.nodes (file units) with the helpers folded and returns the mapping.
NodeMap build_nodes(const aiScene& ai, Scene& scene);

// Fills scene.meshes and scene.skins (file units), one Mesh per aiMesh instance. Inverse binds
// are Assimp's offset matrices, cross-checked against the raw clusters when `raw` was parsed.
void build_meshes(const aiScene& ai, const NodeMap& map, const RawFbx& raw, const std::string& path,
                  Scene& scene);

// Assimp 5.2.4+ takes a bone's inverse bind from the cluster's Transform alone. When that
// disagrees with TransformLink^-1 x the mesh's bind placement (over the mesh's bounding box
// lo..hi, relative 1e-4), sets `out` to the latter and returns true. File units throughout.
bool inverse_bind_from_link(const Eigen::Matrix4d& assimp, const RawCluster& cluster, const Eigen::Matrix4d& mesh_bind,
                            const Eigen::Vector3d& lo, const Eigen::Vector3d& hi, Eigen::Matrix4d& out);

// Test hook: read_fbx with Assimp's pivot-preserving node chains, which the reader must fold to
// the same scene (Assimp keeps helper nodes when pivots are preserved).
Scene read_fbx_preserving_pivots(const std::string& path, const LoadOptions& options);

// Any FBX through Assimp (binary too, after the raw cross-check): what read_fbx did for binary
// FBX before the file's own reader, kept for ASCII FBX, the two-path comparison test and the
// load benchmark.
Scene read_fbx_assimp(const std::string& path, const LoadOptions& options);

}  // namespace rigscope::fbx
