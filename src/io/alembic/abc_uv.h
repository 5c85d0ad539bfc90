// A mesh's UVs from its `uv` geometry parameter (AbcGeom's V2f, plain or indexed, per corner or
// per point), so that `bake` and `regions --by masks` read Alembic caches as they read glTF, FBX
// and USD (issue 60). docs/alembic_notes.md says what is read.
#pragma once

#include <string>

#include "io/alembic/abc_archive.h"
#include "rigscope/core/scene.h"

namespace rigscope::abc {

// Adds `geom`'s `uv` to mesh.uv_sets (named "uv"; v as stored: row 0 of an image is v = 1, as
// Blender's and Maya's importers place it), read at its first sample: bake plans its texels
// once. mesh.face_offsets and face_indices must hold the faces already, each reversed from the
// file's clockwise order as the reader keeps them; the UV corners are reversed to match. A mesh
// without `uv` is left as it is; a `uv` whose count fits neither the corners nor the points, or
// whose indices run past its values, fails naming `what`.
void read_uv_set(Archive& a, const Property& geom, std::uint64_t points, Mesh& mesh, const std::string& what);

}  // namespace rigscope::abc
