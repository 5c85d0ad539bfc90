// Welding against a brute-force oracle, on meshes built to stress the grid: clusters far denser
// than the mesh's size suggests (the grid then refines), many copies of one point, points just
// inside and just outside the tolerance, and copies with other skin weights.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "rigscope/core/error.h"
#include "rigscope/core/topology.h"

using namespace rigscope;

namespace {

// The rule as documented in topology.h / topology.cpp, by comparing every pair: a vertex joins
// the first earlier representative (in file order) within the tolerance and with the same
// influences, else starts one.
std::vector<std::uint32_t> oracle_weld(const Mesh& mesh, double tol) {
    const std::size_t n = mesh.positions.size();
    std::vector<std::uint32_t> welded(n), reps;
    auto same = [&](std::uint32_t a, std::uint32_t b) {
        const Influences& inf = mesh.influences;
        if (inf.empty()) return true;
        if (inf.offsets[a + 1] - inf.offsets[a] != inf.offsets[b + 1] - inf.offsets[b]) return false;
        for (std::uint32_t i = inf.offsets[a]; i < inf.offsets[a + 1]; ++i) {
            bool found = false;
            for (std::uint32_t k = inf.offsets[b]; k < inf.offsets[b + 1]; ++k)
                found = found || (inf.joints[k] == inf.joints[i] && std::abs(inf.weights[k] - inf.weights[i]) <= 1e-4f);
            if (!found) return false;
        }
        return true;
    };
    for (std::uint32_t v = 0; v < n; ++v) {
        std::uint32_t match = 0xFFFFFFFFu;
        for (std::uint32_t r : reps)
            if ((mesh.positions[r] - mesh.positions[v]).cast<double>().norm() <= tol && same(r, v)) {
                match = r;
                break;
            }
        if (match == 0xFFFFFFFFu) {
            welded[v] = static_cast<std::uint32_t>(reps.size());
            reps.push_back(v);
        } else {
            welded[v] = welded[match];
        }
    }
    return welded;
}

double weld_tolerance(const Mesh& mesh) {
    Eigen::Vector3f lo = mesh.positions[0], hi = mesh.positions[0];
    for (const auto& p : mesh.positions) {
        lo = lo.cwiseMin(p);
        hi = hi.cwiseMax(p);
    }
    return (hi - lo).cast<double>().norm() * kWeldRelativeTolerance;
}

}  // namespace

TEST_CASE("weld matches the all-pairs rule on a dense cluster inside a large mesh", "[topology][weld]") {
    // A 1 km triangle and 6,000 points in a 5 cm ball: the grid's first cells (sized for 1 km)
    // hold the whole cluster, so the weld must refine the grid. A third of the points are copies
    // of earlier ones, some exact, some moved by 0.9 or 1.1 tolerances (just inside, just out).
    std::mt19937 rng(18);
    std::uniform_real_distribution<float> u(-0.05f, 0.05f);
    Mesh mesh;
    mesh.positions = {{1000, 0, 0}, {0, 1000, 0}, {0, 0, 1000}};
    const double tol = 1732.05 * kWeldRelativeTolerance;
    while (mesh.positions.size() < 6003) {
        if (mesh.positions.size() > 10 && rng() % 3 == 0) {
            const Eigen::Vector3f base = mesh.positions[3 + rng() % (mesh.positions.size() - 3)];
            const float k = static_cast<float>(tol) * (rng() % 2 ? 0.9f : 1.1f);
            const int axis = static_cast<int>(rng() % 3);
            Eigen::Vector3f p = base;
            if (rng() % 4) p[axis] += k;
            mesh.positions.push_back(p);
        } else {
            mesh.positions.emplace_back(u(rng), u(rng), u(rng));
        }
    }
    for (std::uint32_t v = 0; v + 2 < mesh.positions.size(); v += 3) mesh.face_indices.insert(mesh.face_indices.end(), {v, v + 1, v + 2});
    for (std::size_t f = 1; f <= mesh.face_indices.size() / 3; ++f) mesh.face_offsets.push_back(static_cast<std::uint32_t>(3 * f));
    const Topology topo = build_topology(mesh);
    const auto want = oracle_weld(mesh, weld_tolerance(mesh));
    REQUIRE(topo.welded_of == want);
    CHECK(topo.welded_count() < mesh.positions.size());  // the copies did weld
}

TEST_CASE("weld: copies of one point with other skin weights stay apart", "[topology][weld]") {
    Mesh mesh;
    const std::size_t n = 600;
    mesh.positions.assign(n, Eigen::Vector3f(0.5f, 0.5f, 0.5f));
    mesh.positions.emplace_back(0, 0, 0);
    mesh.positions.emplace_back(1, 1, 1);
    Influences& inf = mesh.influences;
    inf.offsets.push_back(0);
    for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
        // Three kinds of weights at the point: a welded vertex per kind.
        const float w = v < n ? 0.25f * static_cast<float>(v % 3 + 1) : 0.5f;
        inf.joints.insert(inf.joints.end(), {0, 1});
        inf.weights.insert(inf.weights.end(), {w, 1 - w});
        inf.offsets.push_back(static_cast<std::uint32_t>(inf.joints.size()));
    }
    const Topology topo = build_topology(mesh);
    REQUIRE(topo.welded_of == oracle_weld(mesh, weld_tolerance(mesh)));
    CHECK(topo.welded_count() == 5);
}

TEST_CASE("weld refuses thousands of unweldable vertices at one point instead of comparing every pair", "[topology][weld]") {
    // 12,000 vertices at one point, each with its own pair of joints: none may weld, and the
    // all-pairs comparisons (72 million) pass the weld's bound of 64 per vertex plus 2^26.
    Mesh mesh;
    const std::size_t n = 12000;
    mesh.positions.assign(n, Eigen::Vector3f::Zero());
    mesh.positions.emplace_back(1, 1, 1);
    Influences& inf = mesh.influences;
    inf.offsets.push_back(0);
    for (std::size_t v = 0; v <= n; ++v) {
        inf.joints.insert(inf.joints.end(), {static_cast<std::uint16_t>(v / 100), static_cast<std::uint16_t>(200 + v % 100)});
        inf.weights.insert(inf.weights.end(), {0.5f, 0.5f});
        inf.offsets.push_back(static_cast<std::uint32_t>(inf.joints.size()));
    }
    try {
        build_topology(mesh);
        FAIL("no error");
    } catch (const Error& e) {
        CHECK(e.code() == kExitBadInput);
        CHECK(std::string(e.what()).find("--weld off") != std::string::npos);
    }
    CHECK(build_topology(mesh, false).welded_count() == n + 1);
}
