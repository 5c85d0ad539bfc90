// A USD file's bytes into the scene: by its first bytes a text layer, a crate layer or a usdz
// package (its first entry). read_usd (load.h) reads the file and calls scene_from_file; the
// tests call scene_from_bytes on bytes of their own.
#pragma once

#include <cstdint>
#include <string>

#include "io/usd/usd_layer.h"
#include "rigscope/core/scene.h"

namespace rigscope::usd {

// `path` names the file in messages. The stage is composed from these bytes alone: an arc to
// another file is refused (a usdz's own entries are read). Throws rigscope::Error (exit 3).
Scene scene_from_bytes(const std::string& path, std::string bytes, std::uint64_t max_memory);
// The same for the file at `path`, whose stage may name files beside it (inside its folder unless
// allow_outside: LoadOptions::allow_outside_uris).
Scene scene_from_file(const std::string& path, std::string bytes, std::uint64_t max_memory, bool allow_outside);

// The stage of the file at `path` composed (usd_compose.h) as read_usd composes it, before any
// evaluation: for the .usda writer, which must know where the SkelRoots, instances and indexed
// primvars are wherever a sublayer or reference defines them. Throws rigscope::Error (exit 3).
Layer read_stage(const std::string& path, std::uint64_t max_memory, bool allow_outside);

}  // namespace rigscope::usd
