// FBX 6's curve keys (a Take's Key lists) read into the arrays of an FBX 7 AnimationCurve: the
// part of the 6.x upgrade (fbx_v6.cpp) whose layout changes with each key's mode.
#pragma once

#include <cstdint>
#include <vector>

#include "io/fbx/fbx_records.h"

namespace rigscope::fbx {

// An AnimationCurve's arrays as FBX 7 stores them (KeyTime, KeyValueFloat, KeyAttrFlags,
// KeyAttrDataFloat, KeyAttrRefCount) and the weights at the file's precision (fbx_curve.h's
// kExactWeightsRecord).
struct V6CurveArrays {
    std::vector<std::int64_t> times, flags, refs;
    std::vector<double> values, data, exact_weights;
};

// `key`, the Key list of `channel` (whose KeyVer says the layout), as FBX 7's arrays. Throws
// Malformed naming what is off.
V6CurveArrays read_v6_curve(const Record& channel, const Record& key);

}  // namespace rigscope::fbx
