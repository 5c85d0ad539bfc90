#include "rigscope/core/check_verdict.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

namespace rigscope {

namespace {

// Where a limit fails: below it (stretch T, lambda_min) or above it (compress T, lambda_max).
bool fails_above(CheckLimitKind kind) { return kind == CheckLimitKind::compress || kind == CheckLimitKind::max_lambda; }

bool lambda_limit(CheckLimitKind kind) { return kind == CheckLimitKind::max_lambda || kind == CheckLimitKind::min_lambda; }

}  // namespace

bool stretch_side(CheckLimitKind kind) { return kind == CheckLimitKind::stretch || kind == CheckLimitKind::max_lambda; }

float check_value(CheckLimitKind kind, float t) {
    // In double, then rounded once: the float nearest the true 1 / T, which is what the outputs
    // print (a float divide could land one ulp off it).
    return lambda_limit(kind) ? static_cast<float>(1.0 / static_cast<double>(t)) : t;
}

bool check_fails(CheckLimitKind kind, double limit, float value) {
    const double v = value;
    return fails_above(kind) ? v > limit : v < limit;
}

bool stretch_t_fails(const CheckLimits& l, float t) {
    return (l.has_stretch && check_fails(CheckLimitKind::stretch, l.max_stretch, check_value(CheckLimitKind::stretch, t))) ||
           (l.has_max_lambda && check_fails(CheckLimitKind::max_lambda, l.max_lambda, check_value(CheckLimitKind::max_lambda, t)));
}

bool compress_t_fails(const CheckLimits& l, float t) {
    return (l.has_compress && check_fails(CheckLimitKind::compress, l.max_compress, check_value(CheckLimitKind::compress, t))) ||
           (l.has_min_lambda && check_fails(CheckLimitKind::min_lambda, l.min_lambda, check_value(CheckLimitKind::min_lambda, t)));
}

bool CheckVerdict::failed() const {
    if (!evaluated) return true;
    for (const CheckLimitVerdict& l : limits)
        if (!l.failures.empty()) return true;
    return false;
}

CheckVerdict judge_check(const CheckLimits& given, const std::vector<CheckMeshExtremes>& meshes) {
    CheckVerdict v;
    v.given = given;
    const std::pair<CheckLimitKind, bool> order[] = {{CheckLimitKind::stretch, given.has_stretch},
                                                     {CheckLimitKind::compress, given.has_compress},
                                                     {CheckLimitKind::max_lambda, given.has_max_lambda},
                                                     {CheckLimitKind::min_lambda, given.has_min_lambda}};
    const double value_of[] = {given.max_stretch, given.max_compress, given.max_lambda, given.min_lambda};
    for (std::size_t k = 0; k < 4; ++k)
        if (order[k].second) v.limits.push_back(CheckLimitVerdict{order[k].first, value_of[k], {}, 0});
    for (std::size_t m = 0; m < meshes.size(); ++m) {
        const CheckMeshExtremes& e = meshes[m];
        v.evaluated |= !e.lo_t.empty();
        for (std::size_t w = 0; w < e.lo_t.size(); ++w)
            for (CheckLimitVerdict& l : v.limits) {
                const bool low = stretch_side(l.kind);
                const float t = low ? e.lo_t[w] : e.hi_t[w];
                const float value = check_value(l.kind, t);
                if (!check_fails(l.kind, l.limit, value)) continue;
                l.failures.push_back(CheckFailure{m, static_cast<std::uint32_t>(w), low ? e.lo_frame[w] : e.hi_frame[w], t, value});
                l.file_vertices += e.file_offsets[w + 1] - e.file_offsets[w];
            }
    }
    // Stable: equal values keep the order of meshes and welded vertices. Worst first.
    for (CheckLimitVerdict& l : v.limits)
        std::stable_sort(l.failures.begin(), l.failures.end(), [above = fails_above(l.kind)](const CheckFailure& a, const CheckFailure& b) {
            return above ? a.value > b.value : a.value < b.value;
        });
    return v;
}

std::vector<CheckFailure> side_failures(const CheckVerdict& verdict, bool stretch) {
    std::vector<CheckFailure> out;
    for (const CheckLimitVerdict& l : verdict.limits)
        if (stretch_side(l.kind) == stretch) out.insert(out.end(), l.failures.begin(), l.failures.end());
    // A vertex past both limits of its side is one offender (the same T and frame in both lists).
    auto where = [](const CheckFailure& f) { return std::make_tuple(f.mesh, f.welded); };
    std::sort(out.begin(), out.end(), [&](const CheckFailure& a, const CheckFailure& b) { return where(a) < where(b); });
    out.erase(std::unique(out.begin(), out.end(), [&](const CheckFailure& a, const CheckFailure& b) { return where(a) == where(b); }), out.end());
    std::stable_sort(out.begin(), out.end(), [stretch](const CheckFailure& a, const CheckFailure& b) { return stretch ? a.t < b.t : a.t > b.t; });
    return out;
}

VolumeLossVerdict judge_volume_loss(double limit, std::vector<VolumeSeries> series, std::vector<Frame> frames) {
    VolumeLossVerdict v;
    v.limit = limit;
    v.series = std::move(series);
    v.frames = std::move(frames);
    for (std::size_t s = 0; s < v.series.size(); ++s) {
        const std::vector<double>& r = v.series[s].ratios;
        bool any = false;
        VolumeLossFailure worst{s, 0, 1, -std::numeric_limits<double>::infinity()};
        for (std::size_t f = 0; f < r.size(); ++f) {
            if (std::isnan(r[f])) continue;
            any = true;
            const double loss = 1.0 - r[f];
            if (loss > worst.loss) worst = VolumeLossFailure{s, f, r[f], loss};
        }
        if (!any) ++v.unjudged;
        else if (worst.loss > limit) v.failures.push_back(worst);
    }
    std::stable_sort(v.failures.begin(), v.failures.end(), [](const VolumeLossFailure& a, const VolumeLossFailure& b) { return a.loss > b.loss; });
    return v;
}

}  // namespace rigscope
