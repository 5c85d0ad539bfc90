// FBX read from the file itself into the scene model (fbx_scene*.cpp): the record tree of a binary
// or ASCII 7.x file, or of a 6.x file once fbx_v6.cpp has upgraded it. No Assimp types here.
#pragma once

#include <string>

#include "io/fbx/fbx_records.h"
#include "rigscope/io/load.h"
#include "rigscope/core/scene.h"

namespace rigscope::fbx {

// Throws Malformed for a file that breaks the format or a limit (the caller names the file).
Scene read_fbx_scene(const RecordFile& file, const std::string& path, const LoadOptions& options);

}  // namespace rigscope::fbx
