// Wavefront OBJ: the modeller's neutral (every DCC writes it) and the frames of numbered OBJ
// sequences (cloth_0001.obj, ...). Geometry: `v` and `f` (polygons, negative indices), a mesh
// per `o`/`g` name, and the UVs (`vt`, a face corner's v/vt) for bake; `vn`, materials and the
// rest are ignored.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "io/plain/plain_file.h"
#include "rigscope/core/scene.h"

namespace rigscope {

// An OBJ file's content: every `v` in file order, and per group (the `o`/`g` names, in order of
// first appearance; faces before any name go to a group named after the file) its faces as
// polygons over those `v` (0-based, negative indices resolved).
struct ObjFile {
    std::vector<Eigen::Vector3f> positions;
    std::vector<Eigen::Vector2f> uvs;  // every `vt` (u, v) in file order
    struct Group {
        std::string name;
        std::vector<std::uint32_t> face_offsets{0};
        std::vector<std::uint32_t> face_indices;
        // Per corner its `vt` (0-based), while every corner so far has one; cleared for good at
        // the first corner without (the group then has no UVs).
        std::vector<std::uint32_t> uv_indices;
        bool uv_missing = false;
    };
    std::vector<Group> groups;
};

// Parses `size` bytes of `path`. positions_only: the faces are skipped (a cache frame needs only
// its points). Throws bad input naming the file and line.
ObjFile parse_obj(const char* data, std::size_t size, const std::string& path, LoadBudget& budget, bool positions_only = false);

}  // namespace rigscope
