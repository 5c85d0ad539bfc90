// Writers of tension results: CSV rows, a JSON summary, each fed one frame at a time so a run
// never holds more than a frame of output.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rigscope/core/frames.h"
#include "rigscope/io/output.h"
#include "rigscope/core/tension.h"
#include "rigscope/core/tension_map.h"

namespace rigscope {

// What a run was, recorded in outputs so results can be traced (and chunks merged) later.
struct TensionRunInfo {
    std::string version;
    std::string input;
    std::string animation;         // --animation file, or empty
    std::string reference_kind;    // "bind", "file" or "frame"
    std::string reference;         // the reference file or frame number, empty for bind
    std::string clip;              // empty without animation
    double fps = 24;
    bool weld = true;
    TensionParams params;
    MeasureOptions measure;  // --measure, --smooth, --smooth-weights
    TensionRange range;
    bool auto_range = false;
    double percentile = 100;
    int chunk_index = 0, chunk_count = 1;
};

struct TensionMeshView {
    std::string name;
    const MeshTension* tension = nullptr;
    std::vector<std::uint32_t> vertices;  // selected file vertex ids (--vertices); empty: all
    bool selected_all = true;
};

class TensionSink {
public:
    virtual ~TensionSink() = default;
    virtual void begin(const TensionRunInfo& run, const std::vector<TensionMeshView>& meshes) = 0;
    // Called after every mesh's MeshTension was evaluated for frame f.
    virtual void frame(const Frame& f) = 0;
    virtual void end() = 0;
};

// CSV: frame,time,mesh,vertex,t,compress,stretch; a row per file vertex (or selected vertex).
// --measure area adds t_area, principal lambda_max,lambda_min,dir_x,dir_y,dir_z (tension_csv_header).
// threads: how many format a frame's rows (the run's --threads; 0: every core, 1: the caller
// alone); the bytes are the same for any count.
std::unique_ptr<TensionSink> make_tension_csv(OutputFile& out, unsigned threads = 1);
// JSON: run, per-frame min/max T with their vertices, and the selected vertices' series.
std::unique_ptr<TensionSink> make_tension_json(OutputFile& out);

// Per-frame extremes of one mesh: T and the file vertex where each occurs.
struct TensionExtremes {
    float min_t = 1, max_t = 1;
    std::uint32_t min_index = 0, max_index = 0;
};
TensionExtremes tension_extremes(const MeshTension& mt);

// The CSV header line of a measure, '\n' included, and how many columns it adds after stretch.
std::string tension_csv_header(Measure m);
std::size_t tension_csv_extra_columns(Measure m);

// Names of the measure (JSON "measure" objects) and of its smoothing weights.
const char* measure_name(Measure m);
const char* smooth_weights_name(SmoothWeights w);

// The node group's parameters as a JSON object, {"falloff":..,"stretch_area":..,...}: the run
// header of JSON output and a chunk record's auto-range state both carry it.
class JsonWriter;
void write_tension_params(JsonWriter& w, const TensionParams& p);

}  // namespace rigscope
