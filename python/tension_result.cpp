#include "tension_result.h"

#include <algorithm>

// Streaming stores where SSE exists; an ARM build (or RIGSCOPE_SIMD=OFF) takes the plain loop.
#if defined(__SSE2__) && !defined(RIGSCOPE_NO_SIMD)
#include <xmmintrin.h>
#define RIGSCOPE_STREAM_STORES 1
#endif

namespace rigscope_python {

using namespace rigscope;

py::object TensionResult::map(py::object& cached, bool compress) {
    if (!cached.is_none()) return cached;
    const auto src = source_.cast<py::array_t<float, py::array::c_style>>();
    const float* in = src.data();
    const std::size_t n = static_cast<std::size_t>(src.size());
    FloatArray out(n);
    {
        py::gil_scoped_release release;
        constexpr std::size_t kBlock = 1 << 16;
        float* o = out.data();
        ThreadPool pool(threads_);
        run_tasks(&pool, (n + kBlock - 1) / kBlock, [&](std::size_t b) {
            const std::size_t begin = b * kBlock, len = std::min(kBlock, n - begin);
            if (compress) remap_.compress(in + begin, len, o + begin);
            else remap_.stretch(in + begin, len, o + begin);
        });
    }
    cached = owned_array(std::move(out), std::vector<py::ssize_t>(src.shape(), src.shape() + src.ndim()));
    return cached;
}

namespace {

// T alone, through the welding. The run's arrays are written once and read by Python long
// after: streaming stores skip reading each cache line of the fresh array before writing it.
void take_t(const std::uint32_t* welded, const float* tw, float* pt, std::size_t begin, std::size_t end) {
    std::size_t v = begin;
#ifdef RIGSCOPE_STREAM_STORES
    for (; v < end && reinterpret_cast<std::uintptr_t>(pt + v) % 16; ++v) pt[v] = tw[welded[v]];
    for (; v + 4 <= end; v += 4)
        _mm_stream_ps(pt + v, _mm_setr_ps(tw[welded[v]], tw[welded[v + 1]], tw[welded[v + 2]], tw[welded[v + 3]]));
#endif
    for (; v < end; ++v) pt[v] = tw[welded[v]];
#ifdef RIGSCOPE_STREAM_STORES
    _mm_sfence();  // the streamed stores are visible before the pool reports the block done
#endif
}

// T and both maps by runs of vertices: T gathered through the welding, then each map in
// one vectorised loop.
void take_maps(const TensionRemap& remap, const std::uint32_t* welded, const float* tw, const float* tc,
               const float* ts, float* pt, float* pc, float* ps, std::size_t begin, std::size_t end) {
    constexpr std::size_t kRun = 512;
    float gc[kRun], gs[kRun];
    for (std::size_t v0 = begin; v0 < end; v0 += kRun) {
        const std::size_t n = std::min(kRun, end - v0);
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint32_t w = welded[v0 + i];
            pt[v0 + i] = tw[w];
            gc[i] = tc[w];
            gs[i] = ts[w];
        }
        remap.compress(gc, n, pc + v0);
        remap.stretch(gs, n, ps + v0);
    }
}

// One loop per kind of column, so that the maps' loop has no branch and vectorises.
void take_block(const MeshTension& mt, const TensionRemap& remap, TensionColumns::Mesh& c, std::size_t fi, std::size_t begin,
                std::size_t end) {
    const std::size_t nv = mt.topo.welded_of.size();
    const std::uint32_t* welded = mt.topo.welded_of.data();
    const float* tw = mt.t.data();
    const float* tc = mt.compress_t().data();
    const float* ts = mt.stretch_t().data();
    float* pt = c.t.data() + fi * nv;
    if (!c.compress.size()) {
        take_t(welded, tw, pt, begin, end);
    } else {
        take_maps(remap, welded, tw, tc, ts, pt, c.compress.data() + fi * nv, c.stretch.data() + fi * nv, begin, end);
    }
    if (mt.measure.measure == Measure::area) {
        float* pa = c.t_area.data() + fi * nv;
        for (std::size_t v = begin; v < end; ++v) pa[v] = mt.t_area[welded[v]];
    } else if (mt.measure.measure == Measure::principal) {
        float* pmax = c.lambda_max.data() + fi * nv;
        float* pmin = c.lambda_min.data() + fi * nv;
        float* pd = c.dir.data() + 3 * fi * nv;
        for (std::size_t v = begin; v < end; ++v) {
            const std::uint32_t w = welded[v];
            pmax[v] = mt.lambda_max[w];
            pmin[v] = mt.lambda_min[w];
            for (int k = 0; k < 3; ++k) pd[3 * v + k] = mt.compress_dir[3 * w + k];
        }
    }
}

}  // namespace

std::vector<std::pair<FloatArray TensionColumns::Mesh::*, std::size_t>> TensionColumns::arrays_of(Measure measure, bool lazy_maps) {
    std::vector<std::pair<FloatArray Mesh::*, std::size_t>> out = {{&Mesh::t, 1}};
    if (!lazy_maps || measure == Measure::principal) out.insert(out.end(), {{&Mesh::compress, 1}, {&Mesh::stretch, 1}});
    if (measure == Measure::area) out.push_back({&Mesh::t_area, 1});
    if (measure == Measure::principal) out.insert(out.end(), {{&Mesh::lambda_max, 1}, {&Mesh::lambda_min, 1}, {&Mesh::dir, 3}});
    return out;
}

std::size_t TensionColumns::floats_per_vertex(Measure measure, bool lazy_maps) {
    std::size_t n = 0;
    for (const auto& array : arrays_of(measure, lazy_maps)) n += array.second;
    return n;
}

void TensionColumns::reserve(const std::vector<std::size_t>& vertex_counts, Measure measure, std::size_t nf, bool lazy_maps) {
    frames = nf;
    meshes.clear();
    meshes.resize(vertex_counts.size());
    for (std::size_t m = 0; m < vertex_counts.size(); ++m)
        for (const auto& [array, floats] : arrays_of(measure, lazy_maps)) meshes[m].*array = FloatArray(floats * vertex_counts[m] * nf);
}

std::vector<std::pair<void*, std::size_t>> TensionColumns::ranges() {
    std::vector<std::pair<void*, std::size_t>> out;
    for (Mesh& c : meshes)
        for (FloatArray* a : {&c.t, &c.compress, &c.stretch, &c.t_area, &c.lambda_max, &c.lambda_min, &c.dir})
            if (a->size()) out.emplace_back(a->data(), a->size() * sizeof(float));
    return out;
}

void TensionColumns::take(const std::vector<MeshTension>& tension, const TensionRunInfo& run, std::size_t fi, ThreadPool* pool) {
    constexpr std::size_t kBlock = 16384;  // vertices per task; blocks write disjoint ranges
    const TensionRemap remap(run.range, run.params);
    for (std::size_t m = 0; m < tension.size(); ++m) {
        const MeshTension& mt = tension[m];
        const std::size_t nv = mt.topo.welded_of.size();
        const std::size_t blocks = (nv + kBlock - 1) / kBlock;
        auto block = [&](std::size_t b) { take_block(mt, remap, meshes[m], fi, b * kBlock, std::min(nv, (b + 1) * kBlock)); };
        run_tasks(pool, blocks, block);
    }
}

// Arrays shaped (frames, vertices) for a whole run, (vertices,) for one frame.
py::dict TensionColumns::fields(std::size_t m, const MeshTension& mt, bool one_frame) {
    const auto nv = static_cast<py::ssize_t>(mt.topo.welded_of.size());
    const auto nf = static_cast<py::ssize_t>(frames);
    auto shape = [&](std::vector<py::ssize_t> tail) {
        std::vector<py::ssize_t> s;
        if (!one_frame) s.push_back(nf);
        s.insert(s.end(), tail.begin(), tail.end());
        return s;
    };
    Mesh& c = meshes[m];
    py::dict d;
    d["t"] = owned_array(std::move(c.t), shape({nv}));
    if (c.compress.size()) {
        d["compress"] = owned_array(std::move(c.compress), shape({nv}));
        d["stretch"] = owned_array(std::move(c.stretch), shape({nv}));
    }
    const Measure measure = mt.measure.measure;
    if (measure == Measure::area) d["t_area"] = owned_array(std::move(c.t_area), shape({nv}));
    if (measure == Measure::principal) {
        d["lambda_max"] = owned_array(std::move(c.lambda_max), shape({nv}));
        d["lambda_min"] = owned_array(std::move(c.lambda_min), shape({nv}));
        d["compress_dir"] = owned_array(std::move(c.dir), shape({nv, 3}));
    }
    return d;
}

py::object TensionColumns::result(const Input& in, const std::vector<std::string>& names, const std::vector<MeshTension>& tension,
                                  const TensionRunInfo& run) {
    std::vector<py::object> out;
    for (std::size_t m = 0; m < tension.size(); ++m) {
        py::dict d = fields(m, tension[m], false);
        d["mesh"] = in.scene.meshes[tension[m].mesh].name;
        d["frames"] = frame_labels(in.frames);
        d["times"] = frame_times(in.frames);
        d["t_s"] = run.range.t_s;
        d["t_c"] = run.range.t_c;
        const bool lazy = !d.contains("compress");
        py::object source = py::none();
        if (lazy) source = d[tension[m].measure.measure == Measure::area ? "t_area" : "t"];
        if (lazy) source.attr("flags").attr("writeable") = false;
        py::object r = py::cast(TensionResult(source, TensionRemap(run.range, run.params), in.threads));
        if (!lazy) {
            r.cast<TensionResult&>().set_maps(d["compress"], d["stretch"]);
            PyDict_DelItemString(d.ptr(), "compress");
            PyDict_DelItemString(d.ptr(), "stretch");
        }
        for (auto item : d) py::setattr(r, item.first, item.second);
        out.push_back(r);
    }
    return per_mesh(names, out);
}

py::object TensionColumns::frame_result(const std::vector<std::string>& names, const std::vector<MeshTension>& tension) {
    std::vector<py::object> out;
    for (std::size_t m = 0; m < tension.size(); ++m) out.push_back(namespace_of(fields(m, tension[m], true)));
    return per_mesh(names, out);
}

}  // namespace rigscope_python
