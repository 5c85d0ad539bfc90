// The JSON summary of a tension run. Frames stream out as they come; only the selected
// vertices' series (small by construction) are held until the end.
#include "rigscope/io/tension_output.h"

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
    b += '}';
    if (run.measure.measure != Measure::edge || run.measure.smooth > 0) {
        // Only beside the default: a default run's header stays as it was.
        b += ",\"measure\":{\"kind\":";
        append_json_string(b, measure_name(run.measure.measure));
        b += ",\"smooth\":";
        append_number(b, run.measure.smooth);
        b += ",\"smooth_weights\":";
        append_json_string(b, smooth_weights_name(run.measure.weights));
        b += '}';
    }
    b += ",\"chunk\":{\"index\":";
    append_number(b, run.chunk_index);
    b += ",\"count\":";
    append_number(b, run.chunk_count);
    b += '}';
}

// The measure's extremes of one mesh and frame: area, the lowest and highest T_area; principal,
// the lowest lambda_min and the highest lambda_max. First welded vertex wins ties.
TensionExtremes measure_extremes(const MeshTension& mt) {
    TensionExtremes e;
    const bool principal = mt.measure.measure == Measure::principal;
    const std::vector<float>& lo = principal ? mt.lambda_min : mt.t_area;
    const std::vector<float>& hi = principal ? mt.lambda_max : mt.t_area;
    if (lo.empty()) return e;
    std::size_t wlo = 0, whi = 0;
    for (std::size_t w = 1; w < lo.size(); ++w) {
        if (lo[w] < lo[wlo]) wlo = w;
        if (hi[w] > hi[whi]) whi = w;
    }
    e.min_t = lo[wlo];
    e.max_t = hi[whi];
    e.min_index = mt.topo.representative[wlo];
    e.max_index = mt.topo.representative[whi];
    return e;
}

void append_extremes(std::string& b, const TensionExtremes& e) {
    b += "\"min\":";
    append_number(b, e.min_t);
    b += ",\"min_index\":";
    append_number(b, e.min_index);
    b += ",\"max\":";
    append_number(b, e.max_t);
    b += ",\"max_index\":";
    append_number(b, e.max_index);
}

class JsonSink : public TensionSink {
public:
    explicit JsonSink(OutputFile& out) : out_(out) {}

    void begin(const TensionRun& run, const std::vector<TensionMeshView>& meshes) override {
        run_ = run;
        meshes_ = meshes;
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
        measured_ = run.measure.measure != Measure::edge;
        measure_overall_.resize(meshes.size());
        for (std::size_t m = 0; m < meshes.size(); ++m) series_[m].resize(meshes[m].selected_all ? 0 : meshes[m].vertices.size());
    }

    void frame(const Frame& f) override {
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
            if (measured_) {
                const TensionExtremes me = measure_extremes(mt);
                b += ",\"measure\":{";
                append_extremes(b, me);
                b += ",\"degenerate\":";
                append_number(b, static_cast<unsigned long>(mt.measure_degenerate));
                b += '}';
                Overall& o = measure_overall_[m];
                if (frames_ == 0 || me.min_t < o.ext.min_t) { o.ext.min_t = me.min_t; o.ext.min_index = me.min_index; o.min_frame = f; }
                if (frames_ == 0 || me.max_t > o.ext.max_t) { o.ext.max_t = me.max_t; o.ext.max_index = me.max_index; o.max_frame = f; }
            }
            b += '}';
            Overall& o = overall_[m];
            if (frames_ == 0 || e.min_t < o.ext.min_t) { o.ext.min_t = e.min_t; o.ext.min_index = e.min_index; o.min_frame = f; }
            if (frames_ == 0 || e.max_t > o.ext.max_t) { o.ext.max_t = e.max_t; o.ext.max_index = e.max_index; o.max_frame = f; }
            for (std::size_t k = 0; k < series_[m].size(); ++k) {
                const std::uint32_t w = mt.topo.welded_of[meshes_[m].vertices[k]];
                // t, then the T of each map, then the measure's own values.
                Sample& smp = series_[m][k].emplace_back();
                smp.t = mt.t[w];
                smp.tc = mt.compress_t()[w];
                smp.ts = mt.stretch_t()[w];
                if (run_.measure.measure == Measure::area) smp.a = mt.t_area[w];
                if (run_.measure.measure == Measure::principal) {
                    smp.a = mt.lambda_max[w];
                    smp.b = mt.lambda_min[w];
                }
            }
        }
        b += "]}";
        ++frames_;
        out_.maybe_flush();
    }

    void end() override {
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
        b += ']';
        if (measured_) {
            // area: T_area; principal: lowest lambda_min and highest lambda_max, over the frames.
            b += ",\"measure_summary\":[";
            for (std::size_t m = 0; m < meshes_.size(); ++m) {
                const Overall& o = measure_overall_[m];
                b += m ? ",{\"mesh\":" : "{\"mesh\":";
                append_json_string(b, meshes_[m].name);
                b += ',';
                append_extremes(b, o.ext);
                b += ",\"min_frame\":";
                if (o.min_frame.bind) b += "\"bind\""; else append_number(b, o.min_frame.number);
                b += ",\"max_frame\":";
                if (o.max_frame.bind) b += "\"bind\""; else append_number(b, o.max_frame.number);
                b += '}';
            }
            b += ']';
        }
        b += ",\"vertices\":[";
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
                list("t", [](const Sample& s) { return s.t; });
                const TensionRemap remap(run_.range, run_.params);
                list("compress", [&](const Sample& s) { return remap.compress(s.tc); });
                list("stretch", [&](const Sample& s) { return remap.stretch(s.ts); });
                if (run_.measure.measure == Measure::area) list("t_area", [](const Sample& s) { return s.a; });
                if (run_.measure.measure == Measure::principal) {
                    list("lambda_max", [](const Sample& s) { return s.a; });
                    list("lambda_min", [](const Sample& s) { return s.b; });
                }
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
    struct Sample {
        float t = 1, tc = 1, ts = 1, a = 1, b = 1;  // a, b: t_area, or lambda_max and lambda_min
    };
    std::vector<std::vector<std::vector<Sample>>> series_;  // mesh, selected vertex, frame
    std::vector<Overall> overall_, measure_overall_;
    bool measured_ = false;
    std::size_t frames_ = 0;
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
