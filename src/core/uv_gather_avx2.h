// The AVX2 loop of bake's gather (uv_gather_avx2.cpp), for uv_raster.cpp only.
#pragma once

#include <cstddef>

#include "rigscope/core/uv_texel.h"

namespace rigscope::detail {

// Plan entries [first, last) of bake_uv_covered_interleaved (core/uv_raster.h): four layers of a
// texel in one 256-bit operation, each lane the SSE2 loop's double operations in its order (no
// FMA, no contraction): the same bits. Entries are prefetched kUvPrefetch ahead, within the range.
void bake_uv_covered_avx2(const UvTexel* first, const UvTexel* last, const float* values, std::size_t stride, float* const* out,
                          std::size_t layers, std::size_t first_texel);

// How far ahead the gathers prefetch plan entries (3.5 KB): the hardware's stream prefetcher
// stops at each 4 KiB page, which 28-byte entries cross every 146 texels.
constexpr std::size_t kUvPrefetch = 128;

}  // namespace rigscope::detail
