// The meshes of an Alembic archive (AbcGeom's PolyMesh and SubD, a SubD read as its polygons),
// in world space: every IXform above a mesh applied at each of the mesh's sample times, an
// `.inherits` false restarting the chain. docs/alembic_notes.md says what is read and refused.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "io/alembic/abc_archive.h"
#include "rigscope/core/point_cache.h"
#include "rigscope/core/scene.h"

namespace rigscope::abc {

struct AbcMesh {
    std::string path;   // the object's full path
    Mesh mesh;          // name: the object's name; positions: the first sample in world space
    std::shared_ptr<const PointCache> cache;  // P or the transforms animated, else null
    double fps = 0;     // the frame rate of P's time sampling, 0 when it has none
    std::string fps_note;
    std::vector<std::string> attributes;  // uv, N, arbGeomParams, visibility: for `info`
};

// Every mesh of the archive, in depth-first order of the object tree. Throws bad input naming the
// file and the object on anything malformed, a mesh with no faces or a topology that changes.
// metres_per_unit (LoadOptions::alembic_metres_per_unit) scales every world matrix, so the
// points and the transforms' translations alike.
std::vector<AbcMesh> read_meshes(Archive& a, double metres_per_unit = 1.0);

}  // namespace rigscope::abc
