// Reading a file into the plain scene model. The only entry point the CLI and tests use; the
// format-specific readers live in src/io and are chosen by extension.
#pragma once

#include <cstdint>
#include <string>

#include "rigscope/scene.h"

namespace rigscope {

struct LoadOptions {
    // Refuse files whose declared arrays would need more than this many bytes, before allocating.
    std::uint64_t max_memory = 8ull << 30;
};

// Throws rigscope::Error (exit 3) naming the path and the problem for unreadable or invalid files.
Scene load_scene(const std::string& path, const LoadOptions& options = {});

// The format-specific readers, also callable directly (tests, fuzzers).
Scene read_gltf(const std::string& path, const LoadOptions& options);
Scene read_fbx(const std::string& path, const LoadOptions& options);

}  // namespace rigscope
