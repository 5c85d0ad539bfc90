// The AVX2 kernel of the edge T (tension_avx2.cpp), for tension.cpp only: layouts of
// EdgeBatches::kWideLanes lanes, eight welded vertices side by side.
#pragma once

#include <cstddef>

#include "rigscope/core/tension.h"

namespace rigscope::detail {

// tension.h's mean_edge_lengths and tension_block on a layout of 8 lanes, P the positions as
// x, y, z per file vertex: the same bits as the SSE and scalar loops.
void mean_edge_lengths_avx2(const EdgeBatches& eb, const float* P, std::size_t begin, std::size_t end, float* out);
std::size_t tension_block_avx2(const EdgeBatches& eb, const float* P, const float* rest, std::size_t begin,
                               std::size_t end, float* lengths, float* t);

}  // namespace rigscope::detail
