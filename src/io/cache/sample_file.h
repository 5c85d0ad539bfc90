// What PC2 and MDD share: samples of float32 x, y, z per point, stored one after the other from
// an offset of the file, in one byte order. Read with pread, so that threads reading frames at
// once share no file position.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rigscope/core/point_cache.h"

namespace rigscope {

class SampleFile : public PointCache {
public:
    // Opens `path` (already checked: its size is offset + samples x points x 12).
    SampleFile(const std::string& path, std::vector<double> times, std::size_t points, std::uint64_t offset, bool big_endian);
    ~SampleFile() override;
    void read(std::size_t sample, Eigen::Vector3f* out) const override;
    bool reads_parts() const override { return true; }
    void read_part(std::size_t sample, std::size_t first, std::size_t count, Eigen::Vector3f* out) const override;

private:
    int fd_ = -1;
    std::uint64_t offset_;
    bool big_endian_;
};

// The header's bytes: the first `n` of the file (refused as truncated naming `what` when shorter).
std::vector<unsigned char> read_head(const std::string& path, std::size_t n, const char* what);

// Little- and big-endian 32-bit fields.
std::uint32_t le32(const unsigned char* p);
std::uint32_t be32(const unsigned char* p);
float float_of(std::uint32_t bits);

// Refuses (bad input) `points` per sample beyond what the memory limit holds for the two samples a
// frame may blend, a file whose size is not header + samples x points x 12, and then (a header
// that fits its file, which a sparse file does cheaply) the per-sample table the reader is about
// to allocate, `table_bytes` a sample (times, and MDD's stored floats), beyond the limit.
void check_samples(const std::string& path, std::uint64_t points, std::uint64_t samples, std::uint64_t header,
                   std::uint64_t max_memory, std::uint64_t table_bytes);

}  // namespace rigscope
