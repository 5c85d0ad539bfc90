// A loaded file and what Python calls on it: rigscope.load() returns a Session, whose methods run
// the run layer's evaluations (deform, tension, rivets, drive) with the CLI's options and messages.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "rigscope/core/frames.h"
#include "rigscope/core/parallel.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/rivet.h"
#include "rigscope/core/tension_map.h"
#include "rigscope/run/clip_select.h"
#include "rigscope/run/input.h"
#include "rigscope/run/tension_run.h"
#include "path_args.h"
#include "tension_keywords.h"

namespace rigscope_python {

namespace py = pybind11;
using rigscope::Frame;
using rigscope::Input;
using rigscope::InputOptions;
using rigscope::MeshTension;
using rigscope::Pose;
using rigscope::TensionOptions;
using rigscope::TensionRunInfo;
using rigscope::ThreadPool;

// The keyword arguments of tension() and iter_tension(), as the CLI's options: the tension
// keywords (tension_keywords.h, check() and report() take them too), frames and auto_range.
struct TensionArgs : TensionKeywords {
    std::optional<std::string> frames;
    std::optional<double> auto_range;
};

class Session {
public:
    friend struct SessionCalls;  // check_calls.cpp: the rig-CI jobs on the session's input
    explicit Session(InputOptions opt);
    // load()'s reference keywords, the defaults of the calls that evaluate T.
    void set_reference(std::optional<std::string> file, std::optional<std::string> match, std::optional<double> scale) {
        reference_ = std::move(file);
        reference_match_ = std::move(match);
        reference_scale_ = scale;
    }

    const std::string& file() const { return opt_.file; }

    py::object info() const;
    // The file's reader warnings as (kind, message) tuples (core/warning.h): info()["warnings"]
    // holds the same messages, RigscopeWarning shows them as they are logged.
    py::list warnings() const;

    py::object deform(const std::optional<std::string>& frames, const py::object& progress);

    py::object tension(const TensionArgs& args, const py::object& progress);

    py::object rivets(const std::vector<std::uint32_t>& ids, const std::optional<std::string>& joint,
                      const std::optional<std::string>& frames, bool bake, const py::object& progress);

    // `rigscope volume`'s rows as arrays (run/volume_job.h).
    py::object volume(const std::optional<std::string>& frames, const py::object& progress);

    py::object drive(const std::optional<std::string>& rig_path, const std::optional<std::string>& frames, const py::object& progress);

    // Streaming: one frame at a time, constant memory.
    class TensionFrames {
    public:
        TensionFrames(std::shared_ptr<Session> s, const TensionArgs& args);

        py::object next();

    private:
        std::shared_ptr<Session> s_;
        std::vector<Frame> frames_;
        std::vector<MeshTension> meshes_;
        TensionRunInfo run_;
        Pose pose_;
        std::unique_ptr<ThreadPool> pool_;
        std::size_t next_ = 0;
    };

private:
    friend struct LintCalls;  // Session.lint(), bound in lint_calls.cpp
    friend struct IntersectCalls;  // Session.intersect(), bound in intersect_calls.cpp
    friend struct BakeCalls;  // Session.bake() and regions(), bound in bake_calls.cpp

    // The session's frames for one call (--frames; None: the clip's), restored afterwards.
    struct Selection {
        Session& s;
        std::vector<Frame> saved;
        Selection(Session& session, const std::optional<std::string>& spec) : s(session), saved(session.in_.frames) {
            s.one_clip();
            s.in_.frames = select_frames(s.in_, spec.value_or(""), s.clip_file());
        }
        Selection(Session& session, const std::vector<Frame>& frames) : s(session), saved(session.in_.frames) { s.in_.frames = frames; }
        ~Selection() { s.in_.frames = std::move(saved); }
    };

    py::object baked(const std::vector<std::uint32_t>& vertices, const std::vector<std::vector<rigscope::BakedTransform>>& frames);

    TensionOptions tension_options(const TensionArgs& a) const;

    std::string clip_file() const { return opt_.animation.empty() ? opt_.file : opt_.animation; }
    // clip="all" (issue 57) is for check(), which judges every clip in turn; a call that
    // evaluates one clip (tension, deform, rivet, report, ...) refuses it rather than take the first.
    void one_clip() const;

public:
    // clip= of a call that evaluates one clip (issue 57; tension, rivets): None: the session's
    // clip; NAME or an index: that clip for this call; "all": {clip name: the call's result} over
    // every clip of the file, in the file's order. The session's clip is put back afterwards.
    template <typename F>
    py::object for_clips(const std::optional<std::string>& clip, F&& call);

private:
    std::size_t vertex_count(std::size_t i) const { return in_.scene.meshes[in_.meshes[i]].vertex_count(); }
    double total_vertices() const;

    void check_budget(const char* call, double bytes, std::size_t frames, const char* or_else) const;

    std::vector<std::size_t> vertex_counts() const;
    std::vector<std::string> names() const;

    InputOptions opt_;
    // load()'s reference=, reference_match=, reference_scale=: what tension() (and the calls
    // that evaluate T) use where their own keywords say nothing.
    std::optional<std::string> reference_, reference_match_;
    std::optional<double> reference_scale_;
    Input in_;
    // Calls release the GIL: one evaluation of a session at a time. Recursive: a call made for
    // each clip (for_clips) holds it across the calls it makes.
    std::recursive_mutex mutex_;
    bool clip_chosen_ = false;  // inside for_clips: the call's clip= chose the clip, not load()'s
};

// Adds rigscope.load() to the module: the CLI's input options as keywords; returns a Session.
void add_load_call(py::module_& m);

template <typename F>
py::object Session::for_clips(const std::optional<std::string>& clip, F&& call) {
    if (!clip) return py::object(call());
    std::lock_guard<std::recursive_mutex> lock(mutex_);
    rigscope::InputOptions o = opt_;
    o.clip = given(clip, "clip=");
    const rigscope::ClipPlan plan = rigscope::plan_clips(in_, o, false);
    rigscope::ClipRestore restore(in_);
    struct Chosen {
        bool& flag;
        bool was;
        explicit Chosen(bool& f) : flag(f), was(f) { flag = true; }
        ~Chosen() { flag = was; }
    } chosen(clip_chosen_);
    if (o.clip != rigscope::kAllClips) {
        rigscope::use_clip(in_, opt_, plan.indices.front());
        return py::object(call());
    }
    py::dict out;
    for (std::size_t k = 0; k < plan.indices.size(); ++k) {
        rigscope::use_clip(in_, opt_, plan.indices[k]);
        out[py::str(plan.names[k])] = call();
    }
    return std::move(out);
}

}  // namespace rigscope_python
