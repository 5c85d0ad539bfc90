#include "rigscope/frames.h"

#include <cmath>
#include <sstream>

#include "rigscope/error.h"

namespace rigscope {

namespace {

// Tolerance for key times that are frame numbers divided by fps in float precision.
constexpr double kFrameEpsilon = 1e-4;

long parse_long(const std::string& s, const std::string& spec) {
    std::size_t used = 0;
    long v = 0;
    try {
        v = std::stol(s, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != s.size() || s.empty()) throw Error(kExitUsage, "--frames '" + spec + "': '" + s + "' is not a frame number");
    return v;
}

Frame at(long n, double fps) { return Frame{false, n, static_cast<double>(n) / fps}; }

}  // namespace

std::vector<Frame> parse_frames(const std::string& spec, double fps) {
    std::vector<Frame> out;
    std::stringstream ss(spec);
    std::string item;
    if (spec.empty()) throw Error(kExitUsage, "--frames: empty frame list");
    while (std::getline(ss, item, ',')) {
        if (item == "bind") {
            out.push_back(Frame{true, 0, 0.0});
            continue;
        }
        auto dots = item.find("..");
        if (dots == std::string::npos) {
            out.push_back(at(parse_long(item, spec), fps));
            continue;
        }
        long step = 1;
        std::string hi = item.substr(dots + 2);
        if (auto colon = hi.find(':'); colon != std::string::npos) {
            step = parse_long(hi.substr(colon + 1), spec);
            hi = hi.substr(0, colon);
        }
        const long a = parse_long(item.substr(0, dots), spec), b = parse_long(hi, spec);
        if (step <= 0) throw Error(kExitUsage, "--frames '" + spec + "': step must be positive");
        if (b < a) throw Error(kExitUsage, "--frames '" + spec + "': range " + item + " runs backwards");
        if ((b - a) / step > 10000000) throw Error(kExitUsage, "--frames '" + spec + "': more than ten million frames");
        for (long n = a; n <= b; n += step) out.push_back(at(n, fps));
    }
    if (out.empty()) throw Error(kExitUsage, "--frames: empty frame list");
    return out;
}

std::vector<Frame> default_frames(const Clip* clip, double fps) {
    if (!clip) return {Frame{true, 0, 0.0}};
    const long first = static_cast<long>(std::ceil(clip->start * fps - kFrameEpsilon));
    const long last = static_cast<long>(std::floor(clip->end * fps + kFrameEpsilon));
    std::vector<Frame> out;
    for (long n = first; n <= last; ++n) out.push_back(at(n, fps));
    if (out.empty()) out.push_back(at(first, fps));
    return out;
}

void check_frames_in_clip(const std::vector<Frame>& frames, const Clip* clip, double fps) {
    for (const Frame& f : frames) {
        if (f.bind) continue;
        if (!clip) throw Error(kExitUsage, "--frames: frame " + std::to_string(f.number) + " asked, but the file has no animation (use 'bind')");
        const double lo = clip->start * fps - kFrameEpsilon, hi = clip->end * fps + kFrameEpsilon;
        if (f.number < lo || f.number > hi) {
            std::ostringstream msg;
            msg << "--frames: frame " << f.number << " is outside clip '" << clip->name << "' (frames "
                << std::ceil(lo) << ".." << std::floor(hi) << " at " << fps << " fps)";
            throw Error(kExitUsage, msg.str());
        }
    }
}

std::vector<Frame> chunk_frames(const std::vector<Frame>& frames, int index, int count) {
    const std::size_t n = frames.size();
    const std::size_t begin = n * static_cast<std::size_t>(index) / count;
    const std::size_t end = n * static_cast<std::size_t>(index + 1) / count;
    return std::vector<Frame>(frames.begin() + begin, frames.begin() + end);
}

}  // namespace rigscope
