// The smoother's batches as plain pointers, the interface between smooth.cpp and smooth_avx2.cpp
// (compiled with -mavx2; principal_layout.h says why such a file includes no header with inline
// functions that other files compile too).
#pragma once

#include <cstddef>
#include <cstdint>

namespace rigscope::detail {

// Welded vertices in batches of kLanes consecutive ids (only whole batches: the tail is left to
// the scalar loop). A batch has as many slots as its largest neighbour count; slot s holds, per
// lane, that vertex's s-th neighbour in its list order (padding: vertex 0, masked to an exact 0).
// A slot is kLanes welded ids, or one word with kRun set: ids first, first + 1, ... (every lane
// live), loaded as one contiguous block.
struct SmoothLayout {
    static constexpr std::size_t kLanes = 8;
    static constexpr std::uint32_t kRun = 0x80000000u;
    const std::uint32_t* slot_start;   // per batch, plus one: slots (weight is per slot)
    const std::uint32_t* group_start;  // per batch, plus one: where its slots start in index
    const std::uint32_t* index;        // the slots, packed
    const float* weight;              // cotan: per slot, kLanes weights (padding 0); uniform: null
    const float* weight_sum;          // cotan: per vertex (Smoother::weight_sum)
    const std::uint32_t* offsets;     // Smoother::offsets: a lane's count, and which slots it fills
};

// Batches [b0, b1) of one Jacobi step of `fields` (1 or 2) interleaved values per vertex: the
// scalar step's IEEE operations per lane, in the same order (same bits); only on a CPU with AVX2.
void smooth_avx2(const SmoothLayout& k, const float* in, float* out, std::size_t fields, std::size_t b0, std::size_t b1);

}  // namespace rigscope::detail
