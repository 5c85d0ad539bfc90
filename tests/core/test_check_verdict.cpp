// judge_check decides once who passes which limit; every output of a check reads that verdict.
// Here vertices sit exactly at a T limit and at a lambda limit and one ulp either side, and the
// text, the JUnit report, the JSON, the report page's data and Python's failure rows must all
// name the same offenders.
#include <catch2/catch.hpp>

#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

#include "rigscope/core/check_verdict.h"
#include "rigscope/io/check_report.h"
#include "rigscope/io/report_html.h"

using namespace rigscope;

namespace {

float below(float v) { return std::nextafter(v, 0.0f); }
float above(float v) { return std::nextafter(v, 10.0f); }

// One mesh, one file vertex per welded vertex; lo[w] / hi[w] its extremes (1: at rest).
CheckMeshExtremes mesh_of(const std::vector<float>& lo, const std::vector<float>& hi) {
    CheckMeshExtremes e;
    e.name = "body";
    std::vector<std::uint32_t> weld;
    for (std::uint32_t w = 0; w < lo.size(); ++w) weld.push_back(w);
    set_file_ids(e, weld, lo.size());
    e.lo_t = lo;
    e.hi_t = hi;
    for (std::size_t w = 0; w < lo.size(); ++w) {
        e.lo_frame.push_back(Frame{false, long(w) + 1, 0.0});
        e.hi_frame.push_back(Frame{false, long(w) + 1, 0.0});
    }
    return e;
}

using Ids = std::vector<std::uint32_t>;

// Every output of one check agrees with `expected`: per limit given (in order), the offenders'
// vertex ids, worst first.
void outputs_agree(const CheckLimits& limits, const CheckMeshExtremes& mesh, const std::vector<Ids>& expected) {
    const std::vector<CheckMeshExtremes> meshes{mesh};
    const CheckVerdict v = judge_check(limits, meshes);
    const CheckOutcome o = check_outcome(v, CheckRunInfo{}, meshes);
    const nlohmann::json json = nlohmann::json::parse(o.json);
    const std::vector<CheckListedFailure> python = check_listed_failures(v, meshes);
    REQUIRE(v.limits.size() == expected.size());
    REQUIRE(json["limits"].size() == expected.size());
    std::set<std::uint32_t> stretch_side_ids, compress_side_ids;
    bool any = false;
    for (std::size_t k = 0; k < expected.size(); ++k) {
        const CheckLimitVerdict& l = v.limits[k];
        INFO("limit " << k);
        Ids judged;
        for (const CheckFailure& f : l.failures) judged.push_back(f.welded);
        CHECK(judged == expected[k]);
        // The text: its count line.
        const std::size_t n = expected[k].size();
        const std::string counted = std::to_string(n) + (n == 1 ? " welded vertex (" : " welded vertices (") + std::to_string(n) +
                                    (n == 1 ? " file vertex)" : " file vertices)") + " past the limit";
        CHECK(o.report.find(": " + counted + "\n") != std::string::npos);
        // JUnit: the limit's case fails with that count, or passes.
        const char* type = l.kind == CheckLimitKind::stretch      ? "rigscope.check.stretch"
                           : l.kind == CheckLimitKind::compress   ? "rigscope.check.compress"
                           : l.kind == CheckLimitKind::max_lambda ? "rigscope.check.max_lambda"
                                                                  : "rigscope.check.min_lambda";
        CHECK((o.junit.find(std::string("type=\"") + type + "\"") != std::string::npos) == (n > 0));
        if (n > 0) CHECK(o.junit.find(counted) != std::string::npos);
        // The JSON: the count and the listed vertices (worst is above every count here).
        const auto& jl = json["limits"][k];
        CHECK(jl["welded_vertices"] == n);
        Ids listed;
        for (const auto& row : jl["worst"]) listed.push_back(row["vertices"][0].get<std::uint32_t>());
        CHECK(listed == expected[k]);
        // Python's rows.
        Ids rows;
        for (const CheckListedFailure& r : python)
            if (r.limit == jl["limit"].get<std::string>()) rows.push_back(r.ids[0]);
        CHECK(rows == expected[k]);
        for (std::uint32_t id : expected[k]) (stretch_side(l.kind) ? stretch_side_ids : compress_side_ids).insert(id);
        any |= n > 0;
    }
    // The page: each side's offenders once, and the same verdict.
    const ReportCheck page = report_check(v);
    CHECK(page.stretch_count == stretch_side_ids.size());
    CHECK(page.compress_count == compress_side_ids.size());
    CHECK(page.failed == any);
    CHECK(o.failed == any);
    CHECK(json["passed"] == !any);
    Ids page_stretch;
    for (const CheckFailure& f : side_failures(v, true)) page_stretch.push_back(f.welded);
    CHECK(std::set<std::uint32_t>(page_stretch.begin(), page_stretch.end()) == stretch_side_ids);
}

}  // namespace

TEST_CASE("check verdict: a T exactly at its limit passes, one ulp past fails, in every output", "[check_verdict]") {
    CheckLimits limits;
    limits.has_stretch = limits.has_compress = true;
    limits.max_stretch = 0.75;  // both exact in float: a T can sit on them
    limits.max_compress = 1.5;
    limits.file = "rig.glb";
    // Vertices 0..2: stretch side below, at, above 0.75; 3..5: compress side below, at, above 1.5.
    const CheckMeshExtremes e = mesh_of({below(0.75f), 0.75f, above(0.75f), 1, 1, 1}, {1, 1, 1, below(1.5f), 1.5f, above(1.5f)});
    outputs_agree(limits, e, {{0}, {5}});
}

TEST_CASE("check verdict: a lambda exactly at its limit passes, one ulp of T past it fails, in every output", "[check_verdict]") {
    // The lambdas these T stand for, rounded to float as every output shows them.
    const float at_max = 0.8f, at_min = 1.33333337f;
    REQUIRE(check_value(CheckLimitKind::max_lambda, at_max) == 1.25f);
    REQUIRE(check_value(CheckLimitKind::max_lambda, below(at_max)) > 1.25f);
    REQUIRE(check_value(CheckLimitKind::max_lambda, above(at_max)) < 1.25f);
    REQUIRE(check_value(CheckLimitKind::min_lambda, at_min) == 0.75f);
    REQUIRE(check_value(CheckLimitKind::min_lambda, below(at_min)) > 0.75f);
    REQUIRE(check_value(CheckLimitKind::min_lambda, above(at_min)) < 0.75f);
    // at_min is above 1 / 0.75 in double: the page's old rule (T > 1 / limit) failed the vertex
    // the text passed.
    REQUIRE(double(at_min) > 1.0 / 0.75);
    CheckLimits limits;
    limits.has_max_lambda = limits.has_min_lambda = true;
    limits.max_lambda = 1.25;
    limits.min_lambda = 0.75;
    limits.file = "rig.glb";
    const CheckMeshExtremes e =
        mesh_of({below(at_max), at_max, above(at_max), 1, 1, 1}, {1, 1, 1, below(at_min), at_min, above(at_min)});
    outputs_agree(limits, e, {{0}, {5}});
}

TEST_CASE("check verdict: a lambda shown past a limit not exact in float fails in every output", "[check_verdict]") {
    // T = 0x1.d1745ep-1 is above 1 / 1.1 in double (the page's old rule passed it), but its
    // lambda in float, 1.10000002, is past 1.1: the text lists it, so every output does.
    const float t = std::ldexp(float(0x1d1745e), -25);
    REQUIRE(double(t) > 1.0 / 1.1);
    REQUIRE(double(check_value(CheckLimitKind::max_lambda, t)) > 1.1);
    CheckLimits limits;
    limits.has_max_lambda = true;
    limits.max_lambda = 1.1;
    // Worst (highest lambda) first: vertex 1 (lambda 1.25), then 0.
    outputs_agree(limits, mesh_of({t, 0.8f, above(t)}, {1, 1, 1}), {{1, 0}});
}

TEST_CASE("check verdict: nothing evaluated never passes, on the page too", "[check_verdict]") {
    CheckLimits limits;
    limits.has_stretch = true;
    limits.max_stretch = 0.5;
    CheckMeshExtremes empty;
    empty.name = "body";
    const CheckVerdict v = judge_check(limits, {empty});
    CHECK(!v.evaluated);
    CHECK(v.failed());
    CHECK(report_check(v).failed);
    CHECK(check_outcome(v, CheckRunInfo{}, {empty}).failed);
}

TEST_CASE("check verdict: the per-frame rule is the extremes' rule", "[check_verdict]") {
    CheckLimits limits;
    limits.has_stretch = limits.has_max_lambda = true;
    limits.max_stretch = 0.75;
    limits.max_lambda = 1.25;
    for (float t : {below(0.75f), 0.75f, below(0.8f), 0.8f, above(0.8f)}) {
        const CheckVerdict v = judge_check(limits, {mesh_of({t}, {1})});
        CHECK(stretch_t_fails(limits, t) == v.failed());
    }
}
