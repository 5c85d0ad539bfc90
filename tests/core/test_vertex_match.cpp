// covering_distance (core/vertex_match.h): the tolerance diff's refusal names, against a brute
// force over every pair.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "rigscope/core/vertex_match.h"

namespace {

double brute(const std::vector<Eigen::Vector3f>& a, const std::vector<Eigen::Vector3f>& b) {
    double worst = 0;
    for (int k = 0; k < 2; ++k) {
        const auto& from = k ? b : a;
        const auto& to = k ? a : b;
        for (const auto& p : from) {
            double best = INFINITY;
            for (const auto& q : to) best = std::min(best, (p.cast<double>() - q.cast<double>()).norm());
            worst = std::max(worst, best);
        }
    }
    return worst;
}

}  // namespace

TEST_CASE("covering_distance is the largest nearest-neighbour distance either way", "[diff]") {
    using rigscope::covering_distance;
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-1.0f, 1.0f), jitter(-1e-3f, 1e-3f);
    for (int round = 0; round < 20; ++round) {
        std::vector<Eigen::Vector3f> a, b;
        for (int i = 0; i < 300; ++i) a.emplace_back(u(rng), u(rng) * 0.1f, u(rng));  // a flat box: cells far from cubic
        for (const auto& p : a) b.emplace_back(p + Eigen::Vector3f(jitter(rng), jitter(rng), jitter(rng)));
        if (round % 2) b.emplace_back(3.0f, 0.0f, 0.0f);  // a point far outside a's box
        std::shuffle(b.begin(), b.end(), rng);
        CHECK(covering_distance(a, b) == brute(a, b));
    }
    const std::vector<Eigen::Vector3f> one = {{0, 0, 0}}, none;
    CHECK(covering_distance(one, one) == 0);
    CHECK(covering_distance(none, none) == 0);
    CHECK(std::isinf(covering_distance(one, none)));
}
