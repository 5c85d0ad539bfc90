#include "io/alembic/abc_xform.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstring>

namespace rigscope::abc {

namespace {

constexpr double kDegrees = 3.14159265358979323846 / 180.0;

// Channels each op type takes (AbcGeom's XformOperationType 0..6).
int channels_of(int type) {
    static const int kChannels[] = {3, 3, 4, 16, 1, 1, 1};
    return type >= 0 && type <= 6 ? kChannels[type] : 0;
}

Eigen::Matrix4d rotation(const Eigen::Vector3d& axis, double degrees) {
    Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
    const double n = axis.norm();
    if (n == 0) return m;  // Imath's setAxisAngle of a zero axis is no rotation either
    m.topLeftCorner<3, 3>() = Eigen::AngleAxisd(degrees * kDegrees, axis / n).toRotationMatrix();
    return m;
}

// One op's matrix for column vectors (p' = M p). Alembic's matrices are Imath's, for row
// vectors: the stored 16 values are the transpose.
Eigen::Matrix4d op_matrix(int type, const double* c) {
    Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
    switch (type) {
        case 0: m.diagonal().head<3>() = Eigen::Vector3d(c[0], c[1], c[2]); break;
        case 1: m.topRightCorner<3, 1>() = Eigen::Vector3d(c[0], c[1], c[2]); break;
        case 2: m = rotation(Eigen::Vector3d(c[0], c[1], c[2]), c[3]); break;
        case 3:
            for (int r = 0; r < 4; ++r)
                for (int k = 0; k < 4; ++k) m(k, r) = c[4 * r + k];
            break;
        case 4: m = rotation(Eigen::Vector3d::UnitX(), c[0]); break;
        case 5: m = rotation(Eigen::Vector3d::UnitY(), c[0]); break;
        case 6: m = rotation(Eigen::Vector3d::UnitZ(), c[0]); break;
    }
    return m;
}

}  // namespace

std::uint32_t near_index(const TimeSampling& s, std::uint32_t count, double t) {
    if (count <= 1) return 0;
    // The times increase with the index (checked when the sampling was read): a binary search
    // for the last sample at or before t.
    std::uint32_t lo = 0, hi = count - 1;
    if (t <= s.time(0)) return 0;
    if (t >= s.time(hi)) return hi;
    while (hi - lo > 1) {
        const std::uint32_t mid = lo + (hi - lo) / 2;
        (s.time(mid) <= t ? lo : hi) = mid;
    }
    return std::fabs(t - s.time(lo)) <= std::fabs(s.time(hi) - t) ? lo : hi;
}

std::vector<double> XformTrack::times() const {
    std::vector<double> out;
    for (std::size_t i = 0; locals.size() > 1 && i < locals.size(); ++i) out.push_back(sampling->time(i));
    for (std::size_t i = 0; inherits.size() > 1 && i < inherits.size(); ++i) out.push_back(inherits_sampling->time(i));
    return out;
}

Eigen::Matrix4d XformTrack::local_at(double t) const {
    if (locals.empty()) return Eigen::Matrix4d::Identity();
    if (locals.size() == 1) return locals[0];  // static: no sampling needed (none when .vals is absent)
    return locals[near_index(*sampling, std::uint32_t(locals.size()), t)];
}

bool XformTrack::inherits_at(double t) const {
    if (inherits.empty()) return true;
    if (inherits.size() == 1) return inherits[0];
    return inherits[near_index(*inherits_sampling, std::uint32_t(inherits.size()), t)];
}

XformTrack read_xform(Archive& a, const Property& xform, const std::string& path) {
    XformTrack track;
    const std::string what = "Xform " + path;
    auto check_times = [&](const Property& p) {
        const TimeSampling& s = a.sampling_of(p);
        if (s.kind == TimeSampling::Acyclic && p.samples > s.times.size())
            a.file().fail(what + "'s " + p.name + " has " + std::to_string(p.samples) + " samples but its acyclic time sampling " +
                          std::to_string(s.times.size()) + " times");
        return &s;
    };
    if (const Property* inh = xform.child(".inherits")) {
        if (inh->type != Property::Scalar || inh->pod != kBool || inh->extent != 1) a.file().fail(what + "'s .inherits is not a boolean");
        track.inherits_sampling = check_times(*inh);
        for (std::uint32_t i = 0; i < inh->samples; ++i) {
            const std::vector<char> b = a.scalar_bytes(*inh, i, what + "'s .inherits");
            track.inherits.push_back(b[0] != 0);
        }
    }
    std::vector<int> ops;
    if (const Property* p = xform.child(".ops"); p && p->samples > 0) {
        if (p->type != Property::Scalar || p->pod != kU8) a.file().fail(what + "'s .ops is not a list of op bytes");
        // The op list is read once: Alembic writes it a single time even when the values change
        // every frame (Maya and Blender put it on the default time sampling).
        const std::vector<char> b = a.scalar_bytes(*p, 0, what + "'s .ops");
        for (char c : b) {
            const int type = static_cast<unsigned char>(c) >> 4;
            if (channels_of(type) == 0) a.file().fail(what + " has an op of unknown type " + std::to_string(type));
            ops.push_back(type);
        }
    }
    std::size_t channels = 0;
    for (int t : ops) channels += std::size_t(channels_of(t));
    const Property* vals = xform.child(".vals");
    if (!vals || vals->samples == 0) {
        if (channels > 0) a.file().fail(what + " has " + std::to_string(ops.size()) + " ops but no values (.vals)");
        track.locals.push_back(Eigen::Matrix4d::Identity());
        return track;
    }
    if (vals->pod != kF64) a.file().fail(what + "'s .vals are " + pod_name(vals->pod) + ", not float64");
    track.sampling = check_times(*vals);
    a.file().budget().charge(double(vals->samples) * sizeof(Eigen::Matrix4d), what + "'s matrices");
    track.locals.reserve(vals->samples);
    std::vector<double> c;
    for (std::uint32_t i = 0; i < vals->samples; ++i) {
        std::vector<char> b;
        if (vals->type == Property::Array) {
            std::uint64_t n = 0;
            b = a.array_bytes(*vals, i, what + "'s .vals", n);
        } else {
            b = a.scalar_bytes(*vals, i, what + "'s .vals");
        }
        if (b.size() != channels * 8)
            a.file().fail(what + "'s .vals at sample " + std::to_string(i) + " hold " + std::to_string(b.size() / 8) + " values, its " +
                          std::to_string(ops.size()) + " ops take " + std::to_string(channels));
        c.resize(channels);
        if (channels) std::memcpy(c.data(), b.data(), channels * 8);
        for (double v : c)
            if (!std::isfinite(v)) a.file().fail(what + "'s .vals at sample " + std::to_string(i) + " hold a value that is not a finite number");
        Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
        std::size_t at = 0;
        for (int t : ops) {
            m = m * op_matrix(t, c.data() + at);
            at += std::size_t(channels_of(t));
        }
        track.locals.push_back(m);
    }
    return track;
}

}  // namespace rigscope::abc
