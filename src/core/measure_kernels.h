// The SSE kernels of the area and principal measures (measure_sse.cpp), which
// measure_dispatch.cpp chooses between them, the AVX2 kernel (principal_layout.h) and the scalar
// loops (measure_scalar.cpp).
#pragma once

#include <cstddef>

#include "principal_layout.h"
#include "rigscope/core/measure.h"
#include "simd_points.h"

#if defined(RIGSCOPE_SSE_KERNELS)

namespace rigscope::detail {

// AreaKernel::evaluate four welded vertices per register.
std::size_t area_sse(const AreaKernel& kernel, const Eigen::Vector3f* positions, std::size_t begin, std::size_t end, float* t);

// Welded vertices [begin, end) of the principal kernel's layout, four lanes at a time.
PrincipalCounts principal_sse(const PrincipalLayout& k, std::size_t begin, std::size_t end, const PrincipalOut& out);

// PrincipalKernel::map_t four vertices at a time.
std::size_t map_t_sse(const PrincipalKernel& kernel, const float* lambda_max, const float* lambda_min, std::size_t begin,
                      std::size_t end, float* t_compress, float* t_stretch);

}  // namespace rigscope::detail

#endif
