// Numeric crate values (scalars, tuples, matrices, quaternions and their arrays, plain or
// compressed) into the layer model's Value, kept in the narrowest type that holds them exactly
// (usd_numbers.h). Private to the crate reader: crate_values.cpp calls these for every numeric type.
#pragma once

#include <cstdint>

#include "io/usd/crate_format.h"
#include "io/usd/usd_layer.h"

namespace rigscope::usd::crate {

// A numeric scalar or tuple: inlined in the rep (small values as int8s, a float as its bits) or
// stored at the rep's offset.
Value numeric_scalar(CrateBytes& c, const Rep& r, const Shape& s);
// A numeric array: raw, or compressed (integers by the integer coding, floats as integers or as a
// lookup table), each element count charged before it is read.
Value numeric_array(CrateBytes& c, const Rep& r, const Shape& s);
// `count` numbers of `s` from raw bytes in the type the layer model keeps them in, in room from c.
Numbers stored_from(CrateBytes& c, const char* p, std::uint64_t count, const Shape& s, bool quaternions);

}  // namespace rigscope::usd::crate
