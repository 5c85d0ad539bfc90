// PC2 (3ds Max's Point Cache 2, also Blender's and Houdini's): a 32-byte little-endian header
// ("POINTCACHE2\0", version, point count, start frame, sample rate, sample count), then every
// sample's points as float triples. Sample i is at frame start + i x rate (the file's own frames,
// as 3ds Max plays it; docs say how Blender's Mesh Cache differs).
#include <cmath>
#include <cstring>
#include <fstream>

#include "io/cache/binary_cache.h"
#include "io/cache/cache_readers.h"
#include "io/plain/plain_file.h"
#include "rigscope/core/error.h"

namespace rigscope {

std::shared_ptr<const PointCache> read_pc2(const std::string& path, double fps, const LoadOptions& options) {
    const std::uint64_t size = plain::file_size(path);
    constexpr std::uint64_t kHeader = 32;
    if (size < kHeader) throw bad_input(path, "truncated: " + std::to_string(size) + " bytes, shorter than a PC2 header (32)");
    unsigned char h[kHeader];
    {
        std::ifstream in(path, std::ios::binary);
        if (!in || !in.read(reinterpret_cast<char*>(h), kHeader)) throw bad_input(path, "cannot read the header");
    }
    if (std::memcmp(h, "POINTCACHE2\0", 12) != 0) throw bad_input(path, "not a PC2 file (no POINTCACHE2 header)");
    auto i32 = [&](int at) {
        std::int32_t v;
        std::memcpy(&v, h + at, 4);
        return v;
    };
    auto f32 = [&](int at) {
        float v;
        std::memcpy(&v, h + at, 4);
        return v;
    };
    const std::int64_t points = i32(16), samples = i32(28);
    const double start = f32(20), rate = f32(24);
    check_cache_counts(path, samples, points, options);
    if (!std::isfinite(start) || !(rate > 0) || !std::isfinite(rate))
        throw bad_input(path, "start frame " + std::to_string(start) + " and sample rate " + std::to_string(rate) +
                                  ": the rate must be a positive number of frames, both finite");
    const std::uint64_t block = static_cast<std::uint64_t>(points) * 12;
    const std::uint64_t data = size - kHeader;
    // Counts against the size before anything is allocated for them (a division: the product of
    // two 31-bit counts and 12 can pass 2^64).
    if (data / block < static_cast<std::uint64_t>(samples))
        throw bad_input(path, "truncated: the header claims " + std::to_string(samples) + " samples of " + std::to_string(points) +
                                  " points, the file holds " + std::to_string(data / block) + " (" + std::to_string(size) + " bytes)");
    if (data != block * static_cast<std::uint64_t>(samples))
        throw bad_input(path, std::to_string(data - block * static_cast<std::uint64_t>(samples)) + " bytes after the " +
                                  std::to_string(samples) + " samples the header claims: the header's counts are wrong");
    std::vector<double> times(static_cast<std::size_t>(samples));
    for (std::int64_t i = 0; i < samples; ++i) times[static_cast<std::size_t>(i)] = (start + static_cast<double>(i) * rate) / fps;
    return std::make_shared<BinaryPointCache>(path, std::move(times), static_cast<std::size_t>(points), kHeader, false);
}

}  // namespace rigscope
