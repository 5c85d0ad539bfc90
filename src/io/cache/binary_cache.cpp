#include "io/cache/binary_cache.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

#include "rigscope/core/error.h"

namespace rigscope {

BinaryPointCache::BinaryPointCache(const std::string& path, std::vector<double> times, std::size_t points, std::uint64_t data_offset,
                                   bool big_endian)
    : PointCache(path, std::move(times), points), data_offset_(data_offset), big_endian_(big_endian) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw bad_input(path, std::string("cannot open: ") + std::strerror(errno));
    // Every number once, before any frame: a NaN found mid-run would end it after outputs began.
    // In chunks of about 4 MB, whatever the sample size.
    const std::uint64_t total = static_cast<std::uint64_t>(sample_count()) * point_count() * 3;
    constexpr std::uint64_t kChunk = 1u << 20;  // floats
    std::vector<float> buf(static_cast<std::size_t>(std::min(total, kChunk)));
    for (std::uint64_t done = 0; done < total;) {
        const std::size_t n = static_cast<std::size_t>(std::min(kChunk, total - done));
        read_floats(data_offset_ + done * 4, n, buf.data());
        for (std::size_t i = 0; i < n; ++i)
            if (!std::isfinite(buf[i])) {
                const std::uint64_t at = (done + i) / 3;
                ::close(fd_);
                fd_ = -1;
                throw bad_input(path, "sample " + std::to_string(at / point_count()) + ", point " + std::to_string(at % point_count()) +
                                          " is not a finite number (NaN or infinite)");
            }
        done += n;
    }
}

BinaryPointCache::~BinaryPointCache() {
    if (fd_ >= 0) ::close(fd_);
}

void BinaryPointCache::read_floats(std::uint64_t offset, std::size_t count, float* out) const {
    char* p = reinterpret_cast<char*>(out);
    std::size_t left = count * 4;
    while (left > 0) {
        const ssize_t r = ::pread(fd_, p, left, static_cast<off_t>(offset));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) throw bad_input(source(), r < 0 ? std::string("read failed: ") + std::strerror(errno) : "shorter than when it was opened (truncated since)");
        p += r;
        offset += static_cast<std::uint64_t>(r);
        left -= static_cast<std::size_t>(r);
    }
    if (big_endian_) {  // this machine is little-endian (x86, ARM)
        unsigned char* b = reinterpret_cast<unsigned char*>(out);
        for (std::size_t i = 0; i < count; ++i, b += 4) {
            std::swap(b[0], b[3]);
            std::swap(b[1], b[2]);
        }
    }
}

void BinaryPointCache::read(std::size_t sample, Eigen::Vector3f* out) const {
    static_assert(sizeof(Eigen::Vector3f) == 12, "Vector3f is three packed floats");
    if (sample >= sample_count()) throw internal_error("point cache " + source() + ": no sample " + std::to_string(sample));
    const std::uint64_t block = static_cast<std::uint64_t>(point_count()) * 12;
    read_floats(data_offset_ + sample * block, point_count() * 3, reinterpret_cast<float*>(out));
    for (std::size_t i = 0; i < point_count(); ++i)
        if (!out[i].allFinite())
            throw bad_input(source(), "sample " + std::to_string(sample) + ", point " + std::to_string(i) +
                                          " is not a finite number (changed since it was opened)");
}

}  // namespace rigscope
