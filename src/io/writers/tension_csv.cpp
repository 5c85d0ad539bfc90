#include <algorithm>
#include <charconv>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "rigscope/io/tension_output.h"

namespace rigscope {

TensionExtremes tension_extremes(const MeshTension& mt) {
    TensionExtremes e;
    const std::vector<float>& t = mt.t;
    if (t.empty()) return e;
    // One pass in blocks, their min and max in SSE registers (T is never NaN),
    // keeping the first block that lowers the minimum (raises the maximum); the first vertex
    // holding each value is then looked for in that block alone. The same answer as one branchy
    // pass; it runs per frame and mesh, and two whole-array searches after the pass cost more
    // than the pass.
    constexpr std::size_t kBlock = 2048;
    const std::size_t n = t.size();
    float lo = t[0], hi = t[0];
    std::size_t blo = 0, bhi = 0;
    for (std::size_t b = 0; b < n; b += kBlock) {
        const std::size_t end = std::min(n, b + kBlock);
        float l = t[b], h = t[b];
        std::size_t i = b;
#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
        // Four registers of running values each, so that the compares do not wait on one
        // another (min and max are exact in any order). minps(x, m) is x < m ? x : m, the
        // scalar loop's rule: GCC does not vectorise that loop itself.
        __m128 ls[4], hs[4];
        for (int k = 0; k < 4; ++k) ls[k] = hs[k] = _mm_set1_ps(t[b]);
        for (; i + 16 <= end; i += 16)
            for (int k = 0; k < 4; ++k) {
                const __m128 x = _mm_loadu_ps(t.data() + i + 4 * k);
                ls[k] = _mm_min_ps(x, ls[k]);
                hs[k] = _mm_max_ps(x, hs[k]);
            }
        alignas(16) float lv[16], hv[16];
        for (int k = 0; k < 4; ++k) _mm_store_ps(lv + 4 * k, ls[k]), _mm_store_ps(hv + 4 * k, hs[k]);
        for (int k = 0; k < 16; ++k) {
            l = lv[k] < l ? lv[k] : l;
            h = hv[k] > h ? hv[k] : h;
        }
#endif
        for (; i < end; ++i) {
            l = t[i] < l ? t[i] : l;
            h = t[i] > h ? t[i] : h;
        }
        if (l < lo) lo = l, blo = b;
        if (h > hi) hi = h, bhi = b;
    }
    const auto first = [&](std::size_t b, float v) {
        return static_cast<std::size_t>(std::find(t.begin() + b, t.end(), v) - t.begin());
    };
    e.min_t = lo;
    e.max_t = hi;
    e.min_index = mt.topo.representative[first(blo, lo)];
    e.max_index = mt.topo.representative[first(bhi, hi)];
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

    void begin(const TensionRunInfo& run, const std::vector<TensionMeshView>& meshes) override {
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
    TensionRunInfo run_;
    std::vector<TensionMeshView> meshes_;
};

}  // namespace

std::unique_ptr<TensionSink> make_tension_csv(OutputFile& out) { return std::make_unique<CsvSink>(out); }

}  // namespace rigscope
