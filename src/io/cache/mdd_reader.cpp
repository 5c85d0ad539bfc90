// MDD, as LightWave, Blender's exporter (io_shape_mdd: times frame / fps from 0, a rest frame
// first where asked), Houdini and Marvelous Designer write it: big-endian frame count and point
// count, the frame times in seconds (float32), then the samples.
#include "mdd_reader.h"

#include <cmath>
#include <cstring>

#include "rigscope/core/error.h"
#include "sample_file.h"

namespace rigscope {

std::shared_ptr<const PointCache> open_mdd(const std::string& path, const LoadOptions& options) {
    const std::vector<unsigned char> h = read_head(path, 8, "MDD header");
    // MDD has no signature, so a PC2 renamed .mdd would read its "POIN" as a frame count of
    // 1.3 billion: its own signature says what it is.
    if (std::memcmp(h.data(), "POINTCAC", 8) == 0)
        throw bad_input(path, "this is a PC2 file (it starts with the POINTCACHE2 signature), not an MDD: rename it .pc2");
    const std::uint32_t frames = be32(&h[0]), points = be32(&h[4]);
    if (frames > 0x7fffffffu || points > 0x7fffffffu) throw bad_input(path, "a count past 2^31 (a corrupt header, or not MDD)");
    if (frames == 0) throw bad_input(path, "the cache has no samples");
    const std::uint64_t header = 8 + 4ull * frames;
    check_samples(path, points, frames, header, options.max_memory, 4 + sizeof(double));  // stored and as seconds
    const std::vector<unsigned char> t = read_head(path, header, "MDD frame times");
    std::vector<double> times(frames);
    for (std::uint32_t i = 0; i < frames; ++i) {
        times[i] = float_of(be32(&t[8 + 4 * i]));
        if (!std::isfinite(times[i])) throw bad_input(path, "frame " + std::to_string(i) + "'s time is not a finite number");
        if (i > 0 && !(times[i] > times[i - 1]))
            throw bad_input(path, "frame times do not increase (frame " + std::to_string(i) + ")");
    }
    return std::make_shared<SampleFile>(path, std::move(times), points, header, true);
}

}  // namespace rigscope
