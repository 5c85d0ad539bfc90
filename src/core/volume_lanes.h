// The volume sums of core/volume.cpp in four lanes: quad t of a run goes to lane t % 4, and
// the lanes are added ((0 + 1) + (2 + 3)) at the end. The scalar loop here and the AVX2 kernel
// (volume_avx2.cpp, four doubles a register) do the same operations per lane in the same order,
// without contraction (CMakeLists.txt), so they give the same bits.
#pragma once

#include <cstddef>
#include <cstdint>

namespace rigscope::detail {

// Per lane: s = sum (p0 - o).n and a = sum n, in double. A quad (p0, p1, p2, p3) stands for the
// fan triangles (p0, p1, p2) and (p0, p2, p3), whose doubled area vectors add up to
// n = (p2 - p0) x (p3 - p1); a lone triangle is the quad (p0, p1, p2, p2).
struct VolumeLanes {
    double s[4] = {0, 0, 0, 0};
    double ax[4] = {0, 0, 0, 0}, ay[4] = {0, 0, 0, 0}, az[4] = {0, 0, 0, 0};
};

// Quad q (4 vertex ids) into lane `lane`: p is x, y, z per vertex (floats), o the origin.
inline void add_quad(const std::uint32_t* q, const float* p, const double* o, int lane, VolumeLanes& L) {
    const float* A = p + 3 * std::size_t(q[0]);
    const float* B = p + 3 * std::size_t(q[1]);
    const float* C = p + 3 * std::size_t(q[2]);
    const float* D = p + 3 * std::size_t(q[3]);
    const double x0 = double(A[0]) - o[0], y0 = double(A[1]) - o[1], z0 = double(A[2]) - o[2];
    const double ux = double(C[0]) - double(A[0]), uy = double(C[1]) - double(A[1]), uz = double(C[2]) - double(A[2]);
    const double vx = double(D[0]) - double(B[0]), vy = double(D[1]) - double(B[1]), vz = double(D[2]) - double(B[2]);
    const double nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    L.s[lane] += x0 * nx + y0 * ny + z0 * nz;
    L.ax[lane] += nx;
    L.ay[lane] += ny;
    L.az[lane] += nz;
}

inline void add_quads_scalar(const std::uint32_t* quads, std::size_t begin, std::size_t end, const float* p, const double* o, VolumeLanes& L) {
    for (std::size_t t = begin; t < end; ++t) add_quad(quads + 4 * t, p, o, static_cast<int>(t & 3), L);
}

inline double lane_total(const double* v) { return (v[0] + v[1]) + (v[2] + v[3]); }

// Quads [0, count) on AVX2 (volume_avx2.cpp): the same bits as add_quads_scalar. `highest`: a
// vertex id no quad exceeds (VolumeLayout::highest_vertex); below it a vertex's floats are read
// 16 bytes at a time, into the next vertex's.
void add_quads_avx2(const std::uint32_t* quads, std::size_t count, const float* p, std::uint32_t highest, const double* o, VolumeLanes& L);

}  // namespace rigscope::detail
