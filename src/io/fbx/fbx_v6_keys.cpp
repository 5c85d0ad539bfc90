// FBX 6's curve keys (fbx_v6_keys.h), in steps: each key read by its mode, the automatic
// tangents' slopes once all keys are known (they depend on the neighbours), then the arrays
// packed as FBX 7 stores them.
//
// Key: time, value, mode[, mode's values]... (KeyVer 4003 to 4005 as the FBX SDK wrote it; ufbx
// reads the same layouts): L linear; C constant and, from 4004, one letter (s: this key's
// value, n: the next key's); U cubic, then a tangent mode:
//   s, b: two slopes (right, next left), user tangents;
//   a (baked animations), p, q (two values), t (three), d (one): automatic tangents, the
//     values not read (ufbx reads them as automatic too, the values' meaning being unknown);
// then, but for 4003's s/b, 4004's a and t, as many weight modes as the tangent mode has
// (p and q: one in 4004, two after): n or c none, a two weights (right, next left), r the
// right one, l the next left one.
#include "io/fbx/fbx_v6_keys.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "io/fbx/fbx_curve.h"

namespace rigscope::fbx {

namespace {

constexpr std::uint32_t kConstant = kKeyConstant, kLinear = kKeyLinear, kCubic = kKeyCubic;

char mode_of(const Prop& p) { return p.type == 'C' && p.bytes ? char(p.data[0]) : '\0'; }

// The Key list read front to back; need(n) refuses a list that ends inside a key.
struct KeyCursor {
    const std::vector<Prop>& k;
    const std::string& what;
    std::size_t i = 0;

    void need(std::size_t n) const {
        if (i + n > k.size()) throw Malformed(what + ": a Key list ends inside a key");
    }
};

// One key's tangents as read: FBX 7's flag, its user slopes, its weights, and whether its slopes
// are automatic (computed from the neighbours afterwards).
struct KeyTangents {
    double right = 0, next_left = 0, wr = kDefaultTangentWeight, wl = kDefaultTangentWeight;
    int flag = kLinear;
    bool is_auto = false;
};

// Every key read, one entry a key in each array.
struct V6Keys {
    std::vector<std::int64_t> times, flags, refs;
    std::vector<double> values, right_slope, next_left_slope, right_weight, next_left_weight;
    std::vector<char> automatic;

    void add(const KeyTangents& t) {
        flags.push_back(t.flag);
        refs.push_back(1);
        right_slope.push_back(t.right);
        next_left_slope.push_back(t.next_left);
        right_weight.push_back(t.wr);
        next_left_weight.push_back(t.wl);
        automatic.push_back(t.is_auto);
    }
};

// A cubic key's weight modes, `modes` of them, each with its values.
void read_weights(KeyCursor& c, std::size_t modes, KeyTangents& t) {
    const std::vector<Prop>& k = c.k;
    for (; modes > 0; --modes) {
        c.need(1);
        const char weight = mode_of(k[c.i++]);
        const std::size_t values_of = weight == 'a' ? 2 : (weight == 'l' || weight == 'r') ? 1 : 0;
        if (weight != 'a' && weight != 'l' && weight != 'r' && weight != 'n' && weight != 'c')
            throw Malformed(c.what + ": key weight mode '" + std::string(1, weight ? weight : '?') + "' is not read");
        c.need(values_of);
        for (std::size_t v = 0; v < values_of; ++v)
            if (k[c.i + v].is_string() || !std::isfinite(k[c.i + v].number)) throw Malformed(c.what + ": a key's tangent weight is no number");
        if (weight == 'a') t.wr = k[c.i].number, t.wl = k[c.i + 1].number;
        if (weight == 'r') t.wr = k[c.i].number;
        if (weight == 'l') t.wl = k[c.i].number;
        c.i += values_of;
    }
}

// A cubic key after its U: the tangent mode, its slopes (user tangents) or the values skipped
// (automatic ones), then its weight modes.
void read_cubic(KeyCursor& c, std::int64_t key_ver, KeyTangents& t) {
    const std::vector<Prop>& k = c.k;
    c.need(1);
    const char slope = mode_of(k[c.i++]);
    std::size_t weight_modes = 1, skip = 0;
    switch (slope) {
        case 's': case 'b': weight_modes = key_ver == 4003 ? 0 : 1; break;
        case 'a': t.is_auto = true; weight_modes = key_ver <= 4004 ? 0 : 1; break;
        case 'p': case 'q': t.is_auto = true; skip = 2; weight_modes = key_ver <= 4004 ? 1 : 2; break;
        case 't': t.is_auto = true; skip = 3; weight_modes = 0; break;
        case 'd': t.is_auto = true; skip = 1; weight_modes = 1; break;
        default: throw Malformed(c.what + ": cubic key tangent mode '" + std::string(1, slope ? slope : '?') + "' is not read");
    }
    if (!t.is_auto) {
        c.need(2);
        if (k[c.i].is_string() || k[c.i + 1].is_string()) throw Malformed(c.what + ": a key's slope is no number");
        t.right = k[c.i].number;
        t.next_left = k[c.i + 1].number;
        c.i += 2;
    }
    c.need(skip);
    c.i += skip;
    read_weights(c, weight_modes, t);
    if (!std::isfinite(t.right) || !std::isfinite(t.next_left)) throw Malformed(c.what + " has a NaN or infinite tangent");
    t.flag = kCubic | kKeyTangentUser | kKeyTangentBroken;
}

// What follows a key's mode letter: nothing for L, the constant's side for C, a cubic's tangents.
KeyTangents read_mode(KeyCursor& c, char mode, std::int64_t key_ver) {
    KeyTangents t;
    if (mode == 'L') return t;
    if (mode == 'C') {
        t.flag = kConstant;
        if (key_ver >= 4004) {
            c.need(1);
            if (mode_of(c.k[c.i++]) == 'n') t.flag |= kKeyConstantNext;
        }
        return t;
    }
    if (mode == 'U') {
        read_cubic(c, key_ver, t);
        return t;
    }
    throw Malformed(c.what + ": key mode '" + std::string(1, mode ? mode : '?') + "' is not read");
}

// Step 1: every key of the list, its time and value, then its mode's values.
V6Keys read_keys(const Record& channel, const Record& key, const std::string& what) {
    std::int64_t key_ver = 4005;
    if (const Record* kv = channel.child("KeyVer"); kv && !kv->props.empty()) key_ver = kv->props[0].integer;
    V6Keys keys;
    KeyCursor c{key.props, what};
    const std::vector<Prop>& k = key.props;
    while (c.i < k.size()) {
        c.need(3);
        const std::size_t i = c.i;
        if (k[i].is_string() || k[i + 1].is_string() || mode_of(k[i])) throw Malformed(what + ": a key's time or value is no number");
        if (k[i].type == 'D' && !(std::fabs(k[i].number) < 9007199254740992.0)) throw Malformed(what + ": a key time past 2^53 ticks");
        keys.times.push_back(k[i].type == 'D' ? std::int64_t(k[i].number) : k[i].integer);
        keys.values.push_back(k[i + 1].number);
        const char mode = mode_of(k[i + 2]);
        c.i += 3;
        keys.add(read_mode(c, mode, key_ver));
    }
    return keys;
}

// Step 2: the slopes of FBX 6's automatic tangents, as ufbx computes them (its tests match the
// DCCs' own exports): at an inner key the slope of the line through its neighbours, cut down so
// that neither tangent's handle passes the neighbouring key's value (no overshoot); flat at the
// first and last keys. Both sides of the key take it: its right slope, and the left slope of
// the segment that ends at it.
void automatic_slopes(V6Keys& keys) {
    const std::vector<std::int64_t>& times = keys.times;
    const std::vector<double>& values = keys.values;
    const double kt = double(kKTimePerSecond);
    for (std::size_t i = 0; i < times.size(); ++i) {
        if (!keys.automatic[i]) continue;
        double slope = 0;
        if (i > 0 && i + 1 < times.size()) {
            const double tp = double(times[i - 1]) / kt, t = double(times[i]) / kt, tn = double(times[i + 1]) / kt;
            const double vp = values[i - 1], v = values[i], vn = values[i + 1];
            slope = tn > tp ? (vn - vp) / (tn - tp) : 0.0;
            const double sign = slope >= 0 ? 1.0 : -1.0;
            const double left_range = keys.next_left_weight[i - 1] * (t - tp), right_range = keys.right_weight[i] * (tn - t);
            double max_left = left_range > 0 ? sign * (v - vp) / left_range : 0.0;
            double max_right = right_range > 0 ? sign * (vn - v) / right_range : 0.0;
            if (!(max_left > 0)) max_left = 0;
            if (!(max_right > 0)) max_right = 0;
            slope = sign * std::min({std::fabs(slope), max_left, max_right});
        }
        keys.right_slope[i] = slope;
        if (i > 0) keys.next_left_slope[i - 1] = slope;
    }
}

// Step 3: the keys as FBX 7's arrays. Weights other than a third travel as the FBX SDK packs
// them (fbx_curve.h), and at the file's own precision in kExactWeightsRecord, which the curve
// reader takes: the packing holds multiples of 1/9999 only (what the SDK writes), and would
// move any other weight, such as 0.6, by up to 5e-5.
V6CurveArrays curve_arrays(V6Keys&& keys) {
    V6CurveArrays a;
    for (std::size_t key = 0; key < keys.times.size(); ++key) {
        const double wr = keys.right_weight[key], wl = keys.next_left_weight[key];
        const bool weighted = std::fabs(wr - kDefaultTangentWeight) > 1e-6 || std::fabs(wl - kDefaultTangentWeight) > 1e-6;
        float packed_float = 0;
        if (weighted && (keys.flags[key] & kCubic)) {
            keys.flags[key] |= kKeyWeightedRight | kKeyWeightedNextLeft;
            const std::uint32_t packed = pack_tangent_weights(wr, wl);
            std::memcpy(&packed_float, &packed, 4);
        }
        a.data.insert(a.data.end(), {keys.right_slope[key], keys.next_left_slope[key], double(packed_float), 0.0});
        a.exact_weights.insert(a.exact_weights.end(), {wr, wl});
    }
    a.times = std::move(keys.times);
    a.values = std::move(keys.values);
    a.flags = std::move(keys.flags);
    a.refs = std::move(keys.refs);
    return a;
}

}  // namespace

V6CurveArrays read_v6_curve(const Record& channel, const Record& key) {
    V6Keys keys = read_keys(channel, key, "FBX 6 animation curve");
    automatic_slopes(keys);
    return curve_arrays(std::move(keys));
}

}  // namespace rigscope::fbx
