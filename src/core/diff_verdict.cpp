#include "rigscope/core/diff_verdict.h"

#include <algorithm>
#include <cmath>

namespace rigscope {

std::vector<DiffVertexRef> diff_ranked(const std::vector<DiffMesh>& meshes, bool t_change) {
    auto key = [&](const DiffVertexRef& r) {
        return t_change ? std::fabs(meshes[r.mesh].t_change[r.vertex]) : meshes[r.mesh].displacement[r.vertex];
    };
    std::vector<DiffVertexRef> all;
    for (std::uint32_t m = 0; m < meshes.size(); ++m)
        for (std::uint32_t v = 0; v < meshes[m].displacement.size(); ++v) all.push_back({m, v});
    std::stable_sort(all.begin(), all.end(), [&](const DiffVertexRef& a, const DiffVertexRef& b) { return key(a) > key(b); });
    return all;
}

std::vector<DiffVertexRef> diff_ranked_seams(const std::vector<DiffMesh>& meshes) {
    std::vector<DiffVertexRef> all;
    for (std::uint32_t m = 0; m < meshes.size(); ++m)
        for (std::uint32_t s = 0; s < meshes[m].seams.size(); ++s) all.push_back({m, s});
    std::stable_sort(all.begin(), all.end(), [&](const DiffVertexRef& a, const DiffVertexRef& b) {
        return meshes[a.mesh].seams[a.vertex].gap > meshes[b.mesh].seams[b.vertex].gap;
    });
    return all;
}

bool DiffVerdict::failed() const {
    return std::any_of(cases.begin(), cases.end(), [](const DiffCaseVerdict& c) { return c.failed(); });
}

DiffVerdict judge_diff(const DiffLimits& lim, const std::vector<DiffMesh>& meshes, const std::vector<DiffFrame>& frames) {
    DiffVerdict v;
    const std::vector<DiffVertexRef> by_disp = diff_ranked(meshes, false);
    if (by_disp.empty() || frames.empty()) v.cases.push_back(DiffCaseVerdict{DiffCaseKind::nothing_compared, 0, {}});
    // Ranked worst first: the failures are the ranking's head, up to the first value within.
    auto past = [&](DiffCaseKind kind, double bound) {
        DiffCaseVerdict c{kind, bound, {}};
        const bool t = kind == DiffCaseKind::t_change;
        for (const DiffVertexRef& r : t ? diff_ranked(meshes, true) : by_disp) {
            const double x = t ? std::fabs(meshes[r.mesh].t_change[r.vertex]) : meshes[r.mesh].displacement[r.vertex];
            if (!(x > bound)) break;
            c.failures.push_back(r);
        }
        v.cases.push_back(std::move(c));
    };
    if (lim.has_displacement) past(DiffCaseKind::displacement, lim.max_displacement);
    if (lim.has_t_change) past(DiffCaseKind::t_change, lim.max_t_change);
    // With a limit given the diff is a check, and a torn seam (a crack in NEW's surface where OLD
    // had none) is its own case: failed by a gap past --max-displacement, or by any gap without.
    if (lim.seams_checked && (lim.has_displacement || lim.has_t_change)) {
        DiffCaseVerdict c{DiffCaseKind::seam_torn, lim.has_displacement ? lim.max_displacement : 0.0, {}};
        for (const DiffVertexRef& r : diff_ranked_seams(meshes))
            if (meshes[r.mesh].seams[r.vertex].gap > c.bound) c.failures.push_back(r);
        v.cases.push_back(std::move(c));
    }
    return v;
}

}  // namespace rigscope
