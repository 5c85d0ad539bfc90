#include "rigscope/core/topology.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>

#include "rigscope/core/huge_pages.h"
#include "rigscope/core/error.h"
#include "rigscope/core/parallel.h"
#include "rigscope/core/vertex_match.h"

namespace rigscope {

namespace {

bool same_influences(const Influences& inf, std::uint32_t a, std::uint32_t b) {
    if (inf.empty()) return true;
    const std::uint32_t ab = inf.offsets[a], ae = inf.offsets[a + 1];
    const std::uint32_t bb = inf.offsets[b], be = inf.offsets[b + 1];
    if (ae - ab != be - bb) return false;
    // Influence order is the file's; compare as sets (counts are small).
    for (std::uint32_t i = ab; i < ae; ++i) {
        bool found = false;
        for (std::uint32_t k = bb; k < be && !found; ++k)
            found = inf.joints[k] == inf.joints[i] && std::abs(inf.weights[k] - inf.weights[i]) <= 1e-4f;
        if (!found) return false;
    }
    return true;
}

// Welding: which file vertices lie within `tol` of an earlier vertex that starts a welded
// vertex (a representative), with the same influences. The first representative in file order
// wins, so the result does not depend on how candidates are found.
//
// Candidates come from a grid of cells far wider than the tolerance (so a point's tolerance ball
// nearly always lies in its own cell) but about one vertex spacing at most. Each cell is a
// bucket, found by a 64-bit hash of the cell in an open-addressing table (at least twice the
// vertex count, so never full); two cells whose hashes agree in the table share a bucket, which
// only adds comparisons: every representative within tolerance is still in a bucket searched.
// Buckets are numbered in the order the file first reaches them and each gets a run of slots as
// long as its vertices (a count, then a prefix sum), where its representatives are kept in file
// order with their positions: a mesh's vertices, stored surface-coherently, then touch buckets
// and slots in memory order instead of at random (a layout by hash missed the cache about
// three times a vertex). A vertex near a cell face also searches the buckets of the
// neighbouring cells.
//
// Linear in the worst case, not only the usual one:
// - vertices are visited in file order and compared with the representatives of their cells
//   only, never with every earlier vertex there: 30,000 vertices at one point weld to the first
//   with one comparison each (comparing all pairs took 522 MB at 10,002);
// - a bucket holding many vertices (a detailed model inside a 1 km scene: 300,000 vertices in one
//   cell took over a minute) makes the grid finer, down to twice the tolerance, where
//   representatives, more than `tol` apart, are few per cell;
// - what still crowds one cell (thousands of vertices at one point with different skin weights,
//   so none weld) is bounded by a count of comparisons, refused with a clear error.
//
// The cells' hashes (about half of numbering the buckets: three coordinates, each scaled,
// clamped and floored) are computed a chunk ahead of the table's insertions, on a second
// thread of the pool when there is one (issue 62); the insertions, and with them the buckets'
// numbers, stay in file order on one thread, so nothing depends on the thread count.
void weld_vertices(const std::vector<Eigen::Vector3f>& positions, const Influences& influences, const std::string& name, double diag,
                   double tol, Topology& topo, ThreadPool* pool) {
    const std::size_t n = positions.size();
    topo.representative.reserve(n);
    const double spacing = diag / std::sqrt(static_cast<double>(n));
    double cell = std::max(tol, std::min(spacing, 1024 * tol));
    int bits = 1;  // table slots: at least twice the vertex count
    while ((std::size_t{1} << bits) < 2 * n) ++bits;
    const std::size_t mask = (std::size_t{1} << bits) - 1;
    auto hash = [](std::int64_t x, std::int64_t y, std::int64_t z) {
        std::uint64_t h = static_cast<std::uint64_t>(x) * 0x9E3779B97F4A7C15ull;
        h ^= static_cast<std::uint64_t>(y) * 0xC2B2AE3D27D4EB4Full;
        h ^= static_cast<std::uint64_t>(z) * 0x165667B19E3779F9ull;
        h ^= h >> 31;
        return h * 0xD6E8FEB86659FD93ull;
    };
    // Slightly wider than the tolerance so rounding in p -/+ tol never skips a cell.
    const double reach = tol * (1 + 1e-6);
    constexpr std::uint32_t kNear = 0x80000000u;  // flag: the tolerance ball may cross a cell face
    constexpr std::uint32_t kBucket = 0x7FFFFFFFu;
    // A bucket with more vertices than this makes the grid finer (each try is one linear pass).
    constexpr std::size_t kCrowdedCell = 64;

    constexpr std::uint32_t kNone = 0xFFFFFFFFu;
    struct Slot {
        std::uint32_t tag;     // the hash's low half
        std::uint32_t bucket;  // kNone: empty
    };
    std::vector<Slot> table = detail::huge_vector<Slot>(mask + 1, Slot{0, kNone});
    std::vector<std::uint32_t> key = detail::huge_vector<std::uint32_t>(n);               // per vertex: bucket | near flag
    std::vector<std::uint32_t> start = detail::huge_vector<std::uint32_t>(n + 1, 0);      // per bucket: its vertices, then first slot
    std::uint32_t used = 0;                                                               // buckets numbered
    // The bucket of the cell with hash h, numbered here if new (insert), else kNone if absent.
    auto bucket_of = [&](std::uint64_t h, bool insert) {
        const auto tag = static_cast<std::uint32_t>(h);
        for (std::size_t i = h >> (64 - bits);; i = (i + 1) & mask) {
            Slot& s = table[i];
            if (s.bucket == kNone) {
                if (insert) s = Slot{tag, used++};
                return s.bucket;
            }
            if (s.tag == tag) return s.bucket;
        }
    };
    // Two chunks of cell hashes (in L2): the one being inserted and the next.
    constexpr std::size_t kChunk = 32768;
    const std::size_t chunks = (n + kChunk - 1) / kChunk;
    std::vector<std::uint64_t> ahead(std::min(n, kChunk) * (chunks > 1 ? 2 : 1));
    double inv_cell = 0;
    // floor() is a library call on the baseline x86-64 target (no SSE4.1 round): truncate and
    // step down for negatives instead.
    // Coordinates near float's limits make the tolerance infinite or zero and q NaN or past
    // int64, whose conversion is undefined behaviour: NaN goes to cell 0, the rest is clamped to
    // +-2^52 (still whole cells, so a tolerance ball spans at most 3 cells per axis below).
    auto coord_of = [&inv_cell](double x, double& q) {
        constexpr double kEnd = 4503599627370496.0;  // 2^52
        q = x * inv_cell;
        q = q != q ? 0.0 : std::clamp(q, -kEnd, kEnd);
        const auto i = static_cast<std::int64_t>(q);
        return i - (q < static_cast<double>(i));
    };
    auto coord = [&coord_of](double x) {
        double q;
        return coord_of(x, q);
    };
    for (;;) {
        inv_cell = 1.0 / cell;
        // The near flag from the cell fraction instead of two more cells per axis: it must be set
        // whenever coord(x -/+ reach) != coord(x), the cells the neighbour search visits. With
        // |q| <= 2^32, q and (x -/+ reach) / cell carry rounding errors under 2^-19 cells, and
        // reach / cell >= 1/1024 (cell <= 1024 tol), so a fraction at least 2 reach / cell from
        // both faces keeps x -/+ reach in x's cell; anything else (and NaN, clamped) is flagged.
        const double margin = 2 * reach * inv_cell;
        constexpr double kExact = 4294967296.0;  // 2^32
        used = 0;
        std::uint32_t longest = 0;
        // Chunk c's hashes into half c % 2 of `ahead`, its near flags into `key`.
        auto hash_chunk = [&](std::size_t c) {
            std::uint64_t* const out = ahead.data() + (c % 2) * kChunk;
            for (std::size_t v = c * kChunk, e = std::min(n, v + kChunk); v < e; ++v) {
                const auto& p = positions[v];
                std::int64_t q3[3];
                bool near = false;
                for (int k = 0; k < 3; ++k) {
                    double q;
                    q3[k] = coord_of(p[k], q);
                    const double f = q - static_cast<double>(q3[k]);
                    near = near || !(f >= margin && f <= 1 - margin && std::abs(q) <= kExact);
                }
                out[v - c * kChunk] = hash(q3[0], q3[1], q3[2]);
                key[v] = near ? kNear : 0;
            }
        };
        // Chunk c's cells numbered in file order; each table slot prefetched a few vertices
        // ahead, so that the cache misses overlap instead of coming one after another.
        auto insert_chunk = [&](std::size_t c) {
            const std::uint64_t* const h = ahead.data() + (c % 2) * kChunk;
            constexpr std::size_t kPrefetch = 16;
            const std::size_t v0 = c * kChunk, count = std::min(n - v0, kChunk);
            for (std::size_t i = 0; i < std::min(count, kPrefetch); ++i) __builtin_prefetch(&table[h[i] >> (64 - bits)]);
            for (std::size_t i = 0; i < count; ++i) {
                if (i + kPrefetch < count) __builtin_prefetch(&table[h[i + kPrefetch] >> (64 - bits)]);
                const std::uint32_t b = bucket_of(h[i], true);
                key[v0 + i] |= b;
                longest = std::max(longest, ++start[b + 1]);
            }
        };
        hash_chunk(0);
        for (std::size_t c = 0; c < chunks; ++c) {
            // The next chunk's hashes beside this chunk's insertions (other halves, other vertices).
            const bool next = c + 1 < chunks;
            run_tasks(next ? pool : nullptr, next ? 2 : 1, [&](std::size_t task) { task == 0 ? insert_chunk(c) : hash_chunk(c + 1); });
        }
        if (cell <= 2 * tol || longest <= kCrowdedCell) break;
        cell = std::max(2 * tol, cell / 8);
        std::fill(table.begin(), table.end(), Slot{0, kNone});
        std::fill(start.begin(), start.end(), 0);
    }
    for (std::size_t b = 0; b < used; ++b) start[b + 1] += start[b];

    // Per bucket: its representatives so far, in file order, from start[b]. Their indices only:
    // a copy of each one's position beside it made the array 16 bytes a vertex, written for every
    // representative (nearly every vertex) and read only where a bucket holds a second vertex
    // (64 MB and 16,000 fresh pages on a 4M-vertex mesh). Not zeroed: a bucket's entries are
    // written before they are read.
    const std::unique_ptr<std::uint32_t[]> reps = detail::huge_scratch<std::uint32_t>(n);
    std::vector<std::uint32_t> rep_count = detail::huge_vector<std::uint32_t>(used, 0);

    // Far past what any real mesh needs (about one comparison per vertex), small enough to end in
    // seconds: only many unweldable vertices at one point get here.
    const std::uint64_t max_comparisons = 64 * static_cast<std::uint64_t>(n) + (std::uint64_t{1} << 26);
    std::uint64_t comparisons = 0;
    // The first representative of bucket `b` within tolerance of v, if it is below `best`.
    auto first_match = [&](std::uint32_t b, std::uint32_t v, std::uint32_t best) {
        const std::uint32_t* r = reps.get() + start[b];
        for (std::uint32_t k = 0, e = rep_count[b]; k < e && r[k] < best; ++k) {
            if (++comparisons > max_comparisons)
                throw Error(kExitBadInput, "mesh '" + name + "': too many distinct vertices crowd within the weld tolerance of one point (" +
                                               std::to_string(n) + " vertices); use --weld off");
            const std::uint32_t u = r[k];
            if ((positions[u] - positions[v]).cast<double>().norm() <= tol && same_influences(influences, u, v)) return u;
        }
        return best;
    };
    for (std::size_t vi = 0; vi < n; ++vi) {
        const auto v = static_cast<std::uint32_t>(vi);
        const std::uint32_t h = key[v] & kBucket;
        std::uint32_t match = first_match(h, v, kNone);
        if (key[v] & kNear) {
            const auto& p = positions[v];
            std::int64_t a[3], b[3];
            for (int k = 0; k < 3; ++k) {
                a[k] = coord(p[k] - reach);
                b[k] = coord(p[k] + reach);
            }
            for (std::int64_t x = a[0]; x <= b[0]; ++x)
                for (std::int64_t y = a[1]; y <= b[1]; ++y)
                    for (std::int64_t z = a[2]; z <= b[2]; ++z) {
                        // None: no vertex there. h: the vertex's own bucket, done above.
                        const std::uint32_t bn = bucket_of(hash(x, y, z), false);
                        if (bn != kNone && bn != h) match = first_match(bn, v, match);
                    }
        }
        if (match != kNone) {
            topo.welded_of[v] = topo.welded_of[match];
        } else {
            topo.welded_of[v] = static_cast<std::uint32_t>(topo.representative.size());
            topo.representative.push_back(v);
            reps[start[h] + rep_count[h]++] = v;
        }
    }
}

// Sorts bucket [b, b + n) ascending, moves its distinct values to the front and adds one to
// below[c] for each distinct c under `hi` (the vertices whose lower neighbour the bucket's vertex
// is, in the caller's range); returns how many are distinct. Most buckets hold a few entries
// (each edge of a closed surface twice, about six on a triangle mesh): up to eight go through a
// sorting network of min and max, then eight fixed steps keep each value that differs from the
// one before and count it, a step past the bucket or a repeat writing to scratch instead. No
// branch depends on the values or on n: std::sort's insertion sort, std::unique and loops of n
// steps mispredicted about once an entry and once a loop's end. b[0 .. 8) must be readable.
// Longer buckets (a fan's hub) go to std::sort.
std::uint32_t sort_unique_count(std::uint32_t* b, std::size_t n, std::uint32_t* below, std::uint32_t hi) {
    if (n > 8) {
        std::sort(b, b + n);
        const auto u = static_cast<std::uint32_t>(std::unique(b, b + n) - b);
        for (std::uint32_t k = 0; k < u && b[k] < hi; ++k) ++below[b[k]];
        return u;
    }
    // Padded with the largest value, which sorts after every welded id (below 2^32 - 1).
    std::uint32_t v[8];
    for (std::size_t i = 0; i < 8; ++i) {
        const std::uint32_t x = b[i];
        v[i] = i < n ? x : 0xFFFFFFFFu;
    }
    auto order = [&v](int i, int j) {
        const std::uint32_t lo = std::min(v[i], v[j]), hi = std::max(v[i], v[j]);
        v[i] = lo;
        v[j] = hi;
    };
    // A 19-comparator network for eight (checked on every 0/1 input, which suffices).
    order(0, 2), order(1, 3), order(4, 6), order(5, 7);
    order(0, 4), order(1, 5), order(2, 6), order(3, 7);
    order(0, 1), order(2, 3), order(4, 5), order(6, 7);
    order(2, 4), order(3, 5);
    order(1, 4), order(3, 6);
    order(1, 2), order(3, 4), order(5, 6);
    std::uint32_t scratch[8], count[8] = {};
    std::uint32_t kept = 0;
    for (std::size_t i = 0; i < 8; ++i) {
        const bool fresh = (i < n) & (i == 0 || v[i] != v[i - 1]);
        *(fresh ? b + kept : scratch + i) = v[i];
        kept += fresh;
        std::uint32_t* const c = fresh & (v[i] < hi) ? below + v[i] : count + i;
        *c += 1;
    }
    return kept;
}

// The weld with its tolerance relative to the positions' bounding diagonal.
void weld_within(const std::vector<Eigen::Vector3f>& positions, const Influences& influences, const std::string& name, double relative_tolerance,
                 Topology& topo, ThreadPool* pool = nullptr) {
    const double diag = bounding_diagonal(positions);
    const double tol = diag > 0 ? diag * relative_tolerance : 1e-12;
    weld_vertices(positions, influences, name, diag, tol, topo, pool);
}

}  // namespace

Topology weld_by_position(const std::vector<Eigen::Vector3f>& positions, double relative_tolerance, const std::string& name) {
    Topology topo;
    topo.welded_of.resize(positions.size());
    if (!positions.empty()) weld_within(positions, Influences{}, name, relative_tolerance, topo);
    return topo;
}

Topology weld_mesh(const Mesh& mesh, bool weld, double relative_tolerance, ThreadPool* pool) {
    Topology topo;
    const std::size_t n = mesh.positions.size();
    topo.welded_of.resize(n);
    if (!weld || n == 0) {
        std::iota(topo.welded_of.begin(), topo.welded_of.end(), std::uint32_t{0});
        topo.representative = topo.welded_of;
    } else {
        weld_within(mesh.positions, mesh.influences, mesh.name, relative_tolerance, topo, pool);
    }
    return topo;
}

Topology build_topology(const Mesh& mesh, bool weld, double relative_tolerance, bool edge_list, ThreadPool* pool) {
    Topology topo = weld_mesh(mesh, weld, relative_tolerance, pool);

    // Unique undirected edges: each face's consecutive corners, closing back to the first.
    // Bucketed by their smaller end (a counting sort), then each small bucket sorted and
    // deduplicated: the same (a, b) order a global sort would give, in linear time. A vertex's
    // neighbour list: the vertices below it (ascending), then those above it (its bucket).
    //
    // With a pool (issue 62: a file's one mesh set up on every core) the faces are split into
    // ranges, one a task, and so are the welded vertices. A face range counts its edges into an
    // array of counts of its own (atomic increments into shared counts had made two threads slower
    // than one: the cores traded the counters' cache lines, 70% of the passes' samples on the
    // `lock add`), then writes them into its own part of each bucket; so each face is read twice
    // in all, not twice per range (each range read every face before: with two threads those
    // passes took as long as with one). A vertex range then sorts its buckets and fills its
    // vertices' lists. A bucket holds the same entries in another order for another thread
    // count and is sorted, and every count is a sum: the same bits for any thread count.
    const std::size_t wn = topo.welded_count();
    const std::size_t faces = mesh.face_offsets.empty() ? 0 : mesh.face_offsets.size() - 1;
    // A range's own work (its buckets) against what each range adds (its array of counts, read
    // by every vertex range): below a few thousand vertices a range a thread costs more than it
    // saves. At most eight: each face range's counts are 4 bytes a welded vertex (a pool of 64
    // threads would hold a GB of them for a 4M-vertex mesh).
    constexpr std::size_t kRangeVertices = 8192, kMaxRanges = 8;
    const std::size_t ranges = pool && pool->size() > 1 && wn >= 2 * kRangeVertices
                                   ? std::min<std::size_t>({pool->size(), wn / kRangeVertices, kMaxRanges})
                                   : 1;
    auto range_begin = [&](std::size_t r) { return static_cast<std::uint32_t>(wn * r / ranges); };
    auto face_begin = [&](std::size_t r) { return faces * r / ranges; };
    // Faces [f0, f1)'s edges (a, c), a < c: a triangle's three corners, all distinct, to
    // triangle(lo, mid, hi) (its edges (lo, mid), (lo, hi), (mid, hi)), any other edge to
    // edge(a, c); returns how many faces are degenerate. A triangle (every glTF face) is read
    // without the corner loop's wrap and its swaps (half of them mispredicted), and its corners
    // in order let a pass bump its lowest corner's count or cursor once for two edges: the same
    // entry bumped twice in a row waits for its own store. The arrays by value: through
    // references GCC reloads each pointer after every store the callbacks make.
    const std::uint32_t* const welded = topo.welded_of.data();
    const std::uint32_t* const offsets = mesh.face_offsets.data();
    const std::uint32_t* const corners = mesh.face_indices.data();
    auto face_edges = [welded, offsets, corners](std::size_t f0, std::size_t f1, auto&& edge, auto&& triangle) {
        std::size_t degenerate = 0;
        for (std::size_t f = f0; f < f1; ++f) {
            const std::uint32_t b = offsets[f], e = offsets[f + 1];
            if (e - b == 3) {
                const std::uint32_t x = welded[corners[b]], y = welded[corners[b + 1]], z = welded[corners[b + 2]];
                if (x != y && y != z && z != x) {
                    const std::uint32_t lo = std::min(std::min(x, y), z), hi = std::max(std::max(x, y), z);
                    triangle(lo, x ^ y ^ z ^ lo ^ hi, hi);
                    continue;
                }
                ++degenerate;
                if (x != y) edge(std::min(x, y), std::max(x, y));
                if (y != z) edge(std::min(y, z), std::max(y, z));
                if (z != x) edge(std::min(z, x), std::max(z, x));
                continue;
            }
            std::size_t distinct = 0;
            for (std::uint32_t k = b; k < e; ++k) {
                std::uint32_t a = welded[corners[k]];
                std::uint32_t c = welded[corners[k + 1 < e ? k + 1 : b]];
                if (a == c) continue;  // a collapsed corner is not an edge
                ++distinct;
                if (a > c) std::swap(a, c);
                edge(a, c);
            }
            if (distinct < 3) ++degenerate;
        }
        return degenerate;
    };
    // Per welded vertex: bucket starts, unique counts above, lower neighbours, in one allocation.
    // Arrays here are not zeroed on the calling thread: the counts and the lower neighbours are
    // zeroed by the task that owns them (on the pool, in parallel), the rest written in full.
    const std::unique_ptr<std::uint32_t[]> per_vertex = detail::huge_scratch<std::uint32_t>(3 * wn + 1);
    std::uint32_t* const start = per_vertex.get();  // wn + 1
    std::uint32_t* const unique_up = start + wn + 1;  // wn
    std::uint32_t* const lower = unique_up + wn;      // wn: neighbours below the vertex
    // Per face range, wn counts of the edges by smaller end, then where the range writes the
    // next of them in each bucket; afterwards the first wn are the lists' fill cursors.
    const std::unique_ptr<std::uint32_t[]> counts = detail::huge_scratch<std::uint32_t>(ranges * wn);
    // Per range, written once at its task's end: degenerate faces (of its faces), unique edges
    // (of its smaller ends), its entries (of its vertices, then where they start).
    std::vector<std::size_t> degenerate(ranges, 0), unique(ranges, 0), entries(ranges + 1, 0);
    run_tasks(pool, ranges, [&](std::size_t r) {
        std::uint32_t* const count = counts.get() + r * wn;
        std::fill(count, count + wn, 0u);
        degenerate[r] = face_edges(
            face_begin(r), face_begin(r + 1), [count](std::uint32_t a, std::uint32_t) { ++count[a]; },
            [count](std::uint32_t lo, std::uint32_t mid, std::uint32_t) {
                count[lo] += 2;
                ++count[mid];
            });
    });
    topo.degenerate_faces = 0;
    for (std::size_t d : degenerate) topo.degenerate_faces += d;
    // Bucket a holds the edges of face range 0 from start[a], then those of range 1, ...: a prefix
    // sum over (vertex, face range) in that order, by vertex ranges (their sums, then each range
    // from its sum's offset).
    run_tasks(pool, ranges, [&](std::size_t r) {
        std::size_t sum = 0;
        for (std::size_t q = 0; q < ranges; ++q) {
            const std::uint32_t* const count = counts.get() + q * wn;
            for (std::uint32_t a = range_begin(r), hi = range_begin(r + 1); a < hi; ++a) sum += count[a];
        }
        entries[r + 1] = sum;
    });
    for (std::size_t r = 0; r < ranges; ++r) entries[r + 1] += entries[r];
    run_tasks(pool, ranges, [&](std::size_t r) {
        auto at = static_cast<std::uint32_t>(entries[r]);
        for (std::uint32_t a = range_begin(r), hi = range_begin(r + 1); a < hi; ++a) {
            start[a] = at;
            for (std::size_t q = 0; q < ranges; ++q) {
                std::uint32_t& count = counts[q * wn + a];
                const std::uint32_t c = count;
                count = at;
                at += c;
            }
        }
    });
    start[wn] = static_cast<std::uint32_t>(entries[ranges]);
    // Per smaller end a, the larger ends: every entry is written by the fill below, so the
    // array is not zeroed first (a pass over 4 bytes a face corner on the calling thread).
    // Eight more at the end, read (not used) by the last buckets' sort (sort_unique_count).
    const std::unique_ptr<std::uint32_t[]> larger = detail::huge_scratch<std::uint32_t>(std::size_t{start[wn]} + 8);
    std::uint32_t* const other = larger.get();
    std::fill(other + start[wn], other + start[wn] + 8, 0u);
    run_tasks(pool, ranges, [&](std::size_t r) {
        std::uint32_t* const ends = other;
        std::uint32_t* const fill = counts.get() + r * wn;
        face_edges(
            face_begin(r), face_begin(r + 1), [ends, fill](std::uint32_t a, std::uint32_t c) { ends[fill[a]++] = c; },
            [ends, fill](std::uint32_t lo, std::uint32_t mid, std::uint32_t hi) {
                const std::uint32_t at = fill[lo];
                fill[lo] = at + 2;
                ends[at] = mid;
                ends[at + 1] = hi;
                ends[fill[mid]++] = hi;
            });
    });
    run_tasks(pool, ranges, [&](std::size_t r) {
        const std::uint32_t lo = range_begin(r), hi = range_begin(r + 1);
        std::uint32_t* const ends = other;
        std::uint32_t* const below = lower;
        std::fill(below + lo, below + hi, 0u);
        std::size_t edges = 0;
        for (std::uint32_t a = lo; a < hi; ++a) {
            // The larger ends are above a, so in this range when below its end.
            const std::uint32_t u = sort_unique_count(ends + start[a], start[a + 1] - start[a], below, hi);
            unique_up[a] = u;
            edges += u;
        }
        unique[r] = edges;
    });
    // The lower neighbours each range's vertices have in the ranges before it; then the range's
    // list offsets from its own start (entries[r], once the ranges' sums are added up).
    topo.neighbour_offsets.resize(wn + 1);
    std::uint32_t* const list_at = topo.neighbour_offsets.data();
    run_tasks(pool, ranges, [&](std::size_t r) {
        const std::uint32_t lo = range_begin(r), hi = range_begin(r + 1);
        for (std::uint32_t a = 0; a < lo; ++a) {
            const std::uint32_t* up = other + start[a];
            for (std::uint32_t k = 0; k < unique_up[a] && up[k] < hi; ++k)
                if (up[k] >= lo) ++lower[up[k]];
        }
        std::uint32_t at = 0;
        for (std::uint32_t w = lo; w < hi; ++w) {
            list_at[w] = at;
            at += lower[w] + unique_up[w];
        }
        entries[r + 1] = at;
    });
    entries[0] = 0;
    for (std::size_t r = 0; r < ranges; ++r) entries[r + 1] += entries[r];
    list_at[wn] = static_cast<std::uint32_t>(entries[ranges]);
    std::size_t edge_count = 0;
    for (std::size_t u : unique) edge_count += u;
    topo.unique_edges = edge_count;
    detail::reserve_huge(topo.neighbours, list_at[wn]);
    topo.neighbours.resize(list_at[wn]);
    // The edge list's pairs from a start at 2 x the unique edges of the vertices below a.
    std::vector<std::uint32_t> edge_at;
    if (edge_list) {
        detail::reserve_huge(topo.edges, edge_count * 2);
        topo.edges.resize(edge_count * 2);
        edge_at.resize(wn + 1);
        for (std::size_t a = 0; a < wn; ++a) edge_at[a + 1] = edge_at[a] + unique_up[a];
    }
    // A vertex's list: the vertices below it, in the ascending order of the smaller ends read
    // here, then those above it (its bucket, ascending). Each range first moves its offsets by
    // its start; it writes and reads only its own vertices' offsets and cursors.
    std::uint32_t* const cursor = counts.get();
    run_tasks(pool, ranges, [&](std::size_t r) {
        const std::uint32_t lo = range_begin(r), hi = range_begin(r + 1);
        const auto base = static_cast<std::uint32_t>(entries[r]);
        for (std::uint32_t w = lo; w < hi; ++w) cursor[w] = list_at[w] += base;
        std::uint32_t* const lists = topo.neighbours.data();
        std::uint32_t* const fill = cursor;
        for (std::uint32_t a = 0; a < lo; ++a) {
            const std::uint32_t* up = other + start[a];
            for (std::uint32_t k = 0; k < unique_up[a] && up[k] < hi; ++k)
                if (up[k] >= lo) lists[fill[up[k]]++] = a;
        }
        for (std::uint32_t a = lo; a < hi; ++a) {
            const std::uint32_t* up = other + start[a];
            const std::uint32_t u = unique_up[a];
            // A loop, not std::copy: a few entries, where a call to memmove cost more than them.
            std::uint32_t* const own = lists + list_at[a] + lower[a];
            for (std::uint32_t k = 0; k < u; ++k) own[k] = up[k];
            for (std::uint32_t k = 0; k < u && up[k] < hi; ++k) lists[fill[up[k]]++] = a;
            if (edge_list) {
                std::uint32_t* edge = topo.edges.data() + 2 * std::size_t{edge_at[a]};
                for (std::uint32_t k = 0; k < u; ++k) {
                    *edge++ = a;
                    *edge++ = up[k];
                }
            }
        }
    });
    return topo;
}

void Topology::release_lists() {
    std::vector<std::uint32_t>().swap(edges);
    std::vector<std::uint32_t>().swap(neighbour_offsets);
    std::vector<std::uint32_t>().swap(neighbours);
}

}  // namespace rigscope
