#include "rigscope/io/load.h"

#include <algorithm>
#include <cctype>
#include <sys/stat.h>

#include "rigscope/core/error.h"

namespace rigscope {

namespace {

std::string lower_extension(const std::string& path) {
    auto dot = path.find_last_of('.');
    auto slash = path.find_last_of('/');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
    std::string ext = path.substr(dot);
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    return ext;
}

}  // namespace

Scene load_scene(const std::string& path, const LoadOptions& options) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) throw bad_input(path, "no such file");
    if (S_ISDIR(st.st_mode)) throw bad_input(path, "is a directory, not a file");
    if (st.st_size == 0) throw bad_input(path, "empty file");
    const std::string ext = lower_extension(path);
    if (ext == ".gltf" || ext == ".glb") return read_gltf(path, options);
    if (ext == ".fbx") return read_fbx(path, options);
    throw bad_input(path, "unknown extension '" + ext + "' (rigscope reads .fbx, .gltf and .glb)");
}

}  // namespace rigscope
