// Writing the plain scene model as binary glTF 2.0 (.glb), with per-vertex result attributes
// (tension maps, colours) added to its meshes, so commands can hand their results to any glTF
// viewer or DCC. read_gltf of the written file gives back the same scene: positions, faces (as
// triangles), influences, morph targets and clips with their interpolation.
#pragma once

#include <string>
#include <vector>

#include "rigscope/io/output.h"
#include "rigscope/core/scene.h"

namespace rigscope {

// One extra per-vertex attribute: `components` floats per file vertex of the mesh.
//   name: "COLOR_n" (3 or 4 components, values in [0, 1]), "TEXCOORD_n" (2), or an
//   application-specific name starting with '_' ("_TENSION", "_COMPRESS", "_STRETCH"; 1 to 4).
// The name of the root node that turns a non-Y-up file upright starts with this.
inline constexpr const char* kUpAxisNodePrefix = "rigscope_up_";

struct VertexAttribute {
    std::string name;
    int components = 1;
    std::vector<float> data;  // components * mesh vertex count
};

struct MeshAttributes {
    int mesh = -1;  // index into Scene::meshes
    std::vector<VertexAttribute> attributes;
};

// Writes `scene` as one .glb into out (out.write only; the caller commits):
// - every node with its rest TRS and hierarchy; the scene's roots are the nodes without parent;
// - one glTF mesh per Mesh, one triangle primitive (polygons fan-triangulated) on its node, with
//   smooth normals, JOINTS_n/WEIGHTS_n (a second set when a vertex has more than 4 influences),
//   morph targets (POSITION deltas, names in mesh.extras.targetNames, default weights) and the
//   extra attributes. A mesh sharing its node with another (FBX) gets a child node of identity
//   transform; a mesh without a node gets a root node of its own;
// - the skins the meshes use, clips as animations (one sampler per channel, interpolation kept).
// - a file whose up axis is not +Y (Scene::up_axis) gets one more root node, named
//   kUpAxisNodePrefix + axis + "_to_Y", whose rotation turns that axis onto +Y (core/axes.h);
//   the scene's own roots are its children, so viewers show the file upright;
// Meshes without vertices and clips without channels are left out: glTF cannot hold them.
// Throws Error: exit 3 naming scene.source for extra attributes that do not fit their mesh (or
// a scene whose indices contradict each other), exit 4 past GLB's 4 GiB or when out cannot be
// written, exit 5 naming the file and the node (USD: the prim) for a local transform that shears
// (Node::rest_matrix, a clip's LocalMatrices at a sample), which glTF's TRS cannot hold.
void write_glb(const Scene& scene, const std::vector<MeshAttributes>& extra, OutputFile& out);

}  // namespace rigscope
