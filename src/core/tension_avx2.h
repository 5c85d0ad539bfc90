// The AVX2 and AVX-512 loops of the edge T (tension_avx2.cpp, tension_avx512.cpp), for
// tension.cpp only, on layouts of EdgeBatches::kWideLanes (8) and kWidestLanes (16) lanes.
// Plain pointers, no library headers: an inline function that a file built with -mavx2 or
// -mavx512f emitted could be the copy the linker keeps for every caller, so those files use none.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rigscope::detail {

// An EdgeBatches's arrays (tension.h), lanes given by the function called.
struct EdgeBatchView {
    static constexpr std::uint32_t kRun = 0x80000000u;   // EdgeBatches::kRun
    static constexpr std::uint32_t kPair = 0x40000000u;  // EdgeBatches::kPair
    static constexpr std::uint32_t kFlags = kRun | kPair;
    const std::uint32_t* start;
    const std::uint32_t* index;
    const float* degree;
    const std::uint8_t* uniform_degree;
    const std::uint8_t* reads_last;
    std::size_t welded;
};

// tension.h's mean_edge_lengths and tension_block, P the positions as x, y, z per file vertex:
// the same bits as the SSE and scalar loops.
void mean_edge_lengths_avx2(const EdgeBatchView& eb, const float* P, std::size_t begin, std::size_t end, float* out);
std::size_t tension_block_avx2(const EdgeBatchView& eb, const float* P, const float* rest, std::size_t begin,
                               std::size_t end, float* lengths, float* t);
void mean_edge_lengths_avx512(const EdgeBatchView& eb, const float* P, std::size_t begin, std::size_t end, float* out);
std::size_t tension_block_avx512(const EdgeBatchView& eb, const float* P, const float* rest, std::size_t begin,
                                 std::size_t end, float* lengths, float* t);

}  // namespace rigscope::detail
