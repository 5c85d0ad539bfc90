// Loads of four file vertices' positions into SSE registers (x, y, z lanes), shared by the
// per-frame kernels that run four welded vertices side by side (tension.cpp, measure_sse.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

// Whether the SSE kernels are built: on every x86-64 build unless CMake's RIGSCOPE_SIMD=OFF
// (RIGSCOPE_NO_SIMD), which runs the scalar loops as a build without SSE2 would.
#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
#define RIGSCOPE_SSE_KERNELS 1
#endif

#if defined(RIGSCOPE_SSE_KERNELS)
#include <emmintrin.h>

namespace rigscope::detail {

// Positions are read as 16 bytes from a 12-byte element (x, y, z and the next vertex's x), one
// load per vertex then a transpose. A layout that reads the mesh's last vertex has no 16 bytes
// after its x: it loads lane by lane instead (Wide = false). Either way the values are the same.
template <bool Wide>
inline void load_points(const float* P, const std::uint32_t* i, __m128& x, __m128& y, __m128& z) {
    if (Wide) {
        const __m128 r0 = _mm_loadu_ps(P + 3 * std::size_t(i[0]));
        const __m128 r1 = _mm_loadu_ps(P + 3 * std::size_t(i[1]));
        const __m128 r2 = _mm_loadu_ps(P + 3 * std::size_t(i[2]));
        const __m128 r3 = _mm_loadu_ps(P + 3 * std::size_t(i[3]));
        const __m128 t0 = _mm_unpacklo_ps(r0, r1);  // x0 x1 y0 y1
        const __m128 t1 = _mm_unpacklo_ps(r2, r3);  // x2 x3 y2 y3
        const __m128 t2 = _mm_unpackhi_ps(r0, r1);  // z0 z1 . .
        const __m128 t3 = _mm_unpackhi_ps(r2, r3);  // z2 z3 . .
        x = _mm_movelh_ps(t0, t1);
        y = _mm_movehl_ps(t1, t0);
        z = _mm_movelh_ps(t2, t3);
    } else {
        const float* a = P + 3 * std::size_t(i[0]);
        const float* b = P + 3 * std::size_t(i[1]);
        const float* c = P + 3 * std::size_t(i[2]);
        const float* d = P + 3 * std::size_t(i[3]);
        x = _mm_setr_ps(a[0], b[0], c[0], d[0]);
        y = _mm_setr_ps(a[1], b[1], c[1], d[1]);
        z = _mm_setr_ps(a[2], b[2], c[2], d[2]);
    }
}

}  // namespace rigscope::detail

#endif
