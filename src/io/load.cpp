#include "rigscope/io/load.h"

#include <algorithm>
#include <cctype>
#include <sys/stat.h>
#include <utility>

#include "io/collada/collada_reader.h"
#include "io/mesh_names.h"
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

// Formats Assimp reads with skins or animation that rigscope has no oracle for: refused by name
// rather than read untested (a skin or a timeline subtly wrong is worse than a clear refusal).
// docs/formats.md (the README's Files read) lists the same.
const char* untested_assimp_format(const std::string& ext) {
    static const std::pair<const char*, const char*> kFormats[] = {
        {".x", "DirectX .x"},          {".md5mesh", "Doom 3 .md5mesh"}, {".md5anim", "Doom 3 .md5anim"},
        {".ms3d", "Milkshape 3D .ms3d"}, {".smd", "Valve .smd"},         {".b3d", "Blitz3D .b3d"},
        {".3ds", "3D Studio .3ds"},    {".ase", "3ds Max ASE"},         {".md2", "Quake II .md2"},
        {".md3", "Quake III .md3"},    {".mdl", "Quake/Half-Life .mdl"}, {".bvh", "BioVision .bvh"},
        {".irr", "Irrlicht .irr"},     {".lws", "LightWave scene .lws"}, {".ogex", "OpenGEX .ogex"},
        {".blend", "Blender .blend"},
    };
    for (const auto& f : kFormats)
        if (ext == f.first) return f.second;
    return nullptr;
}

Scene read_by_extension(const std::string& path, const LoadOptions& options) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) throw bad_input(path, "no such file");
    if (S_ISDIR(st.st_mode)) throw bad_input(path, "is a directory, not a file");
    if (st.st_size == 0) throw bad_input(path, "empty file");
    const std::string ext = lower_extension(path);
    if (ext == ".gltf" || ext == ".glb") return read_gltf(path, options);
    if (ext == ".fbx") return read_fbx(path, options);
    if (ext == ".dae") return read_collada(path, options);
    if (ext == ".obj") return read_obj(path, options);
    if (ext == ".ply") return read_ply(path, options);
    if (ext == ".usda" || ext == ".usd" || ext == ".usdc" || ext == ".usdz") return read_usd(path, options);
    if (ext == ".abc") return read_alembic(path, options);
    if (const char* name = untested_assimp_format(ext))
        throw bad_input(path, std::string(name) + " is not read: Assimp reads it, but its skins and animation are untested in rigscope "
                                                  "(convert to glTF, FBX or Collada)");
    throw bad_input(path, "unknown extension '" + ext + "' (rigscope reads .fbx, .gltf, .glb, .dae, .usd, .usda, .usdc, .usdz, .abc, .obj and .ply)");
}

}  // namespace

Scene load_scene(const std::string& path, const LoadOptions& options) {
    Scene scene = read_by_extension(path, options);
    name_mesh_instances(scene);
    return scene;
}

}  // namespace rigscope
