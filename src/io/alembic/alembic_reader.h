// Alembic (.abc) as a point cache for `--cache` (the scene reader, read_alembic, is declared with
// the others in rigscope/io/load.h).
#pragma once

#include <memory>
#include <string>

#include "rigscope/core/point_cache.h"
#include "rigscope/io/load.h"

namespace rigscope {

// The P samples of the archive's one mesh, in world space, at the archive's own times (seconds).
// An archive of several meshes is refused naming them. Throws Error (exit 3) naming the file.
std::shared_ptr<const PointCache> open_alembic_cache(const std::string& path, const LoadOptions& options);

}  // namespace rigscope
