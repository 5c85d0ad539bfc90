// The node group's remap of T, checked against values worked out by hand from methods.md.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "rigscope/core/tension.h"
#include "rigscope/core/tension_map.h"

using namespace rigscope;

TEST_CASE("smooth min/max are Blender's polynomial form", "[tension]") {
    // Far apart (|a-b| >= k): the plain min/max.
    CHECK(smooth_min(0.75, 1.0, 0.1) == Approx(0.75));
    CHECK(smooth_max(1.0 / 0.6, 1.0, 0.1) == Approx(1.0 / 0.6));
    // Equal inputs: h = 1, so min - k/6.
    CHECK(smooth_min(1.0, 1.0, 0.3) == Approx(1.0 - 0.3 / 6));
    CHECK(smooth_max(1.0, 1.0, 0.3) == Approx(1.0 + 0.3 / 6));
    // |a-b| = 0.05 with k = 0.1: h = 0.5, correction 0.125 * 0.1 / 6.
    CHECK(smooth_min(0.95, 1.0, 0.1) == Approx(0.95 - 0.125 * 0.1 / 6));
    // k = 0: plain.
    CHECK(smooth_min(0.99, 1.0, 0.0) == Approx(0.99));
}

TEST_CASE("Default parameters: t_s 0.75, t_c 1/0.6, linear ramps", "[tension]") {
    TensionParams p;
    const TensionRange r = tension_range(p);
    CHECK(r.t_s == Approx(0.75));
    CHECK(r.t_c == Approx(1.0 / 0.6));
    CHECK(stretch_of(1.0f, r, p) == 0.0f);
    CHECK(compress_of(1.0f, r, p) == 0.0f);
    CHECK(stretch_of(0.875f, r, p) == Approx(0.5));        // (1 - 0.875) / 0.25
    CHECK(stretch_of(0.5f, r, p) == Approx(1.0));          // clamped
    CHECK(compress_of(1.0f + 1.0f / 3.0f, r, p) == Approx(0.5));  // (1/3) / (2/3)
    CHECK(compress_of(3.0f, r, p) == Approx(1.0));
    CHECK(compress_of(0.8f, r, p) == 0.0f);
    CHECK(stretch_of(1.2f, r, p) == 0.0f);
}

TEST_CASE("Falloff shapes the ramp as ramp^(1/falloff), and the weight limit scales it", "[tension]") {
    TensionParams p;
    p.falloff = 2.0;
    p.weight_limit = 0.5;
    const TensionRange r = tension_range(p);
    // ramp 0.5 -> sqrt(0.5) * 0.5
    CHECK(stretch_of(0.875f, r, p) == Approx(0.5 * std::sqrt(0.5)));
    p.falloff = 0.5;
    CHECK(stretch_of(0.875f, r, p) == Approx(0.5 * 0.25));
}

TEST_CASE("t_s or t_c at 1 and compress_area 0 stay finite", "[tension]") {
    TensionParams p;
    p.stretch_area = 1.0;
    p.smooth_k = 0.0;
    TensionRange r = tension_range(p);
    CHECK(r.t_s == 1.0);
    CHECK(stretch_of(0.999f, r, p) == 1.0f);  // zero-width ramp: any stretch is full
    CHECK(stretch_of(1.0f, r, p) == 0.0f);
    p.compress_area = 1.0;
    r = tension_range(p);
    CHECK(r.t_c == 1.0);
    CHECK(compress_of(1.001f, r, p) == 1.0f);
    CHECK(compress_of(1.0f, r, p) == 0.0f);
    p.compress_area = 0.0;  // guarded to 0.001: t_c = 1000
    r = tension_range(p);
    CHECK(r.t_c == Approx(1000.0));
    CHECK(compress_of(500.5f, r, p) == Approx(0.5).epsilon(1e-4));
}

TEST_CASE("smooth_k = 0 is the plain min/max in the thresholds", "[tension]") {
    TensionParams p;
    p.stretch_area = 0.95;
    p.compress_area = 0.98;
    p.smooth_k = 0.0;
    const TensionRange r = tension_range(p);
    CHECK(r.t_s == Approx(0.95));
    CHECK(r.t_c == Approx(1.0 / 0.98));
    p.smooth_k = 0.1;  // within k of 1: smoothed below / above
    const TensionRange s = tension_range(p);
    CHECK(s.t_s < 0.95);
    CHECK(s.t_c > 1.0 / 0.98);
}

namespace {

Mesh mesh_of(std::vector<Eigen::Vector3f> pts, std::vector<std::vector<std::uint32_t>> faces) {
    Mesh m;
    m.positions = std::move(pts);
    for (auto& f : faces) {
        m.face_indices.insert(m.face_indices.end(), f.begin(), f.end());
        m.face_offsets.push_back(static_cast<std::uint32_t>(m.face_indices.size()));
    }
    return m;
}

}  // namespace

TEST_CASE("T is rest over deformed mean edge length", "[tension]") {
    const Mesh m = mesh_of({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {{0, 1, 2}});
    const Topology topo = build_topology(m);
    std::vector<float> rest, def, t;
    mean_edge_lengths(topo, m.positions, rest);
    CHECK(rest[0] == Approx(1.0));
    CHECK(rest[1] == Approx((1 + std::sqrt(2.0)) / 2));
    std::vector<Eigen::Vector3f> scaled = {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}};
    mean_edge_lengths(topo, scaled, def);
    CHECK(tension_values(rest, def, t) == 0);
    for (float x : t) CHECK(x == Approx(0.5));  // uniformly stretched to twice the length
}

TEST_CASE("Degenerate geometry gives T = 1 with a count, never NaN or infinity", "[tension]") {
    // Vertex 3 is isolated; face (4,5,6) has coincident points; vertex 7 shares a zero-length edge.
    const Mesh m = mesh_of({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {5, 5, 5}, {2, 2, 2}, {2, 2, 2}, {2, 2, 2}},
                           {{0, 1, 2}, {4, 5, 6}});
    const Topology topo = build_topology(m, /*weld=*/false);
    std::vector<float> rest, def, t;
    mean_edge_lengths(topo, m.positions, rest);
    std::vector<Eigen::Vector3f> moved = m.positions;
    moved[1] = {0, 0, 0};  // collapse an edge in the deformed mesh too
    mean_edge_lengths(topo, moved, def);
    const std::size_t degenerate = tension_values(rest, def, t);
    CHECK(degenerate >= 4);  // isolated 3, the three coincident points
    for (float x : t) CHECK(std::isfinite(x));
    CHECK(t[3] == 1.0f);
    CHECK(t[4] == 1.0f);
    // Welded, the coincident face collapses to one point: counted as a degenerate face.
    const Topology welded = build_topology(m);
    CHECK(welded.degenerate_faces == 1);
}

TEST_CASE("Auto range takes the extremes, or a percentile of per-vertex extremes", "[tension]") {
    const std::vector<float> vmin = {0.5f, 0.8f, 0.9f, 1.0f, 1.0f};
    const std::vector<float> vmax = {1.0f, 1.1f, 1.2f, 1.4f, 2.0f};
    const TensionRange fallback;
    TensionRange r = auto_tension_range(vmin, vmax, 100.0, fallback);
    CHECK(r.t_s == Approx(0.5));
    CHECK(r.t_c == Approx(2.0));
    r = auto_tension_range(vmin, vmax, 75.0, fallback);  // numpy's linear percentile
    CHECK(r.t_s == Approx(0.8));
    CHECK(r.t_c == Approx(1.4));
    // Nothing stretched: keep the parameter's t_s.
    r = auto_tension_range({1.0f, 1.0f}, {1.2f, 1.3f}, 100.0, fallback);
    CHECK(r.t_s == Approx(fallback.t_s));
}

TEST_CASE("The remap of n values at once gives value by value the bits of the one-value form", "[tension]") {
    // The vectorised loop (the Python module's arrays) and the one-value form (CSV, glTF, merge)
    // must agree exactly, or the module would not equal the CLI's CSV. Parameter sets cover
    // each branch: ramp or zero width, plain, power or step falloff.
    std::vector<float> t;
    for (int i = 0; i <= 4000; ++i) t.push_back(static_cast<float>(i) / 1000.0f);  // 0 .. 4, with 1 itself
    t.push_back(INFINITY);
    t.push_back(1e-30f);
    struct Case {
        double falloff, stretch_area, compress_area, weight_limit, smooth_k;
    };
    for (const Case c : {Case{1.0, 0.75, 0.6, 1.0, 0.1}, Case{2.0, 0.5, 0.3, 0.5, 0.0}, Case{0.5, 1.0, 1.0, 0.8, 0.0},
                         Case{0.0, 0.9, 0.9, 1.0, 0.1}, Case{1.0, 1.0, 0.6, 1.0, 0.0}}) {
        TensionParams p;
        p.falloff = c.falloff, p.stretch_area = c.stretch_area, p.compress_area = c.compress_area;
        p.weight_limit = c.weight_limit, p.smooth_k = c.smooth_k;
        const TensionRange r = tension_range(p);
        const TensionRemap remap(r, p);
        std::vector<float> compress(t.size()), stretch(t.size());
        remap.compress(t.data(), t.size(), compress.data());
        remap.stretch(t.data(), t.size(), stretch.data());
        std::size_t differ = 0;
        for (std::size_t i = 0; i < t.size(); ++i) {
            differ += compress[i] != compress_of(t[i], r, p) || stretch[i] != stretch_of(t[i], r, p);
            CHECK(compress[i] >= 0.0f);
            CHECK(stretch[i] <= static_cast<float>(c.weight_limit));
        }
        INFO("falloff " << c.falloff << ", stretch_area " << c.stretch_area);
        CHECK(differ == 0);
    }
}
