// What a tension chunk records so `merge` can apply --auto-range over all frames: each welded
// vertex's lowest and highest T over the chunk's frames (docs/farm.md).
#pragma once

#include <string>
#include <vector>

#include "rigscope/core/tension_map.h"
#include "rigscope/io/tension_output.h"

namespace rigscope {

// The chunk record's "tension_range" state: the run's parameters and percentile, and per mesh
// (by name) the extremes its frames reached.
std::string tension_range_state(const TensionRunInfo& run, const std::vector<std::string>& mesh_names, const VertexTensionExtremes& extremes);

}  // namespace rigscope
