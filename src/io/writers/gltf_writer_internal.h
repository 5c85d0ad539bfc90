// Shared between the parts of the glTF writer (gltf_writer.cpp: nodes, meshes, skins;
// gltf_writer_anim.cpp: animations).
#pragma once

#include <vector>

#include "io/writers/glb_builder.h"
#include "rigscope/core/scene.h"

namespace rigscope::gltf {

// Where the scene's objects went in the written file.
struct WrittenScene {
    std::vector<int> mesh_node;  // per Scene mesh: the glTF node holding it, -1 when left out
};

// Appends the scene's clips as animations; channels address glTF nodes (scene node i is glTF
// node i), weights channels every node that holds a mesh the channel drives.
void write_animations(GlbBuilder& glb, const Scene& scene, const WrittenScene& written);

}  // namespace rigscope::gltf
