// A per-vertex value baked into UV space (issue 60, docs/methods.md "Baking into UV space"): the
// texels a mesh's UV faces cover, each with the three file vertices and the weights that
// interpolate it, worked out once per mesh and image size; a frame is then one gather per texel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "rigscope/core/parallel.h"
#include "rigscope/core/scene.h"
#include "rigscope/core/simd.h"
#include "rigscope/core/uninit_allocator.h"
#include "rigscope/core/uv_texel.h"

namespace rigscope {

// The largest image side bake writes: 16384^2 texels is 1 GiB of 32-bit floats per image and the
// plan's 24 bytes per covered texel on top; past it a mistyped size would only exhaust memory.
constexpr int kMaxBakeSize = 16384;
// The most padding passes: a texel farther than this from every face is 0 anyway at any size.
constexpr int kMaxBakePadding = 4096;

// Where the image sits in UV space. Row 0 of the image is v = 0 when `v_down` (glTF), else v = 1
// (FBX, USD, Alembic, OBJ). `tile_u`, `tile_v` shift the image to another unit square (UDIM
// tile 1001 + tile_u + 10 tile_v).
struct UvImage {
    int size = 0;
    bool v_down = false;
    int tile_u = 0, tile_v = 0;
};

struct UvRasterPlan {
    int size = 0;
    // Covered texels in texel order (texel = row * size + column), each once. Entries are made
    // on the threads, each written once: the array (28 bytes a texel) is not zeroed first.
    using Texel = UvTexel;  // the texel, its three file vertices and barycentric weights
    std::vector<Texel, UninitAllocator<Texel>> covered;
    // Padding: texels filled pass after pass, each the mean of its 8-neighbours filled before
    // its pass began (covered, or padded in an earlier pass): sources[source_begin[k] ..
    // source_begin[k + 1]) for padded[k].
    std::vector<std::uint32_t> padded, source_begin{0}, sources;
    // Pass k's texels are padded[pass_begin[k] .. pass_begin[k + 1]), in texel order; a texel of
    // pass k reads only texels at most one row away: a band of rows is padded from the covered
    // texels of as many rows more either side as there are passes (bake_uv_padding_rows).
    std::vector<std::size_t> pass_begin{0};
    std::size_t degenerate_faces = 0;  // UV triangles of zero area: cover nothing
    std::size_t outside_faces = 0;     // faces with a corner outside the image's unit square
};

// Rasterises `set`'s faces (polygons fanned from their first corner) into an image of `image`.
// A texel centre ((i + 0.5) / N, (j + 0.5) / N) in image space is inside a triangle when every
// edge function is positive, or zero on a top or left edge (image x right, y down: the edge whose
// inside lies at larger x, or, horizontal, at larger y): two triangles sharing an edge never
// both take a texel on it. Where faces overlap, the first face in file order keeps the texel.
// Then `padding` passes of 8-neighbour dilation (Chebyshev distance), each new texel the mean of
// its filled neighbours; beyond, texels stay 0. On `pool` when given, the same plan at any thread
// count: triangles binned by the bands of rows they reach (faces in fixed blocks, each block's
// bins in file order), then each band on one thread takes its texels' owners from its bins in
// file order (first writer, the lowest triangle id, keeps a texel: no atomics), and after a
// prefix over the bands' counts writes its entries in texel order; padding passes by band too.
UvRasterPlan plan_uv_raster(const Mesh& mesh, const UvSet& set, const UvImage& image, int padding, ThreadPool* pool = nullptr);

// An image (size x size, row 0 first) of per-vertex values through a plan: bake_uv_covered over
// every covered texel of a zeroed image, then bake_uv_padding.
//
// The covered texels [begin, end) of plan.covered for `layers` images at once (frames, colour
// channels): out[l][texel] from values[l]. The plan (28 bytes a texel, more than an image's
// values) is read once for all of them instead of once an image; a caller splits the texels
// into ranges for its threads. Other texels are not written.
void bake_uv_covered(const UvRasterPlan& plan, const float* const* values, float* const* out, std::size_t layers, std::size_t begin,
                     std::size_t end);

// The same texels with the layers' values interleaved per vertex: layer l of vertex v at
// values[v * stride + l], stride a multiple of 4 and at least `layers` (the lanes past `layers`
// are read, not written). Four layers of a texel are one load a vertex and SIMD lanes (SSE2, or
// with `avx2` where the CPU has it one AVX2 operation), each lane the scalar's operations in its
// order: the same bits as bake_uv_covered. `first_texel`: out[l] holds the texels from that one
// on (a band of rows), texel t at out[l][t - first_texel]; plan.covered[begin, end) must lie in it.
void bake_uv_covered_interleaved(const UvRasterPlan& plan, const float* values, std::size_t stride, float* const* out, std::size_t layers,
                                 std::size_t begin, std::size_t end, std::size_t first_texel = 0, bool avx2 = avx2_default());

// The entries of plan.covered in rows [first_row, end_row): [first, end) (covered is in texel order).
std::pair<std::size_t, std::size_t> uv_covered_rows(const UvRasterPlan& plan, std::size_t first_row, std::size_t end_row);

// The padded texels of one image whose covered texels are in place (plan.padded's order: each
// pass reads the texels filled before it).
void bake_uv_padding(const UvRasterPlan& plan, float* out);

// The padded texels of rows [first_row, end_row) in `layers` bands holding rows [band_row,
// band_end) (out[l][0] is texel band_row x size), whose covered texels are in place for rows
// [first_row - passes, end_row + passes) within the image (passes: plan.pass_begin.size() - 1),
// and which are 0 elsewhere: pass k fills its texels within `passes - 1 - k` rows of the rows
// asked for, from what the earlier passes filled. The same bits as bake_uv_padding over the
// whole image, for those rows; other rows of the band are left as they come out.
void bake_uv_padding_rows(const UvRasterPlan& plan, float* const* out, std::size_t layers, std::size_t band_row, std::size_t band_end,
                          std::size_t first_row, std::size_t end_row);

}  // namespace rigscope
