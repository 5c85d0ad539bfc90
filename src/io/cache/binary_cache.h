// The samples of a binary point cache (PC2, MDD): contiguous blocks of point_count x 3 floats, one
// block per sample, read with positional reads (pread) so that threads reading frames at once
// share no file position.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rigscope/core/point_cache.h"

namespace rigscope {

class BinaryPointCache : public PointCache {
public:
    // data_offset: where sample 0 starts. The file must hold every sample (the reader checked its
    // size); every number is checked finite here, a chunk at a time, before the run starts.
    BinaryPointCache(const std::string& path, std::vector<double> times, std::size_t points, std::uint64_t data_offset,
                     bool big_endian);
    ~BinaryPointCache() override;
    void read(std::size_t sample, Eigen::Vector3f* out) const override;

private:
    // Reads `count` floats at byte `offset` into out, in this machine's byte order.
    void read_floats(std::uint64_t offset, std::size_t count, float* out) const;
    int fd_ = -1;
    std::uint64_t data_offset_;
    bool big_endian_;
};

}  // namespace rigscope
