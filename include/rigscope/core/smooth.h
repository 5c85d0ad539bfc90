// One-ring averaging of per-vertex values on the welded topology (--smooth N): each iteration
// replaces every value by the weighted mean of its edge neighbours' values of the previous
// iteration (Jacobi order: the result does not depend on the order vertices are visited, nor on
// how they are split over threads).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "rigscope/core/parallel.h"
#include "rigscope/core/topology.h"

namespace rigscope {

enum class SmoothWeights { uniform, cotan };

struct Smoother {
    std::vector<std::uint32_t> offsets;    // per welded vertex, plus one (the topology's edges)
    std::vector<std::uint32_t> neighbours;  // welded ids
    // cotan only: per entry, w_ij = (cot alpha + cot beta) / 2 from the rest triangles on the edge,
    // clamped at 0 (an obtuse pair would give a negative weight, and the mean would no longer be a
    // convex combination); per vertex the sum. A vertex whose weights sum to 0 keeps its value.
    std::vector<float> weights;
    std::vector<float> weight_sum;
    SmoothWeights kind = SmoothWeights::uniform;
    // The same lists in batches of 8 consecutive vertices, one neighbour per lane and slot, for
    // the AVX2 step of 1 or 2 fields (src/core/smooth_layout.h); the last n % 8 vertices and
    // other field counts take the scalar loop. Both give the same bits (tests compare them).
    std::vector<std::uint32_t> batch_slot_start, batch_group_start, batch_index;
    std::vector<float> batch_weight;  // cotan only
    // Whether step uses the AVX2 path (set by the constructor where the CPU has AVX2 and
    // RIGSCOPE_NO_AVX2 is not set; false: the scalar loop everywhere).
    bool avx2 = false;

    Smoother() = default;
    // topo must still hold its neighbour lists; triangles are welded_triangles(mesh, topo) and
    // rest the file vertices' rest positions (cotan only).
    Smoother(const Topology& topo, SmoothWeights kind, const std::vector<std::uint32_t>& triangles,
             const std::vector<Eigen::Vector3f>& rest);

    std::size_t size() const { return offsets.empty() ? 0 : offsets.size() - 1; }

    // One iteration over welded vertices [begin, end) of `fields` interleaved values per vertex:
    // out[fields * i + k] from in's neighbours; fields is 1 to 4.
    void step(const float* in, float* out, std::size_t fields, std::size_t begin, std::size_t end) const;
    // The same with the scalar loop only (what the AVX2 path must match bit for bit).
    void step_scalar(const float* in, float* out, std::size_t fields, std::size_t begin, std::size_t end) const;

    // `iterations` steps of the interleaved values in place (scratch is resized and reused), in
    // blocks of `block` vertices over the pool.
    void smooth(std::vector<float>& values, std::size_t fields, int iterations, std::vector<float>& scratch,
                ThreadPool* pool, std::size_t block) const;

private:
    void make_cotan_weights(const std::vector<std::uint32_t>& triangles, const std::vector<Eigen::Vector3f>& rest,
                            const Topology& topo);
};

}  // namespace rigscope
