#include "io/alembic/abc_point_cache.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

#include "io/alembic/abc_archive.h"  // number()
#include "rigscope/core/error.h"
#include "rigscope/core/finite_floats.h"

namespace rigscope::abc {

void place(const Eigen::Matrix4d& world, Eigen::Vector3f* p, std::size_t count) {
    const Eigen::Matrix3d r = world.topLeftCorner<3, 3>();
    const Eigen::Vector3d t = world.topRightCorner<3, 1>();
    for (std::size_t i = 0; i < count; ++i) p[i] = (r * p[i].cast<double>() + t).cast<float>();
}

AbcPointCache::AbcPointCache(const std::string& path, std::string source, std::vector<double> times, std::size_t points,
                             std::vector<std::uint64_t> offsets, std::vector<Eigen::Matrix4d> worlds)
    : PointCache(std::move(source), std::move(times), points), path_(path), offsets_(std::move(offsets)), worlds_(std::move(worlds)) {
    if (offsets_.size() != sample_count() || (!worlds_.empty() && worlds_.size() != sample_count()))
        throw internal_error("an Alembic point cache's tables do not match its samples");
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw bad_input(path, std::strerror(errno));
}

AbcPointCache::~AbcPointCache() {
    if (fd_ >= 0) ::close(fd_);
}

void AbcPointCache::read(std::size_t sample, Eigen::Vector3f* out) const { read_part(sample, 0, point_count(), out); }

void AbcPointCache::read_part(std::size_t sample, std::size_t first, std::size_t count, Eigen::Vector3f* out) const {
    if (sample >= sample_count() || first > point_count() || count > point_count() - first)
        throw internal_error(source() + ": a part past the cache's samples");
    static_assert(sizeof(Eigen::Vector3f) == 12, "positions are packed x, y, z");
    char* dst = reinterpret_cast<char*>(out);
    const std::size_t bytes = count * 12;
    const std::uint64_t at = offsets_[sample] + std::uint64_t(first) * 12;
    std::size_t done = 0;
    while (done < bytes) {
        const ssize_t got = ::pread(fd_, dst + done, bytes - done, static_cast<off_t>(at + done));
        if (got <= 0) throw bad_input(source(), "sample " + std::to_string(sample) + " can no longer be read (changed since it was opened?)");
        done += static_cast<std::size_t>(got);
    }
    const float* f = out->data();
    if (!floats_finite(f, 3 * count))  // then located: the scan runs per frame on every point
        for (std::size_t i = 0; i < 3 * count; ++i)
            if (!std::isfinite(f[i]))
                throw bad_input(source(), "sample " + std::to_string(sample) + " (at " + number(times()[sample]) + " s), point " +
                                              std::to_string(first + i / 3) + " is not a finite number");
    if (!worlds_.empty()) place(worlds_[sample], out, count);
}

}  // namespace rigscope::abc
