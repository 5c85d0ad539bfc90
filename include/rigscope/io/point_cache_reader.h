// Point-cache files as animation (`--cache FILE`, issue 42): PC2 (3ds Max, Blender, Houdini), MDD
// (LightWave, Blender, Houdini, Marvelous Designer) and numbered OBJ sequences (cloth_0001.obj,
// cloth_0002.obj, ...). Each is checked whole when it opens (header, counts against the file's
// size and --max-memory, times) and then read one sample at a time.
#pragma once

#include <memory>
#include <string>

#include "rigscope/core/point_cache.h"
#include "rigscope/io/load.h"

namespace rigscope {

// By extension: .pc2, .mdd, .abc (the archive's one mesh, its P in world space at the archive's
// own times: io/alembic/alembic_reader.h), or .obj whose name ends in digits (the sequence of every file that
// differs from it only in those digits, as many digits or more) or has one run of '#' (the files
// with a frame number there: N '#'s, N digits zero-padded or more; none is refused naming the
// pattern). A gap in the numbers is refused naming the missing file. fps turns PC2's and a sequence's frame numbers into seconds (MDD
// stores seconds). Throws Error (exit 3) naming the file and the problem.
std::shared_ptr<const PointCache> open_point_cache(const std::string& path, double fps, const LoadOptions& options);

// Whether `path` is a point cache by its extension (.pc2, .mdd, .abc; not .obj, which is also a mesh).
bool is_point_cache_file(const std::string& path);

}  // namespace rigscope
