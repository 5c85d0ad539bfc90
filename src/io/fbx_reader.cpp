// FBX, binary and ASCII, into the plain scene model, read from the file itself (no Assimp): the
// record tree (fbx_records.cpp, fbx_ascii_records.cpp), then the scene (fbx_binary_scene.cpp).
// The file is read once. See docs/fbx_notes.md.
#include <new>
#include <string>

#include "io/fbx_binary_scene.h"
#include "io/fbx_records.h"
#include "rigscope/core/error.h"
#include "rigscope/io/load.h"

namespace rigscope {

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
