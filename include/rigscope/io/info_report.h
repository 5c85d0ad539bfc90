// What `rigscope info` (and the Python module's info()) says of a file: meshes with their
// welded counts and bind check, skins, clips with their takes, units, extensions, warnings.
#pragma once

#include <string>
#include <vector>

#include "rigscope/core/scene.h"

namespace rigscope {

// As JSON (docs/commands.md: info --json) and as text, for the meshes `meshes` of `scene`.
std::string info_json(const Scene& scene, const std::vector<int>& meshes, bool weld);
std::string info_text(const Scene& scene, const std::vector<int>& meshes, bool weld);

}  // namespace rigscope
