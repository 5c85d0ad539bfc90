#pragma once
#include <memory>
#include <string>

#include "rigscope/core/point_cache.h"
#include "rigscope/io/load.h"

namespace rigscope {
// point_cache_reader.h's open_point_cache for .mdd: its own times, in seconds.
std::shared_ptr<const PointCache> open_mdd(const std::string& path, const LoadOptions& options);
}  // namespace rigscope
