#include "bake_calls.h"

#include <pybind11/stl.h>

#include "arrays.h"
#include "progress_callback.h"
#include "rigscope/run/bake_job.h"
#include "rigscope/run/regions_job.h"
#include "session.h"

namespace rigscope_python {

using namespace rigscope;

struct BakeCalls {
    // The images run_bake keeps (no -o): per mesh, float32 (frames, size, size), row 0 first as
    // the CLI's files hold them.
    static py::object bake(Session& s, const TensionArgs& args, BakeJobOptions opt, const py::object& progress) {
        std::lock_guard<std::recursive_mutex> lock(s.mutex_);
        Session::Selection sel(s, args.frames);
        opt.tension = s.tension_options(args);
        opt.validate();
        const std::size_t nf = s.in_.frames.size();
        s.check_budget("bake()", 4.0 * double(opt.size) * double(opt.size) * double(nf) * double(s.in_.meshes.size()), nf, "");
        BakeJobResult r;
        {
            py::gil_scoped_release release;
            r = run_bake(opt, s.in_, python_progress(progress));
        }
        const std::size_t channels = std::size_t(r.channels);
        const std::size_t n = std::size_t(opt.size) * std::size_t(opt.size) * channels;
        std::vector<std::vector<float>> per_mesh_data(r.meshes.size(), std::vector<float>(nf * n));
        for (const BakeImage& img : r.images)
            std::copy(img.texels.begin(), img.texels.end(), per_mesh_data[img.mesh].begin() + std::ptrdiff_t(img.frame * n));
        std::vector<py::object> arrays;
        std::vector<std::string> names;
        for (std::size_t m = 0; m < r.meshes.size(); ++m) {
            names.push_back(r.meshes[m].name);
            std::vector<py::ssize_t> shape{py::ssize_t(nf), py::ssize_t(opt.size), py::ssize_t(opt.size)};
            if (channels > 1) shape.push_back(py::ssize_t(channels));  // the colour map: (frames, size, size, 3)
            arrays.push_back(owned_array(std::move(per_mesh_data[m]), shape));
        }
        return per_mesh(names, arrays);
    }

    // regions(): frames, (mesh, region) pairs and float64 values (frames, regions).
    static py::object regions(Session& s, const TensionArgs& args, RegionsJobOptions opt, const py::object& progress) {
        std::lock_guard<std::recursive_mutex> lock(s.mutex_);
        Session::Selection sel(s, args.frames);
        opt.tension = s.tension_options(args);
        opt.out.clear();
        opt.validate();
        RegionsJobResult r;
        {
            py::gil_scoped_release release;
            r = run_regions(opt, s.in_, python_progress(progress));
        }
        std::vector<double> values;
        values.reserve(r.frames.size() * r.regions.size());
        for (const auto& row : r.values) values.insert(values.end(), row.begin(), row.end());
        py::list regions;
        for (const Region& reg : r.regions) regions.append(py::make_tuple(r.mesh_names[reg.mesh], reg.name));
        py::dict d;
        d["frames"] = frame_labels(r.frames);
        d["times"] = frame_times(r.frames);
        d["regions"] = regions;
        d["values"] = owned_array(std::move(values), {py::ssize_t(r.frames.size()), py::ssize_t(r.regions.size())});
        return namespace_of(d);
    }
};

void add_bake_calls(py::module_& m) {
    py::object cls = m.attr("Session");
    const BakeJobOptions b;
    auto bake = [](Session& s, std::optional<std::string> frames, const std::string& map, int size, int padding,
                   std::optional<std::pair<double, double>> range, std::optional<std::string> uv, const std::string& color,
                   RIGSCOPE_TENSION_PARAMS const py::object& progress) {
        BakeJobOptions opt;
        opt.map = map;
        opt.color = color;
        opt.size = size;
        opt.padding = padding;
        opt.range = range;
        opt.uv = uv.value_or("");
        return BakeCalls::bake(s, TensionArgs{{RIGSCOPE_TENSION_KEYWORDS_OF}, frames, std::nullopt}, opt, progress);
    };
    cls.attr("bake") = py::cpp_function(
        bake, py::name("bake"), py::is_method(cls), py::sibling(py::getattr(cls, "bake", py::none())), py::kw_only(),
        py::arg("frames") = py::none(), py::arg("map") = b.map, py::arg("size") = b.size, py::arg("padding") = b.padding,
        py::arg("range") = py::none(), py::arg("uv") = py::none(), py::arg("color") = b.color, RIGSCOPE_TENSION_PYARGS
        py::arg("progress") = py::none(),
        "The map baked into each mesh's UV space, as `rigscope bake` writes it (after range=(lo, hi)): float32 (frames, size, size), "
        "map=\"color\" (frames, size, size, 3) with color=\"maps\" or \"t\"; "
        "row 0 first (glTF: v = 0; FBX, USD: v = 1)");
    auto regions = [](Session& s, std::optional<std::string> frames, const std::string& by, const std::string& map,
                      RIGSCOPE_TENSION_PARAMS const py::object& progress) {
        RegionsJobOptions opt;
        opt.by = by;
        opt.map = map;
        return BakeCalls::regions(s, TensionArgs{{RIGSCOPE_TENSION_KEYWORDS_OF}, frames, std::nullopt}, opt, progress);
    };
    const RegionsJobOptions r;
    cls.attr("regions") = py::cpp_function(
        regions, py::name("regions"), py::is_method(cls), py::sibling(py::getattr(cls, "regions", py::none())), py::kw_only(),
        py::arg("frames") = py::none(), py::arg("by") = r.by, py::arg("map") = r.map, RIGSCOPE_TENSION_PYARGS py::arg("progress") = py::none(),
        "Per frame and region the weighted mean of the map, as `rigscope regions`: frames, times, regions [(mesh, region)], "
        "values float64 (frames, regions)");
}

}  // namespace rigscope_python
