// The principal kernel's lane arithmetic, written once for a register of V::N floats: V4 (SSE,
// measure_sse.cpp) and V8 (AVX2, measure_avx2.cpp). Each lane does the same IEEE operations in the
// same order whatever the width (no FMA: both files are compiled with -ffp-contract=off), so
// both widths give the same bits. Internal linkage: each file compiles its own copy (see
// principal_layout.h for why an AVX copy must not be shared).
//
// V provides: N; zero(), set1(x), load(p), store(p), store3(p, x, y, z) (N points, interleaved);
// points<Wide>(P, idx, x, y, z) (the positions of N file vertices: simd_points.h) and
// run<Wide>(P, v, x, y, z) (those of v, v + 1, ...); + - * /; sqrt, max, abs, gt, ge (masks),
// eq, both (masks and masks), select(mask, a, b), keep(mask, a) (a where mask, else +0),
// mask_bits (a mask's sign bits, lane l in bit l) and popcount (a mask's set lanes).
#pragma once

#include <cstddef>
#include <cstdint>

#include "principal_layout.h"
#ifndef PREFETCH_DIST
#define PREFETCH_DIST 4096
#endif

namespace rigscope::detail {
namespace {

constexpr std::size_t kPrincipalCoef = 5;

// The weighted sums of N lanes of a batch: C (c00, c01, c11) and the mean F's columns (f0, f1);
// with the edge sums, e: the sum of the lane's edge lengths.
template <class V>
struct FanTensorOf {
    V c00, c01, c11, f0x, f0y, f0z, f1x, f1y, f1z, e;
};

// Lanes [o, o + N) of a group of PrincipalLayout::kLanes file vertices (packed: see FanBatches::runs); returns
// the next group.
template <class V, bool Wide>
inline const std::uint32_t* load_group(const PrincipalLayout& k, const std::uint32_t* g, std::size_t o, V& x, V& y, V& z) {
    if (g[0] & PrincipalLayout::kRun) {
        V::template run<Wide>(k.P, (g[0] & ~PrincipalLayout::kRun) + o, x, y, z);
        return g + 1;
    }
    V::template points<Wide>(k.P, g + o, x, y, z);
    return g + PrincipalLayout::kLanes;
}

// Lanes [o, o + N) of batch b's edge sums (FanBatches::sum_slot) from the lengths of its slots
// (lens: N per slot): per lane, the lengths of its neighbours added in its list's order from +0,
// as tension_block adds them (its padding adds +0, which changes no sum of lengths).
template <class V>
inline V edge_sum(const PrincipalLayout& k, std::size_t b, std::size_t o, const float* lens) {
    constexpr std::size_t N = V::N, L = PrincipalLayout::kLanes;
    const std::uint32_t* slot = k.sum_slot + k.sum_start[b];
    const std::uint32_t n = k.sum_start[b + 1] - k.sum_start[b];
    V sum = V::zero();
    if (k.sum_uniform[b]) {
        for (std::uint32_t j = 0; j < n; ++j) sum = sum + V::load(lens + std::size_t(slot[j]) * N);
        return sum;
    }
    float lane[N];
    for (std::size_t l = 0; l < N; ++l) {
        float s = 0.0f;
        for (std::size_t j = o + l; j < n; j += L) {
            if (slot[j] == PrincipalLayout::kNone) break;
            s += lens[std::size_t(slot[j]) * N + l];
        }
        lane[l] = s;
    }
    return V::load(lane);
}

// Lanes [o, o + N) of batch b; with Edges, also their edge sums (lens: room for the batch's
// slots' lengths).
template <class V, bool Wide, bool Edges>
inline FanTensorOf<V> fan_tensor_of(const PrincipalLayout& k, std::size_t b, std::size_t o, float* lens) {
    constexpr std::size_t L = PrincipalLayout::kLanes;
    V px, py, pz, qx, qy, qz;
    const std::uint32_t* g = load_group<V, Wide>(k, k.corner + k.group_start[b], o, px, py, pz);
    g = load_group<V, Wide>(k, g, o, qx, qy, qz);
    V ax = qx - px, ay = qy - py, az = qz - pz;
    const V zero = V::zero();
    FanTensorOf<V> r{zero, zero, zero, zero, zero, zero, zero, zero, zero, zero};
    float* len = lens;
    for (std::uint32_t s = k.slot_start[b]; s < k.slot_start[b + 1]; ++s) {
        g = load_group<V, Wide>(k, g, o, qx, qy, qz);
        const V bx = qx - px, by = qy - py, bz = qz - pz;
        if (Edges) {
            // The edge kernel's length: (dx dx + dy dy) + dz dz, then its square root.
            sqrt(bx * bx + by * by + bz * bz).store(len);
            len += V::N;
        }
        const float* c = k.coef + kPrincipalCoef * L * s + o;
        for (std::size_t ahead = 0; ahead < kPrincipalCoef * 8 * sizeof(float); ahead += 64)
            __builtin_prefetch(reinterpret_cast<const char*>(c) + PREFETCH_DIST + ahead);
        const V k0 = V::load(c), k1 = V::load(c + L), k2 = V::load(c + 2 * L), k3 = V::load(c + 3 * L);
        const V sw = V::load(c + 4 * L);
        // G = [a b] sqrt(w) K = sqrt(w) F: its columns u, v.
        const V ux = ax * k0 + bx * k2, uy = ay * k0 + by * k2, uz = az * k0 + bz * k2;
        const V vx = ax * k1 + bx * k3, vy = ay * k1 + by * k3, vz = az * k1 + bz * k3;
        r.c00 = r.c00 + (ux * ux + uy * uy + uz * uz);
        r.c01 = r.c01 + (ux * vx + uy * vy + uz * vz);
        r.c11 = r.c11 + (vx * vx + vy * vy + vz * vz);
        r.f0x = r.f0x + sw * ux;
        r.f0y = r.f0y + sw * uy;
        r.f0z = r.f0z + sw * uz;
        r.f1x = r.f1x + sw * vx;
        r.f1y = r.f1y + sw * vy;
        r.f1z = r.f1z + sw * vz;
        ax = bx;
        ay = by;
        az = bz;
    }
    if (Edges) r.e = edge_sum<V>(k, b, o, lens);
    return r;
}

// t = 1 / lambda where lambda > 0 and t is finite, else 1 (t_of_lambda, PrincipalKernel::map_t);
// ok: where it was usable.
template <class V>
inline V t_of(V lambda, V& ok) {
    const V zero = V::zero(), one = V::set1(1.0f), t = one / lambda;
    ok = both(gt(lambda, zero), eq(t - t, zero));
    return select(ok, t, one);
}

// PrincipalKernel::evaluate over batches of PrincipalLayout::kLanes vertices, N lanes at a time (the scalar path
// in measure_scalar.cpp is the same arithmetic per vertex); with out.t_compress, also map_t over the
// same vertices; with out.t, the edge measure's T (tension_block's arithmetic on the same sums).
// The tensors of a few batches are summed first, then their eigen decompositions run one after
// the other: those are long chains of square roots and divisions, which overlap when independent.
template <class V>
PrincipalCounts principal_lanes(const PrincipalLayout& k, std::size_t begin, std::size_t end, const PrincipalOut& out) {
    constexpr std::size_t N = V::N, kChunk = 16;
    constexpr std::size_t L = PrincipalLayout::kLanes;
    const V zero = V::zero(), one = V::set1(1.0f), half = V::set1(0.5f);
    const bool maps = out.t_compress != nullptr, edges = out.t != nullptr;
    PrincipalCounts count{0, 0, 0};
    FanTensorOf<V> tensor[kChunk];
    std::size_t first[kChunk];  // each tensor's first vertex
    std::size_t w0 = begin / L * L;
    while (w0 < end) {
        std::size_t n = 0;
        for (; n < kChunk && w0 < end; w0 += N) {
            if (w0 + N <= begin) continue;  // lanes of another call
            const std::size_t b = w0 / L, o = w0 - b * L;
            if (edges)
                tensor[n] = k.reads_last[b] ? fan_tensor_of<V, false, true>(k, b, o, out.scratch)
                                            : fan_tensor_of<V, true, true>(k, b, o, out.scratch);
            else
                tensor[n] = k.reads_last[b] ? fan_tensor_of<V, false, false>(k, b, o, nullptr)
                                            : fan_tensor_of<V, true, false>(k, b, o, nullptr);
            first[n++] = w0;
        }
        for (std::size_t i = 0; i < n; ++i) {
            const FanTensorOf<V>& f = tensor[i];
            const V m = half * (f.c00 + f.c11), h = half * (f.c00 - f.c11);
            const V s = sqrt(h * h + f.c01 * f.c01);
            const V lmax = sqrt(max(m + s, zero));
            const V lmin = sqrt(max(m - s, zero));
            // Eigenvector of the smaller eigenvalue m - s, from whichever row of C - (m - s) I keeps
            // more digits, scaled to order 1 (near isotropy both components are rounding noise,
            // whose squares would lose their digits as subnormals); (1, 0) where C is isotropic.
            const V hpos = ge(h, zero);
            V x = select(hpos, f.c01, h - s);
            V y = select(hpos, (zero - h) - s, f.c01);
            const V big = max(abs(x), abs(y));
            const V some = gt(big, zero);
            x = select(some, x / big, one);
            y = select(some, y / big, zero);
            const V dx = f.f0x * x + f.f1x * y, dy = f.f0y * x + f.f1y * y, dz = f.f0z * x + f.f1z * y;
            const V len = sqrt(dx * dx + dy * dy + dz * dz);
            const V inv = keep(gt(len, zero), one / len);
            V ok_c = zero, ok_s = zero, tc = zero, ts = zero;
            if (maps) {
                tc = t_of(lmin, ok_c);
                ts = t_of(lmax, ok_s);
            }
            const std::size_t v0 = first[i];
            // The mean deformed edge length (tension_block's d).
            const V d = edges ? f.e / V::load(k.degree + v0) : zero;
            if (k.full[v0 / L] && v0 >= begin && v0 + N <= end) {  // every lane written as computed
                lmax.store(out.lambda_max + v0);
                lmin.store(out.lambda_min + v0);
                V::store3(out.dir + 3 * v0, dx * inv, dy * inv, dz * inv);
                if (maps) {
                    tc.store(out.t_compress + v0);
                    ts.store(out.t_stretch + v0);
                    count.unmapped += N - popcount(both(ok_c, ok_s));
                }
                if (edges) {
                    // T = r / d where r > 0, d > 0 and T is finite, else 1 (tension_block).
                    const V r = V::load(out.rest + v0), v = r / d;
                    const V ok = both(both(gt(r, zero), gt(d, zero)), eq(v - v, zero));
                    select(ok, v, one).store(out.t + v0);
                    count.edge_degenerate += N - popcount(ok);
                }
                continue;
            }
            float part[8][N];
            int ok = 0;
            lmax.store(part[0]);
            lmin.store(part[1]);
            (dx * inv).store(part[2]);
            (dy * inv).store(part[3]);
            (dz * inv).store(part[4]);
            if (maps) {
                tc.store(part[5]);
                ts.store(part[6]);
                ok = mask_bits(both(ok_c, ok_s));
            }
            d.store(part[7]);
            // Only this call's lanes: a batch split between two calls is computed by both, each
            // writing its own vertices.
            for (std::size_t l = 0; l < N; ++l) {
                const std::size_t w = v0 + l;
                if (w < begin || w >= end) continue;
                if (edges) {
                    const float r = out.rest[w], dl = part[7][l], v = r / dl;
                    const bool usable = r > 0 && dl > 0 && v - v == 0.0f;
                    out.t[w] = usable ? v : 1.0f;
                    count.edge_degenerate += !usable;
                }
                float* dw = out.dir + 3 * w;
                if (k.offsets[w] == k.offsets[w + 1]) {
                    // No triangle: lambdas of exactly 1 and no direction (map_t's T is 1).
                    out.lambda_max[w] = out.lambda_min[w] = 1.0f;
                    dw[0] = dw[1] = dw[2] = 0.0f;
                    ++count.degenerate;
                    if (maps) {
                        out.t_compress[w] = out.t_stretch[w] = 1.0f;
                        ++count.unmapped;
                    }
                    continue;
                }
                out.lambda_max[w] = part[0][l];
                out.lambda_min[w] = part[1][l];
                dw[0] = part[2][l];
                dw[1] = part[3][l];
                dw[2] = part[4][l];
                if (maps) {
                    out.t_compress[w] = part[5][l];
                    out.t_stretch[w] = part[6][l];
                    count.unmapped += !(ok >> l & 1);
                }
            }
        }
    }
    return count;
}

}  // namespace
}  // namespace rigscope::detail
