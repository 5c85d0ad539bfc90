// A composed USD stage (usd_compose.h: one layer of composed prims) into rigscope's scene, with UsdSkel evaluated as OpenUSD does
// (UsdSkel.BakeSkinning is the reference; docs/usd_notes.md states the rules).
#pragma once

#include <cstdint>

#include "io/usd/usd_layer.h"
#include "rigscope/core/scene.h"

namespace rigscope::usd {

// Throws rigscope::Error (exit 3) naming the layer's path and what it cannot evaluate.
Scene build_scene(const Layer& layer, std::uint64_t max_memory);

}  // namespace rigscope::usd
