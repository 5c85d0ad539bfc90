#include <assimp/scene.h>

#include "io/fbx_internal.h"

namespace rigscope::fbx {

bool is_helper_name(const std::string& name) { return name.find("_$AssimpFbx$_") != std::string::npos; }

NodeMap build_nodes(const aiScene& ai, Scene& scene) { return assimp::build_nodes(ai, scene, is_helper_name); }

}  // namespace rigscope::fbx
