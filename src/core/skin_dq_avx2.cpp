// Dual-quaternion and blended skinning, eight vertices per AVX2 register (structure of arrays:
// one register per coordinate or dual-quaternion component). Each lane does what skin_dq.cpp's
// scalar loop does for its vertex, in the same order: morph deltas in target order, then per
// influence in file order the joint's dual quaternion (sign against the first influence's real
// part, dot summed (x z) + (y w) as Eigen's SSE reduction does), S and L gathered from
// DqFrame::table and blended, then R x + t of the blend (skin_dq.cpp's rigid_apply) and, for
// Blend, the mix with the linear position. A lane past its vertex's influences keeps its sums
// (blendv, not + 0, which could turn a -0 into +0), so a vertex's bits do not depend on its
// batch. A slot whose eight lanes read one joint (neighbouring vertices mostly do) broadcasts
// that row instead of transposing eight. CMakeLists.txt compiles this file alone with -mavx2 -mno-fma -ffp-contract=off, and
// skin_dq.cpp calls it only on a CPU with AVX2.
#include <immintrin.h>

#include "skin_dq_layout.h"

namespace rigscope::detail {
namespace {

constexpr std::size_t L = DqLayout::kLanes;

inline __m256 add(__m256 a, __m256 b) { return _mm256_add_ps(a, b); }
inline __m256 sub(__m256 a, __m256 b) { return _mm256_sub_ps(a, b); }
inline __m256 mul(__m256 a, __m256 b) { return _mm256_mul_ps(a, b); }

struct V3 {
    __m256 x, y, z;
};

// Eigen's cross product of 3-vectors, per lane.
inline V3 cross(const V3& a, const V3& b) {
    return {sub(mul(a.y, b.z), mul(a.z, b.y)), sub(mul(a.z, b.x), mul(a.x, b.z)), sub(mul(a.x, b.y), mul(a.y, b.x))};
}

// A blended 3x4 matrix (row-major, 12 registers) applied as skin_dq.cpp's apply does:
// ((c0 x + c1 y) + c2 z) + c3 per row.
inline V3 apply(const __m256* m, const V3& p) {
    auto row = [&](int r) { return add(add(add(mul(m[4 * r], p.x), mul(m[4 * r + 1], p.y)), mul(m[4 * r + 2], p.z)), m[4 * r + 3]); };
    return {row(0), row(1), row(2)};
}

// Eigen's SSE sum of a Vector4f's four terms: (t0 + t2) + (t1 + t3).
inline __m256 sum4(__m256 t0, __m256 t1, __m256 t2, __m256 t3) { return add(add(t0, t2), add(t1, t3)); }

// Floats [at, at + 8) of the eight lanes' joint rows (idx: each lane's row start), one register
// per float: eight loads and an 8x8 transpose, cheaper than eight gathers.
inline void rows8(const float* table, const std::int32_t* idx, std::size_t at, __m256* out) {
    __m256 t[8], u[8];
    for (int l = 0; l < 8; l += 2) {
        const __m256 a = _mm256_loadu_ps(table + idx[l] + at), b = _mm256_loadu_ps(table + idx[l + 1] + at);
        t[l] = _mm256_unpacklo_ps(a, b);
        t[l + 1] = _mm256_unpackhi_ps(a, b);
    }
    for (int h = 0; h < 8; h += 4) {
        u[h] = _mm256_shuffle_ps(t[h], t[h + 2], _MM_SHUFFLE(1, 0, 1, 0));
        u[h + 1] = _mm256_shuffle_ps(t[h], t[h + 2], _MM_SHUFFLE(3, 2, 3, 2));
        u[h + 2] = _mm256_shuffle_ps(t[h + 1], t[h + 3], _MM_SHUFFLE(1, 0, 1, 0));
        u[h + 3] = _mm256_shuffle_ps(t[h + 1], t[h + 3], _MM_SHUFFLE(3, 2, 3, 2));
    }
    for (int c = 0; c < 4; ++c) {
        out[c] = _mm256_permute2f128_ps(u[c], u[c + 4], 0x20);
        out[c + 4] = _mm256_permute2f128_ps(u[c], u[c + 4], 0x31);
    }
}

// The same floats when all eight lanes read one joint row (a batch of neighbouring vertices
// usually has the same joint in a slot): eight broadcasts instead of the loads and the transpose.
inline void fetch8(const float* table, const std::int32_t* idx, bool same, std::size_t at, __m256* out) {
    if (!same) return rows8(table, idx, at, out);
    const float* row = table + idx[0] + at;
    for (int c = 0; c < 8; ++c) out[c] = _mm256_broadcast_ss(row + c);
}

// Eight packed x y z points (24 floats) as three registers of x, y and z, and back.
inline V3 load_points(const float* p) {
    const __m256 m03 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(p)), _mm_loadu_ps(p + 12), 1);
    const __m256 m14 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(p + 4)), _mm_loadu_ps(p + 16), 1);
    const __m256 m25 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(p + 8)), _mm_loadu_ps(p + 20), 1);
    const __m256 xy = _mm256_shuffle_ps(m14, m25, _MM_SHUFFLE(2, 1, 3, 2));
    const __m256 yz = _mm256_shuffle_ps(m03, m14, _MM_SHUFFLE(1, 0, 2, 1));
    return {_mm256_shuffle_ps(m03, xy, _MM_SHUFFLE(2, 0, 3, 0)), _mm256_shuffle_ps(yz, xy, _MM_SHUFFLE(3, 1, 2, 0)),
            _mm256_shuffle_ps(yz, m25, _MM_SHUFFLE(3, 0, 3, 1))};
}

inline void store_points(const V3& v, float* p) {
    const __m256 xy = _mm256_shuffle_ps(v.x, v.y, _MM_SHUFFLE(2, 0, 2, 0));
    const __m256 yz = _mm256_shuffle_ps(v.y, v.z, _MM_SHUFFLE(3, 1, 3, 1));
    const __m256 zx = _mm256_shuffle_ps(v.z, v.x, _MM_SHUFFLE(3, 1, 2, 0));
    const __m256 r03 = _mm256_shuffle_ps(xy, zx, _MM_SHUFFLE(2, 0, 2, 0));
    const __m256 r14 = _mm256_shuffle_ps(yz, xy, _MM_SHUFFLE(3, 1, 2, 0));
    const __m256 r25 = _mm256_shuffle_ps(zx, yz, _MM_SHUFFLE(3, 1, 3, 1));
    _mm_storeu_ps(p, _mm256_castps256_ps128(r03));
    _mm_storeu_ps(p + 4, _mm256_castps256_ps128(r14));
    _mm_storeu_ps(p + 8, _mm256_castps256_ps128(r25));
    _mm_storeu_ps(p + 12, _mm256_extractf128_ps(r03, 1));
    _mm_storeu_ps(p + 16, _mm256_extractf128_ps(r14, 1));
    _mm_storeu_ps(p + 20, _mm256_extractf128_ps(r25, 1));
}

// acc = live ? acc + w q : acc, per register (live null: every lane).
template <int N>
inline void accumulate(__m256* acc, __m256 w, const __m256* q, const __m256* live) {
    for (int c = 0; c < N; ++c) {
        const __m256 s = add(acc[c], mul(w, q[c]));
        acc[c] = live ? _mm256_blendv_ps(acc[c], s, *live) : s;
    }
}

template <int N>
inline void first_term(__m256* acc, __m256 w, const __m256* q) {
    for (int c = 0; c < N; ++c) acc[c] = mul(w, q[c]);
}

// v0 .. v0 + n - 1 (n <= 8). `batch`: its index in k's regrouped lanes (v0 = 8 batch, n = 8), or
// kNoBatch to read the compressed rows.
constexpr std::size_t kNoBatch = ~std::size_t(0);

// Scaled and Blend are k.scaled and k.blend != nullptr as template arguments: the plain
// dual-quaternion path then holds no S or L sums, which keeps its registers from spilling.
template <bool Scaled, bool Blend>
void batch(const DqLayout& k, std::size_t v0, std::size_t n, std::size_t lane_batch, float* out) {
    // Vectors are loaded from memory the lanes were not stored to one by one where it can be
    // helped: a wide load of narrow stores stalls (store forwarding fails).
    alignas(32) float px[L], py[L], pz[L], bw[L];
    alignas(32) std::int32_t cnt[L], start[L], idx[L];
    const bool full = n == L;
    const bool lanes = lane_batch != kNoBatch;
    std::uint32_t kmax = 0, kmin = ~0u;
    if (lanes) {
        kmax = k.slot_start[lane_batch + 1] - k.slot_start[lane_batch];
        kmin = k.slot_min[lane_batch];
    } else {
        for (std::size_t l = 0; l < L; ++l) {
            const std::uint32_t c = l < n ? k.offsets[v0 + l + 1] - k.offsets[v0 + l] : 0;
            start[l] = static_cast<std::int32_t>(l < n ? k.offsets[v0 + l] : 0);
            cnt[l] = static_cast<std::int32_t>(c);
            kmax = c > kmax ? c : kmax;
            kmin = c < kmin ? c : kmin;
        }
    }
    // Eight vertices with the same count: lane l's influence i is entry f0 + l K + i.
    const bool uniform = !lanes && full && kmin == kmax;
    const std::uint32_t f0 = k.offsets[v0];
    V3 p;
    __m256i count, first;
    __m256 b = _mm256_setzero_ps();
    if (full) {
        // A whole batch: positions and morph deltas transposed in registers.
        p = load_points(k.base + 3 * v0);
        for (std::size_t m = 0; m < k.morphs; ++m) {
            const V3 d = load_points(k.morph_delta[m] + 3 * v0);
            const __m256 w = _mm256_set1_ps(k.morph_weight[m]);
            p = V3{add(p.x, mul(w, d.x)), add(p.y, mul(w, d.y)), add(p.z, mul(w, d.z))};
        }
        first = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(k.offsets + v0));
        count = _mm256_sub_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(k.offsets + v0 + 1)), first);
    } else {
        for (std::size_t l = 0; l < L; ++l) {
            float x = 0, y = 0, z = 0;
            if (l < n) {
                const std::size_t v = v0 + l;
                x = k.base[3 * v], y = k.base[3 * v + 1], z = k.base[3 * v + 2];
                for (std::size_t m = 0; m < k.morphs; ++m) {
                    const float w = k.morph_weight[m], *d = k.morph_delta[m] + 3 * v;
                    x += w * d[0], y += w * d[1], z += w * d[2];
                }
            }
            px[l] = x, py[l] = y, pz[l] = z;
        }
        p = V3{_mm256_load_ps(px), _mm256_load_ps(py), _mm256_load_ps(pz)};
        first = _mm256_load_si256(reinterpret_cast<const __m256i*>(start));
        count = _mm256_load_si256(reinterpret_cast<const __m256i*>(cnt));
    }
    if (Blend) {
        if (full && v0 + L <= k.blend_count) {
            b = _mm256_loadu_ps(k.blend + v0);
        } else {
            for (std::size_t l = 0; l < L; ++l) bw[l] = l < n && v0 + l < k.blend_count ? k.blend[v0 + l] : 0.0f;
            b = _mm256_load_ps(bw);
        }
    }
    V3 o = p;
    if (kmax > 0) {
        const __m256 sign = _mm256_set1_ps(-0.0f), zero = _mm256_setzero_ps();
        __m256 r0[4], r[4], d[4], q[16], s[12] = {}, lin[12] = {};
        for (std::uint32_t i = 0; i < kmax; ++i) {
            // A lane without influence i reads joint 0 (there is one) with weight 0 and keeps its sums.
            float wl[L];
            const std::int32_t* rows = idx;
            bool same = false;  // every lane reads one row (checked on the regrouped lanes only)
            __m256 w;
            if (lanes) {
                const std::size_t at = L * (k.slot_start[lane_batch] + i);
                rows = k.slot_row + at;
                w = _mm256_loadu_ps(k.slot_weight + at);
                const __m256i r8 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows));
                same = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(r8, _mm256_set1_epi32(rows[0])))) == 0xFF;
            } else if (uniform) {
                const std::uint16_t* j = k.joints + f0 + i;
                const float* wi = k.weights + f0 + i;
                for (std::size_t l = 0; l < L; ++l) {
                    idx[l] = static_cast<std::int32_t>(j[l * kmax] * DqLayout::kStride);
                    wl[l] = wi[l * kmax];
                }
            } else {
                for (std::size_t l = 0; l < L; ++l) {
                    const bool has = i < static_cast<std::uint32_t>(cnt[l]);
                    idx[l] = has ? static_cast<std::int32_t>(k.joints[start[l] + i] * DqLayout::kStride) : 0;
                    wl[l] = has ? k.weights[start[l] + i] : 0.0f;
                }
            }
            const __m256i slot = _mm256_set1_epi32(static_cast<int>(i));
            const __m256 live_mask = _mm256_castsi256_ps(_mm256_cmpgt_epi32(count, slot));
            // Built in registers from the eight loads (a gather is slower here, AMD Zen 4).
            if (!lanes) w = _mm256_setr_ps(wl[0], wl[1], wl[2], wl[3], wl[4], wl[5], wl[6], wl[7]);
            const __m256* live = i >= kmin ? &live_mask : nullptr;
            fetch8(k.table, rows, same, 0, q);
            if (i == 0) {
                for (int c = 0; c < 4; ++c) r0[c] = q[c];
                first_term<4>(r, w, q);
                first_term<4>(d, w, q + 4);
            } else {
                const __m256 dot = sum4(mul(r0[0], q[0]), mul(r0[1], q[1]), mul(r0[2], q[2]), mul(r0[3], q[3]));
                const __m256 sw = _mm256_xor_ps(w, _mm256_and_ps(_mm256_cmp_ps(dot, zero, _CMP_LT_OQ), sign));
                accumulate<4>(r, sw, q, live);
                accumulate<4>(d, sw, q + 4, live);
            }
            if (Scaled) {
                fetch8(k.table, rows, same, DqLayout::kScale, q);
                fetch8(k.table, rows, same, DqLayout::kScale + 8, q + 8);
                if (i == 0) first_term<12>(s, w, q);
                else accumulate<12>(s, w, q, live);
            }
            if (Blend) {
                fetch8(k.table, rows, same, DqLayout::kLinear, q);
                fetch8(k.table, rows, same, DqLayout::kLinear + 8, q + 8);
                if (i == 0) first_term<12>(lin, w, q);
                else accumulate<12>(lin, w, q, live);
            }
        }
        // R x + t of (r, d) / |r| (skin_dq.cpp's rigid_apply):
        // x + 2/|r|^2 (((w c + v x c) + w dv) - dw v) + v x dv), c = v x x.
        const V3 x = Scaled ? apply(s, p) : p;
        const __m256 kk = _mm256_div_ps(_mm256_set1_ps(2.0f), sum4(mul(r[0], r[0]), mul(r[1], r[1]), mul(r[2], r[2]), mul(r[3], r[3])));
        const V3 v{r[0], r[1], r[2]}, dv{d[0], d[1], d[2]};
        const V3 c = cross(v, x), e = cross(v, c), f = cross(v, dv);
        auto term = [&](__m256 C, __m256 E, __m256 DV, __m256 V, __m256 F) {
            return add(sub(add(add(mul(r[3], C), E), mul(r[3], DV)), mul(d[3], V)), F);
        };
        V3 dq{add(x.x, mul(kk, term(c.x, e.x, dv.x, v.x, f.x))), add(x.y, mul(kk, term(c.y, e.y, dv.y, v.y, f.y))),
              add(x.z, mul(kk, term(c.z, e.z, dv.z, v.z, f.z)))};
        if (Blend) {
            // b = 0 keeps the linear position exactly, b = 1 the dual-quaternion one.
            const V3 ln = apply(lin, p);
            const __m256 one = _mm256_set1_ps(1.0f), a = sub(one, b);
            const __m256 is0 = _mm256_cmp_ps(b, zero, _CMP_EQ_OQ), is1 = _mm256_cmp_ps(b, one, _CMP_EQ_OQ);
            auto mix = [&](__m256 l, __m256 q) {
                return _mm256_blendv_ps(_mm256_blendv_ps(add(mul(a, l), mul(b, q)), q, is1), l, is0);
            };
            dq = V3{mix(ln.x, dq.x), mix(ln.y, dq.y), mix(ln.z, dq.z)};
        }
        // A vertex without influences keeps its (morphed) position.
        const __m256 none = _mm256_castsi256_ps(_mm256_cmpeq_epi32(count, _mm256_setzero_si256()));
        o = V3{_mm256_blendv_ps(dq.x, p.x, none), _mm256_blendv_ps(dq.y, p.y, none), _mm256_blendv_ps(dq.z, p.z, none)};
    }
    if (n == L) {
        store_points(o, out + 3 * v0);
        return;
    }
    _mm256_store_ps(px, o.x);
    _mm256_store_ps(py, o.y);
    _mm256_store_ps(pz, o.z);
    for (std::size_t l = 0; l < n; ++l) {
        float* to = out + 3 * (v0 + l);
        to[0] = px[l], to[1] = py[l], to[2] = pz[l];
    }
}

template <bool Scaled, bool Blend>
void skin_range(const DqLayout& k, std::size_t begin, std::size_t end, float* out) {
    if (!k.slot_start) {
        for (std::size_t v = begin; v < end; v += L) batch<Scaled, Blend>(k, v, end - v < L ? end - v : L, kNoBatch, out);
        return;
    }
    // The regrouped batches start at multiples of 8: a range off them starts and ends with a
    // partial batch read from the compressed rows (the same bits: lanes are independent).
    std::size_t v = begin;
    const std::size_t head = (begin + L - 1) / L * L;
    if (v < head) {
        const std::size_t e = head < end ? head : end;
        batch<Scaled, Blend>(k, v, e - v, kNoBatch, out);
        v = e;
    }
    for (; v + L <= end; v += L) batch<Scaled, Blend>(k, v, L, v / L, out);
    if (v < end) batch<Scaled, Blend>(k, v, end - v, kNoBatch, out);
}

}  // namespace

void skin_dq_avx2(const DqLayout& k, std::size_t begin, std::size_t end, float* out) {
    const bool blend = k.blend != nullptr;
    if (k.scaled) blend ? skin_range<true, true>(k, begin, end, out) : skin_range<true, false>(k, begin, end, out);
    else blend ? skin_range<false, true>(k, begin, end, out) : skin_range<false, false>(k, begin, end, out);
}

}  // namespace rigscope::detail
