// The UV rasteriser of bake (core/uv_raster.h): the edge rule, the overlap rule, the row
// orientation and the padding, on meshes small enough to work out by hand.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "rigscope/core/uv_raster.h"

using namespace rigscope;

namespace {

// One image as bake makes it (run/bake_job.cpp): the covered texels of a zeroed image, then the
// padding.
// Two plans the same bits: their entries, padding passes and counts (what a plan made on
// threads must share with the one made on one thread).
void check_same_plan(const UvRasterPlan& one, const UvRasterPlan& many) {
    REQUIRE(one.covered.size() == many.covered.size());
    CHECK(std::memcmp(one.covered.data(), many.covered.data(), one.covered.size() * sizeof(UvRasterPlan::Texel)) == 0);
    CHECK(one.padded == many.padded);
    CHECK(one.sources == many.sources);
    CHECK(one.source_begin == many.source_begin);
    CHECK(one.pass_begin == many.pass_begin);
    CHECK(one.degenerate_faces == many.degenerate_faces);
    CHECK(one.outside_faces == many.outside_faces);
}

void bake_uv_image(const UvRasterPlan& plan, const float* values, std::vector<float>& out) {
    out.assign(std::size_t(plan.size) * std::size_t(plan.size), 0.0f);
    float* image = out.data();
    bake_uv_covered(plan, &values, &image, 1, 0, plan.covered.size());
    bake_uv_padding(plan, image);
}

// Uniform numbers in [0, 1) from a seed (a linear congruential generator: the same faces on every
// machine).
struct Uniform {
    std::uint32_t seed;
    float operator()() {
        seed = seed * 1664525u + 1013904223u;
        return float(seed >> 8) / float(1u << 24);
    }
};

// A quad over the unit square as two triangles sharing the diagonal (0,0)-(1,1), with the UV
// corners given per face corner.
Mesh square(bool quad) {
    Mesh m;
    m.positions.assign(4, Eigen::Vector3f::Zero());
    UvSet s;
    s.uv = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    if (quad) {
        m.face_indices = {0, 1, 2, 3};
        m.face_offsets = {0, 4};
    } else {
        m.face_indices = {0, 1, 2, 0, 2, 3};
        m.face_offsets = {0, 3, 6};
    }
    s.corners = m.face_indices;
    m.uv_sets.push_back(s);
    return m;
}

std::vector<int> coverage(const UvRasterPlan& p) {
    std::vector<int> count(std::size_t(p.size) * std::size_t(p.size), 0);
    for (const auto& t : p.covered) ++count[t.texel];
    return count;
}

}  // namespace

TEST_CASE("uv raster: texel centres on a shared edge are taken once", "[bake][uv_raster]") {
    // The diagonal u = v passes through every texel centre (i + 0.5, i + 0.5) of an odd image.
    const Mesh m = square(false);
    const UvRasterPlan p = plan_uv_raster(m, m.uv_sets[0], UvImage{5, false}, 0);
    const std::vector<int> count = coverage(p);
    for (int c : count) CHECK(c == 1);  // every texel once: no gap, no double cover
    CHECK(p.covered.size() == 25);
}

TEST_CASE("uv raster: the top-left rule decides which face takes an edge", "[bake][uv_raster]") {
    // Triangle (0,0),(1,0),(1,1) in UV, image rows v = 1 first (v up): in image space its corners
    // are (0,N),(N,N),(N,0): the diagonal is its upper-left edge, so it owns the diagonal's centres.
    Mesh m = square(false);
    m.face_indices = {0, 1, 2};
    m.face_offsets = {0, 3};
    m.uv_sets[0].corners = m.face_indices;
    const UvRasterPlan p = plan_uv_raster(m, m.uv_sets[0], UvImage{5, false}, 0);
    // Row j (v = 1 - (j + 0.5) / 5), column i: inside when u >= v, i.e. i + j >= 4.
    std::vector<int> count = coverage(p);
    for (int j = 0; j < 5; ++j)
        for (int i = 0; i < 5; ++i) CHECK(count[std::size_t(j * 5 + i)] == (i + j >= 4 ? 1 : 0));
    // With v down (glTF), the same triangle is mirrored in the image (its upper right), and the
    // diagonal is still an edge whose inside lies at larger x: it owns the centres on it. The
    // other triangle of the square, (0,0),(1,1),(0,1), then takes none of them.
    const UvRasterPlan q = plan_uv_raster(m, m.uv_sets[0], UvImage{5, true}, 0);
    count = coverage(q);
    for (int j = 0; j < 5; ++j)
        for (int i = 0; i < 5; ++i) CHECK(count[std::size_t(j * 5 + i)] == (i >= j ? 1 : 0));
    m.face_indices = {0, 2, 3};
    m.uv_sets[0].corners = m.face_indices;
    count = coverage(plan_uv_raster(m, m.uv_sets[0], UvImage{5, true}, 0));
    for (int j = 0; j < 5; ++j)
        for (int i = 0; i < 5; ++i) CHECK(count[std::size_t(j * 5 + i)] == (i < j ? 1 : 0));
}

TEST_CASE("uv raster: values interpolate linearly and rows follow the file's v", "[bake][uv_raster]") {
    const Mesh m = square(true);  // a quad, fanned from its first corner
    const float values[4] = {0.0f, 1.0f, 1.0f, 0.0f};  // value = u
    std::vector<float> img;
    bake_uv_image(plan_uv_raster(m, m.uv_sets[0], UvImage{4, false}, 0), values, img);
    for (int j = 0; j < 4; ++j)
        for (int i = 0; i < 4; ++i) CHECK(img[std::size_t(j * 4 + i)] == Approx((i + 0.5) / 4).margin(1e-6));
    const float by_v[4] = {0.0f, 0.0f, 1.0f, 1.0f};  // value = v
    bake_uv_image(plan_uv_raster(m, m.uv_sets[0], UvImage{4, false}, 0), by_v, img);
    CHECK(img[0] == Approx(1 - 0.5 / 4));  // row 0 is v = 1 (FBX, USD)
    bake_uv_image(plan_uv_raster(m, m.uv_sets[0], UvImage{4, true}, 0), by_v, img);
    CHECK(img[0] == Approx(0.5 / 4));      // row 0 is v = 0 (glTF)
}

TEST_CASE("uv raster: overlapping faces keep the first face in file order", "[bake][uv_raster]") {
    Mesh m;
    m.positions.assign(6, Eigen::Vector3f::Zero());
    m.face_indices = {0, 1, 2, 3, 4, 5};
    m.face_offsets = {0, 3, 6};
    UvSet s;
    s.uv = {{0, 0}, {1, 0}, {0, 1}, {0, 0}, {1, 0}, {0, 1}};  // the same triangle twice
    s.corners = m.face_indices;
    m.uv_sets.push_back(s);
    const float values[6] = {0.25f, 0.25f, 0.25f, 0.75f, 0.75f, 0.75f};
    std::vector<float> img;
    const UvRasterPlan p = plan_uv_raster(m, m.uv_sets[0], UvImage{8, false}, 0);
    bake_uv_image(p, values, img);
    std::size_t first = 0;
    for (float v : img) {
        CHECK((v == 0.0f || v == 0.25f));
        first += v == 0.25f;
    }
    CHECK(first == p.covered.size());
    CHECK(first > 0);
}

TEST_CASE("uv raster: padding fills by 8-neighbour passes with the mean, 0 beyond", "[bake][uv_raster]") {
    // One texel's worth of triangle in the middle of a 9 x 9 image: texel (4, 4) alone covered.
    Mesh m;
    m.positions.assign(3, Eigen::Vector3f::Zero());
    m.face_indices = {0, 1, 2};
    m.face_offsets = {0, 3};
    UvSet s;
    s.uv = {{4.2f / 9, 4.2f / 9}, {4.9f / 9, 4.2f / 9}, {4.2f / 9, 4.9f / 9}};
    s.corners = m.face_indices;
    m.uv_sets.push_back(s);
    const float values[3] = {0.5f, 0.5f, 0.5f};
    std::vector<float> img;
    const UvRasterPlan p = plan_uv_raster(m, m.uv_sets[0], UvImage{9, false}, 2);
    REQUIRE(p.covered.size() == 1);
    bake_uv_image(p, values, img);
    for (int j = 0; j < 9; ++j)
        for (int i = 0; i < 9; ++i) {
            // Chebyshev distance from the covered texel (4, 4).
            const int d = std::max(std::abs(i - 4), std::abs(j - 4));
            CHECK(img[std::size_t(j * 9 + i)] == (d <= 2 ? 0.5f : 0.0f));
        }
    CHECK(p.padded.size() == 24);
    // A degenerate UV triangle covers nothing and is counted.
    m.uv_sets[0].uv = {{0.1f, 0.1f}, {0.2f, 0.2f}, {0.3f, 0.3f}};
    const UvRasterPlan d = plan_uv_raster(m, m.uv_sets[0], UvImage{9, false}, 0);
    CHECK(d.covered.empty());
    CHECK(d.degenerate_faces == 1);
}

TEST_CASE("uv raster: the interleaved gather gives the scalar gather's bits", "[bake][uv_raster]") {
    // A fan of 6 irregular triangles (mirrored ones among them) over 7 vertices, 7 layers (one
    // group of four SIMD lanes and a scalar tail), values spread over many binades so that the
    // double sums round; the SSE2 loop and, where the CPU has it, the AVX2 one.
    Mesh m;
    m.positions.assign(7, Eigen::Vector3f::Zero());
    UvSet s;
    s.uv = {{0.5f, 0.5f}, {0.95f, 0.41f}, {0.77f, 0.93f}, {0.31f, 0.88f}, {0.03f, 0.52f}, {0.22f, 0.07f}, {0.71f, 0.02f}};
    for (std::uint32_t k = 1; k <= 6; ++k) {
        m.face_indices.insert(m.face_indices.end(), {0, k, k % 6 + 1});
        m.face_offsets.push_back(std::uint32_t(m.face_indices.size() - 3));
    }
    m.face_offsets.push_back(std::uint32_t(m.face_indices.size()));
    s.corners = m.face_indices;
    m.uv_sets.push_back(s);
    const UvRasterPlan p = plan_uv_raster(m, m.uv_sets[0], UvImage{61, false}, 0);
    REQUIRE(p.covered.size() > 1000);
    constexpr std::size_t kLayers = 7, kStride = 8;
    std::vector<std::vector<float>> layer(kLayers, std::vector<float>(7));
    std::vector<float> interleaved(7 * kStride, 0.0f);
    for (std::size_t l = 0; l < kLayers; ++l)
        for (std::size_t v = 0; v < 7; ++v) {
            const float x = float(std::ldexp(1.0 + 0.1234567 * double(v * 7 + l), int(l * 3) - 9)) * (v % 2 ? -1.0f : 1.0f);
            layer[l][v] = x;
            interleaved[v * kStride + l] = x;
        }
    const std::size_t texels = 61 * 61;
    std::vector<std::vector<float>> a(kLayers, std::vector<float>(texels, 0.0f)), b = a;
    std::vector<const float*> from;
    std::vector<float*> to_a, to_b;
    for (std::size_t l = 0; l < kLayers; ++l) {
        from.push_back(layer[l].data());
        to_a.push_back(a[l].data());
        to_b.push_back(b[l].data());
    }
    bake_uv_covered(p, from.data(), to_a.data(), kLayers, 0, p.covered.size());
    if (!avx2_supported()) WARN("this CPU (or build) has no AVX2: only the SSE2 gather is checked");
    for (const bool avx2 : {false, true}) {
        if (avx2 && !avx2_supported()) continue;
        for (auto& plane : b) std::fill(plane.begin(), plane.end(), 0.0f);
        // In two ranges, the first of one entry (the prefetch stays within a range).
        bake_uv_covered_interleaved(p, interleaved.data(), kStride, to_b.data(), kLayers, 0, 1, 0, avx2);
        bake_uv_covered_interleaved(p, interleaved.data(), kStride, to_b.data(), kLayers, 1, p.covered.size(), 0, avx2);
        std::size_t differ = 0;
        for (std::size_t l = 0; l < kLayers; ++l) differ += std::memcmp(a[l].data(), b[l].data(), texels * sizeof(float)) != 0;
        INFO("avx2 " << avx2);
        CHECK(differ == 0);
    }
}

TEST_CASE("uv raster: a plan made on threads is the plan made on one, overlaps kept by the first face", "[bake][uv_raster]") {
    // 30000 random triangles and quads over the unit square (and past it), overlapping many
    // times over, some mirrored and some degenerate: more faces than one block of faces and more
    // rows than one band, so that threads race to own the same texels.
    Mesh m;
    UvSet s;
    Uniform next{12345};
    for (std::uint32_t f = 0; f < 30000; ++f) {
        const std::uint32_t corners = f % 3 == 0 ? 4 : 3;
        const float cu = next() * 1.1f - 0.05f, cv = next() * 1.1f - 0.05f;
        for (std::uint32_t c = 0; c < corners; ++c) {
            m.face_indices.push_back(std::uint32_t(s.uv.size()));
            s.uv.push_back(f % 97 == 0 ? Eigen::Vector2f(cu, cv) : Eigen::Vector2f(cu + (next() - 0.5f) * 0.08f, cv + (next() - 0.5f) * 0.08f));
        }
        m.face_offsets.push_back(std::uint32_t(m.face_indices.size()));
    }
    m.positions.assign(s.uv.size(), Eigen::Vector3f::Zero());
    s.corners = m.face_indices;
    m.uv_sets.push_back(s);
    const UvRasterPlan one = plan_uv_raster(m, m.uv_sets[0], UvImage{200, false}, 3);
    REQUIRE(one.covered.size() > 20000);
    CHECK(one.degenerate_faces >= 30000 / 97);
    CHECK(one.outside_faces > 0);
    for (unsigned threads : {1u, 2u, 3u}) {
        INFO("threads " << threads);
        ThreadPool pool(threads);
        const UvRasterPlan many = plan_uv_raster(m, m.uv_sets[0], UvImage{200, false}, 3, &pool);
        check_same_plan(one, many);
    }
    // Every covered texel is the first face's in file order whose triangle holds its centre: a
    // brute-force search over the faces in UV space (a texel whose first face has the centre
    // within 1e-9 of an edge is left to the edge rule tested above).
    std::size_t checked = 0, wrong = 0;
    for (const UvRasterPlan::Texel& t : one.covered) {
        const double x = (t.texel % 200 + 0.5) / 200, y = 1.0 - (t.texel / 200 + 0.5) / 200;
        for (std::size_t f = 0; f + 1 < m.face_offsets.size(); ++f) {
            const std::uint32_t b = m.face_offsets[f], e = m.face_offsets[f + 1];
            bool in = false, near = false;
            for (std::uint32_t c = b + 1; c + 1 < e; ++c) {
                const Eigen::Vector2f& p0 = s.uv[b];
                const Eigen::Vector2f& p1 = s.uv[c];
                const Eigen::Vector2f& p2 = s.uv[c + 1];
                auto side = [&](const Eigen::Vector2f& a, const Eigen::Vector2f& q) {
                    return (double(q.x()) - a.x()) * (y - a.y()) - (double(q.y()) - a.y()) * (x - a.x());
                };
                const double d[3] = {side(p0, p1), side(p1, p2), side(p2, p0)};
                const double area = ((double(p1.x()) - p0.x()) * (double(p2.y()) - p0.y()) - (double(p1.y()) - p0.y()) * (double(p2.x()) - p0.x()));
                if (area == 0) continue;
                const double sgn = area > 0 ? 1 : -1;
                const double lo = std::min({d[0] * sgn, d[1] * sgn, d[2] * sgn});
                in = in || lo > 1e-9;
                near = near || std::abs(lo) <= 1e-9;
            }
            if (near) break;  // on an edge: the edge rule's
            if (!in) continue;
            ++checked;
            wrong += !(t.vertex[0] >= b && t.vertex[0] < e);  // each corner is its own vertex
            break;
        }
    }
    CHECK(wrong == 0);
    CHECK(checked > one.covered.size() / 2);
}

TEST_CASE("uv raster: a triangle spanning row bands covers its rows in each, and keeps them from later faces", "[bake][uv_raster]") {
    // A 128 x 128 image (rows in bands of 32 when planned): face 0, a tall triangle over rows 10
    // to 120 whose corners and slanted edge cross the band boundaries (rows 31|32, 63|64, 95|96);
    // then 9000 faces past the image (outside, reaching no row) so that the last face falls in
    // another block of faces; three degenerate triangles, two of them (lines) over several bands,
    // one past the image (it and one line have corners outside the unit square); last a quad over the whole square. Every texel inside face 0 is face
    // 0's, every other one the quad's, at any thread count: a band that missed face 0, clipped
    // its rows at a boundary or put the later block's quad first would hand texels to the quad.
    Mesh m;
    UvSet s;
    auto face = [&](std::initializer_list<Eigen::Vector2f> uvs) {
        for (const Eigen::Vector2f& uv : uvs) {
            m.face_indices.push_back(std::uint32_t(s.uv.size()));
            s.uv.push_back(uv);
        }
        m.face_offsets.push_back(std::uint32_t(m.face_indices.size()));
    };
    const float k = 1.0f / 128;  // one texel; glTF rows (v_down): image y = 128 v
    face({{10 * k, 10.2f * k}, {70.3f * k, 120.4f * k}, {10 * k, 120.4f * k}});
    for (int f = 0; f < 9000; ++f) face({{2.0f, 2.0f}, {2.5f, 2.0f}, {2.0f, 2.5f}});
    face({{5 * k, 5 * k}, {60 * k, 100 * k}, {115 * k, 195 * k}});    // a line from row 5 on, out past v = 1
    face({{90 * k, 31.5f * k}, {90 * k, 64.5f * k}, {90 * k, 40 * k}});  // a vertical line, rows 31-64
    face({{1.5f, 1.5f}, {1.6f, 1.6f}, {1.7f, 1.7f}});                  // a line past the image
    face({{0, 0}, {1, 0}, {1, 1}, {0, 1}});
    const std::uint32_t quad = s.uv.size() - 4;
    m.positions.assign(s.uv.size(), Eigen::Vector3f::Zero());
    s.corners = m.face_indices;
    m.uv_sets.push_back(s);
    const UvRasterPlan one = plan_uv_raster(m, m.uv_sets[0], UvImage{128, true}, 0);
    CHECK(one.degenerate_faces == 3);
    CHECK(one.outside_faces == 9002);
    REQUIRE(one.covered.size() == 128 * 128);
    // Face 0's inside by its edge functions in UV space, texels within 1e-6 of an edge skipped.
    const Eigen::Vector2f a = s.uv[0], b = s.uv[1], c = s.uv[2];
    auto side = [](const Eigen::Vector2f& p, const Eigen::Vector2f& q, double x, double y) {
        return (double(q.x()) - p.x()) * (y - p.y()) - (double(q.y()) - p.y()) * (x - p.x());
    };
    for (unsigned threads : {1u, 2u, 3u}) {
        INFO("threads " << threads);
        ThreadPool pool(threads);
        const UvRasterPlan p = plan_uv_raster(m, m.uv_sets[0], UvImage{128, true}, 0, &pool);
        check_same_plan(one, p);
        CHECK(p.degenerate_faces == 3);
        CHECK(p.outside_faces == 9002);
        std::size_t wrong = 0, first_rows[128] = {};
        for (const UvRasterPlan::Texel& t : p.covered) {
            const double x = (t.texel % 128 + 0.5) / 128, y = (t.texel / 128 + 0.5) / 128;
            const double lo = std::min({side(a, b, x, y), side(b, c, x, y), side(c, a, x, y)}) * 128 * 128;
            const double hi = std::max({side(a, b, x, y), side(b, c, x, y), side(c, a, x, y)}) * 128 * 128;
            const bool in = lo > 1e-6 || hi < -1e-6, out = !in && (lo < -1e-6 && hi > 1e-6);
            if (in) {
                wrong += t.vertex[0] >= 3;
                ++first_rows[t.texel / 128];
            }
            if (out) wrong += t.vertex[0] < quad;
        }
        CHECK(wrong == 0);
        for (int row : {11, 31, 32, 63, 64, 95, 96, 119}) {
            INFO("row " << row);
            CHECK(first_rows[row] > 0);
        }
        CHECK(first_rows[10] == 0);  // row 10's centres lie right of the slanted edge
        CHECK(first_rows[120] == 0);  // below the triangle's base (y = 120.4)
    }
}

TEST_CASE("uv raster: a band of rows baked from its rows and the padding's reach is the whole image's rows", "[bake][uv_raster]") {
    // Scattered small triangles (islands with gaps between them, mirrored ones among them) and 4
    // passes of padding: a band's padded texels read covered and padded texels of the rows
    // around it. Bands of one row, of a few, at the top and bottom edges and of the whole image,
    // three layers side by side (as bake gathers a batch's frames), against the whole image
    // baked and padded as one.
    Mesh m;
    UvSet s;
    Uniform next{777};
    for (std::uint32_t f = 0; f < 40; ++f) {
        const float cu = next(), cv = next();
        for (int c = 0; c < 3; ++c) {
            m.face_indices.push_back(std::uint32_t(s.uv.size()));
            s.uv.push_back(Eigen::Vector2f(cu + (next() - 0.5f) * 0.1f, cv + (next() - 0.5f) * 0.1f));
        }
        m.face_offsets.push_back(std::uint32_t(m.face_indices.size() - 3));
    }
    m.face_offsets.push_back(std::uint32_t(m.face_indices.size()));
    m.positions.assign(s.uv.size(), Eigen::Vector3f::Zero());
    s.corners = m.face_indices;
    m.uv_sets.push_back(s);
    constexpr std::size_t n = 64, kLayers = 3, kStride = 4;
    const UvRasterPlan p = plan_uv_raster(m, m.uv_sets[0], UvImage{int(n), true}, 4);
    const std::size_t passes = p.pass_begin.size() - 1;
    REQUIRE(passes == 4);
    REQUIRE(p.pass_begin.back() == p.padded.size());
    REQUIRE(p.covered.size() > 100);
    std::vector<float> interleaved(s.uv.size() * kStride);
    for (float& x : interleaved) x = next() * 3.0f - 1.0f;
    // The whole image, each layer gathered and padded alone.
    std::vector<std::vector<float>> whole(kLayers, std::vector<float>(n * n, 0.0f));
    std::vector<float*> to_whole;
    for (auto& w : whole) to_whole.push_back(w.data());
    bake_uv_covered_interleaved(p, interleaved.data(), kStride, to_whole.data(), kLayers, 0, p.covered.size());
    for (auto& w : whole) bake_uv_padding(p, w.data());
    const std::vector<std::pair<std::size_t, std::size_t>> bands = {{0, 1}, {0, 7}, {7, 20}, {20, 21}, {21, 63}, {63, 64}, {30, 34}, {0, 64}};
    for (const auto& [first, end] : bands) {
        INFO("rows " << first << " to " << end);
        const std::size_t band_row = first - std::min(first, passes), band_end = std::min(n, end + passes);
        std::vector<std::vector<float>> band(kLayers, std::vector<float>((band_end - band_row) * n, 0.0f));
        std::vector<float*> to;
        for (auto& b : band) to.push_back(b.data());
        const auto [begin, stop] = uv_covered_rows(p, band_row, band_end);
        bake_uv_covered_interleaved(p, interleaved.data(), kStride, to.data(), kLayers, begin, stop, band_row * n);
        bake_uv_padding_rows(p, to.data(), kLayers, band_row, band_end, first, end);
        for (std::size_t l = 0; l < kLayers; ++l)
            CHECK(std::memcmp(band[l].data() + (first - band_row) * n, whole[l].data() + first * n, (end - first) * n * sizeof(float)) == 0);
    }
    // The padding reached texels that are neither covered nor 0.
    std::size_t padded_nonzero = 0;
    for (std::uint32_t t : p.padded) padded_nonzero += whole[0][t] != 0.0f;
    CHECK(padded_nonzero > 50);
}
