// Dual-quaternion skinning's per-frame inputs as plain pointers, the interface between
// skin_dq.cpp and skin_dq_avx2.cpp (compiled with -mavx2; principal_layout.h says why such a file
// includes no header with inline functions that other files also compile).
#pragma once

#include <cstddef>
#include <cstdint>

namespace rigscope::detail {

struct DqLayout {
    // Per joint, kStride floats: the unit dual quaternion (real x y z w, dual x y z w), then S
    // (the joint's scale and shear) and L (its linear matrix), each 3x4 row-major and padded to
    // 16 floats, so the kernel reads every part as rows of 8 (DqFrame::table).
    static constexpr std::size_t kStride = 40, kScale = 8, kLinear = 24, kLanes = 8;
    const float* table;
    const float* base;                // x y z per file vertex
    const float* const* morph_delta;  // per active morph target: x y z per file vertex
    const float* morph_weight;
    std::size_t morphs;
    const std::uint32_t* offsets;     // Influences (compressed rows)
    const std::uint16_t* joints;
    const float* weights;
    bool scaled;                      // blend S and apply it first (DqFrame::scale not empty)
    const float* blend;               // Blend: per file vertex b (null: DualQuaternion)
    std::size_t blend_count;          // vertices past it have b = 0
    // DqLanes (null: none): per batch of 8 vertices from vertex 0, its slots
    // [slot_start[b], slot_start[b + 1]) and its smallest count; per slot 8 row offsets into
    // table and 8 weights.
    const std::uint32_t* slot_start;
    const std::uint32_t* slot_min;
    const std::int32_t* slot_row;
    const float* slot_weight;
};

// Skins file vertices [begin, end) eight lanes at a time into out (x y z per vertex). Each lane
// does skin_dq.cpp's scalar float operations in the same order (same bits in a build whose Eigen
// uses SSE); only on a CPU with AVX2 (core/simd.h).
void skin_dq_avx2(const DqLayout& k, std::size_t begin, std::size_t end, float* out);

}  // namespace rigscope::detail
