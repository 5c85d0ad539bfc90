#pragma once
#include <memory>
#include <string>

#include "rigscope/core/point_cache.h"
#include "rigscope/io/load.h"

namespace rigscope {
// point_cache_reader.h's open_point_cache for .pc2: sample times from its frames at `fps`.
std::shared_ptr<const PointCache> open_pc2(const std::string& path, double fps, const LoadOptions& options);
}  // namespace rigscope
