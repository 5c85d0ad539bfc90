// Whether an array of floats holds only finite numbers: the check every reader makes on the
// positions and weights it loads, and the point caches on every sample a frame reads (a 262k-point
// sample is 786k floats a frame), so it is one loop, on AVX2 where the CPU has it.
#pragma once

#include <cstddef>

#include "rigscope/core/simd.h"

namespace rigscope {

// True when none of p[0 .. n) is NaN or infinite. avx2: the AVX2 loop (where avx2_supported()),
// else the portable one; the same answer (tests/core/test_finite_floats.cpp).
bool floats_finite(const float* p, std::size_t n, bool avx2 = avx2_default());

}  // namespace rigscope
