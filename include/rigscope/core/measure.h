// Deformation measures beyond mean edge length (methods.md, "Area and principal stretch"): the
// one-ring area ratio and the principal stretches of the surface with the direction of most
// compression, per welded vertex. Rest quantities are laid out once per mesh; a frame reads only
// the deformed positions, one welded vertex per work item, so any split over threads gives the
// same bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "rigscope/core/scene.h"
#include "rigscope/core/topology.h"
#include "rigscope/core/simd.h"

namespace rigscope {

enum class Measure { edge, area, principal };

// Triangles over welded vertices, three ids each: glTF's triangles as stored, polygons
// fan-triangulated from their first corner (the order the glTF writer uses). Faces whose corners
// collapse onto fewer than three welded vertices are dropped.
std::vector<std::uint32_t> welded_triangles(const Mesh& mesh, const Topology& topo);

// Per welded vertex, the rest one-ring of triangles. Each (vertex, triangle) entry holds the
// triangle's two other corners as file vertices (representatives), so a frame reads positions
// straight from the deformed file vertices.
struct OneRing {
    std::vector<std::uint32_t> self;     // per welded vertex: its representative file vertex
    std::vector<std::uint32_t> offsets;  // per welded vertex, plus one: its entries
    std::vector<std::uint32_t> corners;  // per entry: the two other corners, in the face's winding
    std::size_t entry_count() const { return corners.size() / 2; }
};

// The one-rings regrouped for the per-frame loops, as EdgeBatches does for edges: welded vertices
// in batches of kLanes side by side in SIMD registers. A vertex's entries are ordered into fans
// (one_ring does that: chains in which an entry's second corner is the next one's first), so a
// lane walks a sequence of corners and each slot is the triangle of two consecutive ones: one
// position load per triangle instead of two, 4 bytes of layout instead of 8. Between two chains,
// and after the last one to pad a lane with fewer slots, the sequence holds the vertex itself:
// those slots have a zero edge (no area) and zero coefficients, so they add exactly nothing.
struct FanBatches {
    static constexpr std::size_t kLanes = 4;  // the default lane count (area's SSE loop)
    static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
    std::size_t welded = 0;
    std::size_t lanes = kLanes;             // vertices per batch ("lanes" below)
    std::vector<std::uint32_t> self;        // per batch, lanes file vertices (lanes past the end repeat the last)
    std::vector<std::uint32_t> slot_start;  // per batch, plus one: its slots
    // Corner groups, lanes file vertices each: batch b has slot_start[b + 1] - slot_start[b] + 1
    // of them, from group slot_start[b] + b (unless packed: see runs); slot s is the triangle of
    // groups s and s + 1.
    std::vector<std::uint32_t> corner;
    std::vector<std::uint32_t> entry;  // per slot, lanes: the ring entry of the slot's triangle, or kNone
    // Per batch: whether it reads the mesh's last file vertex (loaded lane by lane: see
    // simd_points.h).
    std::vector<std::uint8_t> reads_last;
    // Per batch: every lane is a welded vertex with a triangle (no lane needs its own fix-up).
    std::vector<std::uint8_t> full;
    // Packed groups (fan_batches(..., runs = true)): `corner` holds, per batch, its self group then
    // its corner groups, a group of consecutive file vertices (v, v + 1, ...: most of a mesh whose
    // vertices are stored in order) as the one word v | kRun, any other as its lanes' vertices;
    // batch b's start at corner[group_start[b]].
    static constexpr std::uint32_t kRun = 0x80000000u;
    bool runs = false;
    std::vector<std::uint32_t> group_start;

    // With edge lists (fan_batches' `edges`), the edge measure's sums from the same walk. Every
    // neighbour of a lane is the second corner of one of its slots (a neighbour no triangle
    // reaches, like the far end of a thin triangle's edge, gets slots of its own: the vertex
    // itself, then the neighbour, with zero coefficients). Per batch, the slots whose lengths a
    // lane adds, in the order of its neighbour list (the edge kernel's order, so the same float
    // sum): one list for every lane where the lanes' lists are the same ("uniform", most batches
    // of a mesh stored row by row), else one row of `lanes` slots per neighbour rank, kNone past
    // a lane's degree. Slots are counted from the batch's first.
    std::vector<std::uint32_t> sum_start;  // per batch, plus one: its entries in sum_slot
    std::vector<std::uint32_t> sum_slot;
    std::vector<std::uint8_t> sum_uniform;  // per batch
    std::vector<float> degree;               // per lane: its edge count, 1 where none (EdgeBatches::degree)
    std::size_t max_slots = 0;               // the most slots of one batch

    std::size_t batch_count() const { return slot_start.empty() ? 0 : slot_start.size() - 1; }
};

// last_file_vertex: the mesh's last file vertex (welded_of.size() - 1). edges: a topology whose
// neighbour lists are still held, to lay out the edge sums too.
FanBatches fan_batches(const OneRing& ring, std::uint32_t last_file_vertex, std::size_t lanes = FanBatches::kLanes,
                       bool runs = false, const Topology* edges = nullptr);

// area: T_area = A_rest / A_deformed of the one-ring (barycentric areas: a third of each incident
// triangle; the thirds cancel in the ratio).
struct AreaKernel {
    OneRing ring;
    FanBatches fans;
    std::vector<float> rest;  // per welded vertex: sum of |e1 x e2| over its rest triangles

    AreaKernel() = default;
    AreaKernel(const std::vector<std::uint32_t>& triangles, const Topology& topo, const std::vector<Eigen::Vector3f>& rest_positions);

    // T_area of welded vertices [begin, end); returns how many fell back to 1 (no rest area, a
    // collapsed one-ring, or a ratio that is not finite).
    std::size_t evaluate(const Eigen::Vector3f* positions, std::size_t begin, std::size_t end, float* t) const;
    // The same as a scalar loop: what evaluate runs where the SIMD kernels are not built (non-x86,
    // or RIGSCOPE_SIMD=OFF); the same bits (tests compare them).
    std::size_t evaluate_scalar(const Eigen::Vector3f* positions, std::size_t begin, std::size_t end, float* t) const;
};

// principal: per (vertex, triangle) entry, the rest triangle's edges rotated into the vertex's rest
// tangent plane (minimal rotation taking the triangle's normal to the vertex's) and written in a
// tangent basis (t1, t2) of that plane: Dm (2x2). A frame's F = [e1' e2'] Dm^-1 (3x2) maps
// tangent coordinates to the deformed edges, C = F^T F its right Cauchy-Green tensor in the
// vertex's basis. Per vertex C is the rest-area-weighted mean over the entries; its eigenvalues
// are lambda_max^2 >= lambda_min^2. The direction of lambda_min is its eigenvector d (tangent
// coordinates) carried to the deformed surface by the weighted mean F: dir = normalize(F d).
// An entry stores sqrt(w) Dm^-1, so that its G = sqrt(w) F gives w C as G^T G (no multiply by the
// weight per tensor entry) and w F as sqrt(w) G.

struct PrincipalKernel {
    OneRing ring;
    std::vector<float> coef;  // per entry: sqrt(w) Dm^-1 (k00, k01, k10, k11) and sqrt(w) (w sums to 1 per vertex)
    static constexpr std::size_t kCoef = 5;

    // The entries in the per-frame loop's layout; per slot, kCoef x kLanes coefficients (k00
    // lanes, k01 lanes, ...), zero where the slot is not a triangle. Eight vertices per batch:
    // one AVX2 register, or two SSE ones (a batch's lanes share its slot count, so the SSE path
    // walks a few more zero slots than with batches of four; they add exact zeros).
    static constexpr std::size_t kLanes = 8;
    FanBatches fans;
    std::vector<float> slot_coef;
    // Whether evaluate runs eight lanes per AVX2 register (the default where the CPU has AVX2 and
    // RIGSCOPE_NO_AVX2 is not set) or four per SSE register; both give the same bits (tests
    // compare them).
    bool avx2 = avx2_default();

    PrincipalKernel() = default;
    PrincipalKernel(const std::vector<std::uint32_t>& triangles, const Topology& topo,
                    const std::vector<Eigen::Vector3f>& rest_positions);

    // Welded vertices [begin, end): lambda_max, lambda_min and the direction (3 floats per vertex,
    // world space, unit; 0 where the vertex has no rest triangle or the direction collapses).
    // Returns how many vertices have no rest triangle (their lambdas are 1).
    std::size_t evaluate(const Eigen::Vector3f* positions, std::size_t begin, std::size_t end, float* lambda_max,
                         float* lambda_min, float* dir) const;

    // evaluate, then map_t over the same vertices, in one pass (the same bits); returns map_t's
    // count.
    std::size_t evaluate_and_map(const Eigen::Vector3f* positions, std::size_t begin, std::size_t end, float* lambda_max,
                                 float* lambda_min, float* dir, float* t_compress, float* t_stretch) const;

    // Whether the layout holds the edge sums (fan_batches' edges: built from a topology that still
    // had its neighbour lists, on a build with the SIMD kernels), for evaluate_with_t.
    bool fuses_edge_t() const { return !fans.sum_start.empty(); }

    // evaluate (t_compress null) or evaluate_and_map, and in the same pass the edge measure's T of
    // the same vertices: the positions it loads for the triangles give the edge lengths too, summed
    // per vertex in its neighbour list's order, so t gets tension_block's bits (tests compare
    // them). rest_lengths: mean rest edge length per welded vertex (MeshTension::rest_lengths).
    // Needs fuses_edge_t(). Returns the measure's count (evaluate's or evaluate_and_map's) and
    // tension_block's (T fell back to 1).
    struct Counts {
        std::size_t measure, edge;
    };
    Counts evaluate_with_t(const Eigen::Vector3f* positions, std::size_t begin, std::size_t end, float* lambda_max,
                           float* lambda_min, float* dir, float* t_compress, float* t_stretch, const float* rest_lengths,
                           float* t) const;

    // The maps' T of welded vertices [begin, end): t_compress = 1 / lambda_min and t_stretch =
    // 1 / lambda_max by t_of_lambda's rule. Returns how many vertices fell back to T = 1 on either
    // side or have no rest triangle.
    std::size_t map_t(const float* lambda_max, const float* lambda_min, std::size_t begin, std::size_t end, float* t_compress,
                      float* t_stretch) const;

    // evaluate, evaluate_and_map and map_t as scalar loops: what they run where the SIMD kernels
    // are not built (non-x86, or RIGSCOPE_SIMD=OFF); the same bits (tests compare them).
    std::size_t evaluate_scalar(const Eigen::Vector3f* positions, std::size_t begin, std::size_t end, float* lambda_max,
                                float* lambda_min, float* dir) const;
    std::size_t evaluate_and_map_scalar(const Eigen::Vector3f* positions, std::size_t begin, std::size_t end,
                                        float* lambda_max, float* lambda_min, float* dir, float* t_compress,
                                        float* t_stretch) const;
    std::size_t map_t_scalar(const float* lambda_max, const float* lambda_min, std::size_t begin, std::size_t end,
                             float* t_compress, float* t_stretch) const;
};

// T from a stretch: 1 / lambda, with T = 1 where lambda is 0 or the result not finite (the edge
// measure's rule). Returns whether the value was usable.
inline bool t_of_lambda(float lambda, float& t) {
    const float v = 1.0f / lambda;
    const bool ok = lambda > 0 && v - v == 0.0f;
    t = ok ? v : 1.0f;
    return ok;
}

}  // namespace rigscope
