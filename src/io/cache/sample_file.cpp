#include "sample_file.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

#include <spdlog/fmt/fmt.h>

#include "io/load_budget.h"
#include "io/plain/plain_file.h"
#include "rigscope/core/error.h"
#include "rigscope/core/finite_floats.h"

namespace rigscope {

std::uint32_t le32(const unsigned char* p) { return p[0] | p[1] << 8 | p[2] << 16 | std::uint32_t(p[3]) << 24; }
std::uint32_t be32(const unsigned char* p) { return std::uint32_t(p[0]) << 24 | p[1] << 16 | p[2] << 8 | p[3]; }
float float_of(std::uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

std::vector<unsigned char> read_head(const std::string& path, std::size_t n, const char* what) {
    const std::uint64_t size = plain::file_size(path);
    if (size < n) throw bad_input(path, std::string("truncated ") + what + " (" + std::to_string(size) + " bytes)");
    std::vector<unsigned char> head(n);
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw bad_input(path, std::strerror(errno));
    const ssize_t got = ::pread(fd, head.data(), n, 0);
    ::close(fd);
    if (got != static_cast<ssize_t>(n)) throw bad_input(path, std::string("cannot read its ") + what);
    return head;
}

void check_samples(const std::string& path, std::uint64_t points, std::uint64_t samples, std::uint64_t header,
                   std::uint64_t max_memory, std::uint64_t table_bytes) {
    if (points == 0) throw bad_input(path, "the cache has no points");
    if (samples == 0) throw bad_input(path, "the cache has no samples");
    // Two samples of points in memory at a time (a frame between samples blends two), and the
    // positions built from them: four samples' worth, charged first.
    LoadBudget budget(path, max_memory);
    budget.charge(double(points) * 12 * 4, std::to_string(points) + " points a sample, held four times");
    const double expected = double(header) + double(points) * 12 * double(samples);
    const std::uint64_t size = plain::file_size(path);
    if (double(size) != expected)
        throw bad_input(path, std::to_string(samples) + " samples of " + std::to_string(points) + " points need " +
                                  fmt::format("{:.0f}", expected) + " bytes, the file has " + std::to_string(size) +
                                  (double(size) < expected ? " (truncated)" : " (bytes past the last sample)"));
    // The table is held with the samples for the whole run: charged together. One point a sample
    // over 10^8 samples is a 1.2 GB file (or a sparse one of any size) and an 800 MB table.
    budget.charge(double(samples) * double(table_bytes), "the times of " + std::to_string(samples) + " samples");
}

SampleFile::SampleFile(const std::string& path, std::vector<double> times, std::size_t points, std::uint64_t offset,
                       bool big_endian)
    : PointCache(path, std::move(times), points), offset_(offset), big_endian_(big_endian) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw bad_input(path, std::strerror(errno));
}

SampleFile::~SampleFile() {
    if (fd_ >= 0) ::close(fd_);
}

void SampleFile::read(std::size_t sample, Eigen::Vector3f* out) const { read_part(sample, 0, point_count(), out); }

void SampleFile::read_part(std::size_t sample, std::size_t first, std::size_t count, Eigen::Vector3f* out) const {
    if (sample >= sample_count() || first > point_count() || count > point_count() - first)
        throw internal_error(source() + ": a part past the cache's samples");
    const std::size_t bytes = count * 12;
    char* dst = reinterpret_cast<char*>(out);
    static_assert(sizeof(Eigen::Vector3f) == 12, "positions are packed x, y, z");
    std::size_t done = 0;
    const std::uint64_t at = offset_ + (std::uint64_t(sample) * point_count() + first) * 12;
    while (done < bytes) {
        const ssize_t got = ::pread(fd_, dst + done, bytes - done, static_cast<off_t>(at + done));
        if (got <= 0) throw bad_input(source(), "sample " + std::to_string(sample) + " can no longer be read (changed since it was opened?)");
        done += static_cast<std::size_t>(got);
    }
    float* f = out->data();
    // Swapped where the file's byte order is not this machine's.
    const std::uint32_t one = 1;
    const bool host_big = *reinterpret_cast<const unsigned char*>(&one) == 0;
    if (big_endian_ != host_big)
        for (std::size_t i = 0; i < 3 * count; ++i) {
            std::uint32_t b;
            std::memcpy(&b, f + i, 4);
            b = __builtin_bswap32(b);
            std::memcpy(f + i, &b, 4);
        }
    // Located only when there is one: the scan runs per frame on every point.
    const std::size_t n = 3 * count;
    if (!floats_finite(f, n))
        for (std::size_t i = 0; i < n; ++i)
            if (!std::isfinite(f[i]))
                throw bad_input(source(), fmt::format("sample {} (at {:g} s), point {} is not a finite number", sample, times()[sample], first + i / 3));
}

}  // namespace rigscope
