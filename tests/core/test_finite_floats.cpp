// floats_finite, the AVX2 loop and the portable one, against std::isfinite on every value: one
// NaN, infinity or -infinity at each position of arrays of 0 to 70 floats (the AVX2 loop's two
// lanes of eight, its single eight and its tail), among finite values at the edges of the range
// (the largest float, denormals, -0) that a scan of the wrong bits would call infinite.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "rigscope/core/finite_floats.h"
#include "rigscope/core/simd.h"

using namespace rigscope;

namespace {

bool oracle(const std::vector<float>& v) {
    for (const float f : v)
        if (!std::isfinite(f)) return false;
    return true;
}

}  // namespace

TEST_CASE("floats_finite finds any NaN or infinity, on AVX2 and without", "[finite]") {
    using L = std::numeric_limits<float>;
    const float edges[] = {L::max(), -L::max(), L::denorm_min(), -L::min(), -0.0f, 0.0f, 1.0f, 3.4e38f};
    const float bad[] = {L::quiet_NaN(), -L::quiet_NaN(), L::signaling_NaN(), L::infinity(), -L::infinity()};
    std::vector<bool> paths{false};
    if (avx2_supported()) paths.push_back(true);
    std::mt19937 rng(7);
    std::size_t checked = 0;
    for (const bool avx2 : paths) {
        for (std::size_t n = 0; n <= 70; ++n) {
            std::vector<float> v(n);
            for (float& f : v) f = edges[rng() % 8];
            REQUIRE(floats_finite(v.data(), n, avx2) == oracle(v));
            REQUIRE(oracle(v));
            for (std::size_t at = 0; at < n; ++at)
                for (const float b : bad) {
                    const float keep = v[at];
                    v[at] = b;
                    REQUIRE(floats_finite(v.data(), n, avx2) == oracle(v));
                    REQUIRE(!oracle(v));
                    v[at] = keep;
                    ++checked;
                }
        }
    }
    CHECK(checked > 0);
}
