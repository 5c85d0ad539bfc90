#pragma once
#include <memory>
#include <string>

#include "rigscope/core/point_cache.h"
#include "rigscope/io/load.h"

namespace rigscope {
// point_cache_reader.h's open_point_cache for a numbered .obj (the sequence it belongs to) or a
// pattern of '#'s (cloth_####.obj: the files it matches).
std::shared_ptr<const PointCache> open_obj_sequence(const std::string& path, double fps, const LoadOptions& options);
// Whether the file name is an OBJ whose stem ends in digits, or has a run of '#'.
bool is_numbered_obj(const std::string& path);
}  // namespace rigscope
