#include "rigscope/core/tension_map.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "rigscope/core/skin.h"

namespace rigscope {

namespace {
constexpr float kInf = std::numeric_limits<float>::infinity();
}  // namespace

MeshTension::MeshTension(const Scene& scene, int mesh_index, bool weld, const std::vector<Eigen::Vector3f>& rest_positions,
                         const MeasureOptions& measure_options, ThreadPool* pool)
    : mesh(mesh_index),
      topo(build_topology(scene.meshes[mesh_index], weld, kWeldRelativeTolerance, /*edge_list=*/false, pool)),
      deformer(scene, mesh_index),
      batches(edge_batches(topo, edge_lanes_default(), pool)),
      measure(measure_options) {
    if (measures_after_t()) {
        const std::vector<std::uint32_t> tris = welded_triangles(scene.meshes[mesh_index], topo);
        if (measure.measure == Measure::area) area_kernel = AreaKernel(tris, topo, rest_positions);
        if (measure.measure == Measure::principal) principal_kernel = PrincipalKernel(tris, topo, rest_positions);
        if (measure.smooth > 0) smoother = Smoother(topo, measure.weights, tris, rest_positions);
    }
    // The batches hold the neighbour lists in the loop's layout; the lists themselves would be a
    // second copy of the largest arrays (~13 MB of a 262k-vertex mesh).
    topo.release_lists();
    // Rest lengths in blocks of batches, each block's own values (as a frame's T): the same bits
    // on any thread count; the degenerate count summed after, per block.
    rest_lengths.assign(topo.welded_count(), 0.0f);
    const std::size_t nb = batches.batch_count();
    const std::size_t per_task = std::max<std::size_t>(block_vertices / batches.lanes, 1);
    const std::size_t tasks = (nb + per_task - 1) / per_task;
    std::vector<std::size_t> zero(tasks, 0);
    run_tasks(pool, tasks, [&](std::size_t i) {
        const std::size_t b = i * per_task, e = std::min(nb, b + per_task);
        mean_edge_lengths(batches, rest_positions.data(), b, e, rest_lengths.data());
        const std::size_t w0 = b * batches.lanes, w1 = std::min(topo.welded_count(), e * batches.lanes);
        for (std::size_t w = w0; w < w1; ++w)
            if (!(rest_lengths[w] > 0)) ++zero[i];
    });
    for (std::size_t z : zero) rest_degenerate += z;
}

void MeshTension::evaluate(const Scene& scene, const Pose& pose, ThreadPool* pool) {
    deformer.set_pose(scene, pose, pool);
    // The same inputs as the frame before, bit for bit: its positions, T, maps and counts stand
    // as they are (the same bits a second evaluation would give). A mesh that no joint moves in
    // this frame, a static prop or a held pose, costs nothing then.
    // (After summary frames, a caller that now keeps the frame has no arrays to stand on.)
    if (deformer.pose_unchanged() && from_pose_ && (!windowed_ || !keep_frame)) return;
    windowed_ = false;
    if (!keep_frame && tiled && !measures_after_t() && summary_windows()) {
        deform_windowed(scene, pool);
    } else if (tiled && !fuses_edge_t()) {
        deform_tiled(scene, pool);
        if (measures_after_t()) evaluate_measure(deformed, pool);
    } else {
        tiled_current_ = false;
        deformer.deform_posed(scene, deformed, pool, block_vertices);
        evaluate_positions(deformed, pool);
    }
    from_pose_ = true;
    summary_current_ = t_extremes_set;  // a group after this frame may stand on its summary
}

std::size_t MeshTension::task_vertices() const {
    return std::max<std::size_t>({block_vertices, deformer.vertex_count() / 16, 1});
}

void MeshTension::deform_tiled(const Scene& scene, ThreadPool* pool) {
    const std::size_t n = deformer.vertex_count();
    const std::size_t task = task_vertices();
    const std::size_t tile = std::min(std::max<std::size_t>(tile_vertices, 1), task);
    if (tiles_.vertices != n || tiles_.task_vertices != task || tiles_.tile_vertices != tile) {
        // Deferred tasks of a quarter tile's batches: a few dozen a frame, enough to even out
        // the threads' ends of the pass.
        tiles_ = frame_tiles(batches, n, task, tile, std::max<std::size_t>(block_vertices / batches.lanes, 1),
                             std::max<std::size_t>(tile / batches.lanes / 4, 1));
        tiled_current_ = false;  // range_degenerate_ counted other ranges
    }
    // Only the moved part of the frame where the last frame's arrays are this pose's but for it.
    const bool keep_still = tiled_current_ && !deformer.all_moved() && deformed.size() == n && t.size() == topo.welded_count();
    if (keep_still && batch_joints_.empty()) make_batch_joints(pool);
    const std::uint64_t moved = deformer.moved_joints();
    deformed.resize(n);
    t.resize(topo.welded_count());
    const std::size_t tasks = tiles_.tasks(), deferred = tiles_.deferred_tasks.size() - 1, wn = topo.welded_count();
    range_degenerate_.resize(tiles_.ranges.size() + tiles_.deferred.size());
    // Every slot starts with no extremes: T is finite, so any range's lowers +inf and raises -inf.
    tile_results_.assign(tasks + deferred, TileResult{0, ValueExtremes{kInf, -kInf, 0, 0}});
    Eigen::Vector3f* P = deformed.data();
    // A range's T and, while it is in cache, its extremes (the JSON frame's min and max T); its
    // count of fall-backs kept in range_degenerate_[slot]. The extremes pass over the whole range,
    // the batches left as they were included.
    auto range = [&](const FrameTiles::Range& r, std::size_t slot, TileResult& out) {
        std::size_t d = 0;
        if (keep_still && range_degenerate_[slot] == 0) {
            for (std::size_t b = r.begin; b < r.end;) {
                if ((batch_joints_[b] & moved) == 0) {
                    ++b;
                    continue;
                }
                std::size_t e = b + 1;
                while (e < r.end && (batch_joints_[e] & moved) != 0) ++e;
                d += tension_block(batches, P, rest_lengths.data(), b, e, nullptr, t.data());
                b = e;
            }
        } else {
            d = tension_block(batches, P, rest_lengths.data(), r.begin, r.end, nullptr, t.data());
        }
        range_degenerate_[slot] = d;
        out.degenerate += d;
        const std::size_t w0 = std::min(wn, r.begin * batches.lanes), w1 = std::min(wn, r.end * batches.lanes);
        if (w0 < w1) out.extremes = fold_value_extremes(out.extremes, t.data(), w0, w1);
    };
    run_tasks(pool, tasks, [&](std::size_t i) {
        const std::size_t begin = i * tiles_.task_vertices, end = std::min(n, begin + tiles_.task_vertices);
        std::size_t r = tiles_.task_ranges[i];
        const std::size_t last = tiles_.task_ranges[i + 1];
        for (std::size_t v = begin; v < end; v += tiles_.tile_vertices) {
            const std::size_t e = std::min(end, v + tiles_.tile_vertices);
            if (keep_still) deformer.deform_moved(scene, v, e, P);
            else deformer.deform_block(scene, v, e, P);
            for (; r < last && tiles_.ranges[r].need < e; ++r) range(tiles_.ranges[r], r, tile_results_[i]);
        }
    });
    const std::size_t deferred_slot = tiles_.ranges.size();
    run_tasks(pool, deferred, [&](std::size_t i) {
        for (std::uint32_t r = tiles_.deferred_tasks[i]; r < tiles_.deferred_tasks[i + 1]; ++r)
            range(tiles_.deferred[r], deferred_slot + r, tile_results_[tasks + i]);
    });
    fold_tile_results();
    // What the next frame may keep: t is the edge T as made here (no measure or smoothing after).
    tiled_current_ = !measures_after_t();
}

void MeshTension::make_batch_joints(ThreadPool* pool) {
    const std::vector<std::uint64_t>& block = deformer.block_joints();
    const std::size_t nb = batches.batch_count(), lanes = std::max<std::size_t>(batches.lanes, 1);
    const std::size_t n = deformer.vertex_count();
    batch_joints_.assign(nb, 0);
    auto bits = [&](std::uint32_t v) { return v < n ? block[v / MeshDeformer::kStillBlock] : 0; };
    const std::size_t per_task = std::max<std::size_t>(block_vertices / lanes, 1);
    run_tasks(pool, (nb + per_task - 1) / per_task, [&](std::size_t task) {
        for (std::size_t b = task * per_task, be = std::min(nb, b + per_task); b < be; ++b) {
            std::uint64_t joints = 0;
            for_each_batch_read(batches, b, [&](std::uint32_t v) { joints |= bits(v); });
            batch_joints_[b] = joints;
        }
    });
}

bool MeshTension::summary_windows() {
    const std::size_t lanes = std::max<std::size_t>(batches.lanes, 1);
    const std::size_t task_batches = std::max<std::size_t>(task_vertices() / lanes, 1);
    const std::size_t step_batches = std::max<std::size_t>(std::min(tile_vertices, task_vertices()) / lanes, 1);
    if (windows_.task_batches != task_batches || windows_.step_batches != step_batches ||
        windows_.window_vertices != window_vertices)
        windows_ = frame_windows(batches, deformer.vertex_count(), task_batches, step_batches, window_vertices);
    return windows_.usable() && windows_.tasks() > 0;
}

void MeshTension::evaluate_positions(const std::vector<Eigen::Vector3f>& positions, ThreadPool* pool) {
    from_pose_ = false;  // what follows need not be the deformer's pose
    summary_current_ = false;
    tiled_current_ = false;
    windowed_ = false;
    t_extremes_set = false;
    t.resize(topo.welded_count());
    if (fuses_edge_t()) {  // T comes from the principal kernel's pass
        evaluate_measure(positions, pool);
        return;
    }
    const std::size_t nb = batches.batch_count();
    const std::size_t per_task = std::max<std::size_t>(block_vertices / batches.lanes, 1);
    const std::size_t tasks = (nb + per_task - 1) / per_task;
    // Integer counts per task, summed after: the same total for any thread count.
    block_degenerate.resize(tasks);
    run_tasks(pool, tasks, [&](std::size_t i) {
        const std::size_t b = i * per_task, e = std::min(nb, b + per_task);
        block_degenerate[i] = tension_block(batches, positions.data(), rest_lengths.data(), b, e, nullptr, t.data());
    });
    degenerate = 0;
    for (std::size_t i = 0; i < tasks; ++i) degenerate += block_degenerate[i];
    if (measures_after_t()) evaluate_measure(positions, pool);
}

void MeshTension::evaluate_measure(const std::vector<Eigen::Vector3f>& positions, ThreadPool* pool) {
    const std::size_t wn = topo.welded_count();
    const std::size_t per_task = std::max<std::size_t>(block_vertices, 1);
    const std::size_t tasks = (wn + per_task - 1) / per_task;
    block_degenerate.resize(std::max(block_degenerate.size(), tasks));
    auto count = [&] {
        std::size_t n = 0;
        for (std::size_t i = 0; i < tasks; ++i) n += block_degenerate[i];
        return n;
    };
    const int iterations = measure.smooth;
    switch (measure.measure) {
    case Measure::edge:
        smoother.smooth(t, 1, iterations, smooth_scratch_, pool, per_task);
        t_extremes_set = false;  // found before t was smoothed
        break;
    case Measure::area:
        t_area.resize(wn);
        run_tasks(pool, tasks, [&](std::size_t i) {
            block_degenerate[i] = area_kernel.evaluate(positions.data(), i * per_task, std::min(wn, (i + 1) * per_task), t_area.data());
        });
        measure_degenerate = count();
        smoother.smooth(t_area, 1, iterations, smooth_scratch_, pool, per_task);
        break;
    case Measure::principal:
        lambda_max.resize(wn);
        lambda_min.resize(wn);
        compress_dir.resize(3 * wn);
        t_compress.resize(wn);
        t_stretch.resize(wn);
        // Without smoothing, the kernel maps as it goes (T from the lambdas still in registers);
        // the edge T comes from the same pass where the layout has its sums.
        block_edge_degenerate_.resize(tasks);
        run_tasks(pool, tasks, [&](std::size_t i) {
            const std::size_t b = i * per_task, e = std::min(wn, b + per_task);
            float* tc = iterations == 0 ? t_compress.data() : nullptr;
            float* ts = iterations == 0 ? t_stretch.data() : nullptr;
            if (fuses_edge_t()) {
                const PrincipalKernel::Counts c = principal_kernel.evaluate_with_t(positions.data(), b, e, lambda_max.data(),
                                                                                   lambda_min.data(), compress_dir.data(), tc, ts,
                                                                                   rest_lengths.data(), t.data());
                block_degenerate[i] = c.measure;
                block_edge_degenerate_[i] = c.edge;
            } else if (tc) {
                block_degenerate[i] = principal_kernel.evaluate_and_map(positions.data(), b, e, lambda_max.data(), lambda_min.data(),
                                                                        compress_dir.data(), tc, ts);
            } else {
                principal_kernel.evaluate(positions.data(), b, e, lambda_max.data(), lambda_min.data(), compress_dir.data());
            }
        });
        if (fuses_edge_t()) {
            degenerate = 0;
            for (std::size_t i = 0; i < tasks; ++i) degenerate += block_edge_degenerate_[i];
        }
        if (iterations > 0) {
            // Both stretches smoothed together (one pass over the neighbours); the direction is
            // the unsmoothed one.
            smooth_values_.resize(2 * wn);
            for (std::size_t w = 0; w < wn; ++w) {
                smooth_values_[2 * w] = lambda_max[w];
                smooth_values_[2 * w + 1] = lambda_min[w];
            }
            smoother.smooth(smooth_values_, 2, iterations, smooth_scratch_, pool, per_task);
            for (std::size_t w = 0; w < wn; ++w) {
                lambda_max[w] = smooth_values_[2 * w];
                lambda_min[w] = smooth_values_[2 * w + 1];
            }
            run_tasks(pool, tasks, [&](std::size_t i) {
                block_degenerate[i] = principal_kernel.map_t(lambda_max.data(), lambda_min.data(), i * per_task,
                                                             std::min(wn, (i + 1) * per_task), t_compress.data(), t_stretch.data());
            });
        }
        measure_degenerate = count();
        break;
    }
}

namespace {

// Linear interpolation between order statistics (numpy's default "linear" method).
double percentile_of(std::vector<float> v, double p) {
    if (v.empty()) return 1.0;
    std::sort(v.begin(), v.end());
    const double pos = std::clamp(p, 0.0, 100.0) / 100.0 * (v.size() - 1);
    const std::size_t lo = static_cast<std::size_t>(std::floor(pos));
    const std::size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (pos - lo);
}

}  // namespace

TensionRange auto_tension_range(const std::vector<float>& vmin, const std::vector<float>& vmax, double percentile,
                                const TensionRange& fallback) {
    TensionRange r = fallback;
    // Stretch is T below 1: the low tail of the per-vertex minima; compression the high tail of
    // the maxima. percentile 100 takes the most extreme vertex on each side.
    const double t_s = percentile_of(vmin, 100.0 - percentile);
    const double t_c = percentile_of(vmax, percentile);
    if (t_s < 1.0) r.t_s = t_s;
    if (t_c > 1.0) r.t_c = t_c;
    return r;
}

void VertexTensionExtremes::reset(const std::vector<MeshTension>& meshes, bool from_rest) {
    min.clear();
    max.clear();
    min_at.clear();
    max_at.clear();
    from_rest_ = from_rest;
    seen_.assign(meshes.size(), 0);
    for (const MeshTension& mt : meshes) {
        min.emplace_back(mt.topo.welded_count(), 1.0f);
        max.emplace_back(mt.topo.welded_count(), 1.0f);
        min_at.emplace_back(mt.topo.welded_count(), kRest);
        max_at.emplace_back(mt.topo.welded_count(), kRest);
    }
}

void VertexTensionExtremes::add(std::size_t m, const MeshTension& mt, std::uint32_t frame) {
    const std::vector<float>& ts = mt.stretch_t();
    const std::vector<float>& tc = mt.compress_t();
    std::vector<float>& lo = min[m];
    std::vector<float>& hi = max[m];
    std::vector<std::uint32_t>& lo_at = min_at[m];
    std::vector<std::uint32_t>& hi_at = max_at[m];
    // The first frame to reach an extreme keeps it (strict comparisons; a NaN never replaces).
    const bool first = !from_rest_ && !seen_[m];
    seen_[m] = 1;
    for (std::size_t w = 0; w < ts.size(); ++w) {
        if (first || ts[w] < lo[w]) {
            lo[w] = ts[w];
            lo_at[w] = frame;
        }
        if (first || tc[w] > hi[w]) {
            hi[w] = tc[w];
            hi_at[w] = frame;
        }
    }
}

namespace {

std::vector<float> joined(const std::vector<std::vector<float>>& per_mesh) {
    std::vector<float> out;
    for (const auto& v : per_mesh) out.insert(out.end(), v.begin(), v.end());
    return out;
}

}  // namespace

std::vector<float> VertexTensionExtremes::all_min() const { return joined(min); }
std::vector<float> VertexTensionExtremes::all_max() const { return joined(max); }

}  // namespace rigscope
