#include "rigscope/core/measure.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "principal_lanes.h"
#include "rigscope/core/error.h"
#include "simd_points.h"

namespace rigscope {

std::vector<std::uint32_t> welded_triangles(const Mesh& mesh, const Topology& topo) {
    std::vector<std::uint32_t> tris;
    tris.reserve(mesh.face_indices.size());
    for (std::size_t f = 0; f + 1 < mesh.face_offsets.size(); ++f) {
        const std::uint32_t b = mesh.face_offsets[f], e = mesh.face_offsets[f + 1];
        if (e < b + 3) continue;
        const std::uint32_t a = topo.welded_of[mesh.face_indices[b]];
        for (std::uint32_t k = b + 1; k + 1 < e; ++k) {
            const std::uint32_t p = topo.welded_of[mesh.face_indices[k]], q = topo.welded_of[mesh.face_indices[k + 1]];
            if (a == p || p == q || a == q) continue;
            tris.insert(tris.end(), {a, p, q});
        }
    }
    return tris;
}

namespace {

// Reorders each vertex's entries into chains where an entry's second corner is the next entry's
// first (around an inner vertex of a consistently wound mesh: one closed fan). Chains that start
// at an open end (a border, or a corner no entry leads to) come first, then the closed ones, each
// from its first entry in the previous order, so the result depends only on the mesh.
void order_fans(OneRing& r) {
    std::vector<std::uint32_t> by_first, order;
    std::vector<std::uint8_t> used;
    std::vector<std::uint32_t> corners;
    for (std::size_t w = 0; w + 1 < r.offsets.size(); ++w) {
        const std::uint32_t o0 = r.offsets[w], n = r.offsets[w + 1] - o0;
        if (n < 2) continue;
        const std::uint32_t* c = &r.corners[2 * std::size_t(o0)];
        // Entries by first corner (ties in order), to find a chain's next entry; a plain scan
        // for the few entries of most vertices.
        const bool scan = n <= 32;
        if (!scan) {
            by_first.resize(n);
            for (std::uint32_t i = 0; i < n; ++i) by_first[i] = i;
            std::sort(by_first.begin(), by_first.end(),
                      [&](std::uint32_t a, std::uint32_t b) { return c[2 * a] != c[2 * b] ? c[2 * a] < c[2 * b] : a < b; });
        }
        auto first_of = [&](std::uint32_t i) { return c[2 * i]; };
        // The first unused entry (in the previous order) whose first corner is v; n if none.
        auto next_from = [&](std::uint32_t v) -> std::uint32_t {
            if (scan) {
                for (std::uint32_t i = 0; i < n; ++i)
                    if (!used[i] && first_of(i) == v) return i;
                return n;
            }
            auto it = std::lower_bound(by_first.begin(), by_first.end(), v, [&](std::uint32_t a, std::uint32_t x) { return first_of(a) < x; });
            for (; it != by_first.end() && first_of(*it) == v; ++it)
                if (!used[*it]) return *it;
            return n;
        };
        // Whether some entry's second corner is v (then a chain can arrive at an entry starting at v).
        auto reached = [&](std::uint32_t v) {
            for (std::uint32_t i = 0; i < n; ++i)
                if (c[2 * i + 1] == v) return true;
            return false;
        };
        used.assign(n, 0);
        order.clear();
        auto walk = [&](std::uint32_t i) {
            while (i < n) {
                used[i] = 1;
                order.push_back(i);
                i = next_from(c[2 * i + 1]);
            }
        };
        if (scan) {
            for (std::uint32_t i = 0; i < n; ++i)
                if (!used[i] && !reached(first_of(i))) walk(i);
        } else {
            std::vector<std::uint32_t> seconds(n);
            for (std::uint32_t i = 0; i < n; ++i) seconds[i] = c[2 * i + 1];
            std::sort(seconds.begin(), seconds.end());
            for (std::uint32_t i = 0; i < n; ++i)
                if (!used[i] && !std::binary_search(seconds.begin(), seconds.end(), first_of(i))) walk(i);
        }
        for (std::uint32_t i = 0; i < n; ++i)
            if (!used[i]) walk(i);
        corners.resize(2 * std::size_t(n));
        for (std::uint32_t i = 0; i < n; ++i) {
            corners[2 * std::size_t(i)] = c[2 * order[i]];
            corners[2 * std::size_t(i) + 1] = c[2 * order[i] + 1];
        }
        std::copy(corners.begin(), corners.end(), r.corners.begin() + 2 * std::size_t(o0));
    }
}

// The one-ring of the triangles `keep` accepts; a vertex lists its triangles in fans (order_fans),
// each as its two other corners in the face's winding (b, c after a).
template <typename Keep>
OneRing one_ring(const std::vector<std::uint32_t>& tris, const Topology& topo, Keep keep) {
    OneRing r;
    const std::size_t wn = topo.welded_count();
    r.self = topo.representative;
    r.offsets.assign(wn + 1, 0);
    const std::size_t nt = tris.size() / 3;
    std::vector<std::uint8_t> kept(nt);
    for (std::size_t t = 0; t < nt; ++t) {
        kept[t] = keep(t) ? 1 : 0;
        if (kept[t])
            for (int k = 0; k < 3; ++k) ++r.offsets[tris[3 * t + k] + 1];
    }
    // Entries are counted in 32 bits, three per triangle: sum in 64 first.
    std::uint64_t total = 0;
    for (std::size_t w = 0; w < wn; ++w) total += r.offsets[w + 1];
    if (total > 0xFFFFFFFFull) throw Error(kExitBadInput, "mesh has too many triangles for the measures' one-rings (3 x triangles must fit 32 bits)");
    for (std::size_t w = 0; w < wn; ++w) r.offsets[w + 1] += r.offsets[w];
    r.corners.assign(2 * std::size_t(r.offsets[wn]), 0);
    std::vector<std::uint32_t> fill(r.offsets.begin(), r.offsets.end() - 1);
    for (std::size_t t = 0; t < nt; ++t) {
        if (!kept[t]) continue;
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t w = tris[3 * t + k];
            const std::uint32_t e = fill[w]++;
            r.corners[2 * std::size_t(e)] = topo.representative[tris[3 * t + (k + 1) % 3]];
            r.corners[2 * std::size_t(e) + 1] = topo.representative[tris[3 * t + (k + 2) % 3]];
        }
    }
    order_fans(r);
    return r;
}

Eigen::Vector3d rest_of(const std::vector<Eigen::Vector3f>& p, std::uint32_t v) { return p[v].cast<double>(); }

// Whether this build has the SIMD kernels (every x86-64 build unless RIGSCOPE_SIMD=OFF; elsewhere
// the scalar loops).
#if defined(RIGSCOPE_SSE_KERNELS)
constexpr bool kSimd = true;
#else
constexpr bool kSimd = false;
#endif

}  // namespace

FanBatches fan_batches(const OneRing& ring, std::uint32_t last, std::size_t lanes, bool runs, const Topology* edges) {
    const std::size_t L = lanes;
    constexpr std::uint32_t kNone = FanBatches::kNone;
    FanBatches fb;
    const std::size_t wn = ring.offsets.empty() ? 0 : ring.offsets.size() - 1;
    fb.welded = wn;
    fb.lanes = L;
    fb.runs = runs;
    if (wn == 0) return fb;
    if (runs && last >= FanBatches::kRun)
        throw Error(kExitBadInput, "mesh has too many vertices for the measures' layout (vertex ids must fit 31 bits)");
    const std::size_t batches = (wn + L - 1) / L;
    fb.self.assign(batches * L, 0);
    fb.slot_start.assign(batches + 1, 0);
    fb.reads_last.assign(batches, 0);
    fb.full.assign(batches, 1);
    if (runs) fb.group_start.assign(batches + 1, 0);
    if (edges) {
        fb.sum_start.assign(batches + 1, 0);
        fb.sum_uniform.assign(batches, 0);
        fb.degree.assign(batches * L, 1.0f);
    }
    // One group of L file vertices: packed into one word where they are consecutive.
    auto put_group = [&](const std::uint32_t* v) {
        bool run = runs;
        for (std::size_t l = 1; l < L && run; ++l) run = v[l] == v[0] + l;
        if (run) fb.corner.push_back(v[0] | FanBatches::kRun);
        else fb.corner.insert(fb.corner.end(), v, v + L);
    };
    std::vector<std::uint32_t> group(L);
    // A lane's corner sequence and the entry of each slot (between two consecutive corners).
    std::vector<std::vector<std::uint32_t>> seq(L), ent(L);
    // With edges: per lane, the slot of each neighbour in its list's order; (second corner, slot)
    // pairs sorted, to find a neighbour's first slot.
    std::vector<std::vector<std::uint32_t>> order(L);
    std::vector<std::pair<std::uint32_t, std::uint32_t>> reach;
    for (std::size_t b = 0; b < batches; ++b) {
        std::size_t slots = 0;
        for (std::size_t l = 0; l < L; ++l) {
            const std::size_t w = std::min(b * L + l, wn - 1);
            const std::uint32_t self = ring.self[w];
            fb.self[b * L + l] = self;
            seq[l].clear();
            ent[l].clear();
            fb.full[b] &= b * L + l < wn && ring.offsets[w] < ring.offsets[w + 1];
            if (b * L + l < wn)
                for (std::uint32_t e = ring.offsets[w]; e < ring.offsets[w + 1]; ++e) {
                    const std::uint32_t first = ring.corners[2 * std::size_t(e)], second = ring.corners[2 * std::size_t(e) + 1];
                    if (seq[l].empty()) {
                        seq[l].push_back(first);
                    } else if (seq[l].back() != first) {  // a new chain: through the vertex itself
                        seq[l].insert(seq[l].end(), {self, first});
                        ent[l].insert(ent[l].end(), {kNone, kNone});
                    }
                    seq[l].push_back(second);
                    ent[l].push_back(e);
                }
            if (seq[l].empty()) seq[l].push_back(self);
            order[l].clear();
            if (edges && b * L + l < wn) {
                // The first corner is no slot's second unless a chain comes back to it: then a
                // slot from the vertex itself reaches it (as between two chains).
                if (std::find(seq[l].begin() + 1, seq[l].end(), seq[l][0]) == seq[l].end() && seq[l][0] != self) {
                    seq[l].insert(seq[l].begin(), self);
                    ent[l].insert(ent[l].begin(), kNone);
                }
                reach.clear();
                for (std::size_t s = 0; s < ent[l].size(); ++s) reach.emplace_back(seq[l][s + 1], static_cast<std::uint32_t>(s));
                std::sort(reach.begin(), reach.end());
                for (std::uint32_t i = edges->neighbour_offsets[w]; i < edges->neighbour_offsets[w + 1]; ++i) {
                    const std::uint32_t q = edges->representative[edges->neighbours[i]];
                    const auto it = std::lower_bound(reach.begin(), reach.end(), std::make_pair(q, std::uint32_t(0)));
                    if (it != reach.end() && it->first == q) {
                        order[l].push_back(it->second);
                        continue;
                    }
                    // No slot reaches q: from the vertex itself (a zero edge), then to q.
                    if (seq[l].back() != self) {
                        seq[l].push_back(self);
                        ent[l].push_back(kNone);
                    }
                    seq[l].push_back(q);
                    ent[l].push_back(kNone);
                    order[l].push_back(static_cast<std::uint32_t>(ent[l].size() - 1));
                }
                if (!order[l].empty()) fb.degree[b * L + l] = static_cast<float>(order[l].size());
            }
            slots = std::max(slots, ent[l].size());
        }
        fb.max_slots = std::max(fb.max_slots, slots);
        if (edges) {
            // Uniform: every real lane sums the same slots in the same order.
            std::size_t rows = 0;
            bool uniform = true;
            for (std::size_t l = 0; l < L; ++l) {
                rows = std::max(rows, order[l].size());
                if (l > 0 && b * L + l < wn) uniform &= order[l] == order[0];
            }
            fb.sum_uniform[b] = uniform;
            if (uniform) {
                fb.sum_slot.insert(fb.sum_slot.end(), order[0].begin(), order[0].end());
            } else {
                for (std::size_t j = 0; j < rows; ++j)
                    for (std::size_t l = 0; l < L; ++l) fb.sum_slot.push_back(j < order[l].size() ? order[l][j] : kNone);
            }
            if (fb.sum_slot.size() > 0xFFFFFFFFull)
                throw Error(kExitBadInput, "mesh has too many edges for the measures' layout (edge slots must fit 32 bits)");
            fb.sum_start[b + 1] = static_cast<std::uint32_t>(fb.sum_slot.size());
        }
        if (fb.slot_start[b] + slots > 0xFFFFFFFFull - batches)
            throw Error(kExitBadInput, "mesh has too many triangles for the measures' layout (slots must fit 32 bits)");
        fb.slot_start[b + 1] = static_cast<std::uint32_t>(fb.slot_start[b] + slots);
        if (runs) put_group(&fb.self[b * L]);
        for (std::size_t s = 0; s <= slots; ++s) {
            for (std::size_t l = 0; l < L; ++l) {
                group[l] = s < seq[l].size() ? seq[l][s] : fb.self[b * L + l];
                fb.reads_last[b] |= group[l] == last;
            }
            put_group(group.data());
        }
        if (runs) {
            if (fb.corner.size() > 0xFFFFFFFFull)
                throw Error(kExitBadInput, "mesh has too many triangles for the measures' layout (groups must fit 32 bits)");
            fb.group_start[b + 1] = static_cast<std::uint32_t>(fb.corner.size());
        }
        for (std::size_t s = 0; s < slots; ++s)
            for (std::size_t l = 0; l < L; ++l) fb.entry.push_back(s < ent[l].size() ? ent[l][s] : kNone);
        for (std::size_t l = 0; l < L; ++l) fb.reads_last[b] |= fb.self[b * L + l] == last;
    }
    return fb;
}

AreaKernel::AreaKernel(const std::vector<std::uint32_t>& tris, const Topology& topo, const std::vector<Eigen::Vector3f>& rest_positions)
    : ring(one_ring(tris, topo, [](std::size_t) { return true; })) {
    const std::size_t wn = topo.welded_count();
    rest.assign(wn, 0.0f);
    for (std::size_t w = 0; w < wn; ++w) {
        const Eigen::Vector3d p = rest_of(rest_positions, ring.self[w]);
        double sum = 0;
        for (std::uint32_t e = ring.offsets[w]; e < ring.offsets[w + 1]; ++e)
            sum += (rest_of(rest_positions, ring.corners[2 * e]) - p).cross(rest_of(rest_positions, ring.corners[2 * e + 1]) - p).norm();
        rest[w] = static_cast<float>(sum);
    }
    fans = fan_batches(ring, static_cast<std::uint32_t>(topo.welded_of.size() - 1));
}

namespace {

// A rest triangle too thin to define a plane (area below 1e-12 of its longest edge squared) has
// no deformation gradient; it is left out of the principal one-ring.
bool plane_of(const std::vector<Eigen::Vector3f>& rest, const std::uint32_t* tri, const Topology& topo) {
    const Eigen::Vector3d a = rest_of(rest, topo.representative[tri[0]]);
    const Eigen::Vector3d e1 = rest_of(rest, topo.representative[tri[1]]) - a;
    const Eigen::Vector3d e2 = rest_of(rest, topo.representative[tri[2]]) - a;
    const double longest = std::max({e1.squaredNorm(), e2.squaredNorm(), (e2 - e1).squaredNorm()});
    return longest > 0 && e1.cross(e2).norm() > 1e-12 * longest;
}

// The rotation of least angle taking unit vector a to unit vector b, applied to x.
Eigen::Vector3d rotate_onto(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& x,
                            const Eigen::Vector3d& fallback_axis) {
    const double c = a.dot(b);
    if (c < -1 + 1e-9) {
        // Opposite normals (a fold): a half turn about an axis in the triangle's plane.
        return 2 * fallback_axis.dot(x) * fallback_axis - x;
    }
    const Eigen::Vector3d v = a.cross(b);
    return c * x + v.cross(x) + v * (v.dot(x) / (1 + c));
}

}  // namespace

PrincipalKernel::PrincipalKernel(const std::vector<std::uint32_t>& tris, const Topology& topo,
                                 const std::vector<Eigen::Vector3f>& rest_positions)
    : ring(one_ring(tris, topo, [&](std::size_t t) { return plane_of(rest_positions, &tris[3 * t], topo); })) {
    const std::size_t wn = topo.welded_count();
    coef.assign(kCoef * ring.entry_count(), 0.0f);
    for (std::size_t w = 0; w < wn; ++w) {
        const std::uint32_t e0 = ring.offsets[w], e1 = ring.offsets[w + 1];
        if (e0 == e1) continue;
        const Eigen::Vector3d p = rest_of(rest_positions, ring.self[w]);
        auto edges = [&](std::uint32_t e, Eigen::Vector3d& a, Eigen::Vector3d& b) {
            a = rest_of(rest_positions, ring.corners[2 * e]) - p;
            b = rest_of(rest_positions, ring.corners[2 * e + 1]) - p;
        };
        // The vertex's rest normal: area-weighted mean of its triangles' normals.
        Eigen::Vector3d n = Eigen::Vector3d::Zero(), a, b;
        double total = 0;
        for (std::uint32_t e = e0; e < e1; ++e) {
            edges(e, a, b);
            n += a.cross(b);
            total += a.cross(b).norm();
        }
        edges(e0, a, b);
        if (n.norm() <= 1e-9 * total) n = a.cross(b);  // the normals cancel (a pinched fan)
        n.normalize();
        const Eigen::Vector3d t1 = (a - n * n.dot(a)).norm() > 0 ? (a - n * n.dot(a)).normalized() : n.unitOrthogonal();
        const Eigen::Vector3d t2 = n.cross(t1);
        for (std::uint32_t e = e0; e < e1; ++e) {
            edges(e, a, b);
            const Eigen::Vector3d c = a.cross(b);
            const Eigen::Vector3d nt = c.normalized();
            const Eigen::Vector3d ra = rotate_onto(nt, n, a, a.normalized()), rb = rotate_onto(nt, n, b, a.normalized());
            // Dm: the rotated rest edges in (t1, t2); K = Dm^-1.
            const double d00 = t1.dot(ra), d01 = t1.dot(rb), d10 = t2.dot(ra), d11 = t2.dot(rb);
            const double det = d00 * d11 - d01 * d10;
            const double sw = std::sqrt(c.norm() / total);
            float* k = &coef[kCoef * e];
            k[0] = static_cast<float>(sw * d11 / det);
            k[1] = static_cast<float>(-sw * d01 / det);
            k[2] = static_cast<float>(-sw * d10 / det);
            k[3] = static_cast<float>(sw * d00 / det);
            k[4] = static_cast<float>(sw);
        }
    }
    // The edge measure's sums ride along where the SIMD kernel runs and the neighbour lists are
    // still there (MeshTension builds the kernel before it releases them).
    const bool edge_sums = kSimd && topo.neighbour_offsets.size() == wn + 1;
    fans = fan_batches(ring, static_cast<std::uint32_t>(topo.welded_of.size() - 1), kLanes, /*runs=*/true,
                       edge_sums ? &topo : nullptr);
    constexpr std::size_t L = kLanes;
    const std::size_t slots = fans.entry.size() / L;
    slot_coef.assign(kCoef * L * slots, 0.0f);
    for (std::size_t s = 0; s < slots; ++s)
        for (std::size_t l = 0; l < L; ++l) {
            const std::uint32_t e = fans.entry[L * s + l];
            if (e != FanBatches::kNone)
                for (std::size_t k = 0; k < kCoef; ++k) slot_coef[kCoef * L * s + k * L + l] = coef[kCoef * std::size_t(e) + k];
        }
}

#if defined(RIGSCOPE_SSE_KERNELS)

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
std::size_t AreaKernel::evaluate(const Eigen::Vector3f* positions, std::size_t begin, std::size_t end, float* t) const {
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

// Eight vertices per batch, run four (SSE) or eight (AVX2, where the CPU has it) lanes at a time
// by the same template: the same bits either way, and the scalar path's arithmetic lane by lane.
namespace {

detail::PrincipalCounts run_principal(const PrincipalKernel& pk, const Eigen::Vector3f* positions, std::size_t begin,
                                      std::size_t end, detail::PrincipalOut out) {
    static_assert(detail::PrincipalLayout::kRun == FanBatches::kRun && detail::PrincipalLayout::kNone == FanBatches::kNone &&
                      detail::PrincipalLayout::kLanes == PrincipalKernel::kLanes,
                  "one layout");
    const FanBatches& fans = pk.fans;
    auto data = [](const auto& v) { return v.empty() ? nullptr : v.data(); };
    const detail::PrincipalLayout k{positions->data(),        fans.welded,          fans.slot_start.data(),
                                    fans.group_start.data(),  fans.corner.data(),   fans.reads_last.data(),
                                    fans.full.data(),         pk.slot_coef.data(),  pk.ring.offsets.data(),
                                    data(fans.sum_start),     data(fans.sum_slot),  data(fans.sum_uniform),
                                    data(fans.degree)};
    // The lengths of one batch's slots, N per slot (N <= kLanes): on the stack for the slot
    // counts of ordinary meshes, on the heap for a vertex in hundreds of triangles.
    constexpr std::size_t kStackSlots = 64;
    float stack[kStackSlots * PrincipalKernel::kLanes];
    std::vector<float> heap;
    if (out.t && fans.max_slots > kStackSlots) heap.resize(fans.max_slots * PrincipalKernel::kLanes);
    out.scratch = heap.empty() ? stack : heap.data();
#if defined(RIGSCOPE_AVX2_KERNEL)
    if (pk.avx2) return detail::principal_avx2(k, begin, end, out);
#endif
    return detail::principal_lanes<V4>(k, begin, end, out);
}

}  // namespace

std::size_t PrincipalKernel::evaluate(const Eigen::Vector3f* positions, std::size_t begin, std::size_t end, float* lambda_max,
                                      float* lambda_min, float* dir) const {
    return run_principal(*this, positions, begin, end, {lambda_max, lambda_min, dir, nullptr, nullptr, nullptr, nullptr, nullptr})
        .degenerate;
}

std::size_t PrincipalKernel::evaluate_and_map(const Eigen::Vector3f* positions, std::size_t begin, std::size_t end,
                                              float* lambda_max, float* lambda_min, float* dir, float* t_compress,
                                              float* t_stretch) const {
    return run_principal(*this, positions, begin, end,
                         {lambda_max, lambda_min, dir, t_compress, t_stretch, nullptr, nullptr, nullptr})
        .unmapped;
}

PrincipalKernel::Counts PrincipalKernel::evaluate_with_t(const Eigen::Vector3f* positions, std::size_t begin, std::size_t end,
                                                         float* lambda_max, float* lambda_min, float* dir, float* t_compress,
                                                         float* t_stretch, const float* rest_lengths, float* t) const {
    if (!fuses_edge_t()) throw internal_error("principal kernel without edge sums asked for the edge T");
    const detail::PrincipalCounts c =
        run_principal(*this, positions, begin, end, {lambda_max, lambda_min, dir, t_compress, t_stretch, rest_lengths, t, nullptr});
    return {t_compress ? c.unmapped : c.degenerate, c.edge_degenerate};
}

std::size_t PrincipalKernel::map_t(const float* lmax, const float* lmin, std::size_t begin, std::size_t end, float* tc,
                                   float* ts) const {
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

#else

std::size_t PrincipalKernel::map_t(const float* lmax, const float* lmin, std::size_t begin, std::size_t end, float* tc,
                                   float* ts) const {
    return map_t_scalar(lmax, lmin, begin, end, tc, ts);
}

std::size_t AreaKernel::evaluate(const Eigen::Vector3f* P, std::size_t begin, std::size_t end, float* t) const {
    return evaluate_scalar(P, begin, end, t);
}

std::size_t PrincipalKernel::evaluate(const Eigen::Vector3f* P, std::size_t begin, std::size_t end, float* lambda_max,
                                      float* lambda_min, float* dir) const {
    return evaluate_scalar(P, begin, end, lambda_max, lambda_min, dir);
}

std::size_t PrincipalKernel::evaluate_and_map(const Eigen::Vector3f* positions, std::size_t begin, std::size_t end,
                                              float* lambda_max, float* lambda_min, float* dir, float* t_compress,
                                              float* t_stretch) const {
    return evaluate_and_map_scalar(positions, begin, end, lambda_max, lambda_min, dir, t_compress, t_stretch);
}

// fan_batches lays out no edge sums without the SSE kernels (fuses_edge_t() is false): MeshTension computes
// T with tension_block instead.
PrincipalKernel::Counts PrincipalKernel::evaluate_with_t(const Eigen::Vector3f*, std::size_t, std::size_t, float*, float*, float*,
                                                         float*, float*, const float*, float*) const {
    throw internal_error("principal kernel without edge sums asked for the edge T");
}

#endif

// The scalar loops: what runs where the SIMD kernels are not built (non-x86, or
// RIGSCOPE_SIMD=OFF); per vertex the same operations in the same order as each lane of the SIMD
// kernels, so the same bits (tests compare them).

std::size_t PrincipalKernel::map_t_scalar(const float* lmax, const float* lmin, std::size_t begin, std::size_t end,
                                          float* tc, float* ts) const {
    std::size_t bad = 0;
    for (std::size_t w = begin; w < end; ++w) {
        const bool ok_c = t_of_lambda(lmin[w], tc[w]);
        const bool ok_s = t_of_lambda(lmax[w], ts[w]);
        // A vertex without rest triangles has lambdas of exactly 1 and no direction.
        bad += !(ok_c && ok_s) || ring.offsets[w] == ring.offsets[w + 1];
    }
    return bad;
}

std::size_t AreaKernel::evaluate_scalar(const Eigen::Vector3f* P, std::size_t begin, std::size_t end, float* t) const {
    std::size_t degenerate = 0;
    const std::uint32_t* corner = ring.corners.data();
    for (std::size_t w = begin; w < end; ++w) {
        const Eigen::Vector3f p = P[ring.self[w]];
        float sum = 0;
        for (std::uint32_t e = ring.offsets[w]; e < ring.offsets[w + 1]; ++e) {
            const Eigen::Vector3f a = P[corner[2 * e]] - p, b = P[corner[2 * e + 1]] - p;
            const float x = a.y() * b.z() - a.z() * b.y(), y = a.z() * b.x() - a.x() * b.z(), z = a.x() * b.y() - a.y() * b.x();
            sum += std::sqrt(x * x + y * y + z * z);
        }
        const float r = rest[w], v = r / sum;
        const bool ok = r > 0 && sum > 0 && v - v == 0.0f;
        t[w] = ok ? v : 1.0f;
        degenerate += !ok;
    }
    return degenerate;
}

std::size_t PrincipalKernel::evaluate_scalar(const Eigen::Vector3f* P, std::size_t begin, std::size_t end, float* lambda_max,
                                      float* lambda_min, float* dir) const {
    std::size_t degenerate = 0;
    const std::uint32_t* corner = ring.corners.data();
    for (std::size_t w = begin; w < end; ++w) {
        const std::uint32_t e0 = ring.offsets[w], e1 = ring.offsets[w + 1];
        float* d = dir + 3 * w;
        if (e0 == e1) {
            lambda_max[w] = lambda_min[w] = 1.0f;
            d[0] = d[1] = d[2] = 0.0f;
            ++degenerate;
            continue;
        }
        const float* P0 = P[ring.self[w]].data();
        const float px = P0[0], py = P0[1], pz = P0[2];
        float c00 = 0, c01 = 0, c11 = 0;
        float f0x = 0, f0y = 0, f0z = 0, f1x = 0, f1y = 0, f1z = 0;
        for (std::uint32_t e = e0; e < e1; ++e) {
            const float* q = P[corner[2 * e]].data();
            const float* r = P[corner[2 * e + 1]].data();
            const float ax = q[0] - px, ay = q[1] - py, az = q[2] - pz;
            const float bx = r[0] - px, by = r[1] - py, bz = r[2] - pz;
            const float* k = &coef[kCoef * e];
            // (u, v) = sqrt(w) F: sqrt(w) times the deformed images of the tangent basis vectors.
            const float ux = ax * k[0] + bx * k[2], uy = ay * k[0] + by * k[2], uz = az * k[0] + bz * k[2];
            const float vx = ax * k[1] + bx * k[3], vy = ay * k[1] + by * k[3], vz = az * k[1] + bz * k[3];
            const float sw = k[4];
            c00 += ux * ux + uy * uy + uz * uz;
            c01 += ux * vx + uy * vy + uz * vz;
            c11 += vx * vx + vy * vy + vz * vz;
            f0x += sw * ux; f0y += sw * uy; f0z += sw * uz;
            f1x += sw * vx; f1y += sw * vy; f1z += sw * vz;
        }
        const float m = 0.5f * (c00 + c11), h = 0.5f * (c00 - c11);
        const float s = std::sqrt(h * h + c01 * c01);
        lambda_max[w] = std::sqrt(std::max(m + s, 0.0f));
        lambda_min[w] = std::sqrt(std::max(m - s, 0.0f));
        // Eigenvector of the smaller eigenvalue m - s, from whichever row of C - (m - s) I keeps
        // more digits; (1, 0) where C is isotropic (every direction is one).
        float x = h >= 0 ? c01 : h - s, y = h >= 0 ? -h - s : c01;
        // Scaled to order 1 first: near isotropy both components are rounding noise, whose
        // squares below would lose their digits as subnormals.
        const float big = std::max(std::abs(x), std::abs(y));
        if (big > 0) {
            x /= big;
            y /= big;
        } else {
            x = 1;
        }
        float dx = f0x * x + f1x * y, dy = f0y * x + f1y * y, dz = f0z * x + f1z * y;
        const float len = std::sqrt(dx * dx + dy * dy + dz * dz);
        const float inv = len > 0 ? 1.0f / len : 0.0f;
        d[0] = dx * inv;
        d[1] = dy * inv;
        d[2] = dz * inv;
    }
    return degenerate;
}

std::size_t PrincipalKernel::evaluate_and_map_scalar(const Eigen::Vector3f* positions, std::size_t begin, std::size_t end,
                                              float* lambda_max, float* lambda_min, float* dir, float* t_compress,
                                              float* t_stretch) const {
    evaluate_scalar(positions, begin, end, lambda_max, lambda_min, dir);
    return map_t_scalar(lambda_max, lambda_min, begin, end, t_compress, t_stretch);
}

}  // namespace rigscope
