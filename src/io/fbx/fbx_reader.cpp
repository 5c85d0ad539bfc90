// FBX, binary and ASCII, 6.x and 7.x, into the plain scene model, read from the file itself (no
// Assimp): the record tree (fbx_records.cpp, fbx_ascii_records.cpp, fbx_v6.cpp for 6.x), then the
// scene (fbx_scene*.cpp).
// The file is read once. See docs/fbx_notes.md.
#include <new>
#include <string>

#include "io/fbx/fbx_scene.h"
#include "io/fbx/fbx_records.h"
#include "rigscope/core/error.h"
#include "rigscope/io/load.h"

namespace rigscope {

Scene read_fbx(const std::string& path, const LoadOptions& options) {
    try {
        // FBX before 6 is refused there; 6.x arrives rewritten as 7.x's records.
        const fbx::RecordFile file = fbx::read_records(path, options.max_memory);
        return fbx::read_fbx_scene(file, path, options);
    } catch (const fbx::Malformed& e) {
        throw bad_input(path, e.what());
    } catch (const std::bad_alloc&) {
        throw bad_input(path, "out of memory while reading the FBX");
    }
}

}  // namespace rigscope
