// FBX through Assimp 5.2.5 into the plain scene model: polygons kept, unrolled corners folded back
// to control points, $AssimpFbx$ helper nodes folded, lengths in metres. See docs/fbx_notes.md.
#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/metadata.h>
#include <assimp/scene.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <unordered_set>

#include "io/assimp_scene.h"
#include "io/fbx_binary_scene.h"
#include "io/fbx_common.h"
#include "io/fbx_internal.h"
#include "rigscope/core/bind_check.h"
#include "rigscope/core/error.h"
#include "rigscope/io/load.h"

namespace rigscope {

namespace fbx {

namespace {

bool metadata_number(const aiScene& ai, const char* key, double& out) {
    const aiMetadata* md = ai.mMetaData;
    if (!md || !md->mKeys || !md->mValues) return false;
    for (unsigned i = 0; i < md->mNumProperties; ++i) {
        if (std::strcmp(md->mKeys[i].C_Str(), key) != 0 || !md->mValues[i].mData) continue;
        const void* d = md->mValues[i].mData;
        switch (md->mValues[i].mType) {
            case AI_BOOL: out = *static_cast<const bool*>(d); return true;
            case AI_INT32: out = *static_cast<const std::int32_t*>(d); return true;
            case AI_UINT64: out = double(*static_cast<const std::uint64_t*>(d)); return true;
            case AI_FLOAT: out = *static_cast<const float*>(d); return true;
            case AI_DOUBLE: out = *static_cast<const double*>(d); return true;
            default: return false;
        }
    }
    return false;
}

// Refuses what is plainly no FBX before Assimp guesses at other formats.
void check_header(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw bad_input(path, "cannot open the file");
    char head[1024] = {0};
    in.read(head, sizeof head);
    const std::size_t n = static_cast<std::size_t>(in.gcount());
    if (n >= 18 && std::memcmp(head, "Kaydara FBX Binary", 18) == 0) return;
    // ASCII FBX opens with its "; FBX 7.4.0 project file" comment or the FBXHeaderExtension block.
    const std::string text(head, n);
    if (text.find("; FBX") != std::string::npos || text.find("FBXHeaderExtension") != std::string::npos) return;
    throw bad_input(path, "not an FBX file (neither the binary FBX header nor an ASCII FBX header)");
}

// Assimp's ASCII FBX parser recurses once per `{` level (100,000 levels crash it), so the
// nesting is measured first, outside quoted strings and `;` comments, with the binary limit.
void check_ascii_nesting(const std::string& path) {
    constexpr int kMaxDepth = 64;
    std::ifstream in(path, std::ios::binary);
    char buf[1 << 16];
    int depth = 0;
    bool quoted = false, comment = false;
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        const std::streamsize n = in.gcount();
        for (std::streamsize i = 0; i < n; ++i) {
            const char c = buf[i];
            if (comment) comment = c != '\n';
            else if (quoted) quoted = c != '"';
            else if (c == '"') quoted = true;
            else if (c == ';') comment = true;
            else if (c == '{' && ++depth > kMaxDepth)
                throw bad_input(path, "ASCII FBX nested deeper than " + std::to_string(kMaxDepth) + " levels");
            else if (c == '}') --depth;
        }
    }
}

// Keys that Assimp may make of the curves' rotations (see RawFbx::split_keys): ten million
// keys of a few dozen bytes each stay well inside any memory budget, and no real animation
// comes near (a 1000-frame clip turning a joint ten full turns a frame makes 200,000).
constexpr std::uint64_t kMaxSplitKeys = 10000000;

// Assimp 5.2.5 merges two FBX joints of the same name into one aiBone and lists it twice in a
// mesh's bones; aiMesh's destructor then deletes it twice (assimp issue #5085; a fuzz finding).
// Such a mesh's skin is wrong anyway (two joints' weights on one), so the file is refused, after
// the second listing is cleared so that deleting the scene is safe.
void refuse_shared_bones(aiScene& ai, const std::string& path) {
    std::string shared;
    for (unsigned m = 0; m < ai.mNumMeshes && ai.mMeshes; ++m) {
        aiMesh* am = ai.mMeshes[m];
        if (!am || !am->mBones) continue;
        std::unordered_set<const aiBone*> seen;
        for (unsigned b = 0; b < am->mNumBones; ++b) {
            if (!am->mBones[b] || seen.insert(am->mBones[b]).second) continue;
            if (shared.empty()) shared = am->mBones[b]->mName.C_Str();
            am->mBones[b] = nullptr;
        }
    }
    if (!shared.empty())
        throw bad_input(path, "two joints named '" + shared + "' (Assimp merges joints of the same name; rename one)");
}

Scene read(const std::string& path, const LoadOptions& options, bool preserve_pivots) {
    check_header(path);
    {
        std::ifstream in(path, std::ios::binary | std::ios::ate);
        const auto size = static_cast<std::uint64_t>(in.tellg());
        if (size > options.max_memory) throw bad_input(path, "file larger than the memory limit");
    }

    // Our own reading of the binary records first: it refuses what would make Assimp run away.
    const RawFbx raw = read_raw_fbx(path, options.max_memory);
    if (!raw.parsed && !raw.ascii) throw bad_input(path, raw.problem);
    if (raw.ascii) check_ascii_nesting(path);
    if (!raw.nonfinite_curve.empty())
        throw bad_input(path, "animation curve " + raw.nonfinite_curve + " has a NaN or infinite key value");
    if (raw.split_keys > kMaxSplitKeys)
        throw bad_input(path, "animation curves jump by more than " + std::to_string(kMaxSplitKeys / 1000000) +
                                  " million half-turns between keys (Assimp would make a key of each); refused");

    Assimp::Importer importer;
    importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, preserve_pivots);
    importer.SetPropertyBool(AI_CONFIG_FBX_CONVERT_TO_M, false);  // the reader scales, once
    // Without materials Assimp keeps each FBX geometry whole instead of splitting it by
    // material, so a mesh is one set of control points and tension has no material seams.
    importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_READ_MATERIALS, false);
    importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_READ_TEXTURES, false);
    importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_READ_CAMERAS, false);
    importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_READ_LIGHTS, false);
    const aiScene* ai = nullptr;
    try {
        ai = importer.ReadFile(path, 0);  // no post-processing: polygons stay polygons
    } catch (const std::exception& e) {
        throw bad_input(path, assimp::one_line(e.what()));
    }
    if (!ai) throw bad_input(path, assimp::one_line(importer.GetErrorString()));
    // The scene is ours from here, so that a bone listed twice can be unlisted before deletion.
    const std::unique_ptr<aiScene> owned(importer.GetOrphanedScene());
    ai = owned.get();
    refuse_shared_bones(*owned, path);

    if (assimp::mesh_bytes(*ai) > options.max_memory) throw bad_input(path, "meshes need more memory than the limit allows");

    Scene scene;
    scene.source = path;
    scene.format = "FBX";
    scene.vertex_ids = "FBX: vertex ids are control points (Assimp's unrolled corners folded back) in order of first use";

    double unit = 1.0;
    const bool has_unit = metadata_number(*ai, "UnitScaleFactor", unit);
    if (!has_unit) unit = 1.0;
    if (!(unit > 0) || !std::isfinite(unit)) throw bad_input(path, "UnitScaleFactor " + format_number(unit) + " is not a positive number");
    const double s = 0.01 * unit;
    scene.unit_scale = s;
    scene.units_note = has_unit ? "FBX UnitScaleFactor " + format_number(unit, 6) +
                                      (unit == 1.0 ? " (centimetres)" : unit == 100.0 ? " (metres)" : "") +
                                      ": scaled by " + format_number(s, 6) + " to metres"
                                : "FBX without UnitScaleFactor: taken as centimetres, scaled by 0.01 to metres";

    double up = 1, sign = 1;
    if (metadata_number(*ai, "UpAxis", up)) {
        metadata_number(*ai, "UpAxisSign", sign);
        const int axis = static_cast<int>(up);
        if (axis >= 0 && axis <= 2) scene.up_axis = std::string(sign < 0 ? "-" : "") + "XYZ"[axis];
    }

    double mode = 0, custom = 0;
    metadata_number(*ai, "FrameRate", mode);
    metadata_number(*ai, "CustomFrameRate", custom);
    const double fps = time_mode_fps(static_cast<int>(mode), custom);
    if (fps > 0) {
        scene.fps = fps;
        scene.fps_from_file = true;
    }

    const NodeMap map = build_nodes(*ai, scene);
    build_meshes(*ai, map, raw, path, scene);
    build_clips(*ai, map, scene.fps, scene);
    scale_lengths(scene, s);

    warn_rest_not_bind(scene);
    return scene;
}

}  // namespace

Scene read_fbx_preserving_pivots(const std::string& path, const LoadOptions& options) {
    return read(path, options, true);
}

Scene read_fbx_assimp(const std::string& path, const LoadOptions& options) {
    try {
        return read(path, options, false);
    } catch (const std::bad_alloc&) {
        throw bad_input(path, "out of memory while reading the FBX");
    }
}

}  // namespace fbx

// Binary and ASCII FBX are read from the file itself (fbx_records.cpp, fbx_ascii_records.cpp,
// fbx_binary_scene.cpp), the file once.
Scene read_fbx(const std::string& path, const LoadOptions& options) {
    try {
        const fbx::RecordFile file = fbx::read_records(path, options.max_memory);
        if (file.version < 7000)
            throw fbx::Malformed("FBX " + std::to_string(file.version / 1000) + "." + std::to_string(file.version / 100 % 10) +
                                 " (version " + std::to_string(file.version) + ") is not read: FBX 7.0 and later only");
        return fbx::read_fbx_binary(file, path, options);
    } catch (const fbx::Malformed& e) {
        throw bad_input(path, e.what());
    } catch (const std::bad_alloc&) {
        throw bad_input(path, "out of memory while reading the FBX");
    }
}

}  // namespace rigscope
