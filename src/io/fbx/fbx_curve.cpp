#include "io/fbx/fbx_curve.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "io/fbx/fbx_common.h"
#include "rigscope/core/error.h"

namespace rigscope::fbx {

const char* const kExactWeightsRecord = "rigscope:KeyWeights";

std::uint32_t pack_tangent_weights(double right, double next_left) {
    auto fixed = [](double w) { return std::uint32_t(std::lround(std::clamp(w, 0.0, 65535.0 / kTangentWeightDivider) * kTangentWeightDivider)); };
    return fixed(right) | (fixed(next_left) << 16);
}

namespace {

// A weighted tangent pair as the FBX SDK evaluates it: a cubic Bezier in (time, value) whose inner
// control points lie wr and wl of the segment along time from its ends, on the keys' slopes. x1
// and x2 are those points' times as shares of the segment; returns the curve's parameter where
// its time is u. The time polynomial increases wherever both weights lie in [0, 1]; Newton's
// steps, kept inside a bracket that bisection narrows, find the root for any weights.
double bezier_parameter(double x1, double x2, double u) {
    auto x = [&](double s) {
        const double r = 1 - s;
        return 3 * r * r * s * x1 + 3 * r * s * s * x2 + s * s * s;
    };
    double lo = 0, hi = 1, s = u;
    for (int i = 0; i < 64; ++i) {
        const double f = x(s) - u;
        if (std::fabs(f) <= 1e-15) break;
        (f < 0 ? lo : hi) = s;
        const double r = 1 - s;
        const double d = 3 * r * r * x1 + 6 * r * s * (x2 - x1) + 3 * s * s * (1 - x2);
        double next = d != 0 ? s - f / d : lo - 1;
        if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);  // a Newton step out of the bracket
        if (next == s) break;
        s = next;
    }
    return s;
}

}  // namespace

double Curve::at(std::int64_t t) const {
    if (times.empty()) return 0.0;
    if (t <= times.front()) return values.front();
    if (t >= times.back()) return values.back();
    const std::size_t k = std::size_t(std::upper_bound(times.begin(), times.end(), t) - times.begin()) - 1;
    const double t0 = double(times[k]), t1 = double(times[k + 1]);
    const double u = (double(t) - t0) / (t1 - t0);
    const double v0 = values[k], v1 = values[k + 1];
    switch (interp[k]) {
        case 0: return v0;
        case 3: return double(t) == t0 ? v0 : v1;
        case 1: return v0 + (v1 - v0) * u;
        default: {
            const double dt = (t1 - t0) / double(kKTimePerSecond);
            const double wr = right_weight[k], wl = next_left_weight[k];
            if (wr == kDefaultTangentWeight && wl == kDefaultTangentWeight) {
                // The cubic Hermite of the two slopes: the weighted Bezier at weights 1/3.
                const double u2 = u * u, u3 = u2 * u;
                return v0 * (2 * u3 - 3 * u2 + 1) + right_slope[k] * dt * (u3 - 2 * u2 + u) + v1 * (-2 * u3 + 3 * u2) +
                       next_left_slope[k] * dt * (u3 - u2);
            }
            const double s = bezier_parameter(wr, 1.0 - wl, u), r = 1 - s;
            const double y1 = v0 + wr * dt * right_slope[k], y2 = v1 - wl * dt * next_left_slope[k];
            return r * r * r * v0 + 3 * r * r * s * y1 + 3 * r * s * s * y2 + s * s * s * v1;
        }
    }
}

Curve read_curve(const Record& rec, const std::string& name, std::uint64_t max_memory, const CurveConventions& conventions) {
    Curve c;
    const std::string what = "animation curve '" + name + "'";
    const Record* kt = rec.child("KeyTime");
    const Record* kv = rec.child("KeyValueFloat");
    if (!kt || !kv || kt->props.empty() || kv->props.empty()) return c;
    const std::vector<double> values = as_doubles(kv->props[0], max_memory);
    if (kt->props[0].type != 'l') throw Malformed(what + ": KeyTime is not an array of 64-bit times");
    // Doubles hold KTime exactly up to 2^53 ticks (about 54 hours); later times are refused.
    const std::vector<double> times = as_doubles(kt->props[0], max_memory);
    for (double t : times) {
        if (!(std::fabs(t) < 9007199254740992.0)) throw Malformed(what + " has a key time past 2^53 ticks");
        c.times.push_back(static_cast<std::int64_t>(t));
    }
    if (c.times.size() != values.size())
        throw Malformed(what + " has " + std::to_string(c.times.size()) + " key times and " + std::to_string(values.size()) + " values");
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (!std::isfinite(values[i])) throw Malformed(what + " has a NaN or infinite key value");
        if (i && c.times[i] <= c.times[i - 1]) throw Malformed(what + " has key times that do not increase");
        c.values.push_back(static_cast<float>(values[i]));
    }
    const std::size_t n = c.times.size();
    c.interp.assign(n, 1);
    c.right_slope.assign(n, 0.0f);
    c.next_left_slope.assign(n, 0.0f);
    c.right_weight.assign(n, kDefaultTangentWeight);
    c.next_left_weight.assign(n, kDefaultTangentWeight);
    const Record* fl = rec.child("KeyAttrFlags");
    const Record* da = rec.child("KeyAttrDataFloat");
    const Record* rc = rec.child("KeyAttrRefCount");
    if (fl && rc && !fl->props.empty() && !rc->props.empty()) {
        const std::vector<double> flags = as_doubles(fl->props[0], max_memory);
        const std::vector<double> refs = as_doubles(rc->props[0], max_memory);
        std::vector<double> data;
        if (da && !da->props.empty()) data = as_doubles(da->props[0], max_memory);
        if (flags.size() != refs.size() || (!data.empty() && data.size() != 4 * flags.size()))
            throw Malformed(what + ": key attribute arrays disagree in length");
        // Weights at the file's own precision (FBX 6 keys, upgraded by fbx_v6.cpp): two per
        // attribute, used where the flags say a side is weighted.
        std::vector<double> exact;
        if (const Record* ew = rec.child(kExactWeightsRecord); ew && !ew->props.empty()) {
            exact = as_doubles(ew->props[0], max_memory);
            if (exact.size() != 2 * flags.size()) throw Malformed(what + ": key weight array disagrees in length");
        }
        // Attribute a applies to the next refs[a] keys (run-length).
        std::size_t key = 0;
        for (std::size_t a = 0; a < flags.size() && key < n; ++a) {
            // An ASCII file may hold any number here (fuzz finding: 1e33); flags are 32 bits.
            if (!(flags[a] >= -2147483648.0 && flags[a] <= 4294967295.0))
                throw Malformed(what + ": key attribute flags " + format_number(flags[a], 6) + " are not a 32-bit integer");
            const auto f = static_cast<std::uint32_t>(static_cast<std::int64_t>(flags[a]));
            const std::uint8_t mode = (f & kKeyConstant) ? ((f & kKeyConstantNext) ? 3 : 0) : (f & kKeyCubic) ? 2 : 1;
            // The third float holds the two weights' bits (pack_tangent_weights), not a number.
            // 3ds Max writes the weighted flags and 3332 (its 1/3) on automatic keys too, which
            // Max itself evaluates unweighted; Maya's and MotionBuilder's automatic keys keep
            // their weights (docs/fbx_notes.md, "Curves").
            double wr = kDefaultTangentWeight, wl = kDefaultTangentWeight;
            const bool automatic = (f & kKeyTangentAuto) && !(f & (kKeyTangentUser | kKeyTangentTcb));
            const bool weighted = mode == 2 && (f & (kKeyWeightedRight | kKeyWeightedNextLeft)) &&
                                  !(automatic && conventions.max_auto_unweighted);
            if (weighted && !exact.empty()) {
                if (f & kKeyWeightedRight) wr = exact[2 * a];
                if (f & kKeyWeightedNextLeft) wl = exact[2 * a + 1];
                if (!(std::isfinite(wr) && std::isfinite(wl))) throw Malformed(what + " has a NaN or infinite tangent weight");
            } else if (weighted && !data.empty()) {
                const float packed_float = static_cast<float>(data[4 * a + 2]);
                std::uint32_t packed;
                std::memcpy(&packed, &packed_float, 4);
                if (f & kKeyWeightedRight) wr = double(packed & 0xffff) / kTangentWeightDivider;
                if (f & kKeyWeightedNextLeft) wl = double(packed >> 16) / kTangentWeightDivider;
            }
            if (!(refs[a] >= 0)) throw Malformed(what + ": negative key attribute count");
            for (double r = 0; r < refs[a] && key < n; ++r, ++key) {
                c.interp[key] = mode;
                c.right_weight[key] = wr;
                c.next_left_weight[key] = wl;
                if (!data.empty()) {
                    c.right_slope[key] = static_cast<float>(data[4 * a]);
                    c.next_left_slope[key] = static_cast<float>(data[4 * a + 1]);
                    if (mode == 2 && !(std::isfinite(data[4 * a]) && std::isfinite(data[4 * a + 1])))
                        throw Malformed(what + " has a NaN or infinite tangent");
                }
            }
        }
    }
    return c;
}

}  // namespace rigscope::fbx
