// Lint of what the weights act on: faces that have no area or share an edge with two others,
// a rest skeleton that does not reproduce the stored mesh, and joints scaled in the bind pose.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <set>

#include "lint_text.h"
#include "rigscope/core/bind_check.h"
#include "rigscope/core/vertex_match.h"

namespace rigscope {

using namespace lint_detail;

namespace {

// A face's distinct sides over the welded points, each as (lower << 32 | higher); false when a
// corner is no vertex (the face is skipped). A collapsed face (a, b, a) has the side a-b twice:
// the face counts once per edge.
template <class Point>
bool face_sides(const Mesh& mesh, std::uint32_t b, std::uint32_t e, std::size_t nv, const Point& point,
                std::vector<std::uint64_t>& sides) {
    sides.clear();
    for (std::uint32_t k = b; k < e; ++k) {
        const std::uint32_t i = mesh.face_indices[k], j = mesh.face_indices[k + 1 < e ? k + 1 : b];
        if (i >= nv || j >= nv) return false;
        const std::uint32_t pi = point(i), pj = point(j);
        if (pi == pj) continue;
        const std::uint64_t side = static_cast<std::uint64_t>(std::min(pi, pj)) << 32 | std::max(pi, pj);
        // Triangles and quads have a handful of sides: a scan beats a sort.
        if (sides.size() < 16 ? std::find(sides.begin(), sides.end(), side) == sides.end() : true) sides.push_back(side);
    }
    if (sides.size() > 16) {
        std::sort(sides.begin(), sides.end());
        sides.erase(std::unique(sides.begin(), sides.end()), sides.end());
    }
    return true;
}

// Twice the face's area by Newell's normal, in double: the area of any planar polygon, and of a
// warped one's projection. The value every zero-area finding reports.
double newell_area(const Mesh& mesh, std::uint32_t b, std::uint32_t e) {
    Eigen::Vector3d twice = Eigen::Vector3d::Zero();
    for (std::uint32_t k = b; k < e; ++k) {
        const std::uint32_t i = mesh.face_indices[k], j = mesh.face_indices[k + 1 < e ? k + 1 : b];
        twice += mesh.positions[i].cast<double>().cross(mesh.positions[j].cast<double>());
    }
    return 0.5 * twice.norm();
}

// The largest |x| + |y| + |z| of the points; NaN if any coordinate is NaN (it sticks).
double largest_l1(const std::vector<Eigen::Vector3f>& points) {
    double most = 0;
    for (const auto& p : points) {
        const double l1 = static_cast<double>(std::abs(p.x())) + std::abs(p.y()) + std::abs(p.z());
        most = l1 > most || l1 != l1 ? l1 : most;
    }
    return most;
}

// A vertex's welded point: points are below the vertex count either way, so they index
// per-point arrays.
struct WeldedPoint {
    const std::vector<std::uint32_t>& coincident;
    std::uint32_t operator()(std::uint32_t v) const { return v < coincident.size() ? coincident[v] : v; }
};

// The faces read, up to the first whose corner range is broken (the rest is not read).
std::size_t readable_faces(const Mesh& mesh) {
    std::size_t faces = 0;
    while (faces < mesh.face_count() && mesh.face_offsets[faces + 1] <= mesh.face_indices.size() &&
           mesh.face_offsets[faces] <= mesh.face_offsets[faces + 1])
        ++faces;
    return faces;
}

// A triangle's area is screened in float and only confirmed by newell_area near the
// threshold; the screen passes a face only where newell_area surely exceeds zero_area.
// Bound (u = 2^-24, float rounding; exact T = (P1 - P0) x (P2 - P0), twice the true area):
// - float: the differences d1, d2 are within u of exact (exact when subnormal), each cross
//   component within 4.02u (|a b| + |c d|) of T's, so |t - T| <= 4.02u L with
//   L = |d1|_1 |d2|_1, computed in float to within 7u: 8u L covers it (FMA contraction only
//   tightens this); s = fl(|t|^2) <= |t|^2 (1 + 4u).
// - newell_area: products of floats are exact in double; with M the largest |P|_1 of the
//   mesh, its sums err by under 9 u_d M^2 (u_d = 2^-53) and its norm, of a vector under
//   4 M^2, by under 10 u_d M^2: twice its error is under 19 u_d M^2 < 2^-47 M^2.
// So |T| > 2 zero_area + 2^-47 M^2 + 8u L, which the test below checks with (1 + 2^-20)
// covering (1 + 4u) and its own double rounding, gives newell_area > zero_area. 2^-60 keeps s
// away from float's subnormals (products that underflow err by 2^-150); s must be finite (an
// overflowed t proves nothing); NaN or infinite coordinates (in the face or in M) fail the
// test: such faces are confirmed.
struct AreaScreen {
    const Mesh& mesh;
    double zero_area;
    double screen_base;

    AreaScreen(const Mesh& m, double zero) : mesh(m), zero_area(zero) {
        const double m1 = largest_l1(m.positions);
        screen_base = 2 * zero_area + 0x1p-47 * m1 * m1 + 0x1p-60;
    }

    bool surely_not_zero(std::uint32_t i0, std::uint32_t i1, std::uint32_t i2) const {
        const Eigen::Vector3f& p0 = mesh.positions[i0];
        const Eigen::Vector3f d1 = mesh.positions[i1] - p0, d2 = mesh.positions[i2] - p0;
        const float s = d1.cross(d2).squaredNorm();
        const float l = d1.cwiseAbs().sum() * d2.cwiseAbs().sum();
        const double r = screen_base + 0x1p-21 * static_cast<double>(l);
        return s <= std::numeric_limits<float>::max() && static_cast<double>(s) > (1 + 0x1p-20) * r * r;
    }

    // Face f (corners b to e) confirmed by newell_area: a finding if its area is zero.
    void confirm(int m, std::size_t f, std::uint32_t b, std::uint32_t e, std::vector<Finding>& out) const {
        const double area = newell_area(mesh, b, e);
        if (area > zero_area) return;
        std::string corners;
        for (std::uint32_t k = b; k < e && k < b + 6; ++k) corners += (k == b ? "" : ", ") + std::to_string(mesh.face_indices[k]);
        if (e > b + 6) corners += ", ...";
        Finding fd = finding("degenerate_face", Severity::Warning, m,
                             "face " + std::to_string(f) + " (vertices " + corners + ") has zero area (" + number(area) + ")");
        fd.face = static_cast<std::int64_t>(f);
        fd.vertex = e > b ? mesh.face_indices[b] : -1;
        fd.value = area;
        fd.has_value = true;
        out.push_back(std::move(fd));
    }
};

// A triangle's distinct sides over the welded points, as (lower, higher): three, one when two
// corners are one point (the face counts once on that edge), none when all are.
template <class Side>
void triangle_sides(std::uint32_t a, std::uint32_t b, std::uint32_t c, Side& side) {
    if (a != b && b != c && c != a) {
        side.add(std::min(a, b), std::max(a, b));
        side.add(std::min(b, c), std::max(b, c));
        side.add(std::min(c, a), std::max(c, a));
    } else if (a != b || b != c) {
        const std::uint32_t lo = std::min({a, b, c}), hi = std::max({a, b, c});
        side.add(lo, hi);
    }
}

// Each face's sides kept by their lower point, in one pass: the first kInline higher ends in
// the point's own slots (a point has about six sides to higher points in a triangle mesh),
// the rest as (lower, higher) in `overflow`, sorted afterwards.
struct SidesByPoint {
    static constexpr std::uint32_t kInline = 8;
    std::vector<std::uint32_t> sides_of;
    std::unique_ptr<std::uint32_t[]> inline_higher;  // only written slots are read
    std::vector<std::uint64_t> overflow;

    explicit SidesByPoint(std::size_t nv) : sides_of(nv, 0), inline_higher(new std::uint32_t[nv * kInline]) {}

    void add(std::uint32_t lo, std::uint32_t hi) {
        const std::uint32_t k = sides_of[lo]++;
        if (k < kInline) inline_higher[static_cast<std::size_t>(lo) * kInline + k] = hi;
        else overflow.push_back(static_cast<std::uint64_t>(lo) << 32 | hi);
    }
};

// Step 1: every readable face's sides, and its area judged on the way (a face with a corner
// that is no vertex is skipped).
SidesByPoint collect_sides(const Mesh& mesh, int m, const WeldedPoint& point, const AreaScreen& screen, std::vector<Finding>& out) {
    const std::size_t nv = mesh.positions.size(), faces = readable_faces(mesh);
    SidesByPoint by_point(nv);
    std::vector<std::uint64_t> sides;
    for (std::size_t f = 0; f < faces; ++f) {
        const std::uint32_t b = mesh.face_offsets[f], e = mesh.face_offsets[f + 1];
        if (e - b == 3) {
            const std::uint32_t i0 = mesh.face_indices[b], i1 = mesh.face_indices[b + 1], i2 = mesh.face_indices[b + 2];
            if (i0 >= nv || i1 >= nv || i2 >= nv) continue;
            triangle_sides(point(i0), point(i1), point(i2), by_point);
            if (!screen.surely_not_zero(i0, i1, i2)) screen.confirm(m, f, b, e, out);
            continue;
        }
        if (!face_sides(mesh, b, e, nv, point, sides)) continue;
        for (std::uint64_t s : sides) by_point.add(static_cast<std::uint32_t>(s >> 32), static_cast<std::uint32_t>(s));
        screen.confirm(m, f, b, e, out);
    }
    std::sort(by_point.overflow.begin(), by_point.overflow.end());
    return by_point;
}

// Step 2, non-manifold: an edge of the surface as placed that more than two faces share. Each
// higher end of a point's sides is counted in `seen` (tagged with the point, so nothing is
// cleared), and the few reaching three are sorted, for the (lower, higher) order.
void shared_edges(const SidesByPoint& by_point, int m, std::vector<Finding>& out) {
    const std::size_t nv = by_point.sides_of.size();
    constexpr std::uint32_t kInline = SidesByPoint::kInline;
    std::vector<std::uint64_t> seen(nv, 0);  // (lower point + 1) << 32 | faces on the edge to this point
    std::vector<std::uint32_t> shared;
    std::size_t o = 0;  // overflow's next side: points are visited in order
    for (std::size_t a = 0; a < nv; ++a) {
        if (by_point.sides_of[a] < 3) continue;
        const std::uint64_t tag = static_cast<std::uint64_t>(a + 1) << 32;
        auto see = [&](std::uint32_t h) {
            std::uint64_t& c = seen[h];
            c = (c & ~0xFFFFFFFFull) == tag ? c + 1 : tag | 1;
            if ((c & 0xFFFFFFFFull) == 3) shared.push_back(h);
        };
        const std::uint32_t* slots = by_point.inline_higher.get() + a * kInline;
        for (std::uint32_t k = 0; k < std::min(by_point.sides_of[a], kInline); ++k) see(slots[k]);
        for (; o < by_point.overflow.size() && by_point.overflow[o] >> 32 == a; ++o) see(static_cast<std::uint32_t>(by_point.overflow[o]));
        if (shared.empty()) continue;
        std::sort(shared.begin(), shared.end());
        for (std::uint32_t c : shared) {
            const auto count = static_cast<std::uint32_t>(seen[c]);
            Finding fd = finding("degenerate_face", Severity::Warning, m,
                                 "the edge from vertex " + std::to_string(a) + " to vertex " + std::to_string(c) + " is shared by " +
                                     std::to_string(count) + " faces (non-manifold)");
            fd.vertex = static_cast<std::int64_t>(a);
            fd.partner = c;
            fd.value = static_cast<double>(count);
            fd.has_value = true;
            out.push_back(std::move(fd));
        }
        shared.clear();
    }
}

}  // namespace

void lint_faces(const Scene& scene, int m, const std::vector<std::uint32_t>& coincident, const LintParams& params,
                std::vector<Finding>& out) {
    const Mesh& mesh = scene.meshes[m];
    const double diagonal = bounding_diagonal(mesh.positions);
    const AreaScreen screen(mesh, params.area_tolerance * diagonal * diagonal);
    const SidesByPoint by_point = collect_sides(mesh, m, WeldedPoint{coincident}, screen, out);
    shared_edges(by_point, m, out);
}

void lint_bind_pose(const Scene& scene, int m, const LintParams& params, std::vector<Finding>& out) {
    const Mesh& mesh = scene.meshes[m];
    if (!lint_has_skin(scene, mesh)) return;
    const Skin& skin = scene.skins[mesh.skin];
    const BindCheck check = check_bind(scene, m);
    if (!check.skinned) return;
    const double limit = params.bind_tolerance * check.diagonal;
    bool named = false;
    for (std::size_t j = 0; j < check.joint_distance.size() && j < skin.joints.size(); ++j) {
        // Which joints: those whose own matrix moves their vertices. How far: the skinned mesh's
        // distance over those vertices, the figure info states (check_bind computes both).
        if (!(check.joint_distance[j] > limit)) continue;
        const double d = check.joint_vertex_distance[j];
        Finding f = finding("bind_pose", Severity::Warning, m,
                            "at rest the skinned vertices it weighs lie up to " + number(d) + " from where they are stored (mesh diagonal " + number(check.diagonal) +
                                "): its rest pose is not its bind pose");
        f.joint = skin.joints[j];
        f.value = d;
        f.has_value = true;
        out.push_back(std::move(f));
        named = true;
    }
    if (!named && check.max_distance > limit) {
        Finding f = finding("bind_pose", Severity::Warning, m,
                            "the rest skeleton moves this vertex by " + number(check.max_distance) + " from where it is stored");
        f.vertex = check.worst_vertex;
        f.value = check.max_distance;
        f.has_value = true;
        out.push_back(std::move(f));
    }
}

void lint_joint_scale(const Scene& scene, const std::vector<int>& meshes, const LintParams& params, std::vector<Finding>& out) {
    // Each joint once, under the first selected mesh whose skin has it.
    std::set<int> seen;
    for (int m : meshes) {
        const Mesh& mesh = scene.meshes[m];
        if (!lint_has_skin(scene, mesh)) continue;
        for (int node : scene.skins[mesh.skin].joints) {
            if (node < 0 || node >= static_cast<int>(scene.nodes.size()) || !seen.insert(node).second) continue;
            const Eigen::Vector3d s = scene.nodes[node].rest.scale;
            const std::string text = number(s.x()) + ", " + number(s.y()) + ", " + number(s.z());
            const double lo = s.cwiseAbs().minCoeff(), hi = s.cwiseAbs().maxCoeff();
            std::string problem;
            if (s.minCoeff() < 0) problem = "negative scale (" + text + ")";
            else if (!(hi <= lo * (1 + params.scale_tolerance))) problem = "non-uniform scale (" + text + ")";
            if (problem.empty()) continue;
            Finding f = finding("joint_scale", Severity::Warning, m, problem + " in the rest pose");
            f.joint = node;
            f.value = lo > 0 ? hi / lo : INFINITY;
            f.has_value = std::isfinite(f.value);
            out.push_back(std::move(f));
        }
    }
}

}  // namespace rigscope
