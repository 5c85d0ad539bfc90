// Which kernel computes a measure: the SSE kernels where the build has them (measure_sse.cpp),
// the principal measure's AVX2 kernel where the CPU has it too (measure_avx2.cpp, core/simd.h),
// the scalar loops otherwise (measure_scalar.cpp). All give the same bits.
#include "measure_kernels.h"
#include "rigscope/core/error.h"

namespace rigscope {

#if defined(RIGSCOPE_SSE_KERNELS)

// Four vertices per register, the scalar path's arithmetic lane by lane (measure_sse.cpp).
std::size_t AreaKernel::evaluate(const Eigen::Vector3f* positions, std::size_t begin, std::size_t end, float* t) const {
    return detail::area_sse(*this, positions, begin, end, t);
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
    return detail::principal_sse(k, begin, end, out);
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
    return detail::map_t_sse(*this, lmax, lmin, begin, end, tc, ts);
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

}  // namespace rigscope
