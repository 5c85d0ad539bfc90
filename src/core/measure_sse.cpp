// The area and principal measures four lanes per SSE register (built where RIGSCOPE_SSE_KERNELS
// is: every x86-64 build unless RIGSCOPE_SIMD=OFF). Each lane does the scalar path's operations
// in the same order (measure_scalar.cpp), so the same bits; measure_dispatch.cpp chooses.
#include "measure_kernels.h"

#if defined(RIGSCOPE_SSE_KERNELS)

#include "principal_lanes.h"

namespace rigscope::detail {
namespace {

constexpr std::size_t L = FanBatches::kLanes;
using detail::load_points;

inline __m128 select(__m128 mask, __m128 a, __m128 b) { return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b)); }

// The first corner group of batch b.
inline const std::uint32_t* groups_of(const FanBatches& fb, std::size_t b) { return &fb.corner[(fb.slot_start[b] + b) * L]; }

// Sum of |a x b| over a batch's slots, per lane.
template <bool Wide>
inline __m128 fan_area(const FanBatches& fb, const float* P, std::size_t b) {
    __m128 px, py, pz, qx, qy, qz;
    load_points<Wide>(P, &fb.self[b * L], px, py, pz);
    const std::uint32_t* g = groups_of(fb, b);
    load_points<Wide>(P, g, qx, qy, qz);
    __m128 ax = _mm_sub_ps(qx, px), ay = _mm_sub_ps(qy, py), az = _mm_sub_ps(qz, pz);
    __m128 sum = _mm_setzero_ps();
    for (std::uint32_t s = fb.slot_start[b]; s < fb.slot_start[b + 1]; ++s) {
        g += L;
        load_points<Wide>(P, g, qx, qy, qz);
        const __m128 bx = _mm_sub_ps(qx, px), by = _mm_sub_ps(qy, py), bz = _mm_sub_ps(qz, pz);
        const __m128 x = _mm_sub_ps(_mm_mul_ps(ay, bz), _mm_mul_ps(az, by));
        const __m128 y = _mm_sub_ps(_mm_mul_ps(az, bx), _mm_mul_ps(ax, bz));
        const __m128 z = _mm_sub_ps(_mm_mul_ps(ax, by), _mm_mul_ps(ay, bx));
        sum = _mm_add_ps(sum, _mm_sqrt_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(x, x), _mm_mul_ps(y, y)), _mm_mul_ps(z, z))));
        ax = bx;
        ay = by;
        az = bz;
    }
    return sum;
}

// Four lanes for principal_lanes.h.
struct V4 {
    __m128 v;
    static constexpr std::size_t N = 4;
    static V4 zero() { return {_mm_setzero_ps()}; }
    static V4 set1(float x) { return {_mm_set1_ps(x)}; }
    static V4 load(const float* p) { return {_mm_loadu_ps(p)}; }
    void store(float* p) const { _mm_storeu_ps(p, v); }
    template <bool Wide>
    static void points(const float* P, const std::uint32_t* i, V4& x, V4& y, V4& z) { load_points<Wide>(P, i, x.v, y.v, z.v); }
    template <bool Wide>
    static void run(const float* P, std::uint32_t v, V4& x, V4& y, V4& z) {
        const std::uint32_t i[4] = {v, v + 1, v + 2, v + 3};
        points<Wide>(P, i, x, y, z);
    }
    static void store3(float* p, V4 x, V4 y, V4 z) {
        alignas(16) float t[3][4];
        x.store(t[0]);
        y.store(t[1]);
        z.store(t[2]);
        for (std::size_t l = 0; l < 4; ++l)
            for (std::size_t c = 0; c < 3; ++c) p[3 * l + c] = t[c][l];
    }
};
inline V4 operator+(V4 a, V4 b) { return {_mm_add_ps(a.v, b.v)}; }
inline V4 operator-(V4 a, V4 b) { return {_mm_sub_ps(a.v, b.v)}; }
inline V4 operator*(V4 a, V4 b) { return {_mm_mul_ps(a.v, b.v)}; }
inline V4 operator/(V4 a, V4 b) { return {_mm_div_ps(a.v, b.v)}; }
inline V4 sqrt(V4 a) { return {_mm_sqrt_ps(a.v)}; }
inline V4 max(V4 a, V4 b) { return {_mm_max_ps(a.v, b.v)}; }
inline V4 abs(V4 a) { return {_mm_and_ps(a.v, _mm_castsi128_ps(_mm_set1_epi32(0x7FFFFFFF)))}; }
inline V4 gt(V4 a, V4 b) { return {_mm_cmpgt_ps(a.v, b.v)}; }
inline V4 ge(V4 a, V4 b) { return {_mm_cmpge_ps(a.v, b.v)}; }
inline V4 select(V4 m, V4 a, V4 b) { return {select(m.v, a.v, b.v)}; }
inline V4 keep(V4 m, V4 a) { return {_mm_and_ps(m.v, a.v)}; }
inline V4 eq(V4 a, V4 b) { return {_mm_cmpeq_ps(a.v, b.v)}; }
inline V4 both(V4 a, V4 b) { return {_mm_and_ps(a.v, b.v)}; }
inline int mask_bits(V4 m) { return _mm_movemask_ps(m.v); }
inline std::size_t popcount(V4 m) { return static_cast<std::size_t>(__builtin_popcount(static_cast<unsigned>(mask_bits(m)))); }

}  // namespace

// Four vertices per register, the scalar path's arithmetic lane by lane (the same operations in
// the same order, so the same bits; the slots that are not triangles add exact zeros).
std::size_t area_sse(const AreaKernel& kernel, const Eigen::Vector3f* positions, std::size_t begin, std::size_t end, float* t) {
    const FanBatches& fans = kernel.fans;
    const std::vector<float>& rest = kernel.rest;
    const float* P = positions->data();
    const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f);
    std::size_t degenerate = 0;
    for (std::size_t b = begin / L; b * L < end; ++b) {
        const __m128 sum = fans.reads_last[b] ? fan_area<false>(fans, P, b) : fan_area<true>(fans, P, b);
        alignas(16) float r_in[L] = {0, 0, 0, 0}, out[L];
        for (std::size_t l = 0; l < L && b * L + l < fans.welded; ++l) r_in[l] = rest[b * L + l];
        const __m128 r = _mm_load_ps(r_in), v = _mm_div_ps(r, sum);
        // r > 0, sum > 0 and v finite (v - v is 0 only for a finite v).
        const __m128 ok = _mm_and_ps(_mm_and_ps(_mm_cmpgt_ps(r, zero), _mm_cmpgt_ps(sum, zero)), _mm_cmpeq_ps(_mm_sub_ps(v, v), zero));
        _mm_store_ps(out, select(ok, v, one));
        const int mask = _mm_movemask_ps(ok);
        // Only this call's lanes: a batch split between two calls is computed by both, each
        // writing its own vertices.
        for (std::size_t l = 0; l < L; ++l) {
            const std::size_t w = b * L + l;
            if (w < begin || w >= end) continue;
            t[w] = out[l];
            degenerate += !(mask >> l & 1);
        }
    }
    return degenerate;
}

// Eight vertices per batch four lanes at a time, by the template measure_avx2.cpp runs eight.
PrincipalCounts principal_sse(const PrincipalLayout& k, std::size_t begin, std::size_t end, const PrincipalOut& out) {
    return principal_lanes<V4>(k, begin, end, out);
}

std::size_t map_t_sse(const PrincipalKernel& kernel, const float* lmax, const float* lmin, std::size_t begin, std::size_t end,
                      float* tc, float* ts) {
    const OneRing& ring = kernel.ring;
    const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f);
    std::size_t bad = 0;
    std::size_t w = begin;
    // t_of_lambda four at a time: v = 1 / lambda where lambda > 0 and v is finite, else 1.
    auto side = [&](const float* l, float* t) {
        const __m128 x = _mm_loadu_ps(l + w), v = _mm_div_ps(one, x);
        const __m128 ok = _mm_and_ps(_mm_cmpgt_ps(x, zero), _mm_cmpeq_ps(_mm_sub_ps(v, v), zero));
        _mm_storeu_ps(t + w, select(ok, v, one));
        return _mm_movemask_ps(ok);
    };
    for (; w + L <= end; w += L) {
        const int ok = side(lmin, tc) & side(lmax, ts);
        for (std::size_t l = 0; l < L; ++l)
            bad += !(ok >> l & 1) || ring.offsets[w + l] == ring.offsets[w + l + 1];
    }
    for (; w < end; ++w) {
        const bool ok_c = t_of_lambda(lmin[w], tc[w]);
        const bool ok_s = t_of_lambda(lmax[w], ts[w]);
        bad += !(ok_c && ok_s) || ring.offsets[w] == ring.offsets[w + 1];
    }
    return bad;
}

}  // namespace rigscope::detail

#endif
