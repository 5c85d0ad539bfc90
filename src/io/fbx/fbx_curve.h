// An FBX animation curve (AnimationCurve, or a 6.x take's inline channel converted to one): its
// keys on the KTime timeline and their constant, linear or cubic segments.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "io/fbx/fbx_records.h"

namespace rigscope::fbx {

constexpr std::int64_t kKTimePerSecond = 46186158000;

struct Curve {
    std::vector<std::int64_t> times;  // KTime, increasing
    std::vector<float> values;
    std::vector<std::uint8_t> interp;  // per key, for the segment after it: 0 constant, 1 linear, 2 cubic
    std::vector<float> right_slope, next_left_slope;  // per key, value per second
    // The value at KTime t: constant before the first key and after the last.
    double at(std::int64_t t) const;
};

// Reads an AnimationCurve record (KeyTime, KeyValueFloat, KeyAttrFlags / DataFloat / RefCount).
// Throws Malformed for lengths that disagree, times that decrease, or non-finite values.
Curve read_curve(const Record& rec, const std::string& name, std::uint64_t max_memory);

}  // namespace rigscope::fbx
