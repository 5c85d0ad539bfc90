// floats_finite's AVX2 loop (finite_floats_avx2.cpp, compiled with -mavx2): called only where
// avx2_supported().
#pragma once

#include <cstddef>

namespace rigscope::detail {

bool floats_finite_avx2(const float* p, std::size_t n);

}  // namespace rigscope::detail
