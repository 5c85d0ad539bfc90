#include "rigscope/farm/check_chunk.h"

#include <charconv>
#include <cmath>
#include <limits>

#include <optional>

#include "rigscope/core/error.h"
#include "rigscope/io/json_keys.h"
#include "rigscope/io/json_text.h"
#include "rigscope/io/json_writer.h"
#include "rigscope/io/output.h"
#include "state_values.h"

namespace rigscope {

namespace {

[[noreturn]] void bad_state(const ChunkRecord& r, const std::string& problem) { rigscope::bad_state(r, "check", problem); }

template <typename T>
T number(const ChunkRecord& r, std::string_view s) {
    return state_number<T>(r, "check", s);
}

Frame frame_of(const ChunkRecord& r, std::string_view s) { return state_frame(r, "check", s); }

// A chunk's ROM sweeps (taken from the first chunk: every chunk of a run has the same) and its
// frames with their verdicts, appended: chunks come in frame order.
void read_rom(const ChunkRecord& r, std::string_view s, json_text::Span value, CheckRom& rom, bool first) {
    const auto top = json_text::members(s, value);
    auto get = [&](const char* key) {
        const json_text::Member* m = json_text::find(top, key);
        if (!m) bad_state(r, std::string("ROM frames without '") + key + "'");
        return m->value;
    };
    if (first) {
        rom.plan.angle_deg = number<double>(r, get("angle_deg").of(s));
        rom.plan.frames_per_sweep = number<int>(r, get("frames_per_sweep").of(s));
        if (rom.plan.frames_per_sweep <= 0) bad_state(r, "ROM frames per sweep not positive");
        for (const json_text::Span& w : json_text::elements(s, get("sweeps"))) {
            const auto e = json_text::elements(s, w);
            if (e.size() != 4) bad_state(r, "a ROM sweep without 4 values");
            const int axis = number<int>(r, e[1].of(s));
            if (axis < 0 || axis > 2) bad_state(r, "a ROM axis out of range");
            rom.plan.sweeps.push_back(RomSweep{-1, axis, number<long>(r, e[2].of(s)), number<long>(r, e[3].of(s)), json_text::string_value(s, e[0])});
        }
    }
    for (const json_text::Span& f : json_text::elements(s, get("frames"))) {
        const auto e = json_text::elements(s, f);
        if (e.size() != 2) bad_state(r, "a ROM frame without 2 values");
        rom.frames.push_back(frame_of(r, e[0].of(s)));
        rom.failed.push_back(number<int>(r, e[1].of(s)) != 0);
    }
}

// A chunk's volume ratios (check_chunk_state's "volume"): chunk 0 sets the limit and the series,
// every chunk appends its frames and each series' ratios.
void read_volume(const ChunkRecord& r, std::string_view s, json_text::Span value, VolumeLossVerdict& v, bool first) {
    const auto top = json_text::members(s, value);
    auto get = [&](const auto& members, const char* key) {
        const json_text::Member* m = json_text::find(members, key);
        if (!m) bad_state(r, std::string("volume ratios without '") + key + "'");
        return m->value;
    };
    const double limit = number<double>(r, get(top, "limit").of(s));
    if (first) v.limit = limit;
    else if (limit != v.limit) bad_state(r, "another volume loss limit than chunk 0's");
    const std::size_t before = v.frames.size();
    for (const json_text::Span& f : json_text::elements(s, get(top, "frames"))) v.frames.push_back(frame_of(r, f.of(s)));
    const auto series = json_text::elements(s, get(top, "series"));
    if (first) v.series.resize(series.size());
    if (series.size() != v.series.size()) bad_state(r, "another number of volumes than chunk 0's");
    for (std::size_t i = 0; i < series.size(); ++i) {
        const auto m = json_text::members(s, series[i]);
        const std::string mesh = json_text::string_value(s, get(m, "mesh")), region = json_text::string_value(s, get(m, "region"));
        VolumeSeries& out = v.series[i];
        if (first) {
            out.mesh = mesh;
            out.region = region;
        } else if (mesh != out.mesh || region != out.region) {
            bad_state(r, "volume '" + mesh + "' '" + region + "' where chunk 0 has '" + out.mesh + "' '" + out.region + "'");
        }
        for (const json_text::Span& x : json_text::elements(s, get(m, "ratios"))) {
            const std::string_view t = x.of(s);
            out.ratios.push_back(t == "null" ? std::numeric_limits<double>::quiet_NaN() : number<double>(r, t));
        }
        if (out.ratios.size() != v.frames.size()) bad_state(r, "volume ratios for " + std::to_string(out.ratios.size() - before) + " frames, not " +
                                                               std::to_string(v.frames.size() - before));
    }
}

// A chunk's intersection verdict (check_chunk_state's "intersections") added to `v`: counts
// summed, its worst taken where it has more pairs than the chunks before (chunks in frame order).
void read_intersections(const ChunkRecord& r, std::string_view s, json_text::Span value, IntersectionVerdict& v, bool first) {
    const auto top = json_text::members(s, value);
    auto get = [&](const char* key) {
        const json_text::Member* m = json_text::find(top, key);
        if (!m) bad_state(r, std::string("intersections without '") + key + "'");
        return m->value;
    };
    const std::size_t limit = number<std::size_t>(r, get("limit").of(s));
    if (first) v.limit = limit;
    else if (limit != v.limit) bad_state(r, "another intersection limit than chunk 0's");
    v.frames += number<std::size_t>(r, get("frames").of(s));
    v.frames_over += number<std::size_t>(r, get("frames_over").of(s));
    const std::size_t pairs = number<std::size_t>(r, get("pairs").of(s));
    if (pairs == 0 || pairs <= v.pairs) return;
    v.clip = json_text::string_value(s, get("clip"));
    v.frame = frame_of(r, get("frame").of(s));
    v.pairs = pairs;
    v.meshes.clear();
    for (const json_text::Span& m : json_text::elements(s, get("meshes"))) v.meshes.push_back(json_text::string_value(s, m));
    v.joint = json_text::string_value(s, get("joint"));
    v.joint_pairs = number<std::size_t>(r, get("joint_pairs").of(s));
}

}  // namespace

std::vector<std::pair<std::string, std::string>> check_chunk_state(const CheckLimits& opt, const CheckRunInfo& run,
                                                                   const std::vector<CheckMeshExtremes>& meshes, const CheckRom* rom,
                                                                   const std::vector<std::string>& not_judged,
                                                                   const VolumeLossVerdict* volume, const IntersectionVerdict* intersections) {
    std::string b;
    JsonWriter w(b);
    auto maybe = [&](const char* key, bool has, double v) {
        w.key(key);
        if (has) w.value(v); else w.null();
    };
    w.begin_object();
    maybe("max_stretch", opt.has_stretch, opt.max_stretch);
    maybe("max_compress", opt.has_compress, opt.max_compress);
    maybe("max_lambda", opt.has_max_lambda, opt.max_lambda);
    maybe("min_lambda", opt.has_min_lambda, opt.min_lambda);
    // The clip a chunk's frames belong to, and the file's clips the run left out (issue 57):
    // the merge's reports name them as one run's do.
    w.member("worst", opt.worst).member("file", opt.file).member("clip", opt.clip).key("not_judged").begin_array();
    for (const std::string& n : not_judged) w.value(n);
    w.end_array().key("rom");
    if (rom) {
        const RomPlan& p = rom->plan;
        w.begin_object().member("angle_deg", p.angle_deg).member("frames_per_sweep", p.frames_per_sweep).key("sweeps").begin_array();
        for (const RomSweep& sw : p.sweeps) w.begin_array().value(sw.joint).value(long(sw.axis)).value(sw.first).value(sw.last).end_array();
        w.end_array().key(json_keys::frames).begin_array();
        for (std::size_t i = 0; i < rom->frames.size(); ++i) w.begin_array().frame(rom->frames[i]).value(rom->failed[i] ? 1 : 0).end_array();
        w.end_array().end_object();
    } else {
        w.null();
    }
    // --max-volume-loss: every ratio of the chunk's frames (a ratio too close to 0 to divide by,
    // NaN, as null), judged again by merge over all frames as one run judges its own.
    w.key("volume");
    if (volume) {
        w.begin_object().member("limit", volume->limit).key(json_keys::frames).begin_array();
        for (const Frame& f : volume->frames) w.frame(f);
        w.end_array().key("series").begin_array();
        for (const VolumeSeries& v : volume->series) {
            w.begin_object().member("mesh", v.mesh).member("region", v.region).key("ratios").begin_array();
            for (double r : v.ratios)
                if (std::isnan(r)) w.null();
                else w.value(r);
            w.end_array().end_object();
        }
        w.end_array().end_object();
    } else {
        w.null();
    }
    // --max-intersections: the chunk's frames counted and its worst, which merge adds up as one
    // run's frames go by (the first frame with the most pairs stays the worst).
    w.key("intersections");
    if (intersections) {
        const IntersectionVerdict& v = *intersections;
        w.begin_object().member("limit", static_cast<unsigned long>(v.limit)).member("frames", static_cast<unsigned long>(v.frames));
        w.member("frames_over", static_cast<unsigned long>(v.frames_over)).member("clip", v.clip).key("frame").frame(v.frame);
        w.member("pairs", static_cast<unsigned long>(v.pairs)).key("meshes").begin_array();
        for (const std::string& m : v.meshes) w.value(m);
        w.end_array().member("joint", v.joint).member("joint_pairs", static_cast<unsigned long>(v.joint_pairs)).end_object();
    } else {
        w.null();
    }
    w.key(json_keys::meshes).begin_array();
    for (const CheckMeshExtremes& e : meshes) {
        const std::size_t n = e.lo_t.size();
        w.begin_object().member(json_keys::name, e.name).key("file_ids").begin_array();
        for (std::size_t i = 0; i < n; ++i)
            w.number_array(e.file_offsets[i + 1] - e.file_offsets[i], [&](std::size_t k) { return e.file_ids[e.file_offsets[i] + k]; });
        w.end_array().number_array("lo_t", n, [&](std::size_t i) { return e.lo_t[i]; }).key("lo_frame").begin_array();
        for (std::size_t i = 0; i < n; ++i) w.frame(e.lo_frame[i]);
        w.end_array().number_array("hi_t", n, [&](std::size_t i) { return e.hi_t[i]; }).key("hi_frame").begin_array();
        for (std::size_t i = 0; i < n; ++i) w.frame(e.hi_frame[i]);
        w.end_array().end_object();
    }
    w.end_array().end_object();
    return {{"check", std::move(b)}, {"run", run_info_state(run)}};
}

namespace {

// What merge_check_chunks gathers from chunk to chunk, then judges once.
struct CheckMerge {
    CheckLimits limits;
    CheckRom rom;
    bool has_rom = false;
    std::vector<std::string> not_judged;
    std::vector<CheckMeshExtremes> all;
    std::optional<VolumeLossVerdict> volume;           // the chunks' ratios joined, frame by frame
    std::optional<IntersectionVerdict> intersections;  // the chunks' verdicts added up
};

// The limits and names each chunk records (every chunk of a run the same; the last one's kept).
void read_limits(const StateMembers& top, CheckLimits& limits) {
    const ChunkRecord& r = top.r;
    // Each pair's keys looked up before either value is read.
    const std::string_view st = top.text("max_stretch"), co = top.text("max_compress");
    state_limit(r, "check", st, limits.has_stretch, limits.max_stretch);
    state_limit(r, "check", co, limits.has_compress, limits.max_compress);
    const std::string_view ml = top.text("max_lambda"), nl = top.text("min_lambda");
    state_limit(r, "check", ml, limits.has_max_lambda, limits.max_lambda);
    state_limit(r, "check", nl, limits.has_min_lambda, limits.min_lambda);
    limits.worst = number<int>(r, top.text("worst"));
    limits.file = json_text::string_value(top.s, top.get("file"));
    limits.clip = json_text::string_value(top.s, top.get("clip"));
}

// The parts a run has or has not (--rom, --max-volume-loss, --max-intersections): chunk 0 says
// which, and every other chunk must agree. Chunk 0 also names the clips left out.
void read_sections(const StateMembers& top, bool first, CheckMerge& m) {
    const ChunkRecord& r = top.r;
    const std::string_view s = top.s;
    if (first)
        for (const json_text::Span& n : json_text::elements(s, top.get("not_judged"))) m.not_judged.push_back(json_text::string_value(s, n));
    const json_text::Span rom_value = top.get("rom");
    if (first) m.has_rom = rom_value.of(s) != "null";
    if (m.has_rom != (rom_value.of(s) != "null")) bad_state(r, m.has_rom ? "no ROM frames, as chunk 0 has" : "ROM frames, which chunk 0 has not");
    if (m.has_rom) read_rom(r, s, rom_value, m.rom, first);
    // An older record has no "volume": it judged none.
    const json_text::Member* vm = json_text::find(top.members, "volume");
    const bool has_volume = vm && vm->value.of(s) != "null";
    if (first && has_volume) m.volume.emplace();
    if (has_volume != m.volume.has_value()) bad_state(r, has_volume ? "volume ratios, which chunk 0 has not" : "no volume ratios, as chunk 0 has");
    if (has_volume) read_volume(r, s, vm->value, *m.volume, first);
    const json_text::Member* im = json_text::find(top.members, "intersections");
    const bool has_intersections = im && im->value.of(s) != "null";
    if (first && has_intersections) m.intersections.emplace();
    if (has_intersections != m.intersections.has_value())
        bad_state(r, has_intersections ? "intersections, which chunk 0 has not" : "no intersections, as chunk 0 has");
    if (has_intersections) read_intersections(r, s, im->value, *m.intersections, first);
}

// One mesh's extremes of a chunk merged into `e`: the first chunk with frames sets the welded
// vertices' file ids; after it, the first chunk to reach an extreme keeps it, as the first
// frame does in one run.
void merge_mesh(const ChunkRecord& r, std::string_view s, json_text::Span mesh, CheckMeshExtremes& e) {
    const StateMembers mm{r, "check", s, json_text::members(s, mesh), "a mesh without '"};
    auto arr = [&](const char* key) { return json_text::elements(s, mm.get(key)); };
    const auto vertex = arr("file_ids"), lo_t = arr("lo_t"), lo_f = arr("lo_frame"), hi_t = arr("hi_t"), hi_f = arr("hi_frame");
    const json_text::Member* name = json_text::find(mm.members, "name");
    if (!name) bad_state(r, "a mesh without a name");
    e.name = json_text::string_value(s, name->value);
    if (vertex.empty()) return;  // a chunk without frames
    for (const auto* a : {&lo_t, &lo_f, &hi_t, &hi_f})
        if (a->size() != vertex.size()) bad_state(r, "a mesh whose lists differ in length");
    const bool first = e.lo_t.empty();
    if (!first && e.lo_t.size() != vertex.size()) bad_state(r, "another vertex count than chunk 0's");
    if (first) {
        e.file_offsets.assign(1, 0);
        e.lo_t.resize(vertex.size());
        e.hi_t.resize(vertex.size());
        e.lo_frame.resize(vertex.size());
        e.hi_frame.resize(vertex.size());
    }
    for (std::size_t w = 0; w < vertex.size(); ++w) {
        const float lt = number<float>(r, lo_t[w].of(s)), ht = number<float>(r, hi_t[w].of(s));
        if (first) {
            for (const json_text::Span& id : json_text::elements(s, vertex[w])) e.file_ids.push_back(number<std::uint32_t>(r, id.of(s)));
            if (e.file_ids.size() == e.file_offsets.back()) bad_state(r, "a welded vertex without file ids");
            e.file_offsets.push_back(static_cast<std::uint32_t>(e.file_ids.size()));
        }
        if (first || lt < e.lo_t[w]) {
            e.lo_t[w] = lt;
            e.lo_frame[w] = frame_of(r, lo_f[w].of(s));
        }
        if (first || ht > e.hi_t[w]) {
            e.hi_t[w] = ht;
            e.hi_frame[w] = frame_of(r, hi_f[w].of(s));
        }
    }
}

// Every mesh of a chunk merged; the mesh count is chunk 0's.
void merge_meshes(const StateMembers& top, std::vector<CheckMeshExtremes>& all) {
    const auto meshes = json_text::elements(top.s, top.get("meshes"));
    if (all.empty()) all.resize(meshes.size());
    if (all.size() != meshes.size()) bad_state(top.r, "another number of meshes than chunk 0's");
    for (std::size_t m = 0; m < meshes.size(); ++m) merge_mesh(top.r, top.s, meshes[m], all[m]);
}

}  // namespace

CheckOutcome merge_check_chunks(const std::vector<ChunkRecord>& chunks) {
    CheckMerge m;
    read_chunk_states(chunks, "check", "missing (not a check --chunk record)", [&](const ChunkRecord& r, std::string_view s) {
        const StateMembers top{r, "check", s, json_text::members(s, json_text::document(s))};
        const bool first = &r == &chunks.front();
        read_limits(top, m.limits);
        read_sections(top, first, m);
        merge_meshes(top, m.all);
    });
    // Judged once on the merged extremes, as one run judges its own.
    const CheckVerdict verdict = judge_check(m.limits, m.all);
    std::optional<VolumeLossVerdict> judged_volume;
    if (m.volume) judged_volume = judge_volume_loss(m.volume->limit, std::move(m.volume->series), std::move(m.volume->frames));
    const CheckClipReport report{&verdict, &m.all, m.has_rom ? &m.rom : nullptr, judged_volume ? &*judged_volume : nullptr};
    const bool failed = report.failed() || (m.intersections && m.intersections->failed());
    return check_clips_outcome({report}, 0, failed, m.not_judged, merged_run_info(chunks), nullptr, m.intersections ? &*m.intersections : nullptr);
}

}  // namespace rigscope
