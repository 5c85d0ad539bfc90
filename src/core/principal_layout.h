// The principal kernel's per-frame inputs as plain pointers, the interface between measure_dispatch.cpp
// and measure_avx2.cpp. measure_avx2.cpp is compiled with -mavx2 and includes nothing with inline
// functions that other files also compile (Eigen, the standard containers): the linker keeps one
// copy of such a function, and an AVX copy must never be the one a machine without AVX runs.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rigscope::detail {

struct PrincipalLayout {
    static constexpr std::uint32_t kRun = 0x80000000u;  // FanBatches::kRun
    static constexpr std::uint32_t kNone = 0xFFFFFFFFu; // FanBatches::kNone
    static constexpr std::size_t kLanes = 8;             // vertices per batch (PrincipalKernel::kLanes)
    const float* P;                   // deformed file vertices, x y z each
    std::size_t welded;               // welded vertices
    const std::uint32_t* slot_start;  // FanBatches (packed groups, runs = true)
    const std::uint32_t* group_start;
    const std::uint32_t* corner;
    const std::uint8_t* reads_last;
    const std::uint8_t* full;
    const float* coef;                // PrincipalKernel::slot_coef
    const std::uint32_t* offsets;     // OneRing::offsets (a vertex without entries has no triangle)
    const std::uint32_t* sum_start;   // FanBatches' edge sums (empty vectors: null)
    const std::uint32_t* sum_slot;
    const std::uint8_t* sum_uniform;
    const float* degree;
};

// What one call writes for welded vertices [begin, end) (PrincipalKernel::evaluate_fused's
// arguments). t_compress null: no maps. t null: no edge T; else rest holds the mean rest edge
// lengths and scratch room for FanBatches::max_slots x kLanes floats.
struct PrincipalOut {
    float* lambda_max;
    float* lambda_min;
    float* dir;
    float* t_compress;
    float* t_stretch;
    const float* rest;
    float* t;
    float* scratch;
};

// What the kernel counts: vertices without a triangle (PrincipalKernel::evaluate's return) and,
// when it maps too, what PrincipalKernel::map_t counts. No member initialisers: a trivial
// constructor is one function less that both files could emit.
// With t, also the vertices whose edge T fell back to 1 (tension_block's count).
struct PrincipalCounts {
    std::size_t degenerate, unmapped, edge_degenerate;
};

// Welded vertices [begin, end) eight lanes at a time; only on a CPU with AVX2 (core/simd.h).
PrincipalCounts principal_avx2(const PrincipalLayout& k, std::size_t begin, std::size_t end, const PrincipalOut& out);

}  // namespace rigscope::detail
