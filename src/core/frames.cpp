#include "rigscope/core/frames.h"

#include <cmath>
#include <optional>
#include <sstream>

#include "rigscope/core/error.h"

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
    if (used != s.size() || s.empty()) throw Error(kExitUsage, "'" + spec + "': '" + s + "' is not a frame number");
    return v;
}

// The longest frame list --frames may give, over all its ranges together.
constexpr std::size_t kMaxFrames = 10000000;

Frame at(long n, double fps) { return Frame{false, n, static_cast<double>(n) / fps}; }

}  // namespace

std::vector<Frame> parse_frames(const std::string& spec, double fps) {
    std::vector<Frame> out;
    std::stringstream ss(spec);
    std::string item;
    if (spec.empty()) throw Error(kExitUsage, "empty frame list");
    while (std::getline(ss, item, ',')) {
        if (item == "bind") {
            out.push_back(Frame{true, 0, 0.0});
            continue;
        }
        auto dots = item.find("..");
        if (dots == std::string::npos) {
            if (out.size() >= kMaxFrames) throw Error(kExitUsage, "'" + spec + "': more than ten million frames");
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
        if (step <= 0) throw Error(kExitUsage, "'" + spec + "': step must be positive");
        if (b < a) throw Error(kExitUsage, "'" + spec + "': range " + item + " runs backwards");
        // Counted in unsigned arithmetic: b - a, and n += step past b, overflow a long near its
        // limits (9223372036854775807..9223372036854775807 looped for ever).
        const unsigned long steps = (static_cast<unsigned long>(b) - static_cast<unsigned long>(a)) / static_cast<unsigned long>(step);
        if (steps >= kMaxFrames || out.size() + steps + 1 > kMaxFrames)
            throw Error(kExitUsage, "'" + spec + "': more than ten million frames");
        for (unsigned long k = 0; k <= steps; ++k)
            out.push_back(at(static_cast<long>(static_cast<unsigned long>(a) + k * static_cast<unsigned long>(step)), fps));
    }
    if (out.empty()) throw Error(kExitUsage, "empty frame list");
    return out;
}

namespace {

// Longest default frame list: a clip beyond it (a last key a million seconds in, from a broken
// exporter) would run for hours; the same limit as a --frames range.
constexpr double kMaxDefaultFrames = 10000000.0;

// The clip's whole frames [first, last] at fps. A clip shorter than a frame (every key at one
// time, which may fall between two frames) has none; it then gets the nearest frame, so a single
// pose clip is always evaluable.
struct FrameSpan {
    long first = 0, last = 0;
    bool nearest = false;  // no whole frame inside: [first, first] is the nearest one
};

// `whole_list`: the span is to become the default frame list, so its length is limited too.
// An FBX take's default frames are the take's own range (LocalStart..LocalStop); frames asked for
// may reach every key as well (start..end covers both).
FrameSpan clip_span(const Clip& clip, double fps, bool whole_list) {
    const bool take = whole_list && clip.has_take;
    const double first = take ? clip.take_start : clip.start, last = take ? clip.take_end : clip.end;
    const double lo = first * fps - kFrameEpsilon, hi = last * fps + kFrameEpsilon;
    // Checked before any conversion to long: a key time past 10^17 frames does not fit one.
    if (!std::isfinite(lo) || !std::isfinite(hi) || std::fabs(lo) > 1e15 || std::fabs(hi) > 1e15 ||
        (whole_list && hi - lo > kMaxDefaultFrames)) {
        std::ostringstream msg;
        msg << "clip '" << clip.name << "' runs from " << first << " s to " << last << " s, "
            << (hi - lo) << " frames at " << fps << " fps (over ten million, or past what a frame number holds); choose frames with --frames";
        throw Error(kExitBadInput, msg.str());
    }
    FrameSpan span{static_cast<long>(std::ceil(lo)), static_cast<long>(std::floor(hi)), false};
    if (span.last < span.first) {
        span.first = span.last = std::lround(first * fps);
        span.nearest = true;
    }
    return span;
}

}  // namespace

std::vector<Frame> default_frames(const Clip* clip, double fps) {
    if (!clip) return {Frame{true, 0, 0.0}};
    const FrameSpan span = clip_span(*clip, fps, true);
    std::vector<Frame> out;
    out.reserve(static_cast<std::size_t>(span.last - span.first + 1));
    for (long n = span.first; n <= span.last; ++n) out.push_back(at(n, fps));
    return out;
}

void check_frames_in_clip(const std::vector<Frame>& frames, const Clip* clip, double fps) {
    std::optional<FrameSpan> span;  // once, at the first frame that needs it (up to ten million)
    for (const Frame& f : frames) {
        if (f.bind) continue;
        if (!clip) throw Error(kExitUsage, "frame " + std::to_string(f.number) + " asked, but the file has no animation (use 'bind')");
        if (!span) span = clip_span(*clip, fps, false);
        if (f.number < span->first || f.number > span->last) {
            std::ostringstream msg;
            msg << "frame " << f.number << " is outside clip '" << clip->name << "' (frames "
                << span->first << ".." << span->last << " at " << fps << " fps)";
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
