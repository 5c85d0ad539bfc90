#include "rigscope/io/check_report.h"

#include <algorithm>
#include <charconv>
#include <cstdio>

#include "rigscope/io/json_text.h"
#include "rigscope/core/error.h"
#include "rigscope/io/output.h"
#include "rigscope/io/tension_output.h"

namespace rigscope {

namespace {

struct Violation {
    std::string mesh;
    std::size_t mesh_index;
    const std::uint32_t* ids;  // the file vertices it stands for
    std::size_t id_count;
    Frame frame;
    float t;
};

std::string degrees(double d) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+g", d);
    return buf;
}

// "joint 'Bone' axis X at +45 deg": the sweep a ROM frame belongs to and its angle there.
std::string rom_note(const RomPlan& plan, const Frame& f) {
    const RomSweep* s = f.bind ? nullptr : rom_sweep_at(plan, f.number);
    if (!s) return "";
    return "joint '" + s->joint + "' axis " + rom_axis_name(s->axis) + " at " + degrees(rom_angle_at(plan, *s, static_cast<double>(f.number))) +
           " deg";
}

// Every file id the welded vertex stands for, so that each can be found in the file (the CSV
// output has a row per file vertex); in a ROM run, the joint, axis and angle its frame sweeps.
std::string describe(const Violation& v, const CheckRom* rom) {
    std::string s = "mesh '" + v.mesh + "' file " + (v.id_count == 1 ? "vertex " : "vertices ");
    for (std::size_t i = 0; i < v.id_count; ++i) {
        if (i) s += ", ";
        s += std::to_string(v.ids[i]);
    }
    if (v.id_count > 1) s += " (one welded vertex)";
    s += " frame ";
    append_frame(s, v.frame, false);
    if (const std::string note = rom ? rom_note(rom->plan, v.frame) : ""; !note.empty()) s += " (" + note + ")";
    s += ": T = ";
    append_number(s, v.t);
    return s;
}

std::string counted(const std::vector<Violation>& list) {
    std::size_t files = 0;
    for (const Violation& v : list) files += v.id_count;
    auto n = [](std::size_t k, const char* one, const char* many) { return std::to_string(k) + (k == 1 ? one : many); };
    return n(list.size(), " welded vertex (", " welded vertices (") + n(files, " file vertex)", " file vertices)") + " past the limit";
}

// For a ROM run, one line per run of consecutive failing frames within a sweep:
// "ROM frames 6..10: joint 'Bone' axis X (+40 to +60 deg)", "ROM frame 12: ... (-60 deg)".
std::string rom_failures(const CheckRom& rom) {
    std::string out;
    std::size_t i = 0;
    const std::vector<Frame>& frames = rom.frames;
    while (i < frames.size()) {
        const Frame& f = frames[i];
        const RomSweep* s = f.bind ? nullptr : rom_sweep_at(rom.plan, f.number);
        if (!rom.failed[i] || !s) {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j + 1 < frames.size() && rom.failed[j + 1] && !frames[j + 1].bind && rom_sweep_at(rom.plan, frames[j + 1].number) == s) ++j;
        double lo = 0, hi = 0;
        for (std::size_t k = i; k <= j; ++k) {
            const double a = rom_angle_at(rom.plan, *s, static_cast<double>(frames[k].number));
            if (k == i || a < lo) lo = a;
            if (k == i || a > hi) hi = a;
        }
        std::string span = (j == i ? "frame " : "frames ") + std::to_string(f.number);
        if (j != i) span += ".." + std::to_string(frames[j].number);
        out += "ROM " + span + ": joint '" + s->joint + "' axis " + rom_axis_name(s->axis) + " (" +
               (lo == hi ? degrees(lo) : degrees(lo) + " to " + degrees(hi)) + " deg)\n";
        i = j + 1;
    }
    return out;
}

void append_frame_json(std::string& b, const Frame& f) {
    if (f.bind) b += "\"bind\"";
    else append_number(b, f.number);
}

[[noreturn]] void bad_state(const ChunkRecord& r, const std::string& problem) {
    throw bad_input(r.record_path, "check state: " + problem);
}

template <typename T>
T number(const ChunkRecord& r, std::string_view s) {
    T v{};
    auto res = std::from_chars(s.data(), s.data() + s.size(), v);
    if (res.ec != std::errc() || res.ptr != s.data() + s.size()) bad_state(r, "'" + std::string(s) + "' is not a number");
    return v;
}

Frame frame_of(const ChunkRecord& r, std::string_view s) {
    if (s == "\"bind\"") return Frame{true, 0, 0.0};
    return Frame{false, number<long>(r, s), 0.0};
}

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

}  // namespace

void set_file_ids(CheckMeshExtremes& e, const std::vector<std::uint32_t>& welded_of, std::size_t welded) {
    // Counting sort by welded vertex: file ids stay ascending within each.
    e.file_offsets.assign(welded + 1, 0);
    for (std::uint32_t w : welded_of) ++e.file_offsets[w + 1];
    for (std::size_t w = 0; w < welded; ++w) e.file_offsets[w + 1] += e.file_offsets[w];
    e.file_ids.resize(welded_of.size());
    std::vector<std::uint32_t> next(e.file_offsets.begin(), e.file_offsets.end() - 1);
    for (std::size_t v = 0; v < welded_of.size(); ++v) e.file_ids[next[welded_of[v]]++] = static_cast<std::uint32_t>(v);
}

std::string junit_class_name(const std::string& file, const std::string& mesh, std::size_t mesh_index) {
    return "rigscope.check." + junit_stem(file) + "." + junit_class_part(mesh.empty() ? "mesh_" + std::to_string(mesh_index) : mesh);
}

CheckOutcome check_outcome(const CheckLimits& opt, const CheckRunInfo& run, const std::vector<CheckMeshExtremes>& meshes, const CheckRom* rom) {
    std::vector<Violation> stretched, compressed;
    for (std::size_t m = 0; m < meshes.size(); ++m) {
        const CheckMeshExtremes& e = meshes[m];
        for (std::size_t w = 0; w < e.lo_t.size(); ++w) {
            const std::uint32_t* ids = e.file_ids.data() + e.file_offsets[w];
            const std::size_t count = e.file_offsets[w + 1] - e.file_offsets[w];
            if (opt.has_stretch && e.lo_t[w] < opt.max_stretch) stretched.push_back({e.name, m, ids, count, e.lo_frame[w], e.lo_t[w]});
            if (opt.has_compress && e.hi_t[w] > opt.max_compress) compressed.push_back({e.name, m, ids, count, e.hi_frame[w], e.hi_t[w]});
        }
    }
    // Stable: equal T keep the order of meshes and welded vertices.
    std::stable_sort(stretched.begin(), stretched.end(), [](const auto& a, const auto& b) { return a.t < b.t; });
    std::stable_sort(compressed.begin(), compressed.end(), [](const auto& a, const auto& b) { return a.t > b.t; });
    const std::size_t worst = static_cast<std::size_t>(opt.worst);

    auto limit_text = [&](bool stretch) {
        std::string n;
        append_number(n, stretch ? opt.max_stretch : opt.max_compress);
        return n;
    };

    CheckOutcome o;
    auto section = [&](bool stretch, const std::vector<Violation>& list, bool active) {
        if (!active) return;
        o.report += (stretch ? "stretch limit T < " : "compress limit T > ") + limit_text(stretch) + ": " + counted(list) + "\n";
        for (std::size_t i = 0; i < list.size() && i < worst; ++i) o.report += "  " + describe(list[i], rom) + "\n";
    };
    section(true, stretched, opt.has_stretch);
    section(false, compressed, opt.has_compress);
    o.failed = !stretched.empty() || !compressed.empty();
    o.report += o.failed ? "FAIL\n" : "PASS\n";
    if (rom) o.report += rom_failures(*rom);

    // One test case per mesh and limit, so that CI servers show which mesh failed.
    JUnitSuite suite;
    suite.name = junit_stem(opt.file);
    suite.package = "rigscope.check";
    suite.properties.emplace_back("input", opt.file);
    if (opt.has_stretch) suite.properties.emplace_back("max_stretch", limit_text(true));
    if (opt.has_compress) suite.properties.emplace_back("max_compress", limit_text(false));
    for (std::size_t m = 0; m < meshes.size(); ++m)
        for (int k = 0; k < 2; ++k) {
            const bool stretch = k == 0;
            if (!(stretch ? opt.has_stretch : opt.has_compress)) continue;
            std::vector<Violation> mine;
            for (const Violation& v : stretch ? stretched : compressed)
                if (v.mesh_index == m) mine.push_back(v);
            JUnitCase c;
            c.classname = junit_class_name(opt.file, meshes[m].name, m);
            c.name = (stretch ? "stretch T < " : "compress T > ") + limit_text(stretch);
            c.failed = !mine.empty();
            if (c.failed) {
                c.type = stretch ? "rigscope.check.stretch" : "rigscope.check.compress";
                c.message = counted(mine);
                // A ROM run's CI page shows the message first: name where the worst one bends.
                if (const std::string note = rom ? rom_note(rom->plan, mine.front().frame) : ""; !note.empty()) {
                    c.message += "; the worst at frame ";
                    append_frame(c.message, mine.front().frame, false);
                    c.message += ": " + note;
                }
                for (std::size_t i = 0; i < mine.size() && i < worst; ++i) c.text += describe(mine[i], rom) + "\n";
            }
            suite.cases.push_back(std::move(c));
        }
    suite.system_out = o.report;
    o.junit = junit_xml(suite, run);
    return o;
}

std::vector<std::pair<std::string, std::string>> check_chunk_state(const CheckLimits& opt, const CheckRunInfo& run,
                                                                   const std::vector<CheckMeshExtremes>& meshes, const CheckRom* rom) {
    std::string b = "{\"max_stretch\":";
    if (opt.has_stretch) append_number(b, opt.max_stretch); else b += "null";
    b += ",\"max_compress\":";
    if (opt.has_compress) append_number(b, opt.max_compress); else b += "null";
    b += ",\"worst\":";
    append_number(b, opt.worst);
    b += ",\"file\":";
    append_json_string(b, opt.file);
    auto list = [&](const char* key, std::size_t n, auto item) { append_json_list(b, key, n, item); };
    b += ",\"rom\":";
    if (rom) {
        const RomPlan& p = rom->plan;
        b += "{\"angle_deg\":";
        append_number(b, p.angle_deg);
        b += ",\"frames_per_sweep\":";
        append_number(b, p.frames_per_sweep);
        list("sweeps", p.sweeps.size(), [&](std::size_t i) {
            const RomSweep& w = p.sweeps[i];
            b += '[';
            append_json_string(b, w.joint);
            for (long x : {long(w.axis), w.first, w.last}) {
                b += ',';
                append_number(b, x);
            }
            b += ']';
        });
        list("frames", rom->frames.size(), [&](std::size_t i) {
            b += '[';
            append_frame_json(b, rom->frames[i]);
            b += rom->failed[i] ? ",1]" : ",0]";
        });
        b += '}';
    } else {
        b += "null";
    }
    b += ",\"meshes\":[";
    for (std::size_t m = 0; m < meshes.size(); ++m) {
        const CheckMeshExtremes& e = meshes[m];
        b += m ? ",{\"name\":" : "{\"name\":";
        append_json_string(b, e.name);
        const std::size_t n = e.lo_t.size();
        list("file_ids", n, [&](std::size_t i) {
            b += '[';
            for (std::uint32_t k = e.file_offsets[i]; k < e.file_offsets[i + 1]; ++k) {
                if (k != e.file_offsets[i]) b += ',';
                append_number(b, e.file_ids[k]);
            }
            b += ']';
        });
        list("lo_t", n, [&](std::size_t i) { append_number(b, e.lo_t[i]); });
        list("lo_frame", n, [&](std::size_t i) { append_frame_json(b, e.lo_frame[i]); });
        list("hi_t", n, [&](std::size_t i) { append_number(b, e.hi_t[i]); });
        list("hi_frame", n, [&](std::size_t i) { append_frame_json(b, e.hi_frame[i]); });
        b += '}';
    }
    b += "]}";
    return {{"check", std::move(b)}, {"run", run_info_state(run)}};
}

CheckOutcome merge_check_chunks(const std::vector<ChunkRecord>& chunks) {
    CheckLimits limits;
    CheckRom rom;
    bool has_rom = false;
    std::vector<CheckMeshExtremes> all;
    for (const ChunkRecord& r : chunks) {
        const std::string* state = nullptr;
        for (const auto& [kind, text] : r.state)
            if (kind == "check") state = &text;
        if (!state) bad_state(r, "missing (not a check --chunk record)");
        const std::string_view s = *state;
        try {
            const auto top = json_text::members(s, json_text::document(s));
            auto get = [&](const char* key) {
                const json_text::Member* m = json_text::find(top, key);
                if (!m) bad_state(r, std::string("no '") + key + "'");
                return m->value;
            };
            const std::string_view st = get("max_stretch").of(s), co = get("max_compress").of(s);
            limits.has_stretch = st != "null";
            limits.has_compress = co != "null";
            if (limits.has_stretch) limits.max_stretch = number<double>(r, st);
            if (limits.has_compress) limits.max_compress = number<double>(r, co);
            limits.worst = number<int>(r, get("worst").of(s));
            limits.file = json_text::string_value(s, get("file"));
            const json_text::Span rom_value = get("rom");
            if (&r == &chunks.front()) has_rom = rom_value.of(s) != "null";
            if (has_rom != (rom_value.of(s) != "null")) bad_state(r, has_rom ? "no ROM frames, as chunk 0 has" : "ROM frames, which chunk 0 has not");
            if (has_rom) read_rom(r, s, rom_value, rom, &r == &chunks.front());
            const auto meshes = json_text::elements(s, get("meshes"));
            if (all.empty()) all.resize(meshes.size());
            if (all.size() != meshes.size()) bad_state(r, "another number of meshes than chunk 0's");
            for (std::size_t m = 0; m < meshes.size(); ++m) {
                const auto mm = json_text::members(s, meshes[m]);
                auto arr = [&](const char* key) {
                    const json_text::Member* v = json_text::find(mm, key);
                    if (!v) bad_state(r, std::string("a mesh without '") + key + "'");
                    return json_text::elements(s, v->value);
                };
                const auto vertex = arr("file_ids"), lo_t = arr("lo_t"), lo_f = arr("lo_frame"), hi_t = arr("hi_t"), hi_f = arr("hi_frame");
                CheckMeshExtremes& e = all[m];
                const json_text::Member* name = json_text::find(mm, "name");
                if (!name) bad_state(r, "a mesh without a name");
                e.name = json_text::string_value(s, name->value);
                if (vertex.empty()) continue;  // a chunk without frames
                for (const auto* a : {&lo_t, &lo_f, &hi_t, &hi_f})
                    if (a->size() != vertex.size()) bad_state(r, "a mesh whose lists differ in length");
                // The first chunk to reach an extreme keeps it, as the first frame does in one run.
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
                        for (const json_text::Span& id : json_text::elements(s, vertex[w]))
                            e.file_ids.push_back(number<std::uint32_t>(r, id.of(s)));
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
        } catch (const json_text::SyntaxError& e) {
            bad_state(r, e.what());
        }
    }
    return check_outcome(limits, merged_run_info(chunks), all, has_rom ? &rom : nullptr);
}

}  // namespace rigscope
