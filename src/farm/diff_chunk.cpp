#include "rigscope/farm/diff_chunk.h"

#include <algorithm>
#include <charconv>

#include "rigscope/core/error.h"
#include "rigscope/farm/check_chunk.h"
#include "rigscope/io/json_keys.h"
#include "rigscope/io/json_text.h"
#include "rigscope/io/json_writer.h"
#include "rigscope/io/output.h"
#include "state_values.h"

namespace rigscope {

std::vector<std::pair<std::string, std::string>> diff_chunk_state(const DiffLimits& lim, const CheckRunInfo& run,
                                                                  const std::vector<DiffMesh>& meshes, const std::vector<DiffFrame>& frames) {
    namespace k = json_keys;
    std::string b;
    JsonWriter w(b);
    w.begin_object().key("max_displacement");
    if (lim.has_displacement) w.value(lim.max_displacement); else w.null();
    w.key("max_t_change");
    if (lim.has_t_change) w.value(lim.max_t_change); else w.null();
    w.member("worst", lim.worst).member(k::old_input, lim.old_file).member(k::new_input, lim.new_file).member("clip", lim.clip);
    w.key("not_judged").begin_array();
    for (const std::string& n : lim.not_judged) w.value(n);
    w.end_array();
    w.member("seams_checked", lim.seams_checked).key(k::frames).begin_array();
    for (const DiffFrame& f : frames) {
        w.begin_array().frame(f.frame);
        for (double x : {double(f.displacement), double(f.mesh), double(f.vertex), double(f.t_change), double(f.t_mesh), double(f.t_vertex)}) w.value(x);
        w.end_array();
    }
    w.end_array().key(k::meshes).begin_array();
    for (const DiffMesh& e : meshes) {
        const std::size_t n = e.displacement.size();
        w.begin_object().member(k::name, e.name).member("diagonal", e.diagonal).key("regions").begin_array();
        for (const std::string& r : e.regions) w.value(r);
        w.end_array().number_array(k::vertex, n, [&](std::size_t i) { return e.vertex.empty() ? i : std::size_t(e.vertex[i]); });
        w.number_array("region", n, [&](std::size_t i) { return e.region[i]; });
        w.number_array("displacement", n, [&](std::size_t i) { return e.displacement[i]; }).key("displacement_frame").begin_array();
        for (std::size_t i = 0; i < n; ++i) w.frame(e.displacement_frame[i]);
        w.end_array().number_array("t_change", n, [&](std::size_t i) { return e.t_change[i]; }).key("t_change_frame").begin_array();
        for (std::size_t i = 0; i < n; ++i) w.frame(e.t_change_frame[i]);
        // Torn seams as [vertex, other, gap, frame]: merge keeps each pair's widest gap.
        w.end_array().key("seams").begin_array();
        for (const SeamTear& t : e.seams) {
            w.begin_array().value(double(t.vertex)).value(double(t.other)).value(double(t.gap));
            w.frame(t.frame).end_array();
        }
        w.end_array().end_object();
    }
    w.end_array().end_object();
    return {{"diff", std::move(b)}, {"run", run_info_state(run)}};
}

namespace {

[[noreturn]] void bad_state(const ChunkRecord& r, const std::string& problem) { rigscope::bad_state(r, "diff", problem); }

template <typename T>
T number(const ChunkRecord& r, std::string_view s) {
    return state_number<T>(r, "diff", s);
}

Frame frame_of(const ChunkRecord& r, std::string_view s) { return state_frame(r, "diff", s); }

// The limits and names each chunk records (every chunk of a run the same; the last one's kept).
void read_limits(const StateMembers& top, DiffLimits& lim) {
    const ChunkRecord& r = top.r;
    const std::string_view s = top.s;
    // Both keys looked up before either value is read.
    const std::string_view md = top.text("max_displacement"), mt = top.text("max_t_change");
    state_limit(r, "diff", md, lim.has_displacement, lim.max_displacement);
    state_limit(r, "diff", mt, lim.has_t_change, lim.max_t_change);
    lim.worst = number<int>(r, top.text("worst"));
    lim.old_file = json_text::string_value(s, top.get("old"));
    lim.new_file = json_text::string_value(s, top.get("new"));
    lim.clip = json_text::string_value(s, top.get("clip"));
    lim.not_judged.clear();
    for (const json_text::Span& n : json_text::elements(s, top.get("not_judged"))) lim.not_judged.push_back(json_text::string_value(s, n));
    if (const json_text::Member* sc = json_text::find(top.members, "seams_checked")) lim.seams_checked = sc->value.of(s) == "true";
}

// A chunk's frames (their worst displacement and T change), appended: chunks come in frame order.
void read_frames(const StateMembers& top, std::vector<DiffFrame>& frames) {
    const ChunkRecord& r = top.r;
    const std::string_view s = top.s;
    for (const json_text::Span& f : json_text::elements(s, top.get("frames"))) {
        const auto e = json_text::elements(s, f);
        if (e.size() != 7) bad_state(r, "a frame entry without 7 values");
        DiffFrame d;
        d.frame = frame_of(r, e[0].of(s));
        d.displacement = number<float>(r, e[1].of(s));
        d.mesh = number<std::uint32_t>(r, e[2].of(s));
        d.vertex = number<std::uint32_t>(r, e[3].of(s));
        d.t_change = number<float>(r, e[4].of(s));
        d.t_mesh = number<std::uint32_t>(r, e[5].of(s));
        d.t_vertex = number<std::uint32_t>(r, e[6].of(s));
        frames.push_back(d);
    }
}

// A mesh's torn seams of a chunk: each pair keeps its widest gap over the chunks.
void merge_seams(const StateMembers& mm, DiffMesh& e) {
    const json_text::Member* sm = json_text::find(mm.members, "seams");
    if (!sm) return;
    const ChunkRecord& r = mm.r;
    const std::string_view s = mm.s;
    for (const json_text::Span& t : json_text::elements(s, sm->value)) {
        const auto f = json_text::elements(s, t);
        if (f.size() != 4) bad_state(r, "a seam entry without 4 values");
        SeamTear tear{number<std::uint32_t>(r, f[0].of(s)), number<std::uint32_t>(r, f[1].of(s)), number<float>(r, f[2].of(s)), frame_of(r, f[3].of(s))};
        auto it = std::find_if(e.seams.begin(), e.seams.end(), [&](const SeamTear& x) { return x.vertex == tear.vertex && x.other == tear.other; });
        if (it == e.seams.end()) e.seams.push_back(tear);
        else if (tear.gap > it->gap) *it = tear;
    }
}

// The first chunk with frames of a mesh: its name, diagonal and regions, and room for n vertices.
void start_mesh(const StateMembers& mm, std::size_t n, DiffMesh& e) {
    e.name = json_text::string_value(mm.s, mm.get("name"));
    e.diagonal = number<double>(mm.r, mm.text("diagonal"));
    for (const json_text::Span& name : json_text::elements(mm.s, mm.get("regions"))) e.regions.push_back(json_text::string_value(mm.s, name));
    e.vertex.resize(n);
    e.region.resize(n);
    e.displacement.resize(n);
    e.displacement_frame.resize(n);
    e.t_change.resize(n);
    e.t_change_frame.resize(n);
}

// One mesh's extremes of a chunk merged into `e`: the first chunk with frames sets the vertices
// and their regions; after it, the first chunk to reach an extreme keeps it, as the first frame
// does in one run.
void merge_mesh(const ChunkRecord& r, std::string_view s, json_text::Span mesh, DiffMesh& e) {
    const StateMembers mm{r, "diff", s, json_text::members(s, mesh)};
    auto arr = [&](const char* key) { return json_text::elements(s, mm.get(key)); };
    const auto vertex = arr("vertex"), region = arr("region"), disp = arr("displacement"), dispf = arr("displacement_frame"), dt = arr("t_change"),
               dtf = arr("t_change_frame");
    for (const auto* a : {&vertex, &region, &dispf, &dt, &dtf})
        if (a->size() != disp.size()) bad_state(r, "a mesh whose lists differ in length");
    if (disp.empty()) return;  // a chunk without frames
    merge_seams(mm, e);
    const bool first = e.displacement.empty();
    if (first) start_mesh(mm, disp.size(), e);
    else if (e.displacement.size() != disp.size()) bad_state(r, "another vertex count than chunk 0's");
    for (std::size_t v = 0; v < disp.size(); ++v) {
        const float dv = number<float>(r, disp[v].of(s)), tv = number<float>(r, dt[v].of(s));
        if (first) {
            e.vertex[v] = number<std::uint32_t>(r, vertex[v].of(s));
            e.region[v] = number<std::uint32_t>(r, region[v].of(s));
            if (e.region[v] >= e.regions.size()) bad_state(r, "a region index out of range");
        }
        if (first || dv > e.displacement[v]) {
            e.displacement[v] = dv;
            e.displacement_frame[v] = frame_of(r, dispf[v].of(s));
        }
        if (first || std::fabs(tv) > std::fabs(e.t_change[v])) {
            e.t_change[v] = tv;
            e.t_change_frame[v] = frame_of(r, dtf[v].of(s));
        }
    }
}

}  // namespace

void merge_diff_chunks(const std::vector<ChunkRecord>& chunks, DiffLimits& lim, std::vector<DiffMesh>& all, std::vector<DiffFrame>& frames) {
    all.clear();
    frames.clear();
    read_chunk_states(chunks, "diff", "missing (not a diff --chunk record)", [&](const ChunkRecord& r, std::string_view s) {
        const StateMembers top{r, "diff", s, json_text::members(s, json_text::document(s))};
        read_limits(top, lim);
        read_frames(top, frames);
        const auto meshes = json_text::elements(s, top.get("meshes"));
        // The mesh count is chunk 0's.
        if (&r == &chunks.front()) all.resize(meshes.size());
        if (all.size() != meshes.size()) bad_state(r, "another number of meshes than chunk 0's");
        for (std::size_t m = 0; m < meshes.size(); ++m) merge_mesh(r, s, meshes[m], all[m]);
    });
    for (const DiffFrame& f : frames)
        if (f.mesh >= std::max<std::size_t>(all.size(), 1) || f.t_mesh >= std::max<std::size_t>(all.size(), 1))
            throw bad_input(chunks.front().record_path, "diff state: a frame's mesh index out of range");
}

}  // namespace rigscope
