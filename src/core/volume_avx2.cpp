// The AVX2 kernel of the volume sums (volume_lanes.h): four quads a step, one a lane, in
// double, with the scalar loop's operations in its order (no FMA, no contraction), so the same
// bits as add_quads_scalar.
#include <immintrin.h>

#include "volume_lanes.h"

namespace rigscope::detail {

namespace {

// Vertex v as (x, y, z, w): below `highest`, one 16-byte load whose w is the next vertex's x,
// which the transpose below drops; `highest` itself (the last vertex a quad reads, perhaps the
// array's last) by two loads and a shuffle, nothing read past its three floats. The loads and
// shuffles of the points were the loop's busiest port: this takes a third of its shuffles.
inline __m128 point(const float* p, std::uint32_t v, std::uint32_t highest) {
    const float* q = p + 3 * std::size_t(v);
    if (v < highest) return _mm_loadu_ps(q);
    // x and y as one unaligned 64-bit load (movq): a float's address is not a double's.
    return _mm_movelh_ps(_mm_castsi128_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(q))), _mm_load_ss(q + 2));
}

// Corner k of quads t .. t + 3 as x, y and z of four lanes, in double.
inline void corners(const std::uint32_t* q, const float* p, std::uint32_t highest, std::size_t t, int k, __m256d& x, __m256d& y,
                    __m256d& z) {
    __m128 r0 = point(p, q[4 * t + k], highest), r1 = point(p, q[4 * (t + 1) + k], highest), r2 = point(p, q[4 * (t + 2) + k], highest),
           r3 = point(p, q[4 * (t + 3) + k], highest);
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    x = _mm256_cvtps_pd(r0);
    y = _mm256_cvtps_pd(r1);
    z = _mm256_cvtps_pd(r2);
}

}  // namespace

void add_quads_avx2(const std::uint32_t* tri, std::size_t count, const float* p, std::uint32_t highest, const double* o, VolumeLanes& L) {
    __m256d s = _mm256_loadu_pd(L.s), ax = _mm256_loadu_pd(L.ax), ay = _mm256_loadu_pd(L.ay), az = _mm256_loadu_pd(L.az);
    const __m256d ox = _mm256_set1_pd(o[0]), oy = _mm256_set1_pd(o[1]), oz = _mm256_set1_pd(o[2]);
    std::size_t t = 0;
    for (; t + 4 <= count; t += 4) {
        __m256d Ax, Ay, Az, Bx, By, Bz, Cx, Cy, Cz, Dx, Dy, Dz;
        corners(tri, p, highest, t, 0, Ax, Ay, Az);
        corners(tri, p, highest, t, 1, Bx, By, Bz);
        corners(tri, p, highest, t, 2, Cx, Cy, Cz);
        corners(tri, p, highest, t, 3, Dx, Dy, Dz);
        const __m256d ux = _mm256_sub_pd(Cx, Ax), uy = _mm256_sub_pd(Cy, Ay), uz = _mm256_sub_pd(Cz, Az);
        const __m256d vx = _mm256_sub_pd(Dx, Bx), vy = _mm256_sub_pd(Dy, By), vz = _mm256_sub_pd(Dz, Bz);
        const __m256d nx = _mm256_sub_pd(_mm256_mul_pd(uy, vz), _mm256_mul_pd(uz, vy));
        const __m256d ny = _mm256_sub_pd(_mm256_mul_pd(uz, vx), _mm256_mul_pd(ux, vz));
        const __m256d nz = _mm256_sub_pd(_mm256_mul_pd(ux, vy), _mm256_mul_pd(uy, vx));
        const __m256d x0 = _mm256_sub_pd(Ax, ox), y0 = _mm256_sub_pd(Ay, oy), z0 = _mm256_sub_pd(Az, oz);
        // ((x0 nx + y0 ny) + z0 nz), as the scalar expression associates.
        const __m256d dot = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(x0, nx), _mm256_mul_pd(y0, ny)), _mm256_mul_pd(z0, nz));
        s = _mm256_add_pd(s, dot);
        ax = _mm256_add_pd(ax, nx);
        ay = _mm256_add_pd(ay, ny);
        az = _mm256_add_pd(az, nz);
    }
    _mm256_storeu_pd(L.s, s);
    _mm256_storeu_pd(L.ax, ax);
    _mm256_storeu_pd(L.ay, ay);
    _mm256_storeu_pd(L.az, az);
    add_quads_scalar(tri, t, count, p, o, L);
}

}  // namespace rigscope::detail
