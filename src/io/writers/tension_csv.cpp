#include <algorithm>
#include <charconv>

#include "rigscope/io/tension_output.h"
#include "row_blocks.h"

namespace rigscope {

TensionExtremes tension_extremes(const MeshTension& mt) {
    TensionExtremes e;
    if (!mt.t_extremes_set && mt.t.empty()) return e;
    // The tiled frame's own, found while T was in cache (a summary frame keeps no t); else one
    // pass (the same answer).
    const ValueExtremes v = mt.t_extremes_set ? mt.t_extremes : value_extremes(mt.t.data(), 0, mt.t.size());
    e.min_t = v.min;
    e.max_t = v.max;
    e.min_index = mt.topo.representative[v.min_at];
    e.max_index = mt.topo.representative[v.max_at];
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
    CsvSink(OutputFile& out, unsigned threads) : out_(out), blocks_(threads) {}

    void begin(const TensionRunInfo& run, const std::vector<TensionMeshView>& meshes) override {
        run_ = run;
        meshes_ = meshes;
        out_.write(tension_csv_header(run.measure.measure));
    }

    void frame(const Frame& f) override {
        for (const auto& view : meshes_) {
            const std::size_t rows = view.selected_all ? view.tension->topo.welded_of.size() : view.vertices.size();
            std::string prefix;
            append_csv_row_prefix(prefix, f, view.name);
            blocks_.write(out_, rows, [&](std::string& buf, std::size_t begin, std::size_t end) { format_rows(buf, view, prefix, begin, end); });
        }
    }

    void end() override {}

private:
    // Rows [begin, end) of the view (file vertices, or the selected ones) appended to buf.
    void format_rows(std::string& buf, const TensionMeshView& view, const std::string& prefix, std::size_t begin, std::size_t end) const {
        const MeshTension& mt = *view.tension;
        // A row's numbers go through std::to_chars into a small array and join the buffer in one
        // append: appending field by field cost more than the formatting.
        const Measure measure = mt.measure.measure;
        const std::vector<float>& tc = mt.compress_t();
        const std::vector<float>& ts = mt.stretch_t();
        const TensionRemap remap(run_.range, run_.params);
        buf.reserve((end - begin) * (prefix.size() + 48));
        for (std::size_t i = begin; i < end; ++i) {
            const std::uint32_t v = view.selected_all ? static_cast<std::uint32_t>(i) : view.vertices[i];
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
        }
    }

    OutputFile& out_;
    RowBlocks blocks_;  // the rows formatted on the run's threads (row_blocks.h)
    TensionRunInfo run_;
    std::vector<TensionMeshView> meshes_;
};

}  // namespace

std::unique_ptr<TensionSink> make_tension_csv(OutputFile& out, unsigned threads) { return std::make_unique<CsvSink>(out, threads); }

}  // namespace rigscope
