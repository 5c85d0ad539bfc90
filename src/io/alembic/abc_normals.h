// The normals an Alembic archive carries per sample (its PolyMesh's N) for a mesh whose input
// has normals: the input's own at the rest positions, carried through the deformation as
// Blender carries the custom normals its glTF importer makes of them (docs/alembic_notes.md, "N").
//
// Blender's glTF importer makes a face flat when the normals at its corners are its own normal
// (dot > 0.9999999), the others smooth, and sets the file's normals as custom normals. Blender
// keeps a custom normal as an offset in a frame at its corner (the fan's auto normal: the
// corner-angle-weighted normal of the smooth faces around the vertex; a flat face's corner is a
// fan of its own) and rebuilds the frame from the deformed surface. Here likewise: a flat face's
// corners take the face's deformed normal; a smooth corner takes its vertex's input normal, kept
// in the frame of the angle-weighted normal of the vertex's smooth faces and its first edge
// (to the next corner of its first smooth face) at the rest positions, rebuilt from each
// sample's points. A rigid motion turns the normals exactly with the mesh; where the surface
// bends they turn with the faces around them.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

namespace rigscope::abc {

class CarriedNormals {
public:
    // rest: the positions the normals belong to (the file's); faces as Mesh holds them.
    CarriedNormals(const std::vector<Eigen::Vector3f>& rest, const std::vector<Eigen::Vector3f>& normals,
                   const std::vector<std::uint32_t>& face_offsets, const std::vector<std::uint32_t>& face_indices);

    // The values at these deformed positions: a unit normal per vertex, then one per flat face.
    void at(const std::vector<Eigen::Vector3f>& points, std::vector<Eigen::Vector3f>& out);

    // Per face corner (face_indices' order), the index of its value in at()'s output.
    const std::vector<std::uint32_t>& corners() const { return corners_; }

private:
    // Per vertex the angle-weighted sum of its smooth faces' unit normals, per flat face its unit
    // normal, at `points`, into smooth_ and flat_normals_.
    void accumulate(const std::vector<Eigen::Vector3f>& points);

    const std::vector<std::uint32_t>& offsets_;
    const std::vector<std::uint32_t>& indices_;
    std::vector<char> flat_;                 // per face: the file's normals are its own normal
    std::vector<std::uint32_t> flat_faces_;  // the flat faces, in order
    std::vector<std::uint32_t> corners_;
    std::vector<std::uint32_t> edge_;        // per vertex, the other end of its first edge (itself: none)
    std::vector<Eigen::Vector3f> coeffs_;    // the input normal in the rest frame (normal, edge, their cross)
    std::vector<Eigen::Vector3f> fallback_;  // the input normal as it is, where a frame degenerates
    std::vector<Eigen::Vector3f> smooth_;
    std::vector<Eigen::Vector3f> flat_normals_;
};

}  // namespace rigscope::abc
