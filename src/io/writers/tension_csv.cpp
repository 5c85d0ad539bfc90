#include <algorithm>
#include <charconv>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "rigscope/io/tension_output.h"
#include "row_blocks.h"

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
