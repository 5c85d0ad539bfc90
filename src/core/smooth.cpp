#include "rigscope/core/smooth.h"

#include <algorithm>
#include <cmath>

#include "rigscope/core/measure.h"
#include "rigscope/core/simd.h"
#include "smooth_layout.h"

namespace rigscope {

namespace {

// Smoother::batch_*: per batch, as many slots as its largest count; lanes past their vertex's
// count hold vertex 0 and weight 0 (the AVX2 step masks them to 0). A slot whose eight
// neighbours are consecutive ids, every lane live (the common case on a regular grid, where
// consecutive vertices have their neighbours at the same offsets), is one word: the first id
// with kRun set, read as one contiguous load.
void make_batches(Smoother& s) {
    constexpr std::size_t L = detail::SmoothLayout::kLanes;
    const std::size_t batches = s.size() / L;
    const bool cotan = s.kind == SmoothWeights::cotan;
    s.batch_slot_start.assign(1, 0);
    s.batch_group_start.assign(1, 0);
    s.batch_index.clear();
    s.batch_weight.clear();
    std::uint32_t ids[L];
    for (std::size_t b = 0; b < batches; ++b) {
        const std::uint32_t* off = s.offsets.data() + L * b;
        std::uint32_t slots = 0;
        for (std::size_t l = 0; l < L; ++l) slots = std::max(slots, off[l + 1] - off[l]);
        for (std::uint32_t j = 0; j < slots; ++j) {
            bool run = true;
            for (std::size_t l = 0; l < L; ++l) {
                const bool live = j < off[l + 1] - off[l];
                ids[l] = live ? s.neighbours[off[l] + j] : 0;
                if (cotan) s.batch_weight.push_back(live ? s.weights[off[l] + j] : 0.0f);
                run = run && live && ids[l] == ids[0] + l && ids[l] < detail::SmoothLayout::kRun;
            }
            if (run) s.batch_index.push_back(ids[0] | detail::SmoothLayout::kRun);
            else s.batch_index.insert(s.batch_index.end(), ids, ids + L);
        }
        s.batch_slot_start.push_back(s.batch_slot_start.back() + slots);
        s.batch_group_start.push_back(static_cast<std::uint32_t>(s.batch_index.size()));
    }
}

}  // namespace

Smoother::Smoother(const Topology& topo, SmoothWeights k, const std::vector<std::uint32_t>& tris,
                   const std::vector<Eigen::Vector3f>& rest)
    : offsets(topo.neighbour_offsets), neighbours(topo.neighbours), kind(k) {
    make_cotan_weights(tris, rest, topo);
    // Batches wherever the CPU could run them, so that tests can compare both paths even with
    // RIGSCOPE_NO_AVX2 set.
    if (avx2_supported()) make_batches(*this);
    avx2 = avx2_default();
}

void Smoother::make_cotan_weights(const std::vector<std::uint32_t>& tris, const std::vector<Eigen::Vector3f>& rest,
                                  const Topology& topo) {
    if (kind != SmoothWeights::cotan) return;
    weights.assign(neighbours.size(), 0.0);
    std::vector<double> w(neighbours.size(), 0.0);
    auto slot = [&](std::uint32_t i, std::uint32_t j) -> double* {
        for (std::uint32_t e = offsets[i]; e < offsets[i + 1]; ++e)
            if (neighbours[e] == j) return &w[e];
        return nullptr;  // a fan diagonal of a polygon: not an edge of the welded topology
    };
    for (std::size_t t = 0; t + 2 < tris.size(); t += 3) {
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t i = tris[t + k], j = tris[t + (k + 1) % 3], o = tris[t + (k + 2) % 3];
            const Eigen::Vector3d p = rest[topo.representative[o]].cast<double>();
            const Eigen::Vector3d a = rest[topo.representative[i]].cast<double>() - p;
            const Eigen::Vector3d b = rest[topo.representative[j]].cast<double>() - p;
            const double cross = a.cross(b).norm();
            if (!(cross > 0)) continue;
            const double half_cot = 0.5 * a.dot(b) / cross;
            if (double* s = slot(i, j)) *s += half_cot;
            if (double* s = slot(j, i)) *s += half_cot;
        }
    }
    weight_sum.assign(size(), 0.0f);
    for (std::size_t i = 0; i < size(); ++i) {
        double sum = 0;
        for (std::uint32_t e = offsets[i]; e < offsets[i + 1]; ++e) {
            weights[e] = static_cast<float>(std::max(w[e], 0.0));
            sum += weights[e];
        }
        weight_sum[i] = static_cast<float>(sum);
    }
}

namespace {

// One iteration with the field count and the weighting fixed at compile time, so the per-neighbour
// loop keeps its sums in registers (the runtime-count loop was most of --smooth's time).
template <std::size_t F, bool Cotan>
void step_fixed(const Smoother& s, const float* in, float* out, std::size_t begin, std::size_t end) {
    const std::uint32_t* off = s.offsets.data();
    const std::uint32_t* nb = s.neighbours.data();
    for (std::size_t i = begin; i < end; ++i) {
        const std::uint32_t e0 = off[i], e1 = off[i + 1];
        float acc[F] = {};
        for (std::uint32_t e = e0; e < e1; ++e) {
            const float* x = in + F * std::size_t(nb[e]);
            const float w = Cotan ? s.weights[e] : 1.0f;
            for (std::size_t k = 0; k < F; ++k) acc[k] += Cotan ? w * x[k] : x[k];
        }
        const float sum = Cotan ? s.weight_sum[i] : static_cast<float>(e1 - e0);
        for (std::size_t k = 0; k < F; ++k) out[F * i + k] = sum > 0 ? acc[k] / sum : in[F * i + k];
    }
}

template <std::size_t F>
void step_fields(const Smoother& s, const float* in, float* out, std::size_t begin, std::size_t end) {
    if (s.kind == SmoothWeights::cotan) step_fixed<F, true>(s, in, out, begin, end);
    else step_fixed<F, false>(s, in, out, begin, end);
}

}  // namespace

void Smoother::step(const float* in, float* out, std::size_t fields, std::size_t begin, std::size_t end) const {
#if defined(RIGSCOPE_AVX2_KERNEL)
    constexpr std::size_t L = detail::SmoothLayout::kLanes;
    const std::size_t batches = batch_slot_start.empty() ? 0 : batch_slot_start.size() - 1;
    const std::size_t b0 = (begin + L - 1) / L, b1 = std::min(end / L, batches);
    if (avx2 && fields <= 2 && b0 < b1) {
        const detail::SmoothLayout k{batch_slot_start.data(), batch_group_start.data(), batch_index.data(),
                                     kind == SmoothWeights::cotan ? batch_weight.data() : nullptr, weight_sum.data(),
                                     offsets.data()};
        step_scalar(in, out, fields, begin, L * b0);
        detail::smooth_avx2(k, in, out, fields, b0, b1);
        step_scalar(in, out, fields, L * b1, end);
        return;
    }
#endif
    step_scalar(in, out, fields, begin, end);
}

void Smoother::step_scalar(const float* in, float* out, std::size_t fields, std::size_t begin, std::size_t end) const {
    if (begin >= end) return;
    switch (fields) {
    case 1: step_fields<1>(*this, in, out, begin, end); break;
    case 2: step_fields<2>(*this, in, out, begin, end); break;
    case 3: step_fields<3>(*this, in, out, begin, end); break;
    default: step_fields<4>(*this, in, out, begin, end); break;
    }
}

void Smoother::smooth(std::vector<float>& values, std::size_t fields, int iterations, std::vector<float>& scratch,
                      ThreadPool* pool, std::size_t block) const {
    const std::size_t n = size();
    if (iterations <= 0 || n == 0) return;
    scratch.resize(values.size());
    block = std::max<std::size_t>(block, 1);
    const std::size_t tasks = (n + block - 1) / block;
    float* a = values.data();
    float* b = scratch.data();
    for (int it = 0; it < iterations; ++it) {
        run_tasks(pool, tasks, [&](std::size_t i) { step(a, b, fields, i * block, std::min(n, (i + 1) * block)); });
        std::swap(a, b);
    }
    if (a != values.data()) std::copy(scratch.begin(), scratch.end(), values.begin());
}

}  // namespace rigscope
