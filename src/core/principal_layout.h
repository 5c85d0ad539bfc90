// The principal kernel's per-frame inputs as plain pointers, the interface between measure.cpp
// and measure_avx2.cpp. measure_avx2.cpp is compiled with -mavx2 and includes nothing with inline
// functions that other files also compile (Eigen, the standard containers): the linker keeps one
// copy of such a function, and an AVX copy must never be the one a machine without AVX runs.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rigscope::detail {

struct PrincipalLayout {
    static constexpr std::uint32_t kRun = 0x80000000u;  // FanBatches::kRun
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
};

// What the kernel counts: vertices without a triangle (PrincipalKernel::evaluate's return) and,
// when it maps too, what PrincipalKernel::map_t counts. No member initialisers: a trivial
// constructor is one function less that both files could emit.
struct PrincipalCounts {
    std::size_t degenerate, unmapped;
};

// Welded vertices [begin, end) eight lanes at a time (PrincipalKernel::evaluate_and_map's
// arguments; t_compress null: evaluate's); only on a CPU with AVX2 (cpu_has_avx2).
PrincipalCounts principal_avx2(const PrincipalLayout& k, std::size_t begin, std::size_t end, float* lambda_max,
                               float* lambda_min, float* dir, float* t_compress, float* t_stretch);

// Whether this build has the AVX2 kernel and the CPU runs it.
bool cpu_has_avx2();

}  // namespace rigscope::detail
