// A PolyMesh's or SubD's P samples as rigscope's point cache (core/point_cache.h), read from the
// archive one sample at a time with pread: P is float32 x, y, z per point, as in PC2, at an
// offset per sample (several samples share one block when their contents repeat). Each sample
// is placed in world space by its matrix (the IXform chain at the sample's time), when the
// chain is not the identity.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

#include "rigscope/core/point_cache.h"

namespace rigscope::abc {

class AbcPointCache : public PointCache {
public:
    // offsets: per sample, where its points start (each block checked: points x 12 bytes inside
    // the file). worlds: per sample, or empty where every sample is in world space already.
    AbcPointCache(const std::string& path, std::string source, std::vector<double> times, std::size_t points,
                  std::vector<std::uint64_t> offsets, std::vector<Eigen::Matrix4d> worlds);
    ~AbcPointCache() override;
    void read(std::size_t sample, Eigen::Vector3f* out) const override;
    bool reads_parts() const override { return true; }
    void read_part(std::size_t sample, std::size_t first, std::size_t count, Eigen::Vector3f* out) const override;

private:
    std::string path_;
    int fd_ = -1;
    std::vector<std::uint64_t> offsets_;
    std::vector<Eigen::Matrix4d> worlds_;
};

// Points placed by `world` in place (float results of a double product, as the DCCs' importers
// give their vertices).
void place(const Eigen::Matrix4d& world, Eigen::Vector3f* p, std::size_t count);

}  // namespace rigscope::abc
