#include "rigscope/core/rivet_verdict.h"

#include <algorithm>

namespace rigscope {

RivetFitVerdict judge_rivet_fit(const RivetFitLimit& limit, const std::vector<RivetFitSample>& rivets, double diagonal) {
    RivetFitVerdict v;
    v.limit = limit;
    v.diagonal = diagonal;
    for (std::size_t i = 0; i < rivets.size(); ++i) {
        const double rel = diagonal > 0 ? rivets[i].max_error / diagonal : 0.0;
        v.relative.push_back(rel);
        const bool past = !(rel <= limit.max_relative);
        v.rivet_failed.push_back(rivets[i].undetermined || past);
        if (rivets[i].undetermined) v.unfit.push_back(i);
        else if (past) v.worse.push_back(i);
    }
    std::stable_sort(v.worse.begin(), v.worse.end(), [&](std::size_t a, std::size_t b) { return v.relative[a] > v.relative[b]; });
    return v;
}

}  // namespace rigscope
