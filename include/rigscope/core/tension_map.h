// Per-frame tension of one mesh: the state a tension run keeps for a mesh (topology and rest
// lengths, computed once) and the evaluation of T at a pose.
#pragma once

#include <vector>

#include "rigscope/core/frame_tiles.h"
#include "rigscope/core/frame_windows.h"
#include "rigscope/core/measure.h"
#include "rigscope/core/parallel.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/skin.h"
#include "rigscope/core/smooth.h"
#include "rigscope/core/tension.h"
#include "rigscope/core/topology.h"

namespace rigscope {

// Which measure drives the maps (--measure), and the smoothing of it before the remap.
struct MeasureOptions {
    Measure measure = Measure::edge;
    int smooth = 0;  // iterations of one-ring averaging (--smooth N)
    SmoothWeights weights = SmoothWeights::uniform;
};

struct MeshTension {
    int mesh = -1;
    Topology topo;  // welding and counts; its edge and neighbour lists live on as `batches`
    std::vector<float> rest_lengths;             // per welded vertex, from the reference
    std::size_t rest_degenerate = 0;             // welded vertices with no edge or zero rest length

    // Filled by evaluate(): the deformed file vertices, T per welded vertex, and how many
    // vertices fell back to T = 1. (The deformed mean lengths are not kept: no output uses
    // them, and storing them cost a megabyte per 262k vertices, written every frame.)
    std::vector<Eigen::Vector3f> deformed;
    std::vector<float> t;
    std::size_t degenerate = 0;
    // The lowest and highest T of the frame and the first welded vertex holding each, where the
    // tiled frame found them while T was in cache (t_extremes_set); else unset, and a reader
    // passes over t itself (tension_extremes). Unset when --smooth changes t after.
    ValueExtremes t_extremes;
    bool t_extremes_set = false;

    // Topology of scene.meshes[mesh]; rest lengths from `rest_positions` (file vertices).
    // pool: the set-up inside the mesh (weld, edges, batches, rest lengths, the frame buffers'
    // first touch) spread over its threads; the same bits for any thread count.
    MeshTension(const Scene& scene, int mesh, bool weld, const std::vector<Eigen::Vector3f>& rest_positions,
                const MeasureOptions& measure = {}, ThreadPool* pool = nullptr);

    // With a pool, vertex blocks are spread over its threads; the result is the same for any
    // thread count (every vertex is computed the same way, by one thread). No allocation after
    // the first frame.
    void evaluate(const Scene& scene, const Pose& pose, ThreadPool* pool = nullptr);
    // T per welded vertex from already deformed positions (file vertices).
    void evaluate_positions(const std::vector<Eigen::Vector3f>& positions, ThreadPool* pool = nullptr);

    // The loop's own layouts of the mesh: influences grouped by count, neighbours in batches.
    MeshDeformer deformer;
    EdgeBatches batches;

    // Vertices per task when spread over threads (a tunable, not a result: tests shrink it to
    // split small meshes into many blocks).
    std::size_t block_vertices = MeshDeformer::kBlock;
    std::vector<std::size_t> block_degenerate;  // per task of the last frame, kept to reuse
    // evaluate() skins a task's vertices this many at a time and runs the edge T's batches that
    // have all they read right after (FrameTiles); false: the whole mesh, then T (tests compare
    // the two, which give the same bits).
    bool tiled = true;
    std::size_t tile_vertices = 4096;  // 48 KB of positions: well inside a core's L2
    // false: a caller that reads only the frame's summary (degenerate and t_extremes: the JSON
    // frame) lets evaluate() skin into each thread's window of positions and fold T into the
    // extremes step by step (FrameWindows), writing neither `deformed` nor `t`; the summary is
    // the same bits. Where the measure or smoothing reads them, or the mesh's vertex order scatters
    // its neighbours beyond a window, the frame is the full one.
    bool keep_frame = true;
    std::size_t window_vertices = 32768;  // a window's positions: 384 KB, inside a core's L2
    // Whether the last evaluate() ran in windows (deformed and t not written).
    bool last_frame_windowed() const { return windowed_; }

    // Summary frames in groups: evaluate() of `count` consecutive poses at once, where a frame
    // keeps its summary alone (keep_frame false) and runs in windows. Each step of a task skins
    // and measures every pose of the group while the step's share of the mesh's arrays (rest
    // positions, weights, batches, rest lengths: about 21 bytes a vertex) is in cache, so a mesh
    // larger than the caches reads them from memory once a group, not once a frame. Each pose's
    // summary is the same bits as evaluate()'s (the same loops over the same inputs, in another
    // order). summary_frames(): how many poses a group of this mesh may hold; 1 where it cannot
    // group (it keeps its frame, measures after T, its vertex order needs the full frame, or a
    // point cache is read whole).
    std::size_t summary_frames(const Scene& scene);
    // At most, a tunable. 16: the 4M-vertex bench tube's frames at the 262k tube's rate where
    // memory is shared with other loads; a thread then holds 16 windows (6 MB at most).
    std::size_t group_frames = 16;
    void evaluate_summaries(const Scene& scene, const Pose* poses, std::size_t count, ThreadPool* pool = nullptr);
    // Pose j of the last evaluate_summaries into degenerate and t_extremes. Shown in order, the
    // last leaves the mesh as evaluate() of the last pose would.
    void show_summary(std::size_t j);

    // The measure beyond edge length (methods.md). `t` stays the edge measure's T in every mode
    // (smoothed when the measure is edge; in principal runs taken from the principal kernel's
    // pass, the same bits); the maps come from compress_t() and stretch_t().
    MeasureOptions measure;
    AreaKernel area_kernel;             // area only
    PrincipalKernel principal_kernel;   // principal only
    Smoother smoother;                  // with --smooth only
    std::vector<float> t_area;                   // area: A_rest / A_deformed per welded vertex
    std::vector<float> lambda_max, lambda_min;   // principal, per welded vertex
    std::vector<float> compress_dir;             // principal: 3 per welded vertex, world space
    std::vector<float> t_compress, t_stretch;    // principal: 1 / lambda_min, 1 / lambda_max
    std::size_t measure_degenerate = 0;          // vertices of this frame whose measure fell back to 1

    // The T each map is computed from: edge and area have one T; principal has 1 / lambda_min for
    // compress and 1 / lambda_max for stretch.
    const std::vector<float>& compress_t() const {
        return measure.measure == Measure::area ? t_area : measure.measure == Measure::principal ? t_compress : t;
    }
    const std::vector<float>& stretch_t() const {
        return measure.measure == Measure::area ? t_area : measure.measure == Measure::principal ? t_stretch : t;
    }

private:
    // Whether a frame's T comes from the principal kernel's pass (principal runs, where its layout
    // holds the edge sums) instead of tension_block's.
    bool fuses_edge_t() const { return measure.measure == Measure::principal && principal_kernel.fuses_edge_t(); }
    // Whether a frame computes more than the edge T: another measure, or smoothing.
    bool measures_after_t() const { return measure.measure != Measure::edge || measure.smooth > 0; }
    void evaluate_measure(const std::vector<Eigen::Vector3f>& positions, ThreadPool* pool);
    // The deformer's pose into `deformed` and the edge T into `t`, in FrameTiles' order.
    void deform_tiled(const Scene& scene, ThreadPool* pool);
    void make_batch_joints(ThreadPool* pool);  // batch_joints_, from the deformer's block_joints()
    // Spans of at least a block and at most 16 to a mesh: a span's last rows of batches read the
    // next span, so fewer, longer spans keep more of a frame in cache.
    std::size_t task_vertices() const;
    // Whether a summary frame (keep_frame = false) can run in FrameWindows' order: the plan,
    // made at the first such frame (again when a tunable changes), is usable.
    bool summary_windows();
    // That frame: degenerate and t_extremes, nothing else written.
    void deform_windowed(const Scene& scene, ThreadPool* pool);
    // What a windowed frame or group leaves: no arrays of an earlier full frame (they would be
    // stale), windowed_ set.
    void windowed_done();
    // A frame's (or a range's, a task's) degenerate count and T extremes.
    struct TileResult {
        std::size_t degenerate;
        ValueExtremes extremes;
    };
    // The windows' pass over poses[0, count) (deform_windowed's of one): per task and pose, its
    // degenerate count and extremes into tile_results_[task * count + pose].
    void run_windows(const Scene& scene, const MeshDeformer::PoseInputs* poses, std::size_t count, ThreadPool* pool);
    // Pose k's share of tile_results_ holding `count` poses' results, folded over the tasks.
    TileResult fold_windows(std::size_t k, std::size_t count) const;
    std::vector<MeshDeformer::PoseInputs> group_inputs_;  // per pose of a group that moved
    std::vector<TileResult> summaries_;                   // per pose of the last group
    std::vector<std::size_t> group_slot_;                 // per pose of a group: its slot in group_inputs_, or none
    bool summary_current_ = false;  // degenerate and t_extremes hold the deformer's last pose's summary
    // degenerate, t_extremes and t_extremes_set from a frame's result.
    void set_summary(const TileResult& s);
    // set_summary of the per-task (and per-range) results of the frame.
    void fold_tile_results() { set_summary(fold_windows(0, 1)); }
    FrameTiles tiles_;
    FrameWindows windows_;
    bool windowed_ = false;
    std::vector<TileResult> tile_results_;  // per task, then per deferred task
    std::vector<float> smooth_values_, smooth_scratch_;
    // Whether deformed, t and the measure hold what evaluate() made of the deformer's last pose
    // (false after evaluate_positions of other positions): evaluate() then skips a pose that
    // did not change.
    bool from_pose_ = false;
    std::vector<std::size_t> block_edge_degenerate_;  // per task: tension_block's count, from the principal pass
    // A tiled frame after a tiled frame leaves what no moved joint reaches as it was
    // (MeshDeformer::moved_joints): the vertices' positions, and the T of the batches that read
    // only such vertices. Per batch, the joint bits of every vertex it reads (its own and its
    // neighbours'), made at the first frame that holds a joint.
    std::vector<std::uint64_t> batch_joints_;
    // Per range of tiles_ (its ranges, then its deferred ones), the last tiled frame's count of
    // vertices whose T fell back to 1. A range whose count was 0 recomputes only its moved
    // batches (the others' count is still 0); any other range is recomputed whole.
    std::vector<std::size_t> range_degenerate_;
    // Whether deformed, t and range_degenerate_ hold the tiled frame of the deformer's last pose.
    bool tiled_current_ = false;
};

// Per mesh and welded vertex, the lowest stretch-side T and the highest compress-side T over the
// frames folded in, and the first frame each was reached in: what --auto-range ranks, what
// `check` judges, what `report` lists and what a chunk keeps so merge can rank over all chunks.
// One T for edge and area; principal's two sides. The one such tracker: every verb that ranks
// vertices over frames goes through it.
struct VertexTensionExtremes {
    // No frame index: the value is still the rest's 1 (reset with from_rest).
    static constexpr std::uint32_t kRest = 0xffffffffu;
    std::vector<std::vector<float>> min, max;
    std::vector<std::vector<std::uint32_t>> min_at, max_at;  // frame index of each extreme

    // Sized for `meshes`. from_rest: every value starts at 1, the rest (--auto-range: a side
    // that never leaves the rest keeps its threshold); else the first frame folded in sets them
    // (check and report: a vertex's extremes are what its frames reached).
    void reset(const std::vector<MeshTension>& meshes, bool from_rest = true);
    // Folds in mesh m's current frame, index `frame` of the run's frames.
    void add(std::size_t m, const MeshTension& mt, std::uint32_t frame = kRest);
    // Whether any frame was folded into mesh m.
    bool seen(std::size_t m) const { return m < seen_.size() && seen_[m]; }
    // Every mesh's values, mesh after mesh (the population auto_tension_range ranks).
    std::vector<float> all_min() const;
    std::vector<float> all_max() const;

private:
    std::vector<char> seen_;
    bool from_rest_ = true;
};

// Thresholds from observed T: per-vertex extremes over the frames, and the percentile of them
// at which both maps should reach full strength (100: the absolute extremes). A side that never
// leaves T = 1 keeps the parameters' threshold.
TensionRange auto_tension_range(const std::vector<float>& vertex_min_t, const std::vector<float>& vertex_max_t,
                                double percentile, const TensionRange& fallback);

}  // namespace rigscope
