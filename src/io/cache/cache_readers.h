// The point cache readers behind read_point_cache (rigscope/io/point_cache_reader.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rigscope/core/point_cache.h"
#include "rigscope/io/load.h"

namespace rigscope {

std::shared_ptr<const PointCache> read_pc2(const std::string& path, double fps, const LoadOptions& options);
std::shared_ptr<const PointCache> read_mdd(const std::string& path, const LoadOptions& options, std::vector<std::string>& warnings);
std::shared_ptr<const PointCache> read_obj_sequence(const std::string& pattern, double fps, const LoadOptions& options);

// What every reader checks of its counts before it trusts them: at least one sample and one
// point, and the two sample buffers a run keeps (core/point_cache.h) within --max-memory.
void check_cache_counts(const std::string& path, std::int64_t samples, std::int64_t points, const LoadOptions& options);

}  // namespace rigscope
