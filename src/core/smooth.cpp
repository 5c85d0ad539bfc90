#include "rigscope/smooth.h"

#include <algorithm>
#include <cmath>

namespace rigscope {

Smoother::Smoother(const Topology& topo, SmoothWeights k, const std::vector<std::uint32_t>& tris,
                   const std::vector<Eigen::Vector3f>& rest)
    : offsets(topo.neighbour_offsets), neighbours(topo.neighbours), kind(k) {
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

void Smoother::step(const float* in, float* out, std::size_t fields, std::size_t begin, std::size_t end) const {
    constexpr std::size_t kMax = 4;
    for (std::size_t i = begin; i < end; ++i) {
        const std::uint32_t e0 = offsets[i], e1 = offsets[i + 1];
        float acc[kMax] = {0, 0, 0, 0};
        float sum;
        if (kind == SmoothWeights::cotan) {
            for (std::uint32_t e = e0; e < e1; ++e)
                for (std::size_t k = 0; k < fields; ++k) acc[k] += weights[e] * in[fields * neighbours[e] + k];
            sum = weight_sum[i];
        } else {
            for (std::uint32_t e = e0; e < e1; ++e)
                for (std::size_t k = 0; k < fields; ++k) acc[k] += in[fields * neighbours[e] + k];
            sum = static_cast<float>(e1 - e0);
        }
        for (std::size_t k = 0; k < fields; ++k) out[fields * i + k] = sum > 0 ? acc[k] / sum : in[fields * i + k];
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
