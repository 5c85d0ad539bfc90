// A USD file's bytes into the scene: by its first bytes a text layer, a crate layer or a usdz
// package (its first entry). read_usd (load.h) reads the file and calls this; the fuzz targets
// call it on their inputs.
#pragma once

#include <cstdint>
#include <string>

#include "rigscope/core/scene.h"

namespace rigscope::usd {

// `path` names the file in messages. Throws rigscope::Error (exit 3).
Scene scene_from_bytes(const std::string& path, std::string bytes, std::uint64_t max_memory);

}  // namespace rigscope::usd
