// What the readers of plain mesh and cache files (OBJ, PLY, PC2, MDD) share: the file read whole
// or in part under --max-memory, a running budget for what is built from it, numbers parsed
// without the C locale, and the scene of static meshes such a file makes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "io/load_budget.h"
#include "rigscope/core/scene.h"

namespace rigscope::plain {

// The whole file, refused (bad input naming path) when it is missing, a directory or empty; its
// bytes are charged to `budget` before they are read.
std::vector<char> read_whole(const std::string& path, LoadBudget& budget);

// The file's size in bytes, refused as read_whole does (but not read).
std::uint64_t file_size(const std::string& path);

// The file's name without folder and extension (a mesh's name where the file gives none).
std::string file_stem(const std::string& path);

// A number at the start of `s` (after spaces and tabs), advancing `s` past it; false when there
// is none. Locale-free (std::from_chars), so "1.5" parses the same under any LC_NUMERIC.
bool parse_double(std::string_view& s, double& out);
bool parse_long(std::string_view& s, long long& out);

// One static mesh per entry, each on a node of its own name at the origin, in a scene of
// `format` read from `path`.
Scene static_scene(const std::string& path, const std::string& format, std::vector<Mesh> meshes, const std::string& vertex_ids);

// Checks every position is finite, throwing bad input "<what>: vertex i is not a finite number".
void check_finite(const std::string& path, const std::string& what, const std::vector<Eigen::Vector3f>& positions);

}  // namespace rigscope::plain
