// An FBX animation curve (AnimationCurve, or a 6.x take's inline channel converted to one): its
// keys on the KTime timeline and their constant, linear or cubic segments.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "io/fbx/fbx_records.h"

namespace rigscope::fbx {

constexpr std::int64_t kKTimePerSecond = 46186158000;

// KeyAttrFlags bits (the FBX SDK's FbxAnimCurveDef) that the reader acts on.
constexpr std::uint32_t kKeyConstant = 0x02, kKeyLinear = 0x04, kKeyCubic = 0x08;
constexpr std::uint32_t kKeyConstantNext = 0x100;   // with kKeyConstant: hold the next key's value
constexpr std::uint32_t kKeyTangentAuto = 0x100;    // with kKeyCubic: automatic tangents
constexpr std::uint32_t kKeyTangentTcb = 0x200, kKeyTangentUser = 0x400, kKeyTangentBroken = 0x800;
constexpr std::uint32_t kKeyWeightedRight = 0x1000000, kKeyWeightedNextLeft = 0x2000000;
// The tangent weight of a side that is not weighted: a third of the segment, where a weighted
// Bezier is the plain cubic Hermite of the two slopes.
constexpr double kDefaultTangentWeight = 1.0 / 3.0;
// KeyAttrDataFloat's third float holds the bits of two 16-bit integers, each weight times 9999
// (the FBX SDK's weight divider: 1/3 is 3333 exactly), the right weight in the low half. 9999,
// not 10000: the SDK's own ASCII comments print 7229 as 0.722972 and 3332 as 0.333233, the FBX 6
// twin of a 7.x file stores 3332 as 0.333233326673508, and MotionBuilder's own curve values
// (ufbx's test tables) are met to 1e-5 with 9999 and missed by 1e-3 with 10000.
constexpr double kTangentWeightDivider = 9999.0;
std::uint32_t pack_tangent_weights(double right, double next_left);

// Which writer's tangent conventions the curves follow (see read_curve).
struct CurveConventions {
    // 3ds Max wrote the keys: its automatic tangents have no weights, whatever the flags say.
    bool max_auto_unweighted = false;
};

struct Curve {
    std::vector<std::int64_t> times;  // KTime, increasing
    std::vector<float> values;
    std::vector<std::uint8_t> interp;  // per key, for the segment after it: 0 constant, 1 linear, 2 cubic, 3 constant (next key's value)
    std::vector<float> right_slope, next_left_slope;  // per key, value per second
    // Per key, the tangents' lengths along time as a share of the segment after the key (FBX's
    // tangent weights), at the precision the file stores them: 1/3 each unless the key's
    // tangents count as weighted (read_curve).
    std::vector<double> right_weight, next_left_weight;
    // The value at KTime t: constant before the first key and after the last.
    double at(std::int64_t t) const;
};

// The child of an AnimationCurve record that the FBX 6 upgrade (fbx_v6.cpp) writes with each
// key's two weights as doubles, so that its weights keep the file's precision instead of the
// 16 bits of KeyAttrDataFloat. No FBX writer writes a record of this name.
extern const char* const kExactWeightsRecord;

// Reads an AnimationCurve record (KeyTime, KeyValueFloat, KeyAttrFlags / DataFloat / RefCount).
// A cubic key's tangents are weighted when its flags say so (WeightedRight, WeightedNextLeft),
// except an automatic-tangent key (TangentAuto, neither User nor TCB) of a file 3ds Max wrote
// (conventions.max_auto_unweighted): Max's own evaluation of those keys is the unweighted
// Hermite (docs/fbx_notes.md, "Curves"). Throws Malformed for lengths that disagree, times
// that decrease, or non-finite values.
Curve read_curve(const Record& rec, const std::string& name, std::uint64_t max_memory, const CurveConventions& conventions = {});

}  // namespace rigscope::fbx
