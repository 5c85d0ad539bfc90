// Mesh names that tell instances apart, whatever the format: outputs (tension's CSV and JSON,
// info, check) name meshes, and a name several meshes share would merge their rows.
#pragma once

#include "rigscope/core/scene.h"

namespace rigscope {

// Meshes that share a name (one mesh used by several nodes, or distinct meshes named alike) take
// their nodes' names instead; where those collide too, "#2", "#3"... follow the later ones in
// scene order. Unique names are left alone.
void name_mesh_instances(Scene& scene);

}  // namespace rigscope
