// Interpenetration per frame (core/intersect.h): fans, welded neighbours, a BVH per mesh built
// once and refitted, its node pairs spread over the run's threads, the exact crossing test.
#include "rigscope/core/intersect.h"

#include <algorithm>
#include <cstddef>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
#include <emmintrin.h>
#endif

#include "rigscope/core/error.h"
#include "rigscope/core/huge_pages.h"
#include "rigscope/core/parallel.h"
#include "rigscope/core/skin.h"
#include "rigscope/core/topology.h"
#include "rigscope/core/tri_tri.h"
#include "intersect_patch.h"
#include "rigscope/core/finite_floats.h"

namespace rigscope {

// A node of part pa against a node of part pb; self: a node against itself (pa == pb, na == nb).
struct IntersectEngine::Job {
    std::uint32_t pa, na, pb, nb;
    bool self;
};

namespace {

// Vertices per task for the finite test, and leaves per task for the per-frame boxes: fixed, so
// the split never depends on the threads.
constexpr std::size_t kVertexBlock = 16384;
constexpr std::size_t kLeafBlock = 2048;
// Triangles per task of the set-up's sweeps (boxes, renumbering), for the same reason.
constexpr std::size_t kTriangleBlock = std::size_t(1) << 16;
// Node pairs the traversal is cut into before it is spread over the threads: enough to balance
// a few cores, few enough that each outweighs its dispatch. Fixed for the same reason.
constexpr std::size_t kJobs = 512;
// The largest node whose self-test may be skipped by the patch test (intersect_patch.h), and the
// longest boundary tested: bigger ones rarely pass (a tube's patch of 4,096 triangles spans about
// a tenth of its girth) and would make long boundaries the first time they are asked for.
constexpr std::uint32_t kPatchTriangles = 4096;
constexpr std::size_t kRimEdges = 1024;

float extent(const BvhBox& b) {
    return (b.hi[0] - b.lo[0]) + (b.hi[1] - b.lo[1]) + (b.hi[2] - b.lo[2]);
}

static_assert(TriangleBvh::kLeafSize == 8, "a leaf's lanes are tested as two groups of four");

// A leaf's eight triangle boxes (the BVH's lanes from `first`), held for the boxes tested against
// them: in registers, read once per leaf, where a test per box had reloaded them and, behind
// the pair tests' stores, the lanes' pointers too. overlapping(b): eight boxes against one in
// twelve SSE compares and no branch (open boxes, as BvhBox::overlaps).
// A leaf whose lanes frame_boxes left unwritten this frame (Part::unboxed: every triangle moved
// by one kept joint alone) has them computed here from its corners instead, as frame_boxes
// would have: the same min and max of the same floats, and an empty box for a skipped triangle.
class LeafLanes {
public:
    LeafLanes(const TriangleBvh& bvh, std::uint32_t first) {
        for (int k = 0; k < 6; ++k) lane_[k] = bvh.lanes(k) + first;
        load();
    }
    // Lanes `first` .. first + count from the corners at x; `skip` per triangle (the stored
    // positions' flags, which a kept joint's triangles keep).
    LeafLanes(const std::uint32_t* corners, const Eigen::Vector3f* x, const std::uint8_t* skip, std::uint32_t first, std::uint32_t count) {
        const float inf = std::numeric_limits<float>::infinity();
        for (int k = 0; k < 6; ++k) {
            lane_[k] = own_[k];
            std::fill(own_[k], own_[k] + TriangleBvh::kLeafSize, k < 3 ? inf : -inf);
        }
        for (std::uint32_t i = 0; i < count; ++i) {
            const std::uint32_t t = first + i;
            if (skip[t]) continue;
            const Eigen::Vector3f &a = x[corners[3 * t]], &b = x[corners[3 * t + 1]], &d = x[corners[3 * t + 2]];
            for (int k = 0; k < 3; ++k) {
                own_[k][i] = std::min(std::min(a[k], b[k]), d[k]);
                own_[3 + k][i] = std::max(std::max(a[k], b[k]), d[k]);
            }
        }
        load();
    }
    LeafLanes(const LeafLanes&) = delete;
    LeafLanes& operator=(const LeafLanes&) = delete;
    // Bit i set when lane i overlaps b (lanes past the leaf's count are the caller's to mask).
    std::uint32_t overlapping(const BvhBox& b) const {
#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
        __m128 m0 = _mm_castsi128_ps(_mm_set1_epi32(-1)), m1 = m0;
        for (int k = 0; k < 3; ++k) {
            const __m128 bhi = _mm_set1_ps(b.hi[k]), blo = _mm_set1_ps(b.lo[k]);
            m0 = _mm_and_ps(m0, _mm_and_ps(_mm_cmplt_ps(v_[k][0], bhi), _mm_cmplt_ps(blo, v_[3 + k][0])));
            m1 = _mm_and_ps(m1, _mm_and_ps(_mm_cmplt_ps(v_[k][1], bhi), _mm_cmplt_ps(blo, v_[3 + k][1])));
        }
        return static_cast<std::uint32_t>(_mm_movemask_ps(m0) | _mm_movemask_ps(m1) << 4);
#else
        std::uint32_t m = 0;
        for (std::uint32_t i = 0; i < TriangleBvh::kLeafSize; ++i) {
            bool o = true;
            for (int k = 0; k < 3; ++k) o = o && lane_[k][i] < b.hi[k] && b.lo[k] < lane_[3 + k][i];
            m |= std::uint32_t(o) << i;
        }
        return m;
#endif
    }
    // Lane i's box.
    BvhBox box(std::uint32_t i) const {
        return BvhBox{{lane_[0][i], lane_[1][i], lane_[2][i]}, {lane_[3][i], lane_[4][i], lane_[5][i]}};
    }

private:
    void load() {
#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
        for (int k = 0; k < 6; ++k) {
            v_[k][0] = _mm_loadu_ps(lane_[k]);
            v_[k][1] = _mm_loadu_ps(lane_[k] + 4);
        }
#endif
    }
    const float* lane_[6];
    float own_[6][TriangleBvh::kLeafSize];  // the lanes computed here (the second constructor)
#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
    __m128 v_[6][2];
#endif
};

// BvhBox::overlaps for two nodes' boxes, in two SSE compares and one branch for the caller
// where the scalar test took up to six, each a branch the traversal's mixed answers mispredict.
// The same compares (open boxes; NaN overlaps nothing), so the same answer.
bool nodes_overlap(const TriangleBvh::Node& a, const TriangleBvh::Node& b) {
#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
    // lo x, y, z and hi x from the box's start; hi x, y, z and the node's `first` from hi.
    static_assert(offsetof(TriangleBvh::Node, box) == 0 && sizeof(BvhBox) == 24 && offsetof(TriangleBvh::Node, first) == 24,
                  "a node's box is followed by its first: sixteen bytes from hi stay inside the node");
    const __m128 m = _mm_and_ps(_mm_cmplt_ps(_mm_loadu_ps(a.box.lo), _mm_loadu_ps(b.box.hi)), _mm_cmplt_ps(_mm_loadu_ps(b.box.lo), _mm_loadu_ps(a.box.hi)));
    return (_mm_movemask_ps(m) & 7) == 7;
#else
    return a.box.overlaps(b.box);
#endif
}

#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
// A point's x, y, z in the low lanes (eight bytes and four: no read past the point).
__m128 load3(const Eigen::Vector3f& v) {
    return _mm_movelh_ps(_mm_loadl_pi(_mm_setzero_ps(), reinterpret_cast<const __m64*>(v.data())), _mm_load_ss(v.data() + 2));
}
#endif


// Whether the triangle's corners lie on one line. A double estimate of its normal decides when
// a component is clearly not zero (the usual case); else the exact test.
// With SSE2 the normal's x and y components are estimated side by side, by the same operations
// on the same doubles as the scalar loop, so either decides the same.
bool zero_area(const Eigen::Vector3f& a, const Eigen::Vector3f& b, const Eigen::Vector3f& c) {
#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
    auto xy = [](const Eigen::Vector3f& v) { return _mm_cvtps_pd(_mm_loadl_pi(_mm_setzero_ps(), reinterpret_cast<const __m64*>(v.data()))); };
    const __m128d axy = xy(a), bxy = _mm_sub_pd(xy(b), axy), cxy = _mm_sub_pd(xy(c), axy);
    const __m128d bz = _mm_set_sd(double(b.z()) - a.z()), cz = _mm_set_sd(double(c.z()) - a.z());
    // (by cz, bz cx) and (bz cy, bx cz): the x and y components' two products.
    const __m128d t0 = _mm_mul_pd(_mm_shuffle_pd(bxy, bz, 1), _mm_shuffle_pd(cz, cxy, 0));
    const __m128d t1 = _mm_mul_pd(_mm_shuffle_pd(bz, bxy, 0), _mm_shuffle_pd(cxy, cz, 1));
    const __m128d sign = _mm_set1_pd(-0.0);
    const __m128d v = _mm_andnot_pd(sign, _mm_sub_pd(t0, t1));
    const __m128d bound = _mm_mul_pd(_mm_set1_pd(1e-14), _mm_add_pd(_mm_andnot_pd(sign, t0), _mm_andnot_pd(sign, t1)));
    if (_mm_movemask_pd(_mm_and_pd(_mm_cmpgt_pd(v, bound), _mm_cmpgt_pd(bound, _mm_set1_pd(1e-250))))) return false;
    const double bx = _mm_cvtsd_f64(bxy), by = _mm_cvtsd_f64(_mm_unpackhi_pd(bxy, bxy));
    const double cx = _mm_cvtsd_f64(cxy), cy = _mm_cvtsd_f64(_mm_unpackhi_pd(cxy, cxy));
    const double t[2] = {bx * cy, by * cx};
    const double v2 = t[0] - t[1], bound2 = 1e-14 * (std::abs(t[0]) + std::abs(t[1]));
    if (std::abs(v2) > bound2 && bound2 > 1e-250) return false;
#else
    const double bx = double(b.x()) - a.x(), by = double(b.y()) - a.y(), bz = double(b.z()) - a.z();
    const double cx = double(c.x()) - a.x(), cy = double(c.y()) - a.y(), cz = double(c.z()) - a.z();
    const double t[6] = {by * cz, bz * cy, bz * cx, bx * cz, bx * cy, by * cx};
    for (int k = 0; k < 3; ++k) {
        const double v = t[2 * k] - t[2 * k + 1], bound = 1e-14 * (std::abs(t[2 * k]) + std::abs(t[2 * k + 1]));
        if (std::abs(v) > bound && bound > 1e-250) return false;
    }
#endif
    return collinear(a, b, c);
}

// A mesh's faces as fans from their first corner, as the file lists its corners, in file order:
// three file vertices per triangle and its face. Fixed blocks of faces over the pool: each
// block's triangles counted, a running sum over the blocks, then each block's fans written from
// its first triangle (no per-face array of first triangles, no serial pass over the faces).
void fan_out(const Mesh& mesh, std::vector<std::uint32_t>& corners, std::vector<std::uint32_t>& face, ThreadPool* pool) {
    const std::size_t faces = mesh.face_count(), blocks = (faces + kTriangleBlock - 1) / kTriangleBlock;
    std::vector<std::size_t> first(blocks + 1, 0);
    run_tasks(pool, blocks, [&](std::size_t blk) {
        std::size_t n = 0;
        for (std::size_t f = blk * kTriangleBlock, end = std::min(faces, f + kTriangleBlock); f < end; ++f) {
            const std::uint32_t count = mesh.face_offsets[f + 1] - mesh.face_offsets[f];
            n += count >= 3 ? count - 2 : 0;
        }
        first[blk + 1] = n;
    });
    for (std::size_t blk = 0; blk < blocks; ++blk) first[blk + 1] += first[blk];
    detail::reserve_huge(corners, 3 * first[blocks]);
    corners.resize(3 * first[blocks]);
    face.resize(first[blocks]);
    run_tasks(pool, blocks, [&](std::size_t blk) {
        std::size_t t = first[blk];
        for (std::size_t f = blk * kTriangleBlock, end = std::min(faces, f + kTriangleBlock); f < end; ++f) {
            const std::uint32_t b = mesh.face_offsets[f], e = mesh.face_offsets[f + 1];
            for (std::uint32_t k = b + 1; k + 1 < e; ++k, ++t) {
                corners[3 * t] = mesh.face_indices[b];
                corners[3 * t + 1] = mesh.face_indices[k];
                corners[3 * t + 2] = mesh.face_indices[k + 1];
                face[t] = static_cast<std::uint32_t>(f);
            }
        }
    });
}

}  // namespace

IntersectEngine::IntersectEngine(const Scene& scene, const std::vector<int>& meshes, bool weld, ThreadPool* pool)
    : scene_(scene), part_of_mesh_(scene.meshes.size(), -1) {
    // The sweeps below are fixed blocks of faces, triangles or vertices over the pool (each writes
    // only its own entries): the set-up otherwise runs on one thread while the others wait.
    auto blocks = [&](std::size_t n, std::size_t size, auto fn) {
        run_tasks(pool, (n + size - 1) / size, [&](std::size_t b) { fn(b * size, std::min(n, b * size + size)); });
    };
    for (int m : meshes) {
        const Mesh& mesh = scene.meshes[m];
        Part p;
        p.mesh = m;
        fan_out(mesh, p.corners, p.face, pool);
        if (weld && !mesh.face_indices.empty()) {
            p.welded = weld_mesh(mesh, true, kWeldRelativeTolerance, pool).welded_of;  // the weld alone: no edge lists
        } else {
            p.welded.resize(mesh.vertex_count());
            for (std::size_t v = 0; v < p.welded.size(); ++v) p.welded[v] = static_cast<std::uint32_t>(v);
        }
        // The tree from the stored positions, refitted per frame (evaluate).
        p.bvh.build(p.corners, mesh.positions, pool);
        // Per vertex, its heaviest influence's node, and the joint that alone moves it: weighted 1
        // to it (every other influence 0) under linear skinning, which then maps it by that
        // joint's matrix alone (-1 for none; renumber gives a triangle whose three corners have
        // the same one to `rigid`). One sweep over the influences for both.
        p.heavy_node.assign(mesh.vertex_count(), -1);
        p.heavy_weight.assign(mesh.vertex_count(), 0.f);
        std::vector<int> alone;
        if (mesh.skin >= 0 && !mesh.influences.empty()) {
            const Skin& skin = scene.skins[mesh.skin];
            const Influences& inf = mesh.influences;
            const std::size_t joints = skin.joints.size();
            const bool linear = skin.method == SkinningMethod::Linear || skin.method == SkinningMethod::Rigid;
            if (linear && mesh.targets.empty() && !mesh.cache) alone.assign(mesh.vertex_count(), -1);
            const std::size_t vertices = inf.offsets.empty() ? 0 : std::min(mesh.vertex_count(), inf.offsets.size() - 1);
            blocks(vertices, kVertexBlock, [&](std::size_t begin, std::size_t end) {
                for (std::size_t v = begin; v < end; ++v) {
                    for (std::uint32_t k = inf.offsets[v]; k < inf.offsets[v + 1]; ++k)
                        if (inf.weights[k] > p.heavy_weight[v] && inf.joints[k] < joints) {
                            p.heavy_weight[v] = inf.weights[k];
                            p.heavy_node[v] = skin.joints[inf.joints[k]];
                        }
                    if (alone.empty()) continue;
                    int joint = -1;
                    bool one = true;
                    for (std::uint32_t k = inf.offsets[v]; k < inf.offsets[v + 1] && one; ++k) {
                        if (inf.weights[k] == 0.f) continue;
                        one = inf.weights[k] == 1.f && joint < 0 && inf.joints[k] < joints;
                        joint = inf.joints[k];
                    }
                    if (one) alone[v] = joint;
                }
            });
        }
        renumber(p, alone, pool);
        p.skip.resize(p.face.size());
        p.unboxed.assign(p.bvh.nodes().size(), 0);
        part_of_mesh_[m] = static_cast<int>(parts_.size());
        parts_.push_back(std::move(p));
    }
}

std::size_t IntersectEngine::triangle_count() const {
    std::size_t n = 0;
    for (const Part& p : parts_) n += p.face.size();
    return n;
}

bool IntersectEngine::neighbours(const Part& p, std::uint32_t ta, std::uint32_t tb) const {
    if (p.whole[ta] && p.whole[tb]) {
        const std::uint32_t b[3] = {p.welded_lanes[0][tb], p.welded_lanes[1][tb], p.welded_lanes[2][tb]};
        for (int i = 0; i < 3; ++i) {
            const std::uint32_t a = p.welded_lanes[i][ta];
            if (a == b[0] || a == b[1] || a == b[2]) return true;
        }
        return false;
    }
    const Mesh& mesh = scene_.meshes[p.mesh];
    const std::uint32_t fa = p.face[ta], fb = p.face[tb];
    for (std::uint32_t i = mesh.face_offsets[fa]; i < mesh.face_offsets[fa + 1]; ++i)
        for (std::uint32_t k = mesh.face_offsets[fb]; k < mesh.face_offsets[fb + 1]; ++k)
            if (p.welded[mesh.face_indices[i]] == p.welded[mesh.face_indices[k]]) return true;
    return false;
}

void IntersectEngine::renumber(Part& p, const std::vector<int>& alone, ThreadPool* pool) {
    const std::vector<std::uint32_t> order = p.bvh.take_order();
    const std::size_t n = order.size(), blocks = (n + kTriangleBlock - 1) / kTriangleBlock;
    const Mesh& mesh = scene_.meshes[p.mesh];
    // One gather per block into fresh arrays, every per-triangle array at once: triangle i in
    // leaf order is order[i] in file order. The welded corners, whole faces and rigid joints are
    // found here from the gathered corners and faces rather than made in file order and moved.
    std::vector<std::uint32_t> corners, face(n);
    detail::reserve_huge(corners, 3 * n);
    corners.resize(3 * n);
    p.whole.resize(n);
    p.rigid.assign(n, -1);
    // The welded corners' lanes (IntersectEngine::Part), padded with a vertex no corner has.
    for (std::vector<std::uint32_t>& lane : p.welded_lanes) lane.assign(n + TriangleBvh::kLeafSize, UINT32_MAX);
    run_tasks(pool, blocks, [&](std::size_t blk) {
        for (std::size_t i = blk * kTriangleBlock, end = std::min(n, i + kTriangleBlock); i < end; ++i) {
            const std::size_t t = order[i];
            const std::uint32_t c[3] = {p.corners[3 * t], p.corners[3 * t + 1], p.corners[3 * t + 2]};
            const std::uint32_t f = p.face[t];
            for (int k = 0; k < 3; ++k) {
                corners[3 * i + k] = c[k];
                p.welded_lanes[k][i] = p.welded[c[k]];
            }
            face[i] = f;
            p.whole[i] = mesh.face_offsets[f + 1] - mesh.face_offsets[f] == 3;
            if (!alone.empty()) {
                const int j = alone[c[0]];
                if (j >= 0 && alone[c[1]] == j && alone[c[2]] == j) p.rigid[i] = j;
            }
        }
    });
    p.corners.swap(corners);
    p.face.swap(face);
}

// The exact test of a job's triangle pairs, one triangle of part pa against triangles of part pb:
// `first` sets the triangle (its corners and plane read once, at its first pair that needs them:
// CrossingTriangle), `test` one pair. The caller has seen both triangles kept (not skipped) and
// their boxes overlap.
class IntersectEngine::PairTest {
public:
    PairTest(const IntersectEngine& e, std::uint32_t pa, std::uint32_t pb, const std::vector<std::vector<Eigen::Vector3f>>& positions,
             std::vector<Hit>& hits)
        : e_(e), a_(e.parts_[pa]), b_(e.parts_[pb]), pa_(pa), same_(pa == pb), xa_(positions[pa].data()), xb_(positions[pb].data()),
          hits_(hits) {}

    void first(std::uint32_t ta) {
        ta_ = ta;
        crossing_.reset();
    }
    // apart: the caller knows the two are not neighbours (leaf_near, WeldedLanes).
    void test(std::uint32_t tb, bool apart) {
        const std::uint32_t fa = a_.face[ta_], fb = b_.face[tb];
        if (same_) {
            const int ra = a_.rigid[ta_];
            const bool same_joint = ra >= 0 && ra == a_.rigid[tb];
            // The stored positions' pass tests only pairs one joint moves; a frame skips those it keeps.
            if (e_.rigid_pass_ ? !same_joint : same_joint && e_.kept(pa_, ra)) return;
            if (!apart && (fa == fb || e_.neighbours(a_, ta_, tb))) return;
        }
        if (!crossing_) {
            const std::uint32_t* c = &a_.corners[3 * ta_];
            const Eigen::Vector3f p[3] = {xa_[c[0]], xa_[c[1]], xa_[c[2]]};
            crossing_.emplace(p);
        }
        const CrossingTriangle& ct = *crossing_;
        const std::uint32_t* c = &b_.corners[3 * tb];
        const Eigen::Vector3f q[3] = {xb_[c[0]], xb_[c[1]], xb_[c[2]]};
        if (!ct.crosses(q)) return;
        Hit h{static_cast<std::uint32_t>(a_.mesh), fa, static_cast<std::uint32_t>(b_.mesh), fb, ta_, tb, crossing_length(ct.corners(), q)};
        if (std::tie(h.mesh_b, h.face_b) < std::tie(h.mesh_a, h.face_a)) {
            std::swap(h.mesh_a, h.mesh_b);
            std::swap(h.face_a, h.face_b);
            std::swap(h.tri_a, h.tri_b);
        }
        hits_.push_back(h);
    }

private:
    const IntersectEngine& e_;
    const Part& a_;
    const Part& b_;
    std::uint32_t pa_;
    bool same_;
    const Eigen::Vector3f* xa_;
    const Eigen::Vector3f* xb_;
    std::vector<Hit>& hits_;
    std::uint32_t ta_ = 0;
    std::optional<CrossingTriangle> crossing_;  // ta_'s, made at its first pair that needs it
};

// A leaf's eight lanes of welded corners (Part::welded_lanes), for the triangles of another leaf
// that share one of them: three compares of a vertex against eight lanes, no lookup per pair.
struct IntersectEngine::WeldedLanes {
#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
    __m128i lo[3], hi[3];
    WeldedLanes(const Part& p, std::uint32_t first) {
        for (int k = 0; k < 3; ++k) {
            lo[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p.welded_lanes[k].data() + first));
            hi[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p.welded_lanes[k].data() + first + 4));
        }
    }
    // Bit k: the leaf's k-th triangle has a welded corner of triangle t.
    std::uint32_t sharing(const Part& p, std::uint32_t t) const {
        __m128i l = _mm_setzero_si128(), h = l;
        for (int c = 0; c < 3; ++c) {
            const __m128i v = _mm_set1_epi32(static_cast<int>(p.welded_lanes[c][t]));
            for (int k = 0; k < 3; ++k) {
                l = _mm_or_si128(l, _mm_cmpeq_epi32(v, lo[k]));
                h = _mm_or_si128(h, _mm_cmpeq_epi32(v, hi[k]));
            }
        }
        return static_cast<std::uint32_t>(_mm_movemask_ps(_mm_castsi128_ps(l)) | _mm_movemask_ps(_mm_castsi128_ps(h)) << 4);
    }
#else
    const std::uint32_t* lane[3];
    WeldedLanes(const Part& p, std::uint32_t first) {
        for (int k = 0; k < 3; ++k) lane[k] = p.welded_lanes[k].data() + first;
    }
    std::uint32_t sharing(const Part& p, std::uint32_t t) const {
        std::uint32_t m = 0;
        for (std::uint32_t i = 0; i < TriangleBvh::kLeafSize; ++i)
            for (int c = 0; c < 3; ++c)
                for (int k = 0; k < 3; ++k) m |= std::uint32_t(p.welded_lanes[c][t] == lane[k][i]) << i;
        return m;
    }
#endif
};

void IntersectEngine::run_job(const Job& job, const std::vector<std::vector<Eigen::Vector3f>>& positions, std::vector<Hit>& hits) const {
    std::vector<Job> stack;
    stack.reserve(64);
    // Whether the pairs under nodes a and b of one part are all kept from the stored positions.
    auto kept_whole = [&](std::uint32_t part, std::uint32_t a, std::uint32_t b) {
        if (rigid_pass_) return false;
        const int r = parts_[part].node_rigid[a];
        return r >= 0 && r == parts_[part].node_rigid[b] && kept(part, r);
    };
    // A leaf's lanes: the BVH's, or computed for a leaf frame_boxes left unboxed.
    auto lanes_of = [&](std::uint32_t part, std::uint32_t node, const TriangleBvh::Node& leaf) {
        const Part& p = parts_[part];
        return p.unboxed[node] ? LeafLanes(p.corners.data(), positions[part].data(), p.skip.data(), leaf.first, leaf.count)
                               : LeafLanes(p.bvh, leaf.first);
    };
    // A pair is tested before it is pushed (boxes that overlap, not kept whole), so the stack
    // holds only pairs to open.
    auto push_pair = [&](std::uint32_t pa, std::uint32_t a, std::uint32_t pb, std::uint32_t b) {
        if (!nodes_overlap(parts_[pa].bvh.nodes()[a], parts_[pb].bvh.nodes()[b])) return;
        if (pa == pb && kept_whole(pa, a, b)) return;
        stack.push_back({pa, a, pb, b, false});
    };
    auto push_self = [&](std::uint32_t part, std::uint32_t a) {
        if (!kept_whole(part, a, a)) stack.push_back({part, a, part, a, true});
    };
    if (job.self) push_self(job.pa, job.na);
    else push_pair(job.pa, job.na, job.pb, job.nb);
    while (!stack.empty()) {
        const Job j = stack.back();
        stack.pop_back();
        const TriangleBvh::Node& na = parts_[j.pa].bvh.nodes()[j.na];
        const TriangleBvh::Node& nb = parts_[j.pb].bvh.nodes()[j.nb];
        if (j.self) {
            if (untangled(j.pa, j.na, positions[j.pa].data())) continue;
            if (na.leaf()) {
                // Each triangle against the later ones of its leaf that are not its neighbours (a
                // skipped one's box is empty).
                const std::uint8_t* near = parts_[j.pa].leaf_near.data() + na.first;
                const std::uint32_t in_leaf = (1u << na.count) - 1;
                PairTest pt(*this, j.pa, j.pa, positions, hits);
                const LeafLanes lanes = lanes_of(j.pa, j.na, na);
                for (std::uint32_t i = 0; i + 1 < na.count; ++i) {
                    // The later triangles that are not neighbours first: in a mesh's leaf often none.
                    const std::uint32_t later = in_leaf & ~((2u << i) - 1) & ~std::uint32_t(near[i]);
                    if (later == 0) continue;
                    std::uint32_t m = lanes.overlapping(lanes.box(i)) & later;
                    if (m == 0) continue;
                    pt.first(na.first + i);
                    for (; m; m &= m - 1) pt.test(na.first + static_cast<std::uint32_t>(__builtin_ctz(m)), true);
                }
            } else {
                push_pair(j.pa, j.na + 1, j.pa, na.first);
                push_self(j.pa, na.first);
                push_self(j.pa, j.na + 1);
            }
            continue;
        }
        if (na.leaf() && nb.leaf()) {
            // Each triangle against the other leaf's box first: most of a leaf lies outside it.
            const LeafLanes lanes_a = lanes_of(j.pa, j.na, na), lanes_b = lanes_of(j.pb, j.nb, nb);
            const std::uint32_t near_b = lanes_b.overlapping(na.box) & ((1u << nb.count) - 1);
            if (near_b == 0) continue;
            PairTest pt(*this, j.pa, j.pb, positions, hits);
            if (j.pa != j.pb) {
                for (std::uint32_t near_a = lanes_a.overlapping(nb.box) & ((1u << na.count) - 1); near_a; near_a &= near_a - 1) {
                    const std::uint32_t i = static_cast<std::uint32_t>(__builtin_ctz(near_a));
                    std::uint32_t m = lanes_b.overlapping(lanes_a.box(i)) & near_b;
                    if (m == 0) continue;
                    pt.first(na.first + i);
                    for (; m; m &= m - 1) pt.test(nb.first + static_cast<std::uint32_t>(__builtin_ctz(m)), true);
                }
                continue;
            }
            // Two leaves of one mesh: each triangle's welded neighbours among the other leaf's
            // eight, found side by side (WeldedLanes) where both are whole faces, leave the pair
            // out, and the rest of such pairs are known apart; others take neighbours().
            const Part& part = parts_[j.pa];
            const WeldedLanes welded_b(part, nb.first);
            std::uint32_t whole_b = 0;
            for (std::uint32_t k = 0; k < nb.count; ++k) whole_b |= std::uint32_t(part.whole[nb.first + k]) << k;
            for (std::uint32_t near_a = lanes_a.overlapping(nb.box) & ((1u << na.count) - 1); near_a; near_a &= near_a - 1) {
                const std::uint32_t li = static_cast<std::uint32_t>(__builtin_ctz(near_a)), i = na.first + li;
                std::uint32_t m = lanes_b.overlapping(lanes_a.box(li)) & near_b;
                if (m == 0) continue;
                const std::uint32_t apart = part.whole[i] ? whole_b & ~welded_b.sharing(part, i) : 0;
                if (part.whole[i]) m &= apart | ~whole_b;
                pt.first(i);
                for (; m; m &= m - 1) {
                    const std::uint32_t k = static_cast<std::uint32_t>(__builtin_ctz(m));
                    pt.test(nb.first + k, (apart >> k & 1) != 0);
                }
            }
        } else if (nb.leaf() || (!na.leaf() && extent(na.box) >= extent(nb.box))) {
            push_pair(j.pa, na.first, j.pb, j.nb);
            push_pair(j.pa, j.na + 1, j.pb, j.nb);
        } else {
            push_pair(j.pa, j.na, j.pb, nb.first);
            push_pair(j.pa, j.na, j.pb, j.nb + 1);
        }
    }
}

std::vector<IntersectEngine::Job> IntersectEngine::split(std::vector<Job> jobs) const {
    for (bool more = true; more && jobs.size() < kJobs;) {
        more = false;
        std::vector<Job> next;
        for (const Job& j : jobs) {
            const TriangleBvh::Node& na = parts_[j.pa].bvh.nodes()[j.na];
            const TriangleBvh::Node& nb = parts_[j.pb].bvh.nodes()[j.nb];
            if (j.self && !na.leaf()) {
                next.push_back({j.pa, j.na + 1, j.pa, j.na + 1, true});
                next.push_back({j.pa, na.first, j.pa, na.first, true});
                next.push_back({j.pa, j.na + 1, j.pa, na.first, false});
                more = true;
            } else if (!j.self && !na.box.overlaps(nb.box)) {
                more = true;  // dropped: nothing under it can meet
            } else if (!j.self && !(na.leaf() && nb.leaf())) {
                if (nb.leaf() || (!na.leaf() && extent(na.box) >= extent(nb.box))) {
                    next.push_back({j.pa, j.na + 1, j.pb, j.nb, false});
                    next.push_back({j.pa, na.first, j.pb, j.nb, false});
                } else {
                    next.push_back({j.pa, j.na, j.pb, j.nb + 1, false});
                    next.push_back({j.pa, j.na, j.pb, nb.first, false});
                }
                more = true;
            } else {
                next.push_back(j);
            }
        }
        jobs.swap(next);
    }
    return jobs;
}

// The traversal from `roots`, cut into node pairs (split) spread over the pool: the hits in the
// jobs' order, whatever thread ran which.
std::vector<IntersectEngine::Hit> IntersectEngine::traverse(std::vector<Job> roots, const std::vector<std::vector<Eigen::Vector3f>>& positions,
                                                           ThreadPool* pool) const {
    const std::vector<Job> jobs = split(std::move(roots));
    std::vector<std::vector<Hit>> found(jobs.size());
    run_tasks(pool, jobs.size(), [&](std::size_t i) { run_job(jobs[i], positions, found[i]); });
    std::vector<Hit> hits;
    for (const auto& f : found) hits.insert(hits.end(), f.begin(), f.end());
    return hits;
}

const std::vector<patch::Edge>* IntersectEngine::rim_of(const Part& p, std::uint32_t n) const {
    if (p.rim_state[n] == 0) {
        const TriangleBvh::Node& node = p.bvh.nodes()[n];
        bool made = true;
        if (node.leaf()) {
            made = patch::boundary(p.corners.data(), node.first, node.count, p.rim[n]);
        } else {
            const std::vector<patch::Edge>* l = rim_of(p, n + 1);
            const std::vector<patch::Edge>* r = l ? rim_of(p, node.first) : nullptr;
            if (r) patch::merge(*l, *r, p.rim[n]);
            made = r != nullptr;
        }
        p.rim_state[n] = made && p.rim[n].size() <= kRimEdges ? 1 : 2;
        if (p.rim_state[n] == 2) std::vector<patch::Edge>().swap(p.rim[n]);
    }
    return p.rim_state[n] == 1 ? &p.rim[n] : nullptr;
}

bool IntersectEngine::untangled(std::uint32_t part, std::uint32_t n, const Eigen::Vector3f* x) const {
    const Part& p = parts_[part];
    const std::uint32_t axes = p.node_axes[n];
    // Not in the stored positions' pass: there the whole mesh is smooth and would have every
    // small node's boundary made (a third of a one-frame run on the bench tube), where the frames
    // need those of the blended part only (the kept joints' nodes are skipped whole).
    if (rigid_pass_) return false;
    if (axes == 0 || p.node_size[n] > kPatchTriangles) return false;
    const std::vector<patch::Edge>* rim = rim_of(p, n);
    return rim && patch::untangled(*rim, x, axes);
}

bool IntersectEngine::kept(std::uint32_t part, int joint) const {
    return joint >= 0 && static_cast<std::size_t>(joint) < parts_[part].kept.size() && parts_[part].kept[static_cast<std::size_t>(joint)];
}

int IntersectEngine::joint_of(const FacePair& pair) const {
    int node = -1;
    float best = 0;
    for (const auto& [m, f] : {std::pair{pair.mesh_a, pair.face_a}, std::pair{pair.mesh_b, pair.face_b}}) {
        const Part& p = parts_[part_of_mesh_[m]];
        const Mesh& mesh = scene_.meshes[m];
        for (std::uint32_t i = mesh.face_offsets[f]; i < mesh.face_offsets[f + 1]; ++i) {
            const std::uint32_t v = mesh.face_indices[i];
            if (p.heavy_weight[v] > best) {
                best = p.heavy_weight[v];
                node = p.heavy_node[v];
            }
        }
    }
    return node;
}

namespace {

// Whether every position is finite (the usual case), seen in one pass over the coordinates in
// order (floats_finite, per block on the pool), which spares the triangles' corners the test.
bool all_finite(const std::vector<Eigen::Vector3f>& x, ThreadPool* pool) {
    const std::size_t blocks = (x.size() + kVertexBlock - 1) / kVertexBlock;
    std::vector<std::uint8_t> finite(blocks, 1);
    run_tasks(pool, blocks, [&](std::size_t blk) {
        const std::size_t first = blk * kVertexBlock, end = std::min(x.size(), first + kVertexBlock);
        const std::size_t n = 3 * (end - first);
        finite[blk] = floats_finite(x[first].data(), n);
    });
    return std::all_of(finite.begin(), finite.end(), [](std::uint8_t f) { return f != 0; });
}

// For n positions: moved[v] = 1 where now[v] differs bitwise from was[v], then was = now.
// Returns whether every coordinate is finite (no float with its exponent bits all set).
bool compare_and_copy(const Eigen::Vector3f* now_v, Eigen::Vector3f* was_v, std::uint8_t* moved, std::size_t n) {
    static_assert(sizeof(Eigen::Vector3f) == 12, "a position is x, y, z floats");
    const char* now = reinterpret_cast<const char*>(now_v);
    char* was = reinterpret_cast<char*>(was_v);
    std::size_t v = 0;
    std::uint32_t inf = 0;
#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
    // Four positions (48 bytes) at a time: a byte-equal mask of 48 bits, twelve per position.
    const __m128i exponent = _mm_set1_epi32(0x7f800000);
    __m128i any = _mm_setzero_si128();
    for (; v + 4 <= n; v += 4) {
        std::uint64_t equal = 0;
        for (int k = 0; k < 3; ++k) {
            const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(now + 12 * v + 16 * k));
            const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(was + 12 * v + 16 * k));
            equal |= std::uint64_t(static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(a, b)))) << (16 * k);
            any = _mm_or_si128(any, _mm_cmpeq_epi32(_mm_and_si128(a, exponent), exponent));
            _mm_storeu_si128(reinterpret_cast<__m128i*>(was + 12 * v + 16 * k), a);
        }
        for (int i = 0; i < 4; ++i) moved[v + i] = (equal >> (12 * i) & 0xfff) != 0xfff;
    }
    inf = _mm_movemask_epi8(any) != 0;
#endif
    // The twelve bytes as eight and four (inlined loads, no memcmp call per vertex).
    for (; v < n; ++v) {
        std::uint64_t a, b;
        std::uint32_t c, d;
        std::memcpy(&a, now + 12 * v, 8);
        std::memcpy(&b, was + 12 * v, 8);
        std::memcpy(&c, now + 12 * v + 8, 4);
        std::memcpy(&d, was + 12 * v + 8, 4);
        moved[v] = ((a ^ b) | (c ^ d)) != 0;
        const std::uint32_t f[3] = {static_cast<std::uint32_t>(a), static_cast<std::uint32_t>(a >> 32), c};
        for (std::uint32_t bits : f) inf |= (bits & 0x7f800000u) == 0x7f800000u;
        std::memcpy(was + 12 * v, now + 12 * v, 12);
    }
    return inf == 0;
}

// A part's triangle boxes and zero-area flags at positions x, and its leaves' boxes, leaf by
// leaf in fixed blocks of leaves (the tree's inner nodes are the caller's refit_inner): each
// triangle box is grown into its leaf's while it is at hand. A skipped triangle (zero area, or a
// corner not finite) gets an empty box, so the traversal never meets it, and no share of its
// leaf's. Returns the first vertex that is not finite (SIZE_MAX: none) in triangle order, and
// adds the skipped triangles to `skipped`.
// `kept` (null: none; else one flag per joint of the mesh's skin, `kept_count` of them): a
// triangle that a kept joint alone moves keeps its zero-area flag from the stored positions
// (`stored_skip`): an invertible affine map neither makes nor unmakes a line.
// Everything the loop reads is in locals: a store to a flag (a char, which may alias anything)
// would otherwise reload each pointer behind it, which had doubled the loop's instructions.
template <typename PartT>
std::size_t frame_boxes(PartT& p, const std::vector<Eigen::Vector3f>& x, ThreadPool* pool, const std::uint8_t* kept, std::size_t kept_count,
                        std::size_t& skipped) {
    TriangleBvh& bvh = p.bvh;
    const std::vector<std::uint32_t>& leaves = bvh.leaves();
    const std::size_t blocks = (leaves.size() + kLeafBlock - 1) / kLeafBlock;
    std::vector<std::size_t> bad(blocks, SIZE_MAX);  // per block, the first vertex not finite
    std::vector<std::size_t> zero(blocks, 0);         // per block, the triangles skipped
    // A leaf whose corners are all bitwise where they were when its boxes, flags, leaf box and
    // facing mask were last computed keeps them: the same inputs (and the same kept joints) give the same
    // results. A rig's still parts (the bench tube's root third) skip the work every frame.
    const std::vector<std::uint8_t> kept_now(kept, kept + (kept ? kept_count : 0));
    bool finite, reuse = false;
    if (p.boxed.size() == x.size() && p.boxed_kept == kept_now) {
        // One pass over the positions for the finite test, the compare and the copy, where two
        // passes (all_finite's, then the compare's) had read them twice.
        std::vector<std::uint8_t> block_finite((x.size() + kVertexBlock - 1) / kVertexBlock, 1);
        run_tasks(pool, block_finite.size(), [&](std::size_t blk) {
            const std::size_t first = blk * kVertexBlock, end = std::min(x.size(), first + kVertexBlock);
            block_finite[blk] = compare_and_copy(x.data() + first, p.boxed.data() + first, p.moved.data() + first, end - first);
        });
        finite = std::all_of(block_finite.begin(), block_finite.end(), [](std::uint8_t f) { return f != 0; });
        reuse = finite;
        if (!finite) p.boxed.clear();  // this frame's boxes are not all computed: none kept for the next
    } else {
        finite = all_finite(x, pool);
        if (finite) {
            p.boxed = x;
            p.moved.assign(x.size(), 1);
            p.boxed_kept = kept_now;
        } else {
            p.boxed.clear();
        }
    }
    run_tasks(pool, blocks, [&, kept, kept_count, finite, reuse](std::size_t blk) {
        float* const lo0 = bvh.lanes(0);
        float* const lo1 = bvh.lanes(1);
        float* const lo2 = bvh.lanes(2);
        float* const hi0 = bvh.lanes(3);
        float* const hi1 = bvh.lanes(4);
        float* const hi2 = bvh.lanes(5);
        const Eigen::Vector3f* const pos = x.data();
        const std::uint32_t* const corners = p.corners.data();
        const int* const rigid = p.rigid.data();
        const std::uint8_t* const stored_skip = p.stored_skip.data();
        std::uint8_t* const skip = p.skip.data();
        const std::uint8_t* const moved = p.moved.data();
        const TriangleBvh::Node* const nodes = bvh.nodes().data();
        const std::uint32_t* const leaf = leaves.data();
        const int* const node_rigid = p.node_rigid.empty() ? nullptr : p.node_rigid.data();
        std::uint8_t* const unboxed = p.unboxed.data();
        std::uint8_t* const node_axes = p.node_axes.data();
        const std::size_t end = std::min(leaves.size(), (blk + 1) * kLeafBlock);
        const float inf = std::numeric_limits<float>::infinity();
        std::size_t z = 0, first_bad = SIZE_MAX;
        for (std::size_t l = blk * kLeafBlock; l < end; ++l) {
            const std::uint32_t first = nodes[leaf[l]].first, last = first + nodes[leaf[l]].count;
            if (reuse) {
                bool still = true;
                for (std::uint32_t t = first; t < last && still; ++t)
                    still = (moved[corners[3 * t]] | moved[corners[3 * t + 1]] | moved[corners[3 * t + 2]]) == 0;
                if (still) {
                    for (std::uint32_t t = first; t < last; ++t) z += skip[t];
                    continue;
                }
            }
#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
            __m128 leaf_lo = _mm_set1_ps(inf), leaf_hi = _mm_set1_ps(-inf);
#else
            float l0 = inf, l1 = inf, l2 = inf, h0 = -inf, h1 = -inf, h2 = -inf;
#endif
            // Every triangle moved by one kept joint alone: its flags are the stored ones, and
            // only the leaf's box is needed here (its lanes, where the traversal meets the leaf,
            // are LeafLanes'). Only with every position finite, so no corner needs the test.
            const int leaf_rigid = node_rigid && finite ? node_rigid[leaf[l]] : -1;
            unboxed[leaf[l]] = kept && leaf_rigid >= 0 && static_cast<std::size_t>(leaf_rigid) < kept_count && kept[leaf_rigid];
            // The axes all the leaf's triangles face (none for an unboxed leaf: not computed).
            std::uint32_t axes = unboxed[leaf[l]] ? 0 : patch::kAllAxes;
            if (unboxed[leaf[l]]) {
                for (std::uint32_t t = first; t < last; ++t) {
                    skip[t] = stored_skip[t];
                    if (stored_skip[t]) {
                        ++z;
                        continue;
                    }
                    const std::uint32_t* c = corners + 3 * t;
                    const Eigen::Vector3f &a = pos[c[0]], &b = pos[c[1]], &d = pos[c[2]];
#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
                    const __m128 pa = load3(a), pb = load3(b), pd = load3(d);
                    leaf_lo = _mm_min_ps(leaf_lo, _mm_min_ps(_mm_min_ps(pa, pb), pd));
                    leaf_hi = _mm_max_ps(leaf_hi, _mm_max_ps(_mm_max_ps(pa, pb), pd));
#else
                    l0 = std::min(l0, std::min(std::min(a.x(), b.x()), d.x()));
                    l1 = std::min(l1, std::min(std::min(a.y(), b.y()), d.y()));
                    l2 = std::min(l2, std::min(std::min(a.z(), b.z()), d.z()));
                    h0 = std::max(h0, std::max(std::max(a.x(), b.x()), d.x()));
                    h1 = std::max(h1, std::max(std::max(a.y(), b.y()), d.y()));
                    h2 = std::max(h2, std::max(std::max(a.z(), b.z()), d.z()));
#endif
                }
            } else
            for (std::uint32_t t = first; t < last; ++t) {
                const std::uint32_t* c = corners + 3 * t;
                const Eigen::Vector3f &a = pos[c[0]], &b = pos[c[1]], &d = pos[c[2]];
                bool out;
                if (!finite && !(a.allFinite() && b.allFinite() && d.allFinite())) {
                    for (int k = 0; k < 3 && first_bad == SIZE_MAX; ++k)
                        if (!pos[c[k]].allFinite()) first_bad = c[k];
                    out = true;
                } else {
#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
                    const std::uint32_t f = patch::facing_mask(load3(a), load3(b), load3(d));
#else
                    const std::uint32_t f = patch::facing(a, b, d);
#endif
                    axes &= f;
                    // A proved facing is a proved nonzero normal component: not zero area.
                    const int r = rigid[t];
                    if (kept && r >= 0 && static_cast<std::size_t>(r) < kept_count && kept[r]) out = stored_skip[t] != 0;
                    else out = f == 0 && zero_area(a, b, d);
                }
                skip[t] = out ? 1 : 0;
                if (out) {
                    axes = 0;
                    ++z;
                    lo0[t] = lo1[t] = lo2[t] = inf;
                    hi0[t] = hi1[t] = hi2[t] = -inf;
                    continue;
                }
#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
                // The three axes at once (the fourth lane is zero): min and max are exact, and
                // the open boxes' compares cannot tell the zeros' signs apart.
                const __m128 pa = load3(a), pb = load3(b), pd = load3(d);
                const __m128 lo = _mm_min_ps(_mm_min_ps(pa, pb), pd), hi = _mm_max_ps(_mm_max_ps(pa, pb), pd);
                lo0[t] = _mm_cvtss_f32(lo);
                lo1[t] = _mm_cvtss_f32(_mm_shuffle_ps(lo, lo, 1));
                lo2[t] = _mm_cvtss_f32(_mm_movehl_ps(lo, lo));
                hi0[t] = _mm_cvtss_f32(hi);
                hi1[t] = _mm_cvtss_f32(_mm_shuffle_ps(hi, hi, 1));
                hi2[t] = _mm_cvtss_f32(_mm_movehl_ps(hi, hi));
                leaf_lo = _mm_min_ps(leaf_lo, lo);
                leaf_hi = _mm_max_ps(leaf_hi, hi);
#else
                const float x0 = std::min(std::min(a.x(), b.x()), d.x()), x1 = std::max(std::max(a.x(), b.x()), d.x());
                const float y0 = std::min(std::min(a.y(), b.y()), d.y()), y1 = std::max(std::max(a.y(), b.y()), d.y());
                const float z0 = std::min(std::min(a.z(), b.z()), d.z()), z1 = std::max(std::max(a.z(), b.z()), d.z());
                lo0[t] = x0;
                lo1[t] = y0;
                lo2[t] = z0;
                hi0[t] = x1;
                hi1[t] = y1;
                hi2[t] = z1;
                l0 = std::min(l0, x0);
                l1 = std::min(l1, y0);
                l2 = std::min(l2, z0);
                h0 = std::max(h0, x1);
                h1 = std::max(h1, y1);
                h2 = std::max(h2, z1);
#endif
            }
#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
            node_axes[leaf[l]] = static_cast<std::uint8_t>(axes);
            alignas(16) float box_lo[4], box_hi[4];
            _mm_store_ps(box_lo, leaf_lo);
            _mm_store_ps(box_hi, leaf_hi);
            bvh.set_leaf_box(leaf[l], BvhBox{{box_lo[0], box_lo[1], box_lo[2]}, {box_hi[0], box_hi[1], box_hi[2]}});
#else
            node_axes[leaf[l]] = static_cast<std::uint8_t>(axes);
            bvh.set_leaf_box(leaf[l], BvhBox{{l0, l1, l2}, {h0, h1, h2}});
#endif
        }
        zero[blk] = z;
        bad[blk] = first_bad;
    });
    for (std::size_t z : zero) skipped += z;
    for (std::size_t v : bad)
        if (v != SIZE_MAX) return v;
    return SIZE_MAX;
}

}  // namespace

void IntersectEngine::build(const std::vector<std::vector<Eigen::Vector3f>>& positions, ThreadPool* pool) {
    // The tree (built by the constructor) gets its boxes from the stored positions (the bind
    // pose), and is refitted per frame.
    std::vector<std::vector<Eigen::Vector3f>> stored(parts_.size());
    for (std::size_t pi = 0; pi < parts_.size(); ++pi) {
        Part& p = parts_[pi];
        stored[pi] = scene_.meshes[p.mesh].positions;
        {
            // Per node its triangles (children follow their parent), for the patch test's size.
            const auto& nodes = p.bvh.nodes();
            p.node_size.assign(nodes.size(), 0);
            for (std::size_t n = nodes.size(); n-- > 0;)
                p.node_size[n] = nodes[n].leaf() ? nodes[n].count : p.node_size[n + 1] + p.node_size[nodes[n].first];
            p.node_axes.assign(nodes.size(), 0);
            p.rim.resize(nodes.size());
            p.rim_state.assign(nodes.size(), 0);
        }
        // The stored positions' boxes and flags, in leaf order (a position not finite: its
        // triangles skipped here).
        std::size_t skipped = 0;
        frame_boxes(p, stored[pi], pool, nullptr, 0, skipped);
        p.bvh.refit_inner(pool, p.node_axes.data());
        p.stored_skip = p.skip;
        // Per triangle, the later triangles of its leaf that are its neighbours (bit i: the
        // leaf's i-th), for the self-leaf tests: fixed by the weld, so found once, not per frame.
        // Two whole faces are neighbours when they share a welded corner (neighbours()' own
        // rule for them): a triangle's three against the leaf's eight lanes of each corner side
        // by side, as the traversal's WeldedLanes does; a fan's triangles through neighbours().
        const std::vector<std::uint32_t>& leaves = p.bvh.leaves();
        p.leaf_near.assign(p.face.size(), 0);
        run_tasks(pool, (leaves.size() + kLeafBlock - 1) / kLeafBlock, [&](std::size_t blk) {
            const std::uint32_t* const lane[3] = {p.welded_lanes[0].data(), p.welded_lanes[1].data(), p.welded_lanes[2].data()};
            for (std::size_t l = blk * kLeafBlock, end = std::min(leaves.size(), l + kLeafBlock); l < end; ++l) {
                const TriangleBvh::Node& leaf = p.bvh.nodes()[leaves[l]];
                const std::uint32_t first = leaf.first, count = leaf.count;
                std::uint32_t whole = 0;
                for (std::uint32_t k = 0; k < count; ++k) whole |= std::uint32_t(p.whole[first + k]) << k;
#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
                // The lanes past the leaf's count (the next leaf's, or padding) are masked below.
                __m128i lo[3], hi[3];
                for (int c = 0; c < 3; ++c) {
                    lo[c] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(lane[c] + first));
                    hi[c] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(lane[c] + first + 4));
                }
#endif
                for (std::uint32_t i = 0; i + 1 < count; ++i) {
                    const std::uint32_t ta = first + i, later = ((1u << count) - 1) & ~((2u << i) - 1);
                    std::uint32_t near = 0;
                    if (p.whole[ta]) {
                        // Bit k: the leaf's k-th triangle has one of ta's welded corners.
#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
                        __m128i ml = _mm_setzero_si128(), mh = ml;
                        for (int c = 0; c < 3; ++c) {
                            const __m128i v = _mm_set1_epi32(static_cast<int>(lane[c][ta]));
                            for (int k = 0; k < 3; ++k) {
                                ml = _mm_or_si128(ml, _mm_cmpeq_epi32(v, lo[k]));
                                mh = _mm_or_si128(mh, _mm_cmpeq_epi32(v, hi[k]));
                            }
                        }
                        const auto share = static_cast<std::uint32_t>(_mm_movemask_ps(_mm_castsi128_ps(ml)) | _mm_movemask_ps(_mm_castsi128_ps(mh)) << 4);
#else
                        std::uint32_t share = 0;
                        for (std::uint32_t k = 0; k < count; ++k)
                            for (int c = 0; c < 3; ++c)
                                for (int d = 0; d < 3; ++d) share |= std::uint32_t(lane[c][ta] == lane[d][first + k]) << k;
#endif
                        near = share & whole & later;
                    }
                    for (std::uint32_t m = later & ~(p.whole[ta] ? whole : 0u); m; m &= m - 1) {
                        const std::uint32_t k = static_cast<std::uint32_t>(__builtin_ctz(m)), tb = first + k;
                        if (p.face[ta] == p.face[tb] || neighbours(p, ta, tb)) near |= 1u << k;
                    }
                    p.leaf_near[ta] = static_cast<std::uint8_t>(near);
                }
            }
        });
        // Per node, the joint that alone moves all its triangles (children follow their parent).
        const auto& nodes = p.bvh.nodes();
        p.node_rigid.assign(nodes.size(), -1);
        for (std::size_t n = nodes.size(); n-- > 0;) {
            const TriangleBvh::Node& node = nodes[n];
            if (node.leaf()) {
                int r = p.rigid[node.first];
                for (std::uint32_t t = node.first + 1; t < node.first + node.count; ++t)
                    if (p.rigid[t] != r) r = -1;
                p.node_rigid[n] = r;
            } else {
                const int l = p.node_rigid[n + 1];
                p.node_rigid[n] = l == p.node_rigid[node.first] ? l : -1;
            }
        }
    }
    // The pairs one joint alone moves, tested once on the stored positions.
    rigid_pass_ = true;
    std::vector<Job> roots;
    for (std::uint32_t pi = 0; pi < parts_.size(); ++pi)
        if (!parts_[pi].bvh.empty()) roots.push_back(Job{pi, 0, pi, 0, true});
    rigid_hits_ = traverse(std::move(roots), stored, pool);
    rigid_pass_ = false;
    built_ = true;
    (void)positions;
}

void IntersectEngine::evaluate(const std::vector<std::vector<Eigen::Vector3f>>& positions, ThreadPool* pool, IntersectFrame& out,
                               const std::vector<std::vector<std::uint8_t>>* rigid) {
    if (positions.size() != parts_.size()) throw internal_error("intersect: positions for " + std::to_string(positions.size()) + " meshes, not " + std::to_string(parts_.size()));
    for (std::size_t pi = 0; pi < parts_.size(); ++pi)
        if (positions[pi].size() != scene_.meshes[parts_[pi].mesh].vertex_count())
            throw internal_error("intersect: positions of mesh '" + scene_.meshes[parts_[pi].mesh].name + "' do not match its vertices");
    if (!built_) build(positions, pool);
    out = IntersectFrame{};
    for (std::size_t pi = 0; pi < parts_.size(); ++pi) {
        parts_[pi].kept.clear();
        if (rigid && pi < rigid->size()) parts_[pi].kept = (*rigid)[pi];
    }
    for (std::size_t pi = 0; pi < parts_.size(); ++pi) {
        Part& p = parts_[pi];
        const std::size_t bad = frame_boxes(p, positions[pi], pool, p.kept.data(), p.kept.size(), out.degenerate);
        if (bad != SIZE_MAX)
            throw Error(kExitBadInput, "mesh '" + scene_.meshes[p.mesh].name + "': vertex " + std::to_string(bad) + "'s position is not finite");
        p.bvh.refit_inner(pool, p.node_axes.data());
    }

    // Every mesh against itself and every later mesh, cut into node pairs for the threads.
    std::vector<Job> jobs;
    for (std::uint32_t a = 0; a < parts_.size(); ++a) {
        if (parts_[a].bvh.empty()) continue;
        jobs.push_back({a, 0, a, 0, true});
        for (std::uint32_t b = a + 1; b < parts_.size(); ++b)
            if (!parts_[b].bvh.empty()) jobs.push_back({a, 0, b, 0, false});
    }
    std::vector<Hit> hits = traverse(std::move(jobs), positions, pool);
    // One order whatever the threads found first: by face pair, then by triangle pair.
    // The kept pairs: crossing as on the stored positions; their length measured on this frame's.
    for (const Hit& h : rigid_hits_) {
        const std::uint32_t pi = static_cast<std::uint32_t>(part_of_mesh_[h.mesh_a]);
        const Part& p = parts_[pi];
        if (!kept(pi, p.rigid[h.tri_a])) continue;
        const std::vector<Eigen::Vector3f>& x = positions[pi];
        const Eigen::Vector3f a[3] = {x[p.corners[3 * h.tri_a]], x[p.corners[3 * h.tri_a + 1]], x[p.corners[3 * h.tri_a + 2]]};
        const Eigen::Vector3f b[3] = {x[p.corners[3 * h.tri_b]], x[p.corners[3 * h.tri_b + 1]], x[p.corners[3 * h.tri_b + 2]]};
        Hit k = h;
        k.length = crossing_length(a, b);
        hits.push_back(k);
    }
    for (Part& p : parts_) p.kept.clear();
    std::sort(hits.begin(), hits.end(), [](const Hit& x, const Hit& y) {
        return std::tie(x.mesh_a, x.face_a, x.mesh_b, x.face_b, x.tri_a, x.tri_b) < std::tie(y.mesh_a, y.face_a, y.mesh_b, y.face_b, y.tri_a, y.tri_b);
    });
    for (const Hit& h : hits) {
        if (out.pairs.empty() || std::tie(out.pairs.back().mesh_a, out.pairs.back().face_a, out.pairs.back().mesh_b, out.pairs.back().face_b) !=
                                     std::tie(h.mesh_a, h.face_a, h.mesh_b, h.face_b))
            out.pairs.push_back(FacePair{h.mesh_a, h.face_a, h.mesh_b, h.face_b, -1, 0});
        out.pairs.back().length += h.length;
    }
    for (FacePair& p : out.pairs) {
        p.joint = joint_of(p);
        out.length += p.length;
    }
}

std::vector<std::vector<std::uint8_t>> rigid_joints(const Scene& scene, const std::vector<int>& meshes, const Pose& pose) {
    std::vector<std::vector<std::uint8_t>> out(meshes.size());
    std::vector<Affine3x4> m;
    for (std::size_t i = 0; i < meshes.size(); ++i) {
        const Mesh& mesh = scene.meshes[meshes[i]];
        if (mesh.skin < 0) continue;
        skin_matrices(scene, mesh, pose, m);
        for (const Affine3x4& a : m) {
            bool finite = true;
            for (float v : a.m) finite = finite && std::isfinite(v);
            // Row-major 3x4: the 3x3 part's determinant, in double.
            const double det = double(a.m[0]) * (double(a.m[5]) * a.m[10] - double(a.m[6]) * a.m[9]) -
                               double(a.m[1]) * (double(a.m[4]) * a.m[10] - double(a.m[6]) * a.m[8]) +
                               double(a.m[2]) * (double(a.m[4]) * a.m[9] - double(a.m[5]) * a.m[8]);
            out[i].push_back(finite && std::abs(det) >= 1e-18 ? 1 : 0);
        }
    }
    return out;
}

}  // namespace rigscope
