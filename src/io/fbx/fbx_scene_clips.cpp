// FBX animation stacks -> clips on the file's own timeline: each stack's curves gathered once, its
// frames planned (fbx_scene_builder.h's steps; docs/fbx_notes.md), and per frame every moving
// model's local transform and every animated blend-shape channel's weights sampled.
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "io/fbx/fbx_common.h"
#include "io/fbx/fbx_scene_builder.h"
#include "rigscope/core/error.h"

namespace rigscope::fbx {

namespace {

// Longest stretch of frames a take (with its keys) may span.
constexpr double kMaxClipFrames = 1e6;

// How far off a whole frame (in frames) a take's end or a key may lie and still count as on it.
constexpr double kFrameSnap = 1e-4;

// How many samples (frames x animated models) a stack's keys buy: every frame of the span while
// the total stays within kSamplesPerKey per key, or within kMinSamples, whichever is more. Past
// that, a stretch between keys gets at most kStretchSamples frames.
constexpr double kSamplesPerKey = 16;
constexpr double kMinSamples = 1 << 14;
constexpr long kStretchSamples = 64;

// The whole frames at which a stack is sampled, f0..f1 in order, and how it was thinned.
//
// Why a bound at all: between two consecutive keys each curve is a single segment (constant,
// linear or one cubic), so the frames there hold nothing the keys do not; yet how many frames lie
// between two keys is one number the file states (a key time), not data it holds. One fuzzed key
// time stretched a 21-frame take to 73,001 frames, and the reader, which sampled and decomposed
// every frame for every moving model, spent 1.5 s on a small file, and over 60 s under the
// fuzzer's sanitizers (where one sample costs some 170 us against 0.45 us). So the work follows
// what the file holds. The frames at and beside every key, the take's start and stop and the
// span's ends are always sampled (their number follows the keys; the memory check bounds it).
// The frames between are all sampled while the total stays within `budget`, which files with a
// key on each model every few frames (the corpus, the crafted cases: tests/io/test_fbx_sampling.cpp)
// never reach, so their every frame stays exact. Over it, the stretches between keys longer than
// the budget allows are sampled at evenly spaced frames, at most kStretchSamples of them, and
// interpolated between: each curve is one smooth segment there, so a fixed number of samples
// keeps its shape whatever the stretch's length, and a warning says the frames are approximate.
struct FramePlan {
    std::vector<long> frames;
    long longest = 0;        // the longest stretch between sampled key frames, in frames
    std::size_t thinned = 0; // stretches sampled at a stride rather than at every frame
    long kept = 0;           // frames sampled inside each thinned stretch
};

FramePlan plan_frames(const std::deque<Curve>& curves, std::int64_t take_start, std::int64_t take_stop, double frames_per_tick, long f0,
                      long f1, double rows, double budget) {
    // Breakpoints: the ends, and the whole frames at or on either side of each key and of the
    // take's start and stop.
    std::vector<long> at = {f0, f1};
    auto mark = [&](std::int64_t t) {
        const double k = double(t) * frames_per_tick;
        for (long f : {long(std::floor(k + 1e-6)), long(std::ceil(k - 1e-6))})
            if (f >= f0 && f <= f1) at.push_back(f);
    };
    mark(take_start);
    mark(take_stop);
    for (const Curve& c : curves)
        for (std::int64_t t : c.times) mark(t);
    std::sort(at.begin(), at.end());
    at.erase(std::unique(at.begin(), at.end()), at.end());
    FramePlan plan;
    std::vector<long> gaps(at.size() - 1);  // whole frames strictly between two breakpoints
    for (std::size_t i = 0; i + 1 < at.size(); ++i) plan.longest = std::max(plan.longest, gaps[i] = at[i + 1] - at[i] - 1);
    auto samples = [&](long cap) {
        double n = double(at.size());
        for (long g : gaps) n += double(std::min(g, cap));
        return n * rows;
    };
    // The most frames per stretch that fit the budget (all of them when the whole span fits).
    long cap = plan.longest;
    if (samples(cap) > budget) {
        long lo = 0, hi = cap;  // samples(lo) fits or is the least possible; samples(hi) does not fit
        while (hi - lo > 1) {
            const long mid = lo + (hi - lo) / 2;
            (samples(mid) <= budget ? lo : hi) = mid;
        }
        cap = std::min(lo, kStretchSamples);
        plan.kept = cap;
    }
    for (std::size_t i = 0; i < at.size(); ++i) {
        plan.frames.push_back(at[i]);
        if (i + 1 == at.size()) break;
        const long g = gaps[i];
        if (g <= cap) {
            for (long f = at[i] + 1; f < at[i + 1]; ++f) plan.frames.push_back(f);
        } else {
            ++plan.thinned;
            // cap frames evenly inside the g: the step (g + 1) / (cap + 1) exceeds 1, so they differ.
            for (long j = 1; j <= cap; ++j) plan.frames.push_back(at[i] + std::lround(double(j) * double(g + 1) / double(cap + 1)));
        }
    }
    return plan;
}

}  // namespace

StackCurves Builder::stack_curves(const Object& stack) const {
    StackCurves out;
    auto read = [&](const Object& curve) -> const Curve* {
        out.store.push_back(read_curve(*curve.rec, curve.name.empty() ? "id " + std::to_string(curve.id) : curve.name, max_memory_, curves_));
        const Curve& c = out.store.back();
        if (c.times.empty()) return nullptr;
        out.keys += double(c.times.size());
        out.first = std::min(out.first, c.times.front());
        out.last = std::max(out.last, c.times.back());
        return &c;
    };
    for (const auto& [layer, l0] : doc_.sources(stack.id, "AnimationLayer")) {
        for (const auto& [cn, l1] : doc_.sources(layer->id, "AnimationCurveNode")) {
            for (const auto& [dst, link] : doc_.destinations(cn->id)) {
                if (link->prop.empty()) continue;
                if (dst->kind == "Model") {
                    const int which = link->prop == "Lcl Translation" ? 0 : link->prop == "Lcl Rotation" ? 1 : link->prop == "Lcl Scaling" ? 2 : -1;
                    if (which < 0) continue;
                    const int m = model_index_.at(dst->id);
                    const ModelProps& mp = models_[m].props;
                    PropAnim a;
                    const Eigen::Vector3d& fixed = which == 0 ? mp.t : which == 1 ? mp.r : mp.s;
                    const char* names[3] = {"d|X", "d|Y", "d|Z"};
                    for (int i = 0; i < 3; ++i) a.defaults[i] = doc_.number(*cn, names[i], fixed[i]);
                    for (const auto& [curve, l2] : doc_.sources(cn->id, "AnimationCurve"))
                        for (int i = 0; i < 3; ++i)
                            if (l2->prop == names[i]) a.c[i] = read(*curve);
                    out.props[{m, which}].push_back(a);
                } else if (dst->kind == "Deformer" && dst->cls == "BlendShapeChannel" && link->prop == "DeformPercent") {
                    for (const auto& [curve, l2] : doc_.sources(cn->id, "AnimationCurve"))
                        if (l2->prop == "d|DeformPercent" && !out.shapes.count(dst->id))
                            if (const Curve* c = read(*curve)) out.shapes[dst->id] = c;
                }
            }
        }
    }
    return out;
}

// Model m's transform properties at KTime t: its curves layer by layer over the file's values.
ModelProps Builder::animated_props(const StackCurves& curves, int m, std::int64_t t) const {
    ModelProps p = models_[m].props;
    for (int which = 0; which < 3; ++which) {
        auto it = curves.props.find({m, which});
        if (it == curves.props.end()) continue;
        Eigen::Vector3d& v = which == 0 ? p.t : which == 1 ? p.r : p.s;
        for (std::size_t layer = 0; layer < it->second.size(); ++layer) {
            const PropAnim& a = it->second[layer];
            Eigen::Vector3d x;
            for (int i = 0; i < 3; ++i) x[i] = a.c[i] ? a.c[i]->at(t) : a.defaults[i];
            if (layer == 0) v = x;
            else if (which == 2) v = v.cwiseProduct(x);
            else v += x;
        }
    }
    return p;
}

// Model m's translation, rotation and scale channels at the planned frames.
void Builder::node_channels(const StackCurves& curves, int m, const std::vector<long>& frames, Clip& clip) const {
    const double fps = scene_.fps;
    const double kt = double(kKTimePerSecond);
    const int node = node_of_[m];
    Channel ct, cr, cs;
    ct.node = cr.node = cs.node = node;
    ct.path = ChannelPath::Translation;
    cr.path = ChannelPath::Rotation;
    cs.path = ChannelPath::Scale;
    cr.width = 4;
    Eigen::Quaterniond prev = Eigen::Quaterniond::Identity();
    for (std::size_t i = 0; i < frames.size(); ++i) {
        const long f = frames[i];
        const std::int64_t t = std::llround(double(f) * kt / fps);
        const ModelProps p = animated_props(curves, m, t);
        const Transform tr = decompose(local_matrix(p));
        Eigen::Quaterniond q = tr.rotation;
        if (i > 0 && prev.dot(q) < 0) q.coeffs() = -q.coeffs();
        prev = q;
        const float time = float(double(f) / fps);
        for (Channel* c : {&ct, &cr, &cs}) c->times.push_back(time);
        for (int i = 0; i < 3; ++i) ct.values.push_back(float(tr.translation[i]));
        cr.values.insert(cr.values.end(), {float(q.x()), float(q.y()), float(q.z()), float(q.w())});
        for (int i = 0; i < 3; ++i) cs.values.push_back(float(tr.scale[i]));
    }
    clip.channels.push_back(std::move(ct));
    clip.channels.push_back(std::move(cr));
    clip.channels.push_back(std::move(cs));
}

// One mesh's morph weights at the planned frames, from its channels' DeformPercent curves.
Channel Builder::morph_channel(const StackCurves& curves, const MeshChannels& mc, const std::vector<long>& frames) const {
    const double fps = scene_.fps;
    const double kt = double(kKTimePerSecond);
    const Mesh& mesh = scene_.meshes[mc.mesh];
    Channel cw;
    cw.node = mesh.node;
    cw.path = ChannelPath::Weights;
    cw.width = int(mesh.targets.size());
    std::vector<float> w(mesh.targets.size());
    for (const long f : frames) {
        const std::int64_t t = std::llround(double(f) * kt / fps);
        for (const ShapeChannel& sc : mc.channels) {
            auto it = curves.shapes.find(sc.id);
            channel_weights(sc, it != curves.shapes.end() ? it->second->at(t) : sc.percent, w.data());
        }
        cw.times.push_back(float(double(f) / fps));
        cw.values.insert(cw.values.end(), w.begin(), w.end());
    }
    return cw;
}

void Builder::clips() {
    const double fps = scene_.fps;
    const double kt = double(kKTimePerSecond);
    for (const Object& stack : doc_.objects()) {
        if (stack.kind != "AnimationStack") continue;
        const StackCurves curves = stack_curves(stack);
        const std::int64_t first = curves.first, last = curves.last;
        const double keys = curves.keys;
        if (first > last) continue;  // a stack without keys is no animation

        // The stack's LocalStart/LocalStop, else the Takes section's LocalTime, else the keys.
        std::int64_t from_start = first, from_stop = last;
        doc_.take_time(stack.name, from_start, from_stop);
        // MotionBuilder writes a take's ends some ticks off whole frames (LocalStop 153953856329
        // is frame 99.9999976 at 30 fps, 3671 ticks short of 100): an end within kFrameSnap of a
        // frame is that frame, so `info`, the default frames and --frames agree on it.
        auto snap = [&](std::int64_t t) {
            const double f = double(t) * fps / kt, whole = std::round(f);
            return std::fabs(f - whole) < kFrameSnap ? std::int64_t(std::llround(whole * kt / fps)) : t;
        };
        const std::int64_t take_start = snap(ktime_property(doc_, stack, "LocalStart", from_start));
        const std::int64_t take_stop = std::max(take_start, snap(ktime_property(doc_, stack, "LocalStop", from_stop)));
        const double lo = double(std::min(first, take_start)) * fps / kt, hi = double(std::max(last, take_stop)) * fps / kt;
        if (!(hi - lo <= kMaxClipFrames))
            throw Malformed("animation '" + stack.name + "' spans " + format_number(hi - lo) + " frames at " + format_number(fps) +
                            " fps (over a million)");
        long f0 = long(std::ceil(lo - kFrameSnap)), f1 = long(std::floor(hi + kFrameSnap));
        if (f1 < f0) f0 = f1 = std::lround(lo);

        // Models whose local transform moves: those with curves (a parent's animated scale
        // reaches its children of every inherit type through pose_world, not their locals).
        std::set<int> moving;
        for (const auto& [key, anims] : curves.props) moving.insert(key.first);
        std::vector<const MeshChannels*> animated_morphs;
        for (const MeshChannels& mc : morphs_)
            for (const ShapeChannel& sc : mc.channels)
                if (curves.shapes.count(sc.id)) {
                    animated_morphs.push_back(&mc);
                    break;
                }
        const double rows = double(moving.size() + animated_morphs.size());
        if (rows == 0) continue;  // keys on nothing the scene moves
        const FramePlan plan = plan_frames(curves.store, take_start, take_stop, fps / kt, f0, f1, rows, std::max(kMinSamples, kSamplesPerKey * keys));
        const std::vector<long>& frames = plan.frames;
        if (const std::string problem = budget_.check(double(frames.size()) * rows * 48.0,
                                                      "animation '" + stack.name + "' (" + std::to_string(frames.size()) + " frames)");
            !problem.empty())
            throw Malformed(problem);
        if (plan.thinned)
            scene_.warnings.push_back({WarningKind::Sampling, "animation '" + stack.name + "': " + std::to_string(plan.thinned) +
                                      (plan.thinned == 1 ? " stretch" : " stretches") + " between keys (the longest " +
                                      std::to_string(plan.longest) + " frames) sampled " +
                                      (plan.kept ? "at " + std::to_string(plan.kept) + " evenly spaced frames each" : std::string("at their ends only")) +
                                      ", frames between interpolated: its " + format_number(keys) +
                                      " keys do not justify sampling all " + std::to_string(f1 - f0 + 1) + " frames for " +
                                      format_number(rows) + " animated models"});

        Clip clip;
        clip.name = stack.name;
        for (int m : moving) node_channels(curves, m, frames, clip);
        for (const MeshChannels* mc : animated_morphs) clip.channels.push_back(morph_channel(curves, *mc, frames));
        if (clip.channels.empty()) continue;
        clip.start = double(f0) / fps;
        clip.end = double(f1) / fps;
        clip.has_take = true;
        clip.take_start = double(take_start) / kt;
        clip.take_end = double(take_stop) / kt;
        clip.key_start = double(first) / kt;
        clip.key_end = double(last) / kt;
        const double slack = kFrameSnap * kt / fps;  // keys as far off whole frames as the take's ends may be
        if (double(first) < double(take_start) - slack || double(last) > double(take_stop) + slack)
            scene_.warnings.push_back({WarningKind::Sampling, "animation '" + stack.name + "': keys run from frame " + format_number(double(first) * fps / kt, 9) +
                                      " to " + format_number(double(last) * fps / kt, 9) + ", outside its take (frames " +
                                      format_number(double(take_start) * fps / kt, 6) + ".." + format_number(double(take_stop) * fps / kt, 6) +
                                      "); every key is kept, default frames are the take's, --frames reaches the rest"});
        scene_.clips.push_back(std::move(clip));
    }
}

}  // namespace rigscope::fbx
