// intersect's set-up on the run's threads (src/core/intersect.cpp: the fans, the weld, the tree,
// the gather into leaf order, the leaves' neighbours): an engine built and run on 1, 2 and 3
// threads gives the same pairs, joints and lengths bit for bit, on a mesh large enough for
// several of the set-up's fixed blocks (faces, triangles, vertices), with quads (fans), a split
// seam the weld joins, and a fold that passes through itself.
#include <catch2/catch.hpp>

#include <Eigen/Core>
#include <cmath>
#include <cstring>
#include <vector>

#include "rigscope/core/intersect.h"
#include "rigscope/core/parallel.h"

using namespace rigscope;

namespace {

// A sheet of w x h quads folded back over itself at u = 0.6, rippled so the two layers cross
// along many lines; the vertices of column `seam` written twice (the quads right of it use the
// copies), as an exporter splits a UV seam.
Mesh folded_sheet(int w, int h, int seam) {
    Mesh m;
    m.name = "sheet";
    auto point = [&](int i, int j) {
        const float u = float(i) / float(w), v = float(j) / float(h);
        const float x = u < 0.6f ? u : 1.2f - u;  // the fold
        const float z = 0.02f * std::sin(40.f * v + 9.f * u) * (u < 0.6f ? 1.f : -1.f) + 0.01f * (u - 0.6f);
        return Eigen::Vector3f(x, v, z);
    };
    std::vector<std::uint32_t> index((w + 1) * (h + 1)), copy((h + 1), 0);
    for (int i = 0; i <= w; ++i)
        for (int j = 0; j <= h; ++j) {
            index[i * (h + 1) + j] = static_cast<std::uint32_t>(m.positions.size());
            m.positions.push_back(point(i, j));
        }
    for (int j = 0; j <= h; ++j) {
        copy[j] = static_cast<std::uint32_t>(m.positions.size());
        m.positions.push_back(point(seam, j));
    }
    auto at = [&](int i, int j, bool right_of_seam) { return i == seam && right_of_seam ? copy[j] : index[i * (h + 1) + j]; };
    for (int i = 0; i < w; ++i)
        for (int j = 0; j < h; ++j) {
            const bool right = i >= seam;
            m.face_indices.insert(m.face_indices.end(), {at(i, j, right), at(i + 1, j, right), at(i + 1, j + 1, right), at(i, j + 1, right)});
            m.face_offsets.push_back(static_cast<std::uint32_t>(m.face_indices.size()));
        }
    return m;
}

}  // namespace

TEST_CASE("intersect: the set-up on 1, 2 and 3 threads gives the same frames, bit for bit", "[intersect]") {
    Scene scene;
    scene.meshes.push_back(folded_sheet(300, 260, 117));  // 78,000 quads: 156,000 triangles, 78,561 vertices
    const std::vector<Eigen::Vector3f>& stored = scene.meshes[0].positions;
    // A second frame: the sheet stretched along y, so every box is refitted.
    std::vector<Eigen::Vector3f> stretched = stored;
    for (Eigen::Vector3f& p : stretched) p.y() *= 1.25f;
    std::vector<IntersectFrame> first, second;
    for (unsigned threads : {1u, 2u, 3u}) {
        ThreadPool pool(threads);
        IntersectEngine engine(scene, {0}, true, &pool);
        REQUIRE(engine.triangle_count() == 2 * 300 * 260);
        first.emplace_back();
        engine.evaluate({stored}, &pool, first.back());
        second.emplace_back();
        engine.evaluate({stretched}, &pool, second.back());
    }
    REQUIRE(first[0].pairs.size() > 1000);
    REQUIRE(second[0].pairs.size() > 1000);
    for (const auto* frames : {&first, &second})
        for (std::size_t t = 1; t < frames->size(); ++t) {
            const IntersectFrame &a = (*frames)[0], &b = (*frames)[t];
            REQUIRE(a.pairs.size() == b.pairs.size());
            CHECK(std::memcmp(&a.length, &b.length, sizeof(double)) == 0);
            for (std::size_t i = 0; i < a.pairs.size(); ++i) {
                REQUIRE(a.pairs[i].face_a == b.pairs[i].face_a);
                REQUIRE(a.pairs[i].face_b == b.pairs[i].face_b);
                REQUIRE(a.pairs[i].joint == b.pairs[i].joint);
                REQUIRE(std::memcmp(&a.pairs[i].length, &b.pairs[i].length, sizeof(double)) == 0);
            }
        }
    // The seam is welded: no pair of faces on either side of it that share its points.
    for (const FacePair& p : first[0].pairs) {
        const std::uint32_t ia = p.face_a / 260, ib = p.face_b / 260;
        CHECK_FALSE(((ia == 116 && ib == 117) || (ia == 117 && ib == 116)));
    }
}
