// Collada checked before Assimp reads it. Assimp 5.2.5's Collada loader indexes skins with the
// file's numbers unchecked (a joint index past the joint list writes past a vector; a weight
// index past the weights trips an assertion that aborts the process), so what it trusts is
// checked here first, and refused with the problem named (exit 3).
#pragma once

#include <cstdint>
#include <string>

namespace rigscope {

// Throws rigscope::Error (exit 3) when the file is not XML, not Collada, or when an array, an
// accessor or a skin's <vertex_weights> does not fit the data it points into.
void check_collada(const std::string& path, std::uint64_t max_memory);

}  // namespace rigscope
