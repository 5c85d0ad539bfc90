// The UV rasteriser of `bake` (core/uv_raster.h; the rules in docs/methods.md, "Baking into UV
// space"). Geometry in double, so an edge function's sign (what decides coverage) is the same
// on every machine and thread count.
#include "rigscope/core/uv_raster.h"

#include "rigscope/core/huge_pages.h"
#include "uv_gather_avx2.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace rigscope {

namespace {

struct Point {
    double x, y;
};

// Twice the signed area of (a, b, p): positive when p lies left of a->b in a y-up frame.
double edge(const Point& a, const Point& b, const Point& p) { return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x); }

// Whether a texel centre exactly on edge a->b belongs to the triangle whose inside is E > 0: the
// edge's inward normal (the gradient of E) points to larger x (a left edge), or, for a
// horizontal edge, to larger y (a top edge: image y grows downward).
bool owns_edge(const Point& a, const Point& b) {
    const double nx = -(b.y - a.y), ny = b.x - a.x;
    return nx > 0 || (nx == 0 && ny > 0);
}

bool inside(double e, bool owned) { return e > 0 || (e == 0 && owned); }

}  // namespace

namespace {

constexpr std::uint32_t kNone = 0xffffffffu;

// The image-space points of a UV set's corners, and which corners make a triangle.
struct Raster {
    const Mesh& mesh;
    const UvSet& set;
    const UvImage& image;
    Point to_image(std::uint32_t corner) const {
        const double u = double(set.uv[set.corners[corner]].x()) - image.tile_u;
        return Point{u * image.size, image_y(corner)};
    }
    double image_y(std::uint32_t corner) const { return image_y_of(double(set.uv[set.corners[corner]].y()) - image.tile_v); }
    double image_y_of(double v) const { return (image.v_down ? v : 1.0 - v) * image.size; }
    // Fan triangle (first, c, c + 1) wound so that its area is positive: false when it has none.
    bool triangle(std::uint32_t first, std::uint32_t c, std::uint32_t corner[3], Point p[3], double& area) const {
        corner[0] = first;
        corner[1] = c;
        corner[2] = c + 1;
        for (int k = 0; k < 3; ++k) p[k] = to_image(corner[k]);
        area = edge(p[0], p[1], p[2]);
        if (!(area != 0) || !std::isfinite(area)) return false;
        if (area < 0) {  // mirrored UVs: the same triangle wound the other way
            std::swap(p[1], p[2]);
            std::swap(corner[1], corner[2]);
            area = edge(p[0], p[1], p[2]);
        }
        return true;
    }
};

// Faces in blocks of this many, rows in bands of this many: fixed, so that no result depends on
// the thread count.
constexpr std::size_t kFaceBlock = 1 << 13;
constexpr std::size_t kRowBand = 32;

// floor(t) and ceil(t) for t in [-1, n] by truncation: without SSE4.1's rounding instruction
// (the default target) std::floor and std::ceil are calls. The adjustments are arithmetic, not
// branches: whether truncation rounded is a coin toss.
int floor_small(double t) {
    const int k = int(t);
    return k - int(double(k) > t);
}
int ceil_small(double t) {
    const int k = int(t);
    return k + int(double(k) < t);
}
// The texel centres' indices k (centre k + 0.5) in [lo, hi], clamped to [0, n - 1] (empty when
// first > second): max(0, ceil(t)) is ceil(max(0, t)) and min(n - 1, floor(t)) is floor(min(n -
// 1, t)), so bounds clamped to [-1, n] beforehand give the same range and keep the conversions to
// int defined (a bound may be huge or, for a degenerate triangle, NaN).
[[gnu::always_inline]] inline std::pair<int, int> centres(double lo, double hi, int n) {
    const auto clamp = [n](double t) { return std::min(double(n), std::max(-1.0, t)); };
    return {std::max(0, ceil_small(clamp(lo - 0.5))), std::min(n - 1, floor_small(clamp(hi - 0.5)))};
}

// A triangle in a band's bin: its id (middle corner) and the texel rows [j0, j1] within its
// extent in y, worked out once when binned (the image has at most kMaxBakeSize rows).
struct Binned {
    std::uint32_t id;
    std::uint16_t j0, j1;
};
static_assert(kMaxBakeSize <= 65536, "texel rows fit 16 bits");

// The texel rows within a triangle's extent in y, from its corners' image y's only (what binning
// needs; empty when first > second). For a triangle that is not degenerate these are the rows of
// its bounding box (the same three y's in another order); a degenerate one gets rows too.
std::pair<int, int> rows_of(double y0, double y1, double y2, int n) {
    return centres(std::min(std::min(y0, y1), y2), std::max(std::max(y0, y1), y2), n);
}

// The triangles binned by the bands their texel rows reach, each block of faces into bins of its
// own: bin[block][band] holds the block's triangles (ids, the middle corners, increasing), so that
// a band's triangles, block after block, are in file order at any thread count. The same pass
// over the faces counts the outside faces (and the degenerate ones that reach no row) into the
// plan and gives each corner its face's first corner.
using Bins = std::vector<std::vector<std::vector<Binned>>>;
Bins bin_triangles(const Raster& r, UvRasterPlan& plan, std::uint32_t* first_of, std::size_t bands, ThreadPool* pool) {
    const std::size_t faces = r.mesh.face_count(), blocks = (faces + kFaceBlock - 1) / kFaceBlock;
    Bins bins(blocks);
    std::vector<std::size_t> degenerate(blocks, 0), outside(blocks, 0);
    run_tasks(pool, blocks, [&](std::size_t b) {
        const std::size_t f0 = b * kFaceBlock, f1 = std::min(faces, f0 + kFaceBlock);
        std::vector<std::vector<Binned>> bin(bands);
        std::vector<double> y;  // the face's corners' image y's
        std::size_t block_outside = 0, block_degenerate = 0;
        for (std::size_t f = f0; f < f1; ++f) {
            const std::uint32_t begin = r.mesh.face_offsets[f], end = r.mesh.face_offsets[f + 1];
            for (std::uint32_t c = begin; c < end; ++c) first_of[c] = begin;
            if (end - begin < 3) continue;
            // Each corner's UV read once: whether it lies outside the unit square, and its image y.
            bool out = false;
            y.resize(end - begin);
            for (std::uint32_t c = begin; c < end; ++c) {
                const Eigen::Vector2f& uv = r.set.uv[r.set.corners[c]];
                const double u = double(uv.x()) - r.image.tile_u, v = double(uv.y()) - r.image.tile_v;
                out = out || !(u >= 0 && u <= 1 && v >= 0 && v <= 1);
                y[c - begin] = r.image_y_of(v);
            }
            block_outside += out;
            // A polygon as a fan from its first corner, as the file orders its corners.
            for (std::uint32_t c = begin + 1; c + 1 < end; ++c) {
                const auto [j0, j1] = rows_of(y[0], y[c - begin], y[c + 1 - begin], r.image.size);
                if (j0 <= j1) {  // its first band counts it if degenerate (own_band)
                    for (std::size_t k = std::size_t(j0) / kRowBand; k <= std::size_t(j1) / kRowBand; ++k)
                        bin[k].push_back({c, std::uint16_t(j0), std::uint16_t(j1)});
                    continue;
                }
                std::uint32_t corner[3];
                Point p[3];
                double area = 0;
                block_degenerate += !r.triangle(begin, c, corner, p, area);
            }
        }
        degenerate[b] = block_degenerate;
        outside[b] = block_outside;
        bins[b] = std::move(bin);
    });
    for (std::size_t b = 0; b < blocks; ++b) {
        plan.degenerate_faces += degenerate[b];
        plan.outside_faces += outside[b];
    }
    return bins;
}

// Band `band`'s rows of `owner` (which triangle owns each texel: its middle corner, or kNone)
// from its bins, whose ids increase: the first triangle to cover a texel is the lowest id
// covering it, the first face in file order, and keeps it. One thread writes a band: no atomics.
// Returns the band's covered texels; `degenerate` counts the degenerate triangles binned with
// this band first.
std::size_t own_band(const Raster& r, const Bins& bins, const std::uint32_t* first_of, std::size_t band, std::uint32_t* owner,
                     std::size_t& degenerate) {
    const int n = r.image.size;
    const int row0 = int(band * kRowBand), row1 = std::min(n, int((band + 1) * kRowBand));  // [row0, row1)
    std::fill(owner + std::size_t(row0) * std::size_t(n), owner + std::size_t(row1) * std::size_t(n), kNone);
    std::size_t covered = 0;
    for (const auto& block : bins)
        for (const Binned& e : block[band]) {
            const std::uint32_t c = e.id;
            std::uint32_t corner[3];
            Point p[3];
            double area = 0;
            if (!r.triangle(first_of[c], c, corner, p, area)) {
                degenerate += e.j0 / kRowBand == band;
                continue;
            }
            const auto [i0, i1] = centres(std::min(std::min(p[0].x, p[1].x), p[2].x), std::max(std::max(p[0].x, p[1].x), p[2].x), n);
            const bool own01 = owns_edge(p[0], p[1]), own12 = owns_edge(p[1], p[2]), own20 = owns_edge(p[2], p[0]);
            for (int j = std::max(int(e.j0), row0); j <= std::min(int(e.j1), row1 - 1); ++j) {
                std::uint32_t* row = owner + std::size_t(j) * std::size_t(n);
                for (int i = i0; i <= i1; ++i) {
                    if (row[i] != kNone) continue;  // overlap: an earlier face in file order keeps it
                    const Point q{i + 0.5, j + 0.5};
                    if (!(inside(edge(p[0], p[1], q), own01) && inside(edge(p[1], p[2], q), own12) && inside(edge(p[2], p[0], q), own20))) continue;
                    row[i] = c;
                    ++covered;
                }
            }
        }
    return covered;
}

// The covered texels' entries of rows [j0, j1) from plan.covered[at] on, in texel order. The
// weights are the edge functions over the area (edge(a, c, b) is exactly -edge(a, b, c): the
// same two products).
void covered_rows(const Raster& r, const std::uint32_t* owner, const std::uint32_t* first_of, std::size_t j0,
                  std::size_t j1, std::size_t at, UvRasterPlan& plan, std::vector<std::uint8_t>& filled) {
    // Triangles' image points by id, direct-mapped: along a row the texels alternate between the
    // two triangles of a quad, and the next rows meet the same ones again, a row's worth of
    // triangles later (with 8 entries each triangle was set up again in every row it covers).
    struct Seen {
        std::uint32_t id = kNone;
        Point p[3];
        double area;
        std::uint32_t vertex[3];
    };
    constexpr std::uint32_t kSeen = 2048;
    std::vector<Seen> seen(kSeen);
    const std::size_t n = std::size_t(r.image.size);
    for (std::size_t j = j0; j < j1; ++j)
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t t = j * n + i;
            const std::uint32_t o = owner[t];
            if (o == kNone) continue;
            if (!filled.empty()) filled[t] = 1;
            Seen& x = seen[o & (kSeen - 1)];
            if (x.id != o) {
                x.id = o;
                std::uint32_t corner[3];
                r.triangle(first_of[o], o, corner, x.p, x.area);
                for (int c = 0; c < 3; ++c) x.vertex[c] = r.mesh.face_indices[corner[c]];
            }
            const Point q{double(i) + 0.5, double(j) + 0.5};
            const double e01 = edge(x.p[0], x.p[1], q), e12 = edge(x.p[1], x.p[2], q), e20 = edge(x.p[2], x.p[0], q);
            plan.covered[at++] = {std::uint32_t(t), {x.vertex[0], x.vertex[1], x.vertex[2]}, {float(e12 / x.area), float(e20 / x.area), float(e01 / x.area)}};
        }
}

// Dilation: each pass fills the empty texels touching a filled one (8-neighbours), from the
// texels filled before the pass. A pass's texels found by bands of rows on the pool (each band
// reads the texels filled before the pass, which nothing writes during it), then appended in
// band order: texel order, as one thread finds them.
void pad(UvRasterPlan& plan, std::vector<std::uint8_t>& filled, int padding, ThreadPool* pool) {
    const int n = plan.size;
    const std::size_t bands = (std::size_t(n) + kRowBand - 1) / kRowBand;
    struct Found {
        std::vector<std::uint32_t> padded, sources_end, sources;  // sources_end: into sources
    };
    std::vector<Found> found(bands);
    for (int k = 0; k < padding; ++k) {
        run_tasks(pool, bands, [&](std::size_t b) {
            Found& f = found[b];
            f.padded.clear();
            f.sources_end.clear();
            f.sources.clear();
            for (int j = int(b * kRowBand); j < std::min(n, int((b + 1) * kRowBand)); ++j)
                for (int i = 0; i < n; ++i) {
                    const std::uint32_t t = std::uint32_t(j) * std::uint32_t(n) + std::uint32_t(i);
                    if (filled[t]) continue;
                    const std::size_t before = f.sources.size();
                    for (int dj = -1; dj <= 1; ++dj)
                        for (int di = -1; di <= 1; ++di) {
                            const int y = j + dj, x = i + di;
                            if ((di == 0 && dj == 0) || x < 0 || y < 0 || x >= n || y >= n) continue;
                            const std::uint32_t s = std::uint32_t(y) * std::uint32_t(n) + std::uint32_t(x);
                            if (filled[s] == 1) f.sources.push_back(s);
                        }
                    if (f.sources.size() == before) continue;
                    f.padded.push_back(t);
                    f.sources_end.push_back(std::uint32_t(f.sources.size()));
                }
        });
        const std::size_t first = plan.padded.size();
        for (const Found& f : found) {
            const std::uint32_t base = std::uint32_t(plan.sources.size());
            plan.padded.insert(plan.padded.end(), f.padded.begin(), f.padded.end());
            plan.sources.insert(plan.sources.end(), f.sources.begin(), f.sources.end());
            for (std::uint32_t e : f.sources_end) plan.source_begin.push_back(base + e);
        }
        if (plan.padded.size() == first) break;
        plan.pass_begin.push_back(plan.padded.size());
        for (std::size_t e = first; e < plan.padded.size(); ++e) filled[plan.padded[e]] = 1;
    }
}

}  // namespace

UvRasterPlan plan_uv_raster(const Mesh& mesh, const UvSet& set, const UvImage& image, int padding, ThreadPool* pool) {
    UvRasterPlan plan;
    plan.size = image.size;
    const Raster r{mesh, set, image};
    const std::size_t n = std::size_t(image.size), texels = n * n;
    // The triangles binned by row band; then each band's owners (which triangle owns each texel,
    // 4 bytes a texel) and its covered count on one thread; then the covered texels' entries made
    // in texel order, each once, straight into the plan: no growing list and no sort.
    // Each corner's face's first corner, written by the binning's blocks (not zeroed first).
    const std::size_t corners = mesh.face_indices.size();
    const std::unique_ptr<std::uint32_t[]> first_of_store = detail::huge_scratch<std::uint32_t>(corners);
    const std::uint32_t* first_of = first_of_store.get();
    const std::size_t bands = (n + kRowBand - 1) / kRowBand;
    const Bins bins = bin_triangles(r, plan, first_of_store.get(), bands, pool);
    std::unique_ptr<std::uint32_t[]> owner = detail::huge_scratch<std::uint32_t>(texels);
    std::vector<std::size_t> at(bands + 1, 0);  // each band's first entry
    std::vector<std::size_t> degenerate(bands, 0);
    run_tasks(pool, bands, [&](std::size_t b) { at[b + 1] = own_band(r, bins, first_of, b, owner.get(), degenerate[b]); });
    for (std::size_t b = 0; b < bands; ++b) plan.degenerate_faces += degenerate[b];
    for (std::size_t b = 0; b < bands; ++b) at[b + 1] += at[b];
    // The largest array of a bake (28 bytes a covered texel), first touched by covered_rows on the
    // threads: zeroing it first was a serial memset and all its page faults on one core.
    plan.covered.reserve(at[bands]);
    detail::advise_huge(plan.covered.data(), at[bands] * sizeof(UvRasterPlan::Texel));
    plan.covered.resize(at[bands]);
    std::vector<std::uint8_t> filled(padding > 0 ? texels : 0, 0);  // what the dilation grows from
    run_tasks(pool, bands, [&](std::size_t b) {
        covered_rows(r, owner.get(), first_of, b * kRowBand, std::min(n, (b + 1) * kRowBand), at[b], plan, filled);
    });
    if (padding > 0) pad(plan, filled, padding, pool);
    return plan;
}

void bake_uv_covered(const UvRasterPlan& plan, const float* const* values, float* const* out, std::size_t layers, std::size_t begin,
                     std::size_t end) {
    for (std::size_t k = begin; k < end; ++k) {
        const UvRasterPlan::Texel& t = plan.covered[k];
        for (std::size_t l = 0; l < layers; ++l) {
            const float* v = values[l];
            out[l][t.texel] = float(double(t.weight[0]) * v[t.vertex[0]] + double(t.weight[1]) * v[t.vertex[1]] +
                                    double(t.weight[2]) * v[t.vertex[2]]);
        }
    }
}

std::pair<std::size_t, std::size_t> uv_covered_rows(const UvRasterPlan& plan, std::size_t first_row, std::size_t end_row) {
    const std::size_t n = std::size_t(plan.size);
    auto at = [&](std::size_t row) {
        return std::size_t(std::lower_bound(plan.covered.begin(), plan.covered.end(), row * n,
                                            [](const UvRasterPlan::Texel& t, std::size_t texel) { return t.texel < texel; }) -
                           plan.covered.begin());
    };
    return {at(first_row), at(end_row)};
}

void bake_uv_covered_interleaved(const UvRasterPlan& plan, const float* values, std::size_t stride, float* const* out, std::size_t layers,
                                 std::size_t begin, std::size_t end, std::size_t first_texel, bool avx2) {
    if (begin >= end) return;
#if defined(RIGSCOPE_AVX2_KERNEL)
    // A texel's four layers in one 256-bit operation (three conversions and multiplies and two adds
    // where the SSE2 loop below has six and four); with the prefetch of both loops, the CPU of
    // bake's frames at 1024 about 15% less (docs/benchmarks.md).
    if (avx2 && avx2_supported())
        return detail::bake_uv_covered_avx2(plan.covered.data() + begin, plan.covered.data() + end, values, stride, out, layers, first_texel);
#else
    (void)avx2;
#endif
#if defined(__SSE2__)
    const std::size_t groups = layers / 4;
    for (std::size_t k = begin; k < end; ++k) {
        const UvRasterPlan::Texel& t = plan.covered[k];
        // The plan (28 bytes a texel, read once a batch) streams from memory; the hardware's
        // prefetcher stops at every 4 KiB page.
        _mm_prefetch(reinterpret_cast<const char*>(&plan.covered[std::min(k + detail::kUvPrefetch, end - 1)]), _MM_HINT_T0);
        const std::size_t x = t.texel - first_texel;
        const float* a = values + std::size_t(t.vertex[0]) * stride;
        const float* b = values + std::size_t(t.vertex[1]) * stride;
        const float* c = values + std::size_t(t.vertex[2]) * stride;
        const __m128d w0 = _mm_set1_pd(double(t.weight[0])), w1 = _mm_set1_pd(double(t.weight[1])), w2 = _mm_set1_pd(double(t.weight[2]));
        std::size_t l = 0;
        for (std::size_t g = 0; g < groups; ++g, l += 4) {
            const __m128 va = _mm_loadu_ps(a + l), vb = _mm_loadu_ps(b + l), vc = _mm_loadu_ps(c + l);
            // Layers l, l + 1 and l + 2, l + 3: w0 a + w1 b, then + w2 c, in double.
            const __m128d lo = _mm_add_pd(_mm_add_pd(_mm_mul_pd(w0, _mm_cvtps_pd(va)), _mm_mul_pd(w1, _mm_cvtps_pd(vb))),
                                          _mm_mul_pd(w2, _mm_cvtps_pd(vc)));
            const __m128d hi = _mm_add_pd(_mm_add_pd(_mm_mul_pd(w0, _mm_cvtps_pd(_mm_movehl_ps(va, va))), _mm_mul_pd(w1, _mm_cvtps_pd(_mm_movehl_ps(vb, vb)))),
                                          _mm_mul_pd(w2, _mm_cvtps_pd(_mm_movehl_ps(vc, vc))));
            const __m128 r = _mm_movelh_ps(_mm_cvtpd_ps(lo), _mm_cvtpd_ps(hi));
            _mm_store_ss(out[l] + x, r);
            _mm_store_ss(out[l + 1] + x, _mm_shuffle_ps(r, r, 1));
            _mm_store_ss(out[l + 2] + x, _mm_shuffle_ps(r, r, 2));
            _mm_store_ss(out[l + 3] + x, _mm_shuffle_ps(r, r, 3));
        }
        for (; l < layers; ++l)
            out[l][x] = float(double(t.weight[0]) * a[l] + double(t.weight[1]) * b[l] + double(t.weight[2]) * c[l]);
    }
#else
    for (std::size_t k = begin; k < end; ++k) {
        const UvRasterPlan::Texel& t = plan.covered[k];
        const std::size_t x = t.texel - first_texel;
        const float* a = values + std::size_t(t.vertex[0]) * stride;
        const float* b = values + std::size_t(t.vertex[1]) * stride;
        const float* c = values + std::size_t(t.vertex[2]) * stride;
        for (std::size_t l = 0; l < layers; ++l)
            out[l][x] = float(double(t.weight[0]) * a[l] + double(t.weight[1]) * b[l] + double(t.weight[2]) * c[l]);
    }
#endif
}

void bake_uv_padding(const UvRasterPlan& plan, float* out) {
    for (std::size_t k = 0; k < plan.padded.size(); ++k) {
        double sum = 0;
        for (std::uint32_t s = plan.source_begin[k]; s < plan.source_begin[k + 1]; ++s) sum += out[plan.sources[s]];
        out[plan.padded[k]] = float(sum / double(plan.source_begin[k + 1] - plan.source_begin[k]));
    }
}

}  // namespace rigscope

namespace rigscope {

void bake_uv_padding_rows(const UvRasterPlan& plan, float* const* out, std::size_t layers, std::size_t band_row, std::size_t band_end,
                          std::size_t first_row, std::size_t end_row) {
    const std::size_t n = std::size_t(plan.size), passes = plan.pass_begin.size() - 1, base = band_row * n;
    for (std::size_t k = 0; k < passes; ++k) {
        // Pass k's texels that a later pass, or the rows asked for, read.
        const std::size_t reach = passes - 1 - k;
        const std::size_t lo = std::max(band_row, first_row - std::min(first_row, reach)) * n, hi = std::min(band_end, end_row + reach) * n;
        const auto first = plan.padded.begin() + std::ptrdiff_t(plan.pass_begin[k]), last = plan.padded.begin() + std::ptrdiff_t(plan.pass_begin[k + 1]);
        for (auto it = std::lower_bound(first, last, std::uint32_t(lo)); it != last && *it < hi; ++it) {
            const std::size_t e = std::size_t(it - plan.padded.begin());
            const double count = double(plan.source_begin[e + 1] - plan.source_begin[e]);
            for (std::size_t l = 0; l < layers; ++l) {
                double sum = 0;
                for (std::uint32_t s = plan.source_begin[e]; s < plan.source_begin[e + 1]; ++s) sum += out[l][plan.sources[s] - base];
                out[l][*it - base] = float(sum / count);
            }
        }
    }
}

}  // namespace rigscope
