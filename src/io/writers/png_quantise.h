// The PNG writer's quantisation (png_writer.cpp) and its AVX2 loop (png_quantise_avx2.cpp), here
// for the two and their tests. Plain pointers, no library headers: an inline function that a file
// built with -mavx2 emitted could be the copy the linker keeps for every caller, so that file
// includes none.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rigscope::detail {

// round(clamp(v, 0, 1) x 65535) of n values as big-endian 16-bit samples, halves away from zero
// (NaN: 0); returns how many were outside 0..1. With `avx2` and a CPU that has it, the AVX2 loop,
// else the SSE2 one (scalar where neither is built): the same double operations, the same bytes.
std::size_t quantise_png16(const float* in, std::size_t n, std::uint8_t* out, bool avx2);

// The AVX2 loop over the first 8 x `groups` values, eight a step (quantise_png16 does the rest);
// returns how many of them were outside 0..1. Only called after avx2_supported().
std::size_t quantise_png16_avx2(const float* in, std::size_t groups, std::uint8_t* out);

}  // namespace rigscope::detail
