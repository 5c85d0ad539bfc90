// MDD (LightWave's Motion Designer cache, also Blender's, Houdini's and Marvelous Designer's):
// big-endian; frame count, point count, one time (seconds) per frame, then every frame's points
// as float triples. Blender's exporter (io_shape_mdd) writes one block of points more than its
// header counts: its first frame twice (a "rest frame"). Blender's Mesh Cache modifier reads
// frame i from block i all the same, so that file plays its first frame twice and never shows
// its last; this reader does as the modifier does and says so in a warning.
#include <cmath>
#include <cstring>
#include <fstream>

#include "io/cache/binary_cache.h"
#include "io/cache/cache_readers.h"
#include "io/plain/plain_file.h"
#include "rigscope/core/error.h"

namespace rigscope {

namespace {
std::uint32_t be32(const unsigned char* b) {
    return (std::uint32_t(b[0]) << 24) | (std::uint32_t(b[1]) << 16) | (std::uint32_t(b[2]) << 8) | std::uint32_t(b[3]);
}
}  // namespace

std::shared_ptr<const PointCache> read_mdd(const std::string& path, const LoadOptions& options, std::vector<std::string>& warnings) {
    const std::uint64_t size = plain::file_size(path);
    if (size < 8) throw bad_input(path, "truncated: " + std::to_string(size) + " bytes, shorter than an MDD header (8)");
    std::ifstream in(path, std::ios::binary);
    unsigned char h[8];
    if (!in || !in.read(reinterpret_cast<char*>(h), 8)) throw bad_input(path, "cannot read the header");
    const std::int64_t frames = static_cast<std::int32_t>(be32(h)), points = static_cast<std::int32_t>(be32(h + 4));
    check_cache_counts(path, frames, points, options);
    const std::uint64_t block = static_cast<std::uint64_t>(points) * 12;
    const std::uint64_t times_bytes = static_cast<std::uint64_t>(frames) * 4;
    if (size - 8 < times_bytes || (size - 8 - times_bytes) / block < static_cast<std::uint64_t>(frames))
        throw bad_input(path, "truncated: the header claims " + std::to_string(frames) + " frames of " + std::to_string(points) +
                                  " points, more than the file's " + std::to_string(size) + " bytes hold");
    const std::uint64_t data = size - 8 - times_bytes;
    const std::uint64_t expected = block * static_cast<std::uint64_t>(frames);
    // Exactly the frames, or one block more (Blender's exporter: the rest pose first).
    if (data != expected && data != expected + block)
        throw bad_input(path, std::to_string(data - expected) + " bytes after the " + std::to_string(frames) +
                                  " frames the header claims: the header's counts are wrong");
    if (data != expected)
        warnings.push_back(path + ": holds " + std::to_string(frames + 1) + " frames of points, one more than its header's " +
                           std::to_string(frames) + " (Blender's MDD exporter writes its first frame twice); frame i is read from "
                           "block i, as Blender's Mesh Cache modifier reads it");
    std::vector<unsigned char> raw(static_cast<std::size_t>(times_bytes));
    if (!in.read(reinterpret_cast<char*>(raw.data()), static_cast<std::streamsize>(times_bytes))) throw bad_input(path, "cannot read the frame times");
    std::vector<double> times(static_cast<std::size_t>(frames));
    for (std::size_t i = 0; i < times.size(); ++i) {
        const std::uint32_t bits = be32(raw.data() + 4 * i);
        float t;
        std::memcpy(&t, &bits, 4);
        if (!std::isfinite(t)) throw bad_input(path, "frame " + std::to_string(i) + ": its time is not a finite number");
        if (i > 0 && !(t > times[i - 1]))
            throw bad_input(path, "frame " + std::to_string(i) + ": its time " + std::to_string(t) + " s does not follow the previous " +
                                      std::to_string(times[i - 1]) + " s");
        times[i] = t;
    }
    return std::make_shared<BinaryPointCache>(path, std::move(times), static_cast<std::size_t>(points), 8 + times_bytes, true);
}

}  // namespace rigscope
