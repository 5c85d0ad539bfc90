// Summary frames (MeshTension::keep_frame false) in FrameWindows' order, one pose or a group of
// poses a pass: the group's poses share each step's reads of the mesh's arrays.
#include <algorithm>
#include <limits>

#include "rigscope/core/tension_map.h"

namespace rigscope {

namespace {
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr std::size_t kNoSlot = ~std::size_t{0};
}  // namespace

std::size_t MeshTension::summary_frames(const Scene& scene) {
    if (keep_frame || !tiled || measures_after_t() || group_frames < 2) return 1;
    if (!deformer.pose_inputs_whole(scene) || !summary_windows()) return 1;
    return group_frames;
}

void MeshTension::evaluate_summaries(const Scene& scene, const Pose* poses, std::size_t count, ThreadPool* pool) {
    // Each pose set in turn, as evaluate() would: a pose the same as the one before it (bit for
    // bit) takes that one's summary, as evaluate() keeps it; the others are skinned below.
    group_slot_.assign(count, kNoSlot);
    std::size_t moved = 0;
    for (std::size_t j = 0; j < count; ++j) {
        deformer.set_pose(scene, poses[j], pool);
        const bool same = deformer.pose_unchanged() && (j > 0 || (from_pose_ && summary_current_));
        if (same) continue;
        if (group_inputs_.size() <= moved) group_inputs_.resize(moved + 1);
        group_inputs_[moved] = deformer.pose_inputs();
        group_slot_[j] = moved++;
    }
    if (moved > 0) run_windows(scene, group_inputs_.data(), moved, pool);
    summaries_.resize(count);
    TileResult last{degenerate, t_extremes};  // the pose before the group's (used only where it is current)
    for (std::size_t j = 0; j < count; ++j) {
        if (group_slot_[j] != kNoSlot) last = fold_windows(group_slot_[j], moved);
        summaries_[j] = last;
    }
    from_pose_ = true;
    windowed_done();
    show_summary(count - 1);
}

void MeshTension::show_summary(std::size_t j) {
    set_summary(summaries_[j]);
    summary_current_ = j + 1 == summaries_.size();
}

void MeshTension::set_summary(const TileResult& s) {
    degenerate = s.degenerate;
    t_extremes = s.extremes;
    t_extremes_set = topo.welded_count() > 0;
}

void MeshTension::deform_windowed(const Scene& scene, ThreadPool* pool) {
    run_windows(scene, &deformer.pose_inputs(), 1, pool);
    fold_tile_results();
    windowed_done();
}

void MeshTension::windowed_done() {
    tiled_current_ = false;
    windowed_ = true;
    std::vector<Eigen::Vector3f>().swap(deformed);
    std::vector<float>().swap(t);
}

void MeshTension::run_windows(const Scene& scene, const MeshDeformer::PoseInputs* poses, std::size_t count,
                              ThreadPool* pool) {
    const std::size_t tasks = windows_.tasks(), lanes = batches.lanes, wn = topo.welded_count();
    // A window never holds more than the mesh (skin_to - base <= vertices): a small mesh's
    // windows are its size, not the plan's bound, however many poses a group holds.
    const std::size_t wv = std::min(windows_.window_vertices, deformer.vertex_count());
    tile_results_.assign(tasks * count, TileResult{0, ValueExtremes{kInf, -kInf, 0, 0}});
    run_tasks(pool, tasks, [&](std::size_t i) {
        // The thread's own buffers, kept from frame to frame and mesh to mesh: they stay in its
        // core's cache, where mesh-sized arrays would go out to memory and come back. A window
        // of positions per pose, wv apart.
        thread_local std::vector<Eigen::Vector3f> windows;
        thread_local std::vector<float> step_t;
        if (windows.size() < count * wv) windows.resize(count * wv);
        if (step_t.size() < windows_.step_batches * lanes) step_t.resize(windows_.step_batches * lanes);
        TileResult* out = tile_results_.data() + i * count;
        // Each window holds file vertices [base, end), vertex v at window[v - base]: the kernels
        // index positions by file vertex, so they get window.data() - base.
        std::size_t b = i * windows_.task_batches;
        std::uint32_t base = 0, end = 0;
        for (std::uint32_t s = windows_.task_steps[i]; s < windows_.task_steps[i + 1]; ++s) {
            const FrameWindows::Step& step = windows_.steps[s];
            bool moved_front = false;
            if (s == windows_.task_steps[i] || step.keep_from >= end) {
                base = end = step.keep_from;  // nothing held is read again
            } else if (step.skin_to - base > wv) {
                moved_front = true;  // full: see below
            }
            const std::uint32_t from = moved_front ? step.keep_from : base;
            float* t_of = step_t.data() - b * lanes;  // welded vertex w's T at t_of[w]
            const std::size_t w0 = std::min(wn, b * lanes), w1 = std::min(wn, std::size_t{step.batch_end} * lanes);
            // Pose by pose over the step: the step's rest positions, weights, batches and rest
            // lengths are read from memory by the first and from cache by the others.
            for (std::size_t k = 0; k < count; ++k) {
                Eigen::Vector3f* window = windows.data() + k * wv;
                // Full: what later batches still read moves to the front (the plan keeps it and
                // this step's new vertices within a window).
                if (moved_front) std::copy(window + (step.keep_from - base), window + (end - base), window);
                Eigen::Vector3f* P = window - from;
                if (step.skin_to > end) deformer.deform_block(scene, poses[k], end, step.skin_to, P);
                out[k].degenerate += tension_block(batches, P, rest_lengths.data(), b, step.batch_end, nullptr, t_of);
                if (w0 < w1) out[k].extremes = fold_value_extremes(out[k].extremes, t_of, w0, w1);
            }
            base = from;
            end = std::max(end, step.skin_to);
            b = step.batch_end;
        }
    });
}

MeshTension::TileResult MeshTension::fold_windows(std::size_t k, std::size_t count) const {
    // Integer counts summed after: the same total for any thread count. The extremes fold to one
    // pass's answer in any order (fold_extremes); every welded vertex is in some task or range.
    TileResult s{0, ValueExtremes{kInf, -kInf, 0, 0}};
    for (std::size_t i = 0; i * count + k < tile_results_.size(); ++i) {
        const TileResult& x = tile_results_[i * count + k];
        s.degenerate += x.degenerate;
        s.extremes = fold_extremes(s.extremes, x.extremes);
    }
    return s;
}

}  // namespace rigscope
