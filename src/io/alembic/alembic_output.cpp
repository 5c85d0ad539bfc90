// The public face of the Alembic writer (rigscope/io/alembic_output.h): the run layer sees this,
// the format lives in abc_mesh_writer and ogawa_writer.
#include "rigscope/io/alembic_output.h"

#include "io/alembic/abc_mesh_writer.h"

namespace rigscope {

AlembicWriter::AlembicWriter(OutputFile& out, const std::vector<AlembicMeshOut>& meshes, const AlembicOptions& opt)
    : impl_(std::make_unique<abc::AbcArchiveWriter>(out, meshes, opt)) {}
AlembicWriter::~AlembicWriter() = default;

void AlembicWriter::points(std::size_t m, const std::vector<Eigen::Vector3f>& p) { impl_->points(m, p); }
void AlembicWriter::maps(std::size_t m, const float* t, const float* compress, const float* stretch, const float* rgb) {
    impl_->maps(m, t, compress, stretch, rgb);
}
void AlembicWriter::close() { impl_->close(); }

double alembic_output_min_bytes(const std::vector<AlembicMeshOut>& meshes, bool maps) {
    // One sample is all that is certain: a sample equal to the one before is not stored again.
    double bytes = 0;
    for (const AlembicMeshOut& m : meshes) bytes += double(m.points) * ((maps ? 40.0 : 12.0) + (m.rest_normals ? 12.0 : 0.0));
    return bytes;
}

}  // namespace rigscope
