// Patches that cannot cross themselves (intersect_patch.h, which holds the argument).
#include "intersect_patch.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace rigscope::patch {

namespace {

// `count` copies (|count|, reversed where negative) of the undirected edge `key` (edge() >> 1).
void put(std::vector<Edge>& out, std::uint64_t key, int count) {
    for (int k = 0; k < std::abs(count); ++k) out.push_back(key << 1 | std::uint64_t(count < 0));
}

// A run of equal keys from i in a chain sorted by value: its net count, and where it ends.
int run(const std::vector<Edge>& c, std::size_t& i) {
    const std::uint64_t k = c[i] >> 1;
    int sum = 0;
    for (; i < c.size() && c[i] >> 1 == k; ++i) sum += c[i] & 1 ? -1 : 1;
    return sum;
}

// Shewchuk's orient2d error bound for double inputs is (3 + 16 eps) eps < 3.4e-16 of the two
// products' magnitudes; 1e-15 leaves a margin. The inputs here are floats or a double centroid:
// a nonzero difference is at least about 2^-149 / 2^10, so the products stay far above double's
// underflow, and the floor below only turns away what no float input reaches.
constexpr double kOrientBound = 1e-15;
constexpr double kFloor = 1e-250;

}  // namespace

bool boundary(const std::uint32_t* corners, std::uint32_t first, std::uint32_t count, std::vector<Edge>& out) {
    thread_local std::vector<Edge> s, scratch;
    s.clear();
    out.clear();
    for (std::uint32_t t = first; t < first + count; ++t) {
        const std::uint32_t* c = corners + 3 * t;
        if ((c[0] | c[1] | c[2]) > kMaxVertex) return false;
        // An edge from a vertex to itself projects to a point: it adds nothing to any winding
        // number (its triangle has zero area and no facing bit, so its node is never skipped).
        for (int k = 0; k < 3; ++k)
            if (c[k] != c[(k + 1) % 3]) s.push_back(edge(c[k], c[(k + 1) % 3]));
    }
    std::sort(s.begin(), s.end());
    // The net count per undirected edge; `scratch` first, so `out` is allocated once at its size.
    scratch.clear();
    for (std::size_t i = 0; i < s.size();) {
        const std::uint64_t key = s[i] >> 1;
        put(scratch, key, run(s, i));
    }
    out.assign(scratch.begin(), scratch.end());
    return true;
}

void merge(const std::vector<Edge>& a, const std::vector<Edge>& b, std::vector<Edge>& out) {
    // Both sorted (boundary's and merge's order): one pass, runs of one key added.
    thread_local std::vector<Edge> scratch;
    scratch.clear();
    std::size_t i = 0, j = 0;
    while (i < a.size() || j < b.size()) {
        const std::uint64_t ka = i < a.size() ? a[i] >> 1 : UINT64_MAX, kb = j < b.size() ? b[j] >> 1 : UINT64_MAX;
        const std::uint64_t k = std::min(ka, kb);
        int sum = 0;
        if (ka == k) sum += run(a, i);
        if (kb == k) sum += run(b, j);
        put(scratch, k, sum);
    }
    out.assign(scratch.begin(), scratch.end());
}

std::uint32_t facing(const Eigen::Vector3f& a, const Eigen::Vector3f& b, const Eigen::Vector3f& c) {
    std::uint32_t m = 0;
    for (int k = 0; k < 3; ++k) {
        // The normal's component k: the orientation of the triangle projected on the other two axes.
        const int i = (k + 1) % 3, j = (k + 2) % 3;
        const double l = (double(b[i]) - a[i]) * (double(c[j]) - a[j]), r = (double(b[j]) - a[j]) * (double(c[i]) - a[i]);
        const double det = l - r, bound = kOrientBound * (std::abs(l) + std::abs(r));
        if (!(bound > kFloor)) continue;
        if (det > bound) m |= 1u << k;
        else if (-det > bound) m |= 8u << k;
    }
    return m;
}

bool untangled(const std::vector<Edge>& rim, const Eigen::Vector3f* x, std::uint32_t axes) {
    if (rim.size() < 3) return false;
    for (std::uint32_t bit = 0; bit < 6; ++bit) {
        if (!(axes >> bit & 1)) continue;
        const int k = static_cast<int>(bit % 3), i = (k + 1) % 3, j = (k + 2) % 3;
        const double s = bit < 3 ? 1.0 : -1.0;
        // The star point: the boundary's centroid (any point would do; this one is inside a
        // convex-looking rim). A double, exact as it stands for the tests below.
        double ci = 0, cj = 0;
        for (const Edge& e : rim) {
            ci += x[from(e)][i];
            cj += x[from(e)][j];
        }
        ci /= double(rim.size());
        cj /= double(rim.size());
        if (!std::isfinite(ci) || !std::isfinite(cj)) return false;
        int winding = 0;
        bool star = true;
        for (const Edge& e : rim) {
            const Eigen::Vector3f &p = x[from(e)], &q = x[to(e)];
            const double pi = p[i], pj = p[j], qi = q[i], qj = q[j];
            // orient2d(c, p, q), with the sign s proved.
            const double l = (pi - ci) * (qj - cj), r = (pj - cj) * (qi - ci);
            const double det = s * (l - r), bound = kOrientBound * (std::abs(l) + std::abs(r));
            if (!(det > bound && bound > kFloor)) {
                star = false;
                break;
            }
            // The winding number around c by the ray from c along +i (half-open in j): every
            // edge passes c on side s, so an edge crossing c's line upward does so on the ray
            // when s = +1 (and counts +1), one crossing it downward when s = -1 (and counts -1);
            // the others cross on the far side of c and do not count.
            if (s > 0 && pj < cj && cj <= qj) ++winding;
            else if (s < 0 && qj < cj && cj <= pj) --winding;
        }
        if (star && winding == static_cast<int>(s)) return true;
    }
    return false;
}

}  // namespace rigscope::patch
