// Writes evaluated meshes as an Alembic archive (Ogawa): the one place rigscope writes the
// format (docs/alembic_notes.md, "What is written"). On top of ogawa_writer.h, the layer Alembic
// calls AbcCoreOgawa (the archive's root, objects, compound, scalar and array properties, their
// headers, indexed metadata, time samplings, samples stored once per change) and the AbcGeom
// PolyMesh schema: one PolyMesh per mesh directly under the top (no Xform: the points are in
// world space), its faces (and uv) once, P, its bounds and N (where the input has normals) per
// sample and, for tension, the arbGeomParams
// tension, compress, stretch (float) and Cd (C3f with Maya's colour-set mark), all vertex scope.
//
// Samples are written as they come, frame by frame; the groups naming them when the archive is
// closed. A run holds one frame and a few offsets per sample.
#pragma once

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "io/alembic/abc_normals.h"
#include "io/alembic/ogawa_writer.h"
#include "rigscope/io/alembic_output.h"

namespace rigscope::abc {

using AbcMeshOut = AlembicMeshOut;
using AbcArchiveOptions = AlembicOptions;

class AbcArchiveWriter {
public:
    AbcArchiveWriter(OutputFile& out, const std::vector<AbcMeshOut>& meshes, const AbcArchiveOptions& opt);
    ~AbcArchiveWriter();

    // The next sample of mesh m: its points (metres, world space, in opt.up_axis).
    void points(std::size_t m, const std::vector<Eigen::Vector3f>& p);
    // With opt.maps, the same sample's per-vertex values (points() floats each; rgb 3 per vertex).
    void maps(std::size_t m, const float* t, const float* compress, const float* stretch, const float* rgb);
    // Writes the groups, headers, time samplings and metadata, then the root: the archive is whole.
    void close();

    // The object names written, in mesh order.
    const std::vector<std::string>& names() const { return names_; }

    struct Prop;  // ogawa property state (abc_mesh_writer.cpp)

private:
    std::uint64_t sample(Prop& p, const void* bytes, std::uint64_t n, std::uint64_t elements);
    void repeat(Prop& p);
    std::uint64_t write_compound(Prop& c);
    std::uint32_t meta_index(const std::string& meta);

    OgawaWriter w_;
    AbcArchiveOptions opt_;
    std::vector<std::string> names_;
    std::vector<AbcMeshOut> faces_;
    std::vector<std::unique_ptr<Prop>> geoms_;  // per mesh its .geom compound
    std::map<std::array<std::uint64_t, 3>, std::uint64_t> written_;  // (digest, size) -> block: one copy of a content
    std::map<std::string, std::uint32_t> meta_;
    std::vector<std::string> meta_order_;
    std::vector<Eigen::Vector3f> turned_;
    std::vector<std::unique_ptr<CarriedNormals>> normals_;  // per mesh, null where it has none
    std::vector<Eigen::Vector3f> sample_normals_;
    Eigen::Matrix3f to_y_up_ = Eigen::Matrix3f::Identity();
    bool turn_ = false;
    bool uniform_ = true;
    bool closed_ = false;
};

}  // namespace rigscope::abc
