// PC2 (`POINTCACHE2`), as 3ds Max's Point Cache modifier, Blender's and Houdini's exporters write
// it: a 32-byte little-endian header (signature, version 1, point count, start frame and sample
// rate in frames, sample count), then the samples. Sample i is at frame start + i x rate.
#include "pc2_reader.h"

#include <cmath>
#include <cstring>

#include "rigscope/core/error.h"
#include "sample_file.h"

namespace rigscope {

std::shared_ptr<const PointCache> open_pc2(const std::string& path, double fps, const LoadOptions& options) {
    constexpr std::size_t kHeader = 32;
    const std::vector<unsigned char> h = read_head(path, kHeader, "PC2 header");
    if (std::memcmp(h.data(), "POINTCACHE2\0", 12) != 0) throw bad_input(path, "not a PC2 file (no POINTCACHE2 signature)");
    const std::uint32_t version = le32(&h[12]);
    if (version != 1) throw bad_input(path, "PC2 version " + std::to_string(version) + " is not read (only 1)");
    const std::uint32_t points = le32(&h[16]), samples = le32(&h[28]);
    const float start = float_of(le32(&h[20])), rate = float_of(le32(&h[24]));
    if (!std::isfinite(start)) throw bad_input(path, "the start frame is not a finite number");
    if (!(rate > 0) || !std::isfinite(rate)) throw bad_input(path, "the sample rate is not a positive number of frames");
    if (points > 0x7fffffffu || samples > 0x7fffffffu) throw bad_input(path, "a count past 2^31 (a corrupt header)");
    check_samples(path, points, samples, kHeader, options.max_memory, sizeof(double));  // the times
    std::vector<double> times(samples);
    for (std::uint32_t i = 0; i < samples; ++i) times[i] = (double(start) + double(i) * double(rate)) / fps;
    return std::make_shared<SampleFile>(path, std::move(times), points, kHeader, false);
}

}  // namespace rigscope
