// Reading a file into the plain scene model. The only entry point the CLI and tests use; the
// format-specific readers live in src/io and are chosen by extension.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rigscope/core/scene.h"

namespace rigscope {

struct LoadOptions {
    // The budget of the whole load: the file, its buffers, every array read from it and the
    // scene built (a mesh instanced by many nodes counts once per node). Checked as a running
    // total before each allocation, so a file that would pass it is refused before it does.
    std::uint64_t max_memory = 8ull << 30;
    // glTF: read buffer and image URIs that are absolute or lead outside the file's folder.
    // Unsafe for files from outside: such a URI can make rigscope read any file it may read.
    bool allow_outside_uris = false;
    // Alembic: metres per unit of the archive's numbers (Alembic stores no unit; --abc-unit):
    // 1 as Blender writes, 0.01 for Maya's centimetres. Scales points and translations alike.
    double alembic_metres_per_unit = 1.0;
    // glTF: the threads that convert the meshes' accessors (the run's --threads; 0: every core).
    // The scene, its warnings and its errors are the same for any count.
    unsigned threads = 1;
    // glTF: --mesh's NAME|INDEX (meshes_selected's rule, on the names the scene will have). When
    // it selects a mesh, the reader reads only the selected meshes' accessors: an unselected
    // mesh keeps its entry (name, node, skin, morph targets' names and default weights, so that
    // names, rigs and weights channels resolve as before) with no vertex, face or weight, and is
    // not checked: its data's errors and warnings are not found. Empty, or selecting nothing:
    // every mesh is read. Other formats read every mesh.
    std::string mesh;
};

// The meshes --mesh `spec` selects from meshes named `names` (in scene order): every mesh so
// named, else the mesh at index `spec`; empty when it selects none. The run's selection
// (select_meshes) and the glTF reader's (LoadOptions::mesh) both follow it.
std::vector<int> meshes_selected(const std::vector<std::string>& names, const std::string& spec);

// The words of every reader's refusal for max_memory ("... would take N MiB, past the memory
// limit of L MiB ..."): a reader names the limit, not the option that set it, which the CLI and
// Python add (name_memory_option).
inline constexpr std::string_view kMemoryLimitPhrase = "past the memory limit";
// `message` with " (set by OPTION)" added where it is such a refusal; as it was otherwise.
std::string name_memory_option(const std::string& message, const char* option);

// Throws rigscope::Error (exit 3) naming the path and the problem for unreadable or invalid files.
Scene load_scene(const std::string& path, const LoadOptions& options = {});

// The format-specific readers, also callable directly (tests, fuzzers).
Scene read_gltf(const std::string& path, const LoadOptions& options);
Scene read_fbx(const std::string& path, const LoadOptions& options);
// Static meshes (a modeller's neutral, a point cache's base mesh): OBJ a mesh per `o`/`g` name,
// PLY its vertex and face elements; no skin, no animation.
Scene read_obj(const std::string& path, const LoadOptions& options);
Scene read_ply(const std::string& path, const LoadOptions& options);
// OpenUSD: text layers (src/io/usd; docs/usd_notes.md says what is read and what is refused).
Scene read_usd(const std::string& path, const LoadOptions& options);
// Alembic: Ogawa archives (src/io/alembic; docs/alembic_notes.md says what is read and refused).
Scene read_alembic(const std::string& path, const LoadOptions& options);

}  // namespace rigscope
