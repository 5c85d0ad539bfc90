// Point cache files as animation of a base mesh (core/point_cache.h): PC2 (3ds Max, Blender,
// Houdini), MDD (LightWave, Blender, Houdini, Marvelous Designer) and numbered OBJ sequences
// (cloth_####.obj). Each is checked whole when it is opened (its counts against its size and
// --max-memory, every number finite), then read a sample at a time.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "rigscope/core/point_cache.h"
#include "rigscope/io/load.h"

namespace rigscope {

// By extension: .pc2, .mdd, or an .obj path whose file name holds a run of '#' standing for the
// frame number's digits. fps turns PC2 frames and sequence numbers into seconds (MDD stores
// seconds). Throws Error (exit 3) naming the file and the problem. warnings, if given, receives
// what the caller should log (each naming the file).
std::shared_ptr<const PointCache> read_point_cache(const std::string& path, double fps, const LoadOptions& options,
                                                   std::vector<std::string>* warnings = nullptr);

// The format read_point_cache takes `path` for ("PC2", "MDD", "OBJ sequence"), or empty.
std::string point_cache_format(const std::string& path);

}  // namespace rigscope
