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
constexpr std::uint32_t kKeyTangentUser = 0x400, kKeyTangentBroken = 0x800;
constexpr std::uint32_t kKeyWeightedRight = 0x1000000, kKeyWeightedNextLeft = 0x2000000;
// The default tangent weight: a third of the segment, where a weighted Bezier is the plain cubic
// Hermite of the two slopes.
constexpr float kDefaultTangentWeight = 1.0f / 3.0f;

// The two tangent weights packed as KeyAttrDataFloat's third float holds them: each a 16-bit
// fixed-point number of ten-thousandths, the right weight in the low half.
std::uint32_t pack_tangent_weights(double right, double next_left);

struct Curve {
    std::vector<std::int64_t> times;  // KTime, increasing
    std::vector<float> values;
    std::vector<std::uint8_t> interp;  // per key, for the segment after it: 0 constant, 1 linear, 2 cubic, 3 constant (next key's value)
    std::vector<float> right_slope, next_left_slope;  // per key, value per second
    // Per key, the tangents' lengths along time as a share of the segment after the key (FBX's
    // tangent weights): 1/3 each unless the key says otherwise (weighted tangents).
    std::vector<float> right_weight, next_left_weight;
    // The value at KTime t: constant before the first key and after the last.
    double at(std::int64_t t) const;
};

// Reads an AnimationCurve record (KeyTime, KeyValueFloat, KeyAttrFlags / DataFloat / RefCount).
// Throws Malformed for lengths that disagree, times that decrease, or non-finite values.
Curve read_curve(const Record& rec, const std::string& name, std::uint64_t max_memory);

}  // namespace rigscope::fbx
