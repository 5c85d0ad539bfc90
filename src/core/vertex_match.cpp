#include "rigscope/core/vertex_match.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <array>
#include <limits>
#include <numeric>

namespace rigscope {

namespace {

// splitmix64's finaliser: grid and float bit patterns are far too regular for a plain product.
std::uint64_t mix(std::uint64_t x) {
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

struct CellKey {
    long long x, y, z;
};
std::size_t cell_hash(const CellKey& k) {
    return static_cast<std::size_t>(mix(mix(mix(static_cast<std::uint64_t>(k.x)) ^ static_cast<std::uint64_t>(k.y)) ^ static_cast<std::uint64_t>(k.z)));
}

std::array<std::uint32_t, 3> point_bits(const Eigen::Vector3f& p) {
    std::array<std::uint32_t, 3> k;
    for (int c = 0; c < 3; ++c) {
        const float v = p[c] == 0.0f ? 0.0f : p[c];  // -0 and +0 are one point
        std::memcpy(&k[c], &v, sizeof v);
    }
    return k;
}

// Index of each vertex within its exact-position group (in index order), and the group sizes:
// vertices stored at one point (seams) form a group.
void groups(const std::vector<Eigen::Vector3f>& pts, std::vector<std::uint32_t>& rank, std::vector<std::uint32_t>& size) {
    std::vector<std::uint32_t> order(pts.size());
    std::iota(order.begin(), order.end(), 0u);
    std::vector<std::array<std::uint32_t, 3>> bits(pts.size());
    for (std::size_t i = 0; i < pts.size(); ++i) bits[i] = point_bits(pts[i]);
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return bits[a] != bits[b] ? bits[a] < bits[b] : a < b; });
    rank.assign(pts.size(), 0);
    size.assign(pts.size(), 1);
    for (std::size_t i = 0; i < order.size();) {
        std::size_t j = i;
        while (j < order.size() && bits[order[j]] == bits[order[i]]) ++j;
        for (std::size_t k = i; k < j; ++k) {
            rank[order[k]] = static_cast<std::uint32_t>(k - i);
            size[order[k]] = static_cast<std::uint32_t>(j - i);
        }
        i = j;
    }
}

// The grid: b's vertices bucketed by the hash of their cell in one flat array (compressed rows,
// no allocation per cell). Cells sharing a bucket only add candidates the distance test drops.
struct Grid {
    std::size_t mask = 0;
    std::vector<std::uint32_t> offsets, items;
};

}  // namespace

VertexMatch match_by_position(const std::vector<Eigen::Vector3f>& a, const std::vector<Eigen::Vector3f>& b, double tolerance) {
    VertexMatch m;
    m.b_of_a.assign(a.size(), 0);
    // Cells of 4 tolerances: a point probes a neighbour cell only when it lies within the
    // tolerance of that side, one cell for most points instead of 27.
    const double cell = 4 * (tolerance > 0 ? tolerance : 1e-12);
    auto key = [&](const Eigen::Vector3f& p) {
        return CellKey{static_cast<long long>(std::floor(p.x() / cell)), static_cast<long long>(std::floor(p.y() / cell)),
                       static_cast<long long>(std::floor(p.z() / cell))};
    };
    Grid grid;
    std::size_t buckets = 1;
    while (buckets < 2 * b.size()) buckets <<= 1;
    grid.mask = buckets - 1;
    grid.offsets.assign(buckets + 1, 0);
    std::vector<std::size_t> bucket_of(b.size());
    for (std::size_t i = 0; i < b.size(); ++i) ++grid.offsets[(bucket_of[i] = cell_hash(key(b[i])) & grid.mask) + 1];
    for (std::size_t h = 0; h < buckets; ++h) grid.offsets[h + 1] += grid.offsets[h];
    grid.items.resize(b.size());
    {
        std::vector<std::uint32_t> fill(grid.offsets.begin(), grid.offsets.end() - 1);
        for (std::size_t i = 0; i < b.size(); ++i) grid.items[fill[bucket_of[i]]++] = static_cast<std::uint32_t>(i);
    }
    std::vector<std::uint32_t> rank_a, size_a, rank_b, size_b;
    groups(a, rank_a, size_a);
    groups(b, rank_b, size_b);
    std::vector<char> candidate(b.size(), 0);
    const double tol2 = tolerance * tolerance;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const CellKey k = key(a[i]);
        long long found = -1;
        bool several_points = false;
        long long lo[3], hi[3];
        const long long kk[3] = {k.x, k.y, k.z};
        for (int c = 0; c < 3; ++c) {
            const double offset = static_cast<double>(a[i][c]) - static_cast<double>(kk[c]) * cell;
            lo[c] = offset <= tolerance ? -1 : 0;
            hi[c] = offset >= cell - tolerance ? 1 : 0;
        }
        for (long long dx = lo[0]; dx <= hi[0]; ++dx)
            for (long long dy = lo[1]; dy <= hi[1]; ++dy)
                for (long long dz = lo[2]; dz <= hi[2]; ++dz) {
                    const std::size_t h = cell_hash(CellKey{k.x + dx, k.y + dy, k.z + dz}) & grid.mask;
                    for (std::uint32_t n = grid.offsets[h]; n < grid.offsets[h + 1]; ++n) {
                        const std::uint32_t j = grid.items[n];
                        if ((b[j] - a[i]).cast<double>().squaredNorm() > tol2) continue;
                        candidate[j] = 1;
                        const std::size_t any = static_cast<std::size_t>(found >= 0 ? found : -2 - found);
                        if (found != -1 && point_bits(b[j]) != point_bits(b[any])) several_points = true;
                        // The group member of a's rank within the group, the same on both sides.
                        if (rank_b[j] == rank_a[i]) found = j;
                        else if (found < 0) found = -2 - static_cast<long long>(j);  // a candidate, not yet the rank
                    }
                }
        if (found == -1) {
            ++m.unmatched;
            continue;
        }
        if (several_points || found < 0 || size_a[i] != size_b[static_cast<std::size_t>(found)]) {
            ++m.ambiguous;
            continue;
        }
        m.b_of_a[i] = static_cast<std::uint32_t>(found);
    }
    // Vertices of b near no vertex of a are unmatched too (b has vertices a lacks).
    m.unmatched += static_cast<std::size_t>(std::count(candidate.begin(), candidate.end(), 0));
    return m;
}

namespace {

// The largest distance from a point of `from` to its nearest point of `to` (non-empty), through a
// dense grid over `to` of about one point per cell, searched in growing rings of cells until the
// next ring cannot hold anything nearer.
double max_nearest(const std::vector<Eigen::Vector3f>& from, const std::vector<Eigen::Vector3f>& to) {
    Eigen::Vector3d lo = to[0].cast<double>(), hi = lo;
    for (const auto& p : to) {
        lo = lo.cwiseMin(p.cast<double>());
        hi = hi.cwiseMax(p.cast<double>());
    }
    const double extent = (hi - lo).maxCoeff();
    const double cell = extent > 0 ? extent / std::max(1.0, std::cbrt(static_cast<double>(to.size()))) : 1.0;
    long dims[3];
    for (int c = 0; c < 3; ++c) dims[c] = std::max(1L, static_cast<long>(std::ceil((hi[c] - lo[c]) / cell)) + 1);
    auto coord = [&](double x, int c) { return std::clamp(static_cast<long>(std::floor((x - lo[c]) / cell)), 0L, dims[c] - 1); };
    auto flat = [&](long x, long y, long z) { return static_cast<std::size_t>((z * dims[1] + y) * dims[0] + x); };
    const std::size_t cells = static_cast<std::size_t>(dims[0] * dims[1] * dims[2]);
    std::vector<std::uint32_t> offsets(cells + 1, 0), items(to.size());
    std::vector<std::size_t> cell_of(to.size());
    for (std::size_t i = 0; i < to.size(); ++i)
        ++offsets[(cell_of[i] = flat(coord(to[i].x(), 0), coord(to[i].y(), 1), coord(to[i].z(), 2))) + 1];
    for (std::size_t k = 0; k < cells; ++k) offsets[k + 1] += offsets[k];
    {
        std::vector<std::uint32_t> fill(offsets.begin(), offsets.end() - 1);
        for (std::size_t i = 0; i < to.size(); ++i) items[fill[cell_of[i]]++] = static_cast<std::uint32_t>(i);
    }
    const long max_ring = std::max({dims[0], dims[1], dims[2]});
    double worst = 0;
    for (const auto& p : from) {
        const Eigen::Vector3d q = p.cast<double>();
        const long k[3] = {coord(q.x(), 0), coord(q.y(), 1), coord(q.z(), 2)};
        double best2 = std::numeric_limits<double>::infinity();
        for (long r = 0; r <= max_ring; ++r) {
            for (long dx = -r; dx <= r; ++dx)
                for (long dy = -r; dy <= r; ++dy) {
                    const bool face = std::labs(dx) == r || std::labs(dy) == r;
                    for (long dz = -r; dz <= r; dz += face || r == 0 ? 1 : 2 * r) {
                        const long x = k[0] + dx, y = k[1] + dy, z = k[2] + dz;
                        if (x < 0 || y < 0 || z < 0 || x >= dims[0] || y >= dims[1] || z >= dims[2]) continue;
                        const std::size_t h = flat(x, y, z);
                        for (std::uint32_t n = offsets[h]; n < offsets[h + 1]; ++n)
                            best2 = std::min(best2, (to[items[n]].cast<double>() - q).squaredNorm());
                    }
                }
            // Cells of ring r + 1 lie at least r cells away.
            if (best2 <= (r * cell) * (r * cell)) break;
        }
        worst = std::max(worst, std::sqrt(best2));
    }
    return worst;
}

}  // namespace

double covering_distance(const std::vector<Eigen::Vector3f>& a, const std::vector<Eigen::Vector3f>& b) {
    if (a.empty() && b.empty()) return 0;
    if (a.empty() || b.empty()) return std::numeric_limits<double>::infinity();
    return std::max(max_nearest(a, b), max_nearest(b, a));
}

double bounding_diagonal(const std::vector<Eigen::Vector3f>& points) {
    if (points.empty()) return 0;
    Eigen::Vector3f lo = points[0], hi = points[0];
    for (const auto& p : points) {
        lo = lo.cwiseMin(p);
        hi = hi.cwiseMax(p);
    }
    // In double: the diagonal scales relative errors that are printed to many digits.
    return (hi - lo).cast<double>().norm();
}

std::vector<int> heaviest_joint_nodes(const Scene& scene, const Mesh& mesh) {
    std::vector<int> out(mesh.vertex_count(), -1);
    if (mesh.skin < 0 || mesh.influences.empty()) return out;
    const Skin& skin = scene.skins[mesh.skin];
    const Influences& inf = mesh.influences;
    for (std::size_t v = 0; v < out.size() && v + 1 < inf.offsets.size(); ++v) {
        float best = 0;
        for (std::uint32_t k = inf.offsets[v]; k < inf.offsets[v + 1]; ++k)
            if (inf.weights[k] > best && inf.joints[k] < skin.joints.size()) {
                best = inf.weights[k];
                out[v] = skin.joints[inf.joints[k]];
            }
    }
    return out;
}

}  // namespace rigscope
