// The JSON summary of a tension run. Frames stream out as they come; only the selected
// vertices' series (small by construction) are held until the end.
#include "rigscope/io/tension_output.h"

#include "rigscope/io/json_keys.h"
#include "rigscope/io/json_writer.h"

namespace rigscope {

namespace {

namespace k = json_keys;

void write_run(JsonWriter& w, const TensionRunInfo& run) {
    write_json_header(w, "tension", run.input);
    if (!run.animation.empty()) w.member("animation", run.animation);
    w.key("reference").begin_object().member("kind", run.reference_kind);
    if (!run.reference.empty()) w.member("value", run.reference);
    w.end_object();
    w.member_or_null("clip", !run.clip.empty(), run.clip);
    w.member("fps", run.fps).member("weld", run.weld).key("parameters");
    write_tension_params(w, run.params);
    w.key(k::range).begin_object().member(k::t_s, run.range.t_s).member(k::t_c, run.range.t_c).key(k::auto_range);
    if (run.auto_range) w.begin_object().member(k::percentile, run.percentile).end_object();
    else w.value(false);
    w.end_object();
    if (run.measure.measure != Measure::edge || run.measure.smooth > 0) {
        // Only beside the default: a default run's header stays as it was.
        w.key(k::measure).begin_object().member("kind", measure_name(run.measure.measure));
        w.member("smooth", run.measure.smooth).member("smooth_weights", smooth_weights_name(run.measure.weights)).end_object();
    }
    w.key(k::chunk).begin_object().member(k::index, run.chunk_index).member(k::count, run.chunk_count).end_object();
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

void write_extremes(JsonWriter& w, const TensionExtremes& e) {
    w.member(k::min, e.min_t).member(k::min_index, e.min_index).member(k::max, e.max_t).member(k::max_index, e.max_index);
}

class JsonSink : public TensionSink {
public:
    explicit JsonSink(OutputFile& out) : out_(out), w_(out.buffer()) {}

    void begin(const TensionRunInfo& run, const std::vector<TensionMeshView>& meshes) override {
        run_ = run;
        meshes_ = meshes;
        w_.begin_object();
        write_run(w_, run);
        w_.key(k::meshes).begin_array();
        for (const TensionMeshView& view : meshes) {
            const MeshTension& mt = *view.tension;
            w_.begin_object().member(k::name, view.name);
            w_.member(k::vertices, static_cast<unsigned long>(mt.topo.welded_of.size()));
            w_.member("welded_vertices", static_cast<unsigned long>(mt.topo.welded_count()));
            w_.member("edges", static_cast<unsigned long>(mt.topo.edge_count()));
            w_.member("rest_degenerate", static_cast<unsigned long>(mt.rest_degenerate)).end_object();
        }
        w_.end_array().key(k::frames).begin_array();
        series_.resize(meshes.size());
        overall_.resize(meshes.size());
        measured_ = run.measure.measure != Measure::edge;
        measure_overall_.resize(meshes.size());
        for (std::size_t m = 0; m < meshes.size(); ++m) series_[m].resize(meshes[m].selected_all ? 0 : meshes[m].vertices.size());
    }

    void frame(const Frame& f) override {
        w_.begin_object().key(k::frame).frame(f).member(k::time, f.time).key(k::meshes).begin_array();
        for (std::size_t m = 0; m < meshes_.size(); ++m) {
            const MeshTension& mt = *meshes_[m].tension;
            const TensionExtremes e = tension_extremes(mt);
            w_.begin_object().member(k::min_t, e.min_t).member(k::min_index, e.min_index);
            w_.member(k::max_t, e.max_t).member(k::max_index, e.max_index);
            w_.member("degenerate", static_cast<unsigned long>(mt.degenerate));
            if (measured_) {
                const TensionExtremes me = measure_extremes(mt);
                w_.key(k::measure).begin_object();
                write_extremes(w_, me);
                w_.member("degenerate", static_cast<unsigned long>(mt.measure_degenerate)).end_object();
                Overall& o = measure_overall_[m];
                if (frames_ == 0 || me.min_t < o.ext.min_t) { o.ext.min_t = me.min_t; o.ext.min_index = me.min_index; o.min_frame = f; }
                if (frames_ == 0 || me.max_t > o.ext.max_t) { o.ext.max_t = me.max_t; o.ext.max_index = me.max_index; o.max_frame = f; }
            }
            w_.end_object();
            Overall& o = overall_[m];
            if (frames_ == 0 || e.min_t < o.ext.min_t) { o.ext.min_t = e.min_t; o.ext.min_index = e.min_index; o.min_frame = f; }
            if (frames_ == 0 || e.max_t > o.ext.max_t) { o.ext.max_t = e.max_t; o.ext.max_index = e.max_index; o.max_frame = f; }
            for (std::size_t i = 0; i < series_[m].size(); ++i) {
                const std::uint32_t w = mt.topo.welded_of[meshes_[m].vertices[i]];
                // t, then the T of each map, then the measure's own values.
                Sample& smp = series_[m][i].emplace_back();
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
        w_.end_array().end_object();
        ++frames_;
        out_.maybe_flush();
    }

    void end() override {
        w_.end_array().key(k::summary).begin_array();
        for (std::size_t m = 0; m < meshes_.size(); ++m) {
            const Overall& o = overall_[m];
            w_.begin_object().member(k::mesh, meshes_[m].name).member(k::min_t, o.ext.min_t).member(k::min_index, o.ext.min_index);
            w_.key(k::min_frame).frame(o.min_frame).member(k::max_t, o.ext.max_t).member(k::max_index, o.ext.max_index);
            w_.key(k::max_frame).frame(o.max_frame).end_object();
        }
        w_.end_array();
        if (measured_) {
            // area: T_area; principal: lowest lambda_min and highest lambda_max, over the frames.
            w_.key(k::measure_summary).begin_array();
            for (std::size_t m = 0; m < meshes_.size(); ++m) {
                const Overall& o = measure_overall_[m];
                w_.begin_object().member(k::mesh, meshes_[m].name);
                write_extremes(w_, o.ext);
                w_.key(k::min_frame).frame(o.min_frame).key(k::max_frame).frame(o.max_frame).end_object();
            }
            w_.end_array();
        }
        w_.key(k::vertices).begin_array();
        const TensionRemap remap(run_.range, run_.params);
        for (std::size_t m = 0; m < meshes_.size(); ++m) {
            for (std::size_t i = 0; i < series_[m].size(); ++i) {
                const auto& ts = series_[m][i];
                w_.begin_object().member(k::mesh, meshes_[m].name).member(k::vertex, meshes_[m].vertices[i]);
                w_.number_array(k::t, ts.size(), [&](std::size_t f) { return ts[f].t; });
                w_.number_array(k::compress, ts.size(), [&](std::size_t f) { return remap.compress(ts[f].tc); });
                w_.number_array(k::stretch, ts.size(), [&](std::size_t f) { return remap.stretch(ts[f].ts); });
                if (run_.measure.measure == Measure::area) w_.number_array(k::t_area, ts.size(), [&](std::size_t f) { return ts[f].a; });
                if (run_.measure.measure == Measure::principal) {
                    w_.number_array(k::lambda_max, ts.size(), [&](std::size_t f) { return ts[f].a; });
                    w_.number_array(k::lambda_min, ts.size(), [&](std::size_t f) { return ts[f].b; });
                }
                w_.end_object();
            }
        }
        w_.end_array().end_object();
        out_.buffer() += '\n';
    }

private:
    struct Overall {
        TensionExtremes ext;
        Frame min_frame, max_frame;
    };
    OutputFile& out_;
    JsonWriter w_;
    TensionRunInfo run_;
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

void write_tension_params(JsonWriter& w, const TensionParams& p) {
    w.begin_object().member(k::falloff, p.falloff).member(k::stretch_area, p.stretch_area).member(k::compress_area, p.compress_area);
    w.member(k::weight_limit, p.weight_limit).member(k::smooth_k, p.smooth_k).end_object();
}

}  // namespace rigscope
