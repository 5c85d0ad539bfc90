// Alembic output (`tension IN -o out.abc`, `deform IN -o out.abc`): evaluated meshes as an Ogawa
// archive, written by src/io/alembic (abc_mesh_writer.h says how; docs/alembic_notes.md, "What is
// written", what). One PolyMesh per mesh, P per sample, faces once, and with `maps` the
// per-vertex tension, compress, stretch and the colour Cd (Maya's colour set, Blender's colour
// attribute).
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rigscope/io/output.h"

namespace rigscope {

namespace abc {
class AbcArchiveWriter;
}

struct AlembicMeshOut {
    std::string name;  // as rigscope names the mesh; made a valid, unique object name
    std::size_t points = 0;
    // Faces as rigscope holds them (counter-clockwise); written in Alembic's clockwise order.
    const std::vector<std::uint32_t>* face_offsets = nullptr;
    const std::vector<std::uint32_t>* face_indices = nullptr;
    // The mesh's first UV set (Mesh::uv_sets), or empty: its values with v up (as Alembic, Maya
    // and Blender hold them) and per face corner (face_indices' order) the value's index, written
    // once as Alembic's indexed, per-corner uv (the only form Blender's importer reads).
    std::vector<Eigen::Vector2f> uv_values;
    std::vector<std::uint32_t> uv_corners;
    // The input's normals (Mesh::normals) and the positions they belong to (Mesh::positions), or
    // null: with them every sample carries N (indexed, per corner), the input's normals carried
    // through the deformation as Blender carries custom normals (abc_normals.h).
    const std::vector<Eigen::Vector3f>* rest_positions = nullptr;
    const std::vector<Eigen::Vector3f>* rest_normals = nullptr;
};

struct AlembicOptions {
    std::vector<double> times;  // the samples' times, seconds, increasing
    double fps = 24;            // the run's: consecutive frames are a uniform sampling of 1/fps
    bool maps = false;          // tension, compress, stretch and Cd per vertex
    std::string up_axis = "Y";  // the positions' up axis, turned onto Alembic's +Y (as Blender exports)
    std::string application;    // the archive's _ai_Application
    std::string description;    // the archive's _ai_Description
};

class AlembicWriter {
public:
    // Starts the archive in `out` (a regular file: the header is finished last). Throws Error
    // (usage) when the times do not increase.
    AlembicWriter(OutputFile& out, const std::vector<AlembicMeshOut>& meshes, const AlembicOptions& opt);
    ~AlembicWriter();
    AlembicWriter(const AlembicWriter&) = delete;
    AlembicWriter& operator=(const AlembicWriter&) = delete;

    // The next sample of mesh m: its points (metres, world space, in opt.up_axis).
    void points(std::size_t m, const std::vector<Eigen::Vector3f>& p);
    // With opt.maps, the same sample's per-vertex values (one float a point; rgb three).
    void maps(std::size_t m, const float* t, const float* compress, const float* stretch, const float* rgb);
    // The groups, headers, time samplings and root: the archive is whole (the caller commits `out`).
    void close();

private:
    std::unique_ptr<abc::AbcArchiveWriter> impl_;
};

// The least bytes an archive of these meshes takes: one sample of the points (and with maps 7
// more floats a vertex, with normals 3), since repeated samples are stored once. For --max-output and the
// free-space check.
double alembic_output_min_bytes(const std::vector<AlembicMeshOut>& meshes, bool maps);

}  // namespace rigscope
