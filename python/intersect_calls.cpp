#include "intersect_calls.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <map>

#include "arrays.h"
#include "progress_callback.h"
#include "rigscope/io/intersect_output.h"
#include "rigscope/run/intersect_job.h"
#include "session.h"

namespace rigscope_python {

using namespace rigscope;

namespace {

py::array_t<std::int64_t> int_array(const std::vector<std::int64_t>& v) {
    return py::array_t<std::int64_t>(static_cast<py::ssize_t>(v.size()), v.data());
}

}  // namespace

struct IntersectCalls {
    static py::object intersect(Session& s, const std::optional<std::string>& frames, const py::object& progress) {
        std::lock_guard<std::recursive_mutex> lock(s.mutex_);
        Session::Selection sel(s, frames);
        // The CLI's job, so both find the same pairs by construction.
        IntersectJobOptions job;
        job.input = s.opt_;
        job.input.chunk.clear();
        job.out.clear();
        job.validate();
        IntersectJobResult r;
        {
            py::gil_scoped_release release;
            r = run_intersect(job, s.in_, python_progress(progress));
        }
        // A row per pair as the CSV has them; meshes and joints as indices into the name lists.
        const Scene& scene = s.in_.scene;
        std::vector<std::int64_t> frame, mesh_a, face_a, mesh_b, face_b, joint, pairs;
        std::vector<double> length;
        std::map<int, std::size_t> mesh_index;
        for (std::size_t i = 0; i < r.meshes.size(); ++i) mesh_index[r.meshes[i]] = i;
        std::vector<std::string> joints;
        std::map<int, std::int64_t> joint_index;
        for (std::size_t fi = 0; fi < r.frames.size(); ++fi) {
            pairs.push_back(static_cast<std::int64_t>(r.frames[fi].pairs.size()));
            length.push_back(r.frames[fi].length);
            for (const FacePair& p : r.frames[fi].pairs) {
                frame.push_back(static_cast<std::int64_t>(fi));
                mesh_a.push_back(static_cast<std::int64_t>(mesh_index[static_cast<int>(p.mesh_a)]));
                face_a.push_back(p.face_a);
                mesh_b.push_back(static_cast<std::int64_t>(mesh_index[static_cast<int>(p.mesh_b)]));
                face_b.push_back(p.face_b);
                if (p.joint < 0) {
                    joint.push_back(-1);
                    continue;
                }
                auto [it, added] = joint_index.emplace(p.joint, static_cast<std::int64_t>(joints.size()));
                if (added) joints.push_back(intersect_joint_name(scene, p.joint));
                joint.push_back(it->second);
            }
        }
        py::dict d;
        d["frames"] = frame_labels(s.in_.frames);
        d["times"] = frame_times(s.in_.frames);
        std::vector<std::string> names;
        for (int m : r.meshes) names.push_back(scene.meshes[m].name);
        d["meshes"] = names;
        d["joints"] = joints;
        d["frame"] = int_array(frame);
        d["mesh_a"] = int_array(mesh_a);
        d["face_a"] = int_array(face_a);
        d["mesh_b"] = int_array(mesh_b);
        d["face_b"] = int_array(face_b);
        d["joint"] = int_array(joint);
        d["pairs"] = int_array(pairs);
        d["length"] = owned_array(std::move(length), {static_cast<py::ssize_t>(r.frames.size())});
        d["zero_area_triangles"] = r.zero_area_triangles;
        return std::move(d);
    }
};

void add_intersect_calls(py::module_& m) {
    py::object cls = m.attr("Session");
    cls.attr("intersect") = py::cpp_function(
        [](Session& s, const std::optional<std::string>& frames, const py::object& progress) { return IntersectCalls::intersect(s, frames, progress); },
        py::name("intersect"), py::is_method(cls), py::sibling(py::getattr(cls, "intersect", py::none())), py::kw_only(),
        py::arg("frames") = py::none(), py::arg("progress") = py::none(),
        "Faces that cross, per frame, as `rigscope intersect` finds them: a dict of int64 arrays a row per pair (frame: index "
        "into frames; mesh_a, mesh_b: into meshes; face_a, face_b; joint: into joints, -1 for none) and per frame pairs and length");
}

}  // namespace rigscope_python
