#include <charconv>

#include "rigscope/tension_chunk.h"
#include "rigscope/tension_output.h"

namespace rigscope {

void append_frame_label(std::string& out, const Frame& f) {
    if (f.bind) out += "bind";
    else append_number(out, f.number);
}

TensionExtremes tension_extremes(const MeshTension& mt) {
    TensionExtremes e;
    bool first = true;
    for (std::size_t w = 0; w < mt.t.size(); ++w) {
        const float t = mt.t[w];
        if (first || t < e.min_t) { e.min_t = t; e.min_index = mt.topo.representative[w]; }
        if (first || t > e.max_t) { e.max_t = t; e.max_index = mt.topo.representative[w]; }
        first = false;
    }
    return e;
}

namespace {

class CsvSink : public TensionSink {
public:
    explicit CsvSink(OutputFile& out) : out_(out) {}

    void begin(const TensionRun& run, const std::vector<TensionMeshView>& meshes) override {
        run_ = run;
        meshes_ = meshes;
        extremes_.begin(run, meshes);
        out_.write("frame,time,mesh,vertex,t,compress,stretch\n");
    }

    void frame(const Frame& f) override {
        extremes_.frame();
        std::string& buf = out_.buffer();
        for (const auto& view : meshes_) {
            const MeshTension& mt = *view.tension;
            std::string prefix;
            append_frame_label(prefix, f);
            prefix += ',';
            append_number(prefix, f.time);
            prefix += ',';
            append_csv_field(prefix, view.name);
            prefix += ',';
            // A row's numbers go through std::to_chars into a small array and join the buffer
            // in one append: appending field by field cost more than the formatting.
            auto row = [&](std::uint32_t v) {
                const float t = mt.t[mt.topo.welded_of[v]];
                char line[128];
                char* p = std::to_chars(line, line + 24, static_cast<unsigned long>(v)).ptr;
                *p++ = ',';
                p = std::to_chars(p, p + 32, t).ptr;
                *p++ = ',';
                p = std::to_chars(p, p + 32, compress_of(t, run_.range, run_.params)).ptr;
                *p++ = ',';
                p = std::to_chars(p, p + 32, stretch_of(t, run_.range, run_.params)).ptr;
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

    void end() override { extremes_.end(); }

private:
    OutputFile& out_;
    TensionRun run_;
    std::vector<TensionMeshView> meshes_;
    TensionChunkExtremes extremes_;  // a chunk's share of --auto-range, for merge
};

}  // namespace

std::unique_ptr<TensionSink> make_tension_csv(OutputFile& out) { return std::make_unique<CsvSink>(out); }

}  // namespace rigscope
