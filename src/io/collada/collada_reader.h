// Collada (.dae) through Assimp; load_scene chooses it by extension. Tests and fuzzers may call
// it directly.
#pragma once

#include <string>

#include "rigscope/io/load.h"

namespace rigscope {

Scene read_collada(const std::string& path, const LoadOptions& options);

}  // namespace rigscope
