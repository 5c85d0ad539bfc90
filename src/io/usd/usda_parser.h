// Text layers (.usda, versions 1.0 and 1.1) into usd::Layer. Errors name the file and the
// line:column of the problem; every array is charged against the memory budget as it grows and
// nesting is bounded, so a hostile file is refused before it costs more than it may.
#pragma once

#include <cstdint>
#include <string>

#include "io/usd/usd_layer.h"

namespace rigscope::usd {

// `text` is the whole file; `path` names it in messages. Throws rigscope::Error (exit 3).
Layer parse_usda(const std::string& path, const std::string& text, std::uint64_t max_memory);

}  // namespace rigscope::usd
