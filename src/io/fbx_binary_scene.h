// Binary FBX 7.x read from the file itself into the scene model (fbx_binary_*.cpp); the Assimp
// path (fbx_reader.cpp) stays for ASCII FBX. No Assimp types here.
#pragma once

#include <string>

#include "io/fbx_records.h"
#include "rigscope/io/load.h"
#include "rigscope/core/scene.h"

namespace rigscope::fbx {

// Throws Malformed for a file that breaks the format or a limit (the caller names the file).
Scene read_fbx_binary(const RecordFile& file, const std::string& path, const LoadOptions& options);

}  // namespace rigscope::fbx
