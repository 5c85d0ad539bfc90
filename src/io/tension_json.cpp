// The JSON summary of a tension run. Frames stream out as they come; only the selected
// vertices' series (small by construction) are held until the end.
#include "rigscope/tension_chunk.h"
#include "rigscope/tension_output.h"

namespace rigscope {

namespace {

void key(std::string& b, const char* k) {
    append_json_string(b, k);
    b += ':';
}

void append_run(std::string& b, const TensionRun& run) {
    key(b, "rigscope");
    append_json_string(b, run.version);
    b += ",\"command\":\"tension\",";
    key(b, "input");
    append_json_string(b, run.input);
    if (!run.animation.empty()) {
        b += ',';
        key(b, "animation");
        append_json_string(b, run.animation);
    }
    b += ",\"reference\":{\"kind\":";
    append_json_string(b, run.reference_kind);
    if (!run.reference.empty()) {
        b += ",\"value\":";
        append_json_string(b, run.reference);
    }
    b += "},\"clip\":";
    if (run.clip.empty()) b += "null"; else append_json_string(b, run.clip);
    b += ",\"fps\":";
    append_number(b, run.fps);
    b += ",\"weld\":";
    b += run.weld ? "true" : "false";
    b += ",\"parameters\":";
    append_tension_params(b, run.params);
    b += ",\"range\":{\"t_s\":";
    append_number(b, run.range.t_s);
    b += ",\"t_c\":";
    append_number(b, run.range.t_c);
    b += ",\"auto\":";
    if (run.auto_range) {
        b += "{\"percentile\":";
        append_number(b, run.percentile);
        b += '}';
    } else {
        b += "false";
    }
    b += "},\"chunk\":{\"index\":";
    append_number(b, run.chunk_index);
    b += ",\"count\":";
    append_number(b, run.chunk_count);
    b += '}';
}

class JsonSink : public TensionSink {
public:
    explicit JsonSink(OutputFile& out) : out_(out) {}

    void begin(const TensionRun& run, const std::vector<TensionMeshView>& meshes) override {
        run_ = run;
        meshes_ = meshes;
        extremes_.begin(run, meshes);
        std::string& b = out_.buffer();
        b += '{';
        append_run(b, run);
        b += ",\"meshes\":[";
        for (std::size_t m = 0; m < meshes.size(); ++m) {
            const MeshTension& mt = *meshes[m].tension;
            b += m ? ",{\"name\":" : "{\"name\":";
            append_json_string(b, meshes[m].name);
            b += ",\"vertices\":";
            append_number(b, static_cast<unsigned long>(mt.topo.welded_of.size()));
            b += ",\"welded_vertices\":";
            append_number(b, static_cast<unsigned long>(mt.topo.welded_count()));
            b += ",\"edges\":";
            append_number(b, static_cast<unsigned long>(mt.topo.edge_count()));
            b += ",\"rest_degenerate\":";
            append_number(b, static_cast<unsigned long>(mt.rest_degenerate));
            b += '}';
        }
        b += "],\"frames\":[";
        series_.resize(meshes.size());
        overall_.resize(meshes.size());
        for (std::size_t m = 0; m < meshes.size(); ++m) series_[m].resize(meshes[m].selected_all ? 0 : meshes[m].vertices.size());
    }

    void frame(const Frame& f) override {
        extremes_.frame();
        std::string& b = out_.buffer();
        b += frames_ ? ",{\"frame\":" : "{\"frame\":";
        if (f.bind) b += "\"bind\""; else append_number(b, f.number);
        b += ",\"time\":";
        append_number(b, f.time);
        b += ",\"meshes\":[";
        for (std::size_t m = 0; m < meshes_.size(); ++m) {
            const MeshTension& mt = *meshes_[m].tension;
            const TensionExtremes e = tension_extremes(mt);
            b += m ? ",{\"min_t\":" : "{\"min_t\":";
            append_number(b, e.min_t);
            b += ",\"min_index\":";
            append_number(b, e.min_index);
            b += ",\"max_t\":";
            append_number(b, e.max_t);
            b += ",\"max_index\":";
            append_number(b, e.max_index);
            b += ",\"degenerate\":";
            append_number(b, static_cast<unsigned long>(mt.degenerate));
            b += '}';
            Overall& o = overall_[m];
            if (frames_ == 0 || e.min_t < o.ext.min_t) { o.ext.min_t = e.min_t; o.ext.min_index = e.min_index; o.min_frame = f; }
            if (frames_ == 0 || e.max_t > o.ext.max_t) { o.ext.max_t = e.max_t; o.ext.max_index = e.max_index; o.max_frame = f; }
            for (std::size_t k = 0; k < series_[m].size(); ++k)
                series_[m][k].push_back(mt.t[mt.topo.welded_of[meshes_[m].vertices[k]]]);
        }
        b += "]}";
        ++frames_;
        out_.maybe_flush();
    }

    void end() override {
        extremes_.end();
        std::string& b = out_.buffer();
        b += "],\"summary\":[";
        for (std::size_t m = 0; m < meshes_.size(); ++m) {
            const Overall& o = overall_[m];
            b += m ? ",{\"mesh\":" : "{\"mesh\":";
            append_json_string(b, meshes_[m].name);
            b += ",\"min_t\":";
            append_number(b, o.ext.min_t);
            b += ",\"min_index\":";
            append_number(b, o.ext.min_index);
            b += ",\"min_frame\":";
            if (o.min_frame.bind) b += "\"bind\""; else append_number(b, o.min_frame.number);
            b += ",\"max_t\":";
            append_number(b, o.ext.max_t);
            b += ",\"max_index\":";
            append_number(b, o.ext.max_index);
            b += ",\"max_frame\":";
            if (o.max_frame.bind) b += "\"bind\""; else append_number(b, o.max_frame.number);
            b += '}';
        }
        b += "],\"vertices\":[";
        bool first = true;
        for (std::size_t m = 0; m < meshes_.size(); ++m) {
            for (std::size_t k = 0; k < series_[m].size(); ++k) {
                b += first ? "{\"mesh\":" : ",{\"mesh\":";
                first = false;
                append_json_string(b, meshes_[m].name);
                b += ",\"vertex\":";
                append_number(b, meshes_[m].vertices[k]);
                const auto& ts = series_[m][k];
                auto list = [&](const char* name, auto fn) {
                    b += ",\"";
                    b += name;
                    b += "\":[";
                    for (std::size_t i = 0; i < ts.size(); ++i) {
                        if (i) b += ',';
                        append_number(b, fn(ts[i]));
                    }
                    b += ']';
                };
                list("t", [](float t) { return t; });
                list("compress", [&](float t) { return compress_of(t, run_.range, run_.params); });
                list("stretch", [&](float t) { return stretch_of(t, run_.range, run_.params); });
                b += '}';
            }
        }
        b += "]}\n";
    }

private:
    struct Overall {
        TensionExtremes ext;
        Frame min_frame, max_frame;
    };
    OutputFile& out_;
    TensionRun run_;
    std::vector<TensionMeshView> meshes_;
    std::vector<std::vector<std::vector<float>>> series_;  // mesh, selected vertex, frame
    std::vector<Overall> overall_;
    std::size_t frames_ = 0;
    TensionChunkExtremes extremes_;  // a chunk's share of --auto-range, for merge
};

}  // namespace

std::unique_ptr<TensionSink> make_tension_json(OutputFile& out) { return std::make_unique<JsonSink>(out); }

void append_tension_params(std::string& b, const TensionParams& p) {
    b += "{\"falloff\":";
    append_number(b, p.falloff);
    b += ",\"stretch_area\":";
    append_number(b, p.stretch_area);
    b += ",\"compress_area\":";
    append_number(b, p.compress_area);
    b += ",\"weight_limit\":";
    append_number(b, p.weight_limit);
    b += ",\"smooth_k\":";
    append_number(b, p.smooth_k);
    b += '}';
}

}  // namespace rigscope
