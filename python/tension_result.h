// tension()'s results: the arrays a run fills per file vertex and frame (TensionColumns), and the
// object per mesh that Python receives (TensionResult).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "arrays.h"
#include "rigscope/core/parallel.h"
#include "rigscope/core/tension.h"
#include "rigscope/core/tension_map.h"
#include "rigscope/run/input.h"
#include "rigscope/run/tension_run.h"

namespace rigscope_python {

// The maps of a whole tension() run per mesh. Its arrays and facts are plain attributes;
// compress and stretch are worked out from t (edge) or t_area (area) the first time they are
// read, with the run's remap: a script that wants only T (a plot, a limit in CI) never pays for
// two more (frames, vertices) arrays, 1 GB at 231 frames of the bench tube. That source array is
// read-only, so that the maps always belong to it. Principal's maps come from 1 / lambda, which
// is not returned: they are filled with the run.
class TensionResult {
public:
    TensionResult(py::object source, const rigscope::TensionRemap& remap, unsigned threads)
        : source_(std::move(source)), remap_(remap), threads_(threads) {}

    void set_maps(py::object compress, py::object stretch) { compress_ = std::move(compress), stretch_ = std::move(stretch); }
    py::object compress() { return map(compress_, true); }
    py::object stretch() { return map(stretch_, false); }

private:
    py::object map(py::object& cached, bool compress);

    py::object source_;
    rigscope::TensionRemap remap_;
    unsigned threads_;
    py::object compress_ = py::none(), stretch_ = py::none();
};

// Per file vertex and frame, as the CLI's CSV has them.
struct TensionColumns {
    struct Mesh {
        FloatArray t, compress, stretch, t_area, lambda_max, lambda_min, dir;
    };
    std::vector<Mesh> meshes;
    std::size_t frames = 0;

    // The arrays a run of this measure fills, each with its floats per vertex and frame: what
    // reserve allocates and floats_per_vertex sums (the budget check), so that the two agree.
    static std::vector<std::pair<FloatArray Mesh::*, std::size_t>> arrays_of(rigscope::Measure measure, bool lazy_maps);
    // Floats reserve holds per vertex and frame.
    static std::size_t floats_per_vertex(rigscope::Measure measure, bool lazy_maps);
    // Arrays for nf frames of meshes of vertex_counts vertices. lazy_maps: leave compress and
    // stretch to TensionResult where the array they come from is one returned anyway (t for edge,
    // t_area for area); principal's 1 / lambda is not.
    void reserve(const std::vector<std::size_t>& vertex_counts, rigscope::Measure measure, std::size_t nf, bool lazy_maps);
    // Every array's (start, bytes), for Prefault.
    std::vector<std::pair<void*, std::size_t>> ranges();
    // Frame fi of every mesh from what the run layer just evaluated, on the pool.
    void take(const std::vector<rigscope::MeshTension>& tension, const rigscope::TensionRunInfo& run, std::size_t fi,
              rigscope::ThreadPool* pool);
    // The run's arrays, shaped (frames, vertices), as one TensionResult per mesh; names are the
    // selected meshes' names, in.frames the run's frames.
    py::object result(const rigscope::Input& in, const std::vector<std::string>& names,
                      const std::vector<rigscope::MeshTension>& tension, const rigscope::TensionRunInfo& run);
    // One frame's arrays, shaped (vertices,), as a namespace per mesh (reserve with nf = 1).
    py::object frame_result(const std::vector<std::string>& names, const std::vector<rigscope::MeshTension>& tension);

private:
    py::dict fields(std::size_t m, const rigscope::MeshTension& mt, bool one_frame);
};

}  // namespace rigscope_python
