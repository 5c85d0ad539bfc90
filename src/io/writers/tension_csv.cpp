#include <algorithm>
#include <charconv>

#include "rigscope/io/tension_output.h"

namespace rigscope {

TensionExtremes tension_extremes(const MeshTension& mt) {
    TensionExtremes e;
    const std::vector<float>& t = mt.t;
    if (t.empty()) return e;
    // The values first, in a loop the compiler vectorises (T is never NaN), then the first
    // vertex holding each: the same answer as one branchy pass, several times faster; it runs
    // per frame and mesh.
    float lo = t[0], hi = t[0];
    for (float v : t) {
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    const std::size_t wlo = static_cast<std::size_t>(std::find(t.begin(), t.end(), lo) - t.begin());
    const std::size_t whi = static_cast<std::size_t>(std::find(t.begin(), t.end(), hi) - t.begin());
    e.min_t = lo;
    e.max_t = hi;
    e.min_index = mt.topo.representative[wlo];
    e.max_index = mt.topo.representative[whi];
    return e;
}

std::string tension_csv_header(Measure m) {
    std::string h = "frame,time,mesh,vertex,t,compress,stretch";
    if (m == Measure::area) h += ",t_area";
    if (m == Measure::principal) h += ",lambda_max,lambda_min,dir_x,dir_y,dir_z";
    return h + '\n';
}

std::size_t tension_csv_extra_columns(Measure m) { return m == Measure::area ? 1 : m == Measure::principal ? 5 : 0; }

const char* measure_name(Measure m) { return m == Measure::area ? "area" : m == Measure::principal ? "principal" : "edge"; }

const char* smooth_weights_name(SmoothWeights w) { return w == SmoothWeights::cotan ? "cotan" : "uniform"; }

namespace {

class CsvSink : public TensionSink {
public:
    explicit CsvSink(OutputFile& out) : out_(out) {}

    void begin(const TensionRun& run, const std::vector<TensionMeshView>& meshes) override {
        run_ = run;
        meshes_ = meshes;
        out_.write(tension_csv_header(run.measure.measure));
    }

    void frame(const Frame& f) override {
        std::string& buf = out_.buffer();
        for (const auto& view : meshes_) {
            const MeshTension& mt = *view.tension;
            std::string prefix;
            append_csv_row_prefix(prefix, f, view.name);
            // A row's numbers go through std::to_chars into a small array and join the buffer
            // in one append: appending field by field cost more than the formatting.
            const Measure measure = mt.measure.measure;
            const std::vector<float>& tc = mt.compress_t();
            const std::vector<float>& ts = mt.stretch_t();
            const TensionRemap remap(run_.range, run_.params);
            auto row = [&](std::uint32_t v) {
                const std::uint32_t w = mt.topo.welded_of[v];
                const float t = mt.t[w];
                char line[320];
                char* p = std::to_chars(line, line + 24, static_cast<unsigned long>(v)).ptr;
                *p++ = ',';
                p = std::to_chars(p, p + 32, t).ptr;
                *p++ = ',';
                p = std::to_chars(p, p + 32, remap.compress(tc[w])).ptr;
                *p++ = ',';
                p = std::to_chars(p, p + 32, remap.stretch(ts[w])).ptr;
                if (measure == Measure::area) {
                    *p++ = ',';
                    p = std::to_chars(p, p + 32, mt.t_area[w]).ptr;
                } else if (measure == Measure::principal) {
                    const float extra[5] = {mt.lambda_max[w], mt.lambda_min[w], mt.compress_dir[3 * w], mt.compress_dir[3 * w + 1],
                                            mt.compress_dir[3 * w + 2]};
                    for (float x : extra) {
                        *p++ = ',';
                        p = std::to_chars(p, p + 32, x).ptr;
                    }
                }
                *p++ = '\n';
                buf += prefix;
                buf.append(line, p);
                out_.maybe_flush();
            };
            if (view.selected_all) {
                for (std::uint32_t v = 0; v < mt.topo.welded_of.size(); ++v) row(v);
            } else {
                for (std::uint32_t v : view.vertices) row(v);
            }
        }
    }

    void end() override {}

private:
    OutputFile& out_;
    TensionRun run_;
    std::vector<TensionMeshView> meshes_;
};

}  // namespace

std::unique_ptr<TensionSink> make_tension_csv(OutputFile& out) { return std::make_unique<CsvSink>(out); }

}  // namespace rigscope
