#include "rigscope/run/run_budget.h"

#include <string>

#include "rigscope/core/error.h"
#include "rigscope/io/output.h"

namespace rigscope {

namespace {

// Bytes per file vertex, face corner and influence of a prepared mesh (MeshTension: deformed
// positions, weld and topology, deformer layout, edge batches), and what the area and principal
// kernels and the smoother add. Upper bounds: on bench/tube_262k.glb (2 x 262144 vertices,
// 2 x 1569792 corners) `tension --frames 1` peaks 58 MB above `info` with the edge measure and
// 242 MB above with principal and --smooth 1 (/usr/bin/time); these give 108 MB and 386 MB.
constexpr double kPerVertex = 64, kPerCorner = 24, kPerInfluence = 24;
constexpr double kMeasurePerCorner = 80;  // area, principal: per-triangle rest data and results
constexpr double kSmoothPerVertex = 16, kSmoothPerCorner = 16;  // --smooth: weights, scratch

double mib(double bytes) { return bytes / (1024.0 * 1024.0); }

std::string mib_text(double bytes) { return std::to_string(static_cast<long long>(mib(bytes) + 0.5)); }

// What the loaded scene holds in its meshes: the part of the load the budget already saw,
// which stays in memory for the whole run.
double scene_bytes(const Scene& scene) {
    double b = 0;
    for (const Mesh& m : scene.meshes) {
        b += double(m.positions.size()) * sizeof(Eigen::Vector3f) + double(m.face_indices.size() + m.face_offsets.size()) * 4;
        b += double(m.influences.joints.size()) * 8;
        for (const MorphTarget& t : m.targets) b += double(t.deltas.size()) * sizeof(Eigen::Vector3f);
    }
    return b;
}

}  // namespace

std::uint64_t prepared_tension_bytes(const Input& in, const TensionOptions& opt) {
    const MeasureOptions mo = opt.measure_options();
    const double per_corner = kPerCorner + (mo.measure == Measure::edge ? 0 : kMeasurePerCorner) + (mo.smooth > 0 ? kSmoothPerCorner : 0);
    const double per_vertex = kPerVertex + (mo.smooth > 0 ? kSmoothPerVertex : 0);
    double b = 0;
    for (int m : in.meshes) {
        const Mesh& mesh = in.scene.meshes[m];
        b += per_vertex * double(mesh.vertex_count()) + per_corner * double(mesh.face_indices.size()) +
             kPerInfluence * double(mesh.influences.joints.size());
    }
    return static_cast<std::uint64_t>(b);
}

void check_run_budget(const Input& in, const TensionOptions& opt, std::uint64_t per_run_bytes, const char* what) {
    const double budget = double(load_options(opt.input).max_memory);
    const double scene = scene_bytes(in.scene), prepared = double(prepared_tension_bytes(in, opt)), extra = double(per_run_bytes);
    const double frames = double(in.frames.size()) * sizeof(Frame);
    if (scene + prepared + extra + frames <= budget) return;
    throw bad_input(opt.input.file, std::string(what) + " would hold about " + mib_text(scene + prepared + extra + frames) + " MiB (scene " +
                                        mib_text(scene) + ", prepared meshes " + mib_text(prepared) + ", frames and the job's arrays " +
                                        mib_text(extra + frames) + "), over the memory budget (--max-memory " +
                                        mib_text(budget) + " MiB)");
}

void check_job_budget(const Input& in, double job_bytes, const std::string& what, const std::string& hint) {
    const double budget = double(in.max_memory), scene = scene_bytes(in.scene);
    if (budget <= 0 || scene + job_bytes <= budget) return;
    throw bad_input(in.paths.empty() ? in.scene.source : in.paths.front().path,
                    what + " would hold about " + mib_text(scene + job_bytes) + " MiB (scene " + mib_text(scene) + ", " + what + " " +
                        mib_text(job_bytes) + "), over the memory budget (--max-memory " + mib_text(budget) + " MiB); " + hint);
}

void check_output_size(const std::string& path, double bytes, double max_mb) {
    // An output its disk cannot hold is named as that first: raising the limit would not help.
    check_free_space(path, bytes);
    if (bytes > max_mb * 1e6)
        throw Error(kExitCannotWrite, (path.empty() || path == "-" ? std::string("stdout") : path) + ": the output would be at least " +
                                          size_text(bytes) + ", past the " + size_text(max_mb * 1e6) +
                                          " limit: select fewer frames or vertices, or raise the limit (--max-output MB; Python: max_output=)");
}

}  // namespace rigscope
