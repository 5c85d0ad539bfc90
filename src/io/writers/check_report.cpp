#include "rigscope/io/check_report.h"
#include "rigscope/io/intersection_report.h"

#include "rigscope/io/json_keys.h"
#include "rigscope/io/json_writer.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>

#include "rigscope/io/json_text.h"
#include "rigscope/core/error.h"
#include "rigscope/io/output.h"
#include "rigscope/io/tension_output.h"

namespace rigscope {

namespace {

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
std::string describe(const CheckFailure& f, const std::vector<CheckMeshExtremes>& meshes, const CheckRom* rom, const char* value) {
    const CheckMeshExtremes& e = meshes[f.mesh];
    const std::uint32_t* ids = e.file_ids.data() + e.file_offsets[f.welded];
    const std::size_t id_count = e.file_offsets[f.welded + 1] - e.file_offsets[f.welded];
    std::string s = "mesh '" + e.name + "' file " + (id_count == 1 ? "vertex " : "vertices ");
    for (std::size_t i = 0; i < id_count; ++i) {
        if (i) s += ", ";
        s += std::to_string(ids[i]);
    }
    if (id_count > 1) s += " (one welded vertex)";
    s += " frame ";
    append_frame(s, f.frame, false);
    if (const std::string note = rom ? rom_note(rom->plan, f.frame) : ""; !note.empty()) s += " (" + note + ")";
    s += std::string(": ") + value + " = ";
    append_number(s, f.value);
    return s;
}

std::string counted(std::size_t welded, std::size_t files) {
    auto n = [](std::size_t k, const char* one, const char* many) { return std::to_string(k) + (k == 1 ? one : many); };
    return n(welded, " welded vertex (", " welded vertices (") + n(files, " file vertex)", " file vertices)") + " past the limit";
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

}  // namespace

CheckMeshExtremes check_mesh_extremes(const std::string& name, const VertexTensionExtremes& extremes, std::size_t m,
                                      const std::vector<std::uint32_t>& welded_of, const std::vector<Frame>& frames) {
    CheckMeshExtremes e;
    e.name = name;
    if (!extremes.seen(m)) return e;
    const std::size_t n = extremes.min[m].size();
    set_file_ids(e, welded_of, n);
    e.lo_t = extremes.min[m];
    e.hi_t = extremes.max[m];
    // Folded without a rest start, every extreme has its frame.
    for (std::size_t w = 0; w < n; ++w) {
        e.lo_frame.push_back(frames.at(extremes.min_at[m][w]));
        e.hi_frame.push_back(frames.at(extremes.max_at[m][w]));
    }
    return e;
}

void set_file_ids(CheckMeshExtremes& e, const std::vector<std::uint32_t>& welded_of, std::size_t welded) {
    // Counting sort by welded vertex: file ids stay ascending within each.
    e.file_offsets.assign(welded + 1, 0);
    for (std::uint32_t w : welded_of) ++e.file_offsets[w + 1];
    for (std::size_t w = 0; w < welded; ++w) e.file_offsets[w + 1] += e.file_offsets[w];
    e.file_ids.resize(welded_of.size());
    std::vector<std::uint32_t> next(e.file_offsets.begin(), e.file_offsets.end() - 1);
    for (std::size_t v = 0; v < welded_of.size(); ++v) e.file_ids[next[welded_of[v]]++] = static_cast<std::uint32_t>(v);
}

std::string junit_class_name(const CheckLimits& limits, const std::string& mesh, std::size_t mesh_index) {
    return junit_case_class("check", limits.file, limits.relpath, limits.clip, mesh, mesh_index);
}

namespace {

// How each limit is named in the text, the JUnit report and the JSON (CheckLimitKind's order).
struct LimitNames {
    const char* header;    // "stretch limit T <"
    const char* case_name; // "stretch T <"
    const char* type;      // JUnit failure type
    const char* property;  // JUnit property, JSON "limit"
    const char* value;     // "T", "lambda_max"
};

const LimitNames& names_of(CheckLimitKind kind) {
    static const LimitNames names[] = {
        {"stretch limit T <", "stretch T <", "rigscope.check.stretch", "max_stretch", "T"},
        {"compress limit T >", "compress T >", "rigscope.check.compress", "max_compress", "T"},
        {"lambda_max limit >", "lambda_max >", "rigscope.check.max_lambda", "max_lambda", "lambda_max"},
        {"lambda_min limit <", "lambda_min <", "rigscope.check.min_lambda", "min_lambda", "lambda_min"},
    };
    return names[static_cast<int>(kind)];
}

}  // namespace

const char* check_limit_key(CheckLimitKind kind) { return names_of(kind).property; }

namespace {

std::string limit_text(const CheckLimitVerdict& l) {
    std::string n;
    append_number(n, l.limit);
    return n;
}

}  // namespace

std::vector<CheckListedFailure> check_listed_failures(const CheckVerdict& verdict, const std::vector<CheckMeshExtremes>& meshes,
                                                      const CheckRom* rom) {
    std::vector<CheckListedFailure> out;
    const std::size_t worst = static_cast<std::size_t>(verdict.given.worst);
    for (const CheckLimitVerdict& l : verdict.limits)
        for (std::size_t i = 0; i < std::min(worst, l.failures.size()); ++i) {
            const CheckFailure& f = l.failures[i];
            const CheckMeshExtremes& e = meshes[f.mesh];
            const RomSweep* sweep = rom && !f.frame.bind ? rom_sweep_at(rom->plan, f.frame.number) : nullptr;
            out.push_back(CheckListedFailure{names_of(l.kind).property, names_of(l.kind).value, &f, &e,
                                             e.file_ids.data() + e.file_offsets[f.welded],
                                             e.file_offsets[f.welded + 1] - e.file_offsets[f.welded], sweep,
                                             sweep ? rom_angle_at(rom->plan, *sweep, static_cast<double>(f.frame.number)) : 0.0});
        }
    return out;
}

namespace {

// A clip's lines before its PASS/FAIL: per limit its count and worst vertices.
std::string limit_lines(const CheckVerdict& verdict, const std::vector<CheckMeshExtremes>& meshes, const CheckRom* rom) {
    const std::size_t worst = static_cast<std::size_t>(verdict.given.worst);
    std::string out;
    for (const CheckLimitVerdict& l : verdict.limits) {
        const LimitNames& n = names_of(l.kind);
        out += std::string(n.header) + " " + limit_text(l) + ": " + counted(l.failures.size(), l.file_vertices) + "\n";
        for (std::size_t i = 0; i < l.failures.size() && i < worst; ++i) out += "  " + describe(l.failures[i], meshes, rom, n.value) + "\n";
    }
    if (!verdict.evaluated) out += "nothing checked: no frame of any mesh was evaluated\n";
    return out;
}

// One test case per mesh and limit of a clip, so that CI servers show which clip and mesh failed.
void clip_cases(JUnitSuite& suite, const CheckVerdict& verdict, const std::vector<CheckMeshExtremes>& meshes, const CheckRom* rom) {
    const CheckLimits& opt = verdict.given;
    const std::size_t worst = static_cast<std::size_t>(opt.worst);
    if (!verdict.evaluated) {
        JUnitCase c;
        // The clip's class: its package is the file's path, as the meshes' are.
        const std::string mesh_class = junit_class_name(opt, "", 0);
        c.classname = mesh_class.substr(0, mesh_class.rfind('.'));
        c.name = "frames evaluated";
        c.failed = true;
        c.type = "rigscope.check.nothing_checked";
        c.message = "no frame of any mesh was evaluated: nothing checked";
        suite.cases.push_back(std::move(c));
    }
    for (std::size_t m = 0; m < meshes.size(); ++m)
        for (const CheckLimitVerdict& l : verdict.limits) {
            const LimitNames& n = names_of(l.kind);
            std::vector<const CheckFailure*> mine;
            std::size_t files = 0;
            for (const CheckFailure& f : l.failures)
                if (f.mesh == m) {
                    mine.push_back(&f);
                    files += meshes[m].file_offsets[f.welded + 1] - meshes[m].file_offsets[f.welded];
                }
            JUnitCase c;
            c.classname = junit_class_name(opt, meshes[m].name, m);
            c.name = std::string(n.case_name) + " " + limit_text(l);
            c.failed = !mine.empty();
            if (c.failed) {
                c.type = n.type;
                c.message = counted(mine.size(), files);
                // A ROM run's CI page shows the message first: name where the worst one bends.
                if (const std::string note = rom ? rom_note(rom->plan, mine.front()->frame) : ""; !note.empty()) {
                    c.message += "; the worst at frame ";
                    append_frame(c.message, mine.front()->frame, false);
                    c.message += ": " + note;
                }
                for (std::size_t i = 0; i < mine.size() && i < worst; ++i) c.text += describe(*mine[i], meshes, rom, n.value) + "\n";
            }
            suite.cases.push_back(std::move(c));
        }
}

// A clip's "meshes" and "limits" members: every limit with its counts and worst vertices, as the
// text lists them.
void clip_json(JsonWriter& j, const CheckVerdict& verdict, const std::vector<CheckMeshExtremes>& meshes, const CheckRom* rom) {
    namespace jk = json_keys;
    const std::vector<CheckListedFailure> listed = check_listed_failures(verdict, meshes, rom);
    j.key(jk::meshes).begin_array();
    for (const auto& m : meshes) j.value(m.name);
    j.end_array().key("limits").begin_array();
    std::size_t next = 0;
    for (const CheckLimitVerdict& l : verdict.limits) {
        const LimitNames& n = names_of(l.kind);
        j.begin_object().member("limit", n.property).member("value", l.limit).member(jk::measure, n.value);
        j.member("welded_vertices", l.failures.size()).member("file_vertices", l.file_vertices).key("worst").begin_array();
        for (; next < listed.size() && listed[next].limit == n.property; ++next) {
            const CheckListedFailure& v = listed[next];
            j.begin_object().member(jk::mesh, v.mesh->name).member("mesh_index", v.failure->mesh);
            j.number_array(jk::vertices, v.id_count, [&](std::size_t c) { return v.ids[c]; });
            j.key(jk::frame).frame(v.failure->frame).member("value", v.failure->value);
            if (v.sweep) j.member("joint", v.sweep->joint).member("axis", rom_axis_name(v.sweep->axis)).member("angle_deg", v.angle_deg);
            j.end_object();
        }
        j.end_array().end_object();
    }
    j.end_array();
}

// --max-volume-loss (issue 59): where a volume failed, "mesh 'Body' joint 'Elbow' at frame 24".
std::string volume_where(const VolumeLossVerdict& v, const VolumeLossFailure& f) {
    const VolumeSeries& s = v.series[f.series];
    std::string w = "mesh '" + s.mesh + "' " + (s.region == "*" ? std::string("(whole mesh)") : "joint '" + s.region + "'") + " at frame ";
    append_frame(w, v.frames[f.frame], false);
    return w;
}

std::string volume_failure_text(const VolumeLossVerdict& v, const VolumeLossFailure& f) {
    return volume_where(v, f) + ": ratio " + number_text(f.ratio) + ", loss " + number_text(f.loss);
}

std::string volume_limit_text(const VolumeLossVerdict& v) { return "1 - ratio <= " + number_text(v.limit); }

// The verdict's lines, as the limits' are written.
std::string volume_lines(const VolumeLossVerdict& v, std::size_t worst) {
    const std::size_t judged = v.series.size() - v.unjudged;
    std::string s = "volume loss limit " + volume_limit_text(v) + ": " + std::to_string(v.failures.size()) + " of " + std::to_string(judged) +
                    " volumes (closed meshes and joint regions) over " + std::to_string(v.frames.size()) + " frames fail";
    if (v.unjudged) s += "; " + std::to_string(v.unjudged) + " without a bind measure to divide by, not judged";
    if (judged == 0 || v.frames.empty()) s += "; nothing judged";
    s += "\n";
    for (std::size_t i = 0; i < v.failures.size() && i < worst; ++i) s += "  " + volume_failure_text(v, v.failures[i]) + "\n";
    return s;
}

// Its own test case per clip, named "volume loss ...", in the clip's class.
JUnitCase volume_case(const CheckLimits& opt, const VolumeLossVerdict& v, std::size_t worst) {
    JUnitCase c;
    const std::string mesh_class = junit_class_name(opt, "", 0);
    c.classname = mesh_class.substr(0, mesh_class.rfind('.'));
    c.name = "volume loss " + volume_limit_text(v);
    c.failed = v.failed();
    if (!c.failed) return c;
    c.type = "rigscope.check.volume_loss";
    if (v.failures.empty()) {
        c.message = "no volume judged: no frame, or no closed mesh or joint region with a bind measure";
        return c;
    }
    c.message = std::to_string(v.failures.size()) + " volumes lose more than " + number_text(v.limit) + "; the worst " +
                volume_failure_text(v, v.failures.front());
    for (std::size_t i = 0; i < v.failures.size() && i < worst; ++i) c.text += volume_failure_text(v, v.failures[i]) + "\n";
    return c;
}

void volume_json(JsonWriter& j, const VolumeLossVerdict& v) {
    j.key("volume").begin_object().member("limit", v.limit).member("passed", !v.failed());
    j.member("judged", static_cast<unsigned long>(v.series.size() - v.unjudged)).member("unjudged", static_cast<unsigned long>(v.unjudged));
    j.key("failures").begin_array();
    for (const VolumeLossFailure& f : v.failures) {
        const VolumeSeries& s = v.series[f.series];
        j.begin_object().member(json_keys::mesh, s.mesh).member("region", s.region).key(json_keys::frame).frame(v.frames[f.frame]);
        j.member("ratio", f.ratio).member("loss", f.loss).end_object();
    }
    j.end_array().end_object();
}

std::string name_list(const std::vector<std::string>& names) {
    std::string s;
    for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
    return s;
}

// What the three forms of a check's verdict (text, JUnit, JSON) are written from.
struct OutcomeParts {
    const std::vector<CheckClipReport>& clips;
    std::size_t worst_clip;
    bool failed;
    const std::vector<std::string>& not_judged;
    const LintResult* lint;
    const IntersectionVerdict* intersections;
    std::vector<std::string> judged;  // the clips judged, by name

    const CheckClipReport& top() const { return clips[worst_clip]; }
    const CheckLimits& opt() const { return top().verdict->given; }
    std::size_t worst() const { return static_cast<std::size_t>(opt().worst); }
};

// lint's text without its own PASS/FAIL line: the one verdict line of check covers both.
std::string lint_lines(const LintResult& lint, std::size_t worst) {
    std::string text = lint_text(lint, worst);
    for (const char* v : {"PASS\n", "FAIL\n"})
        if (text.size() >= 5 && text.compare(text.size() - 5, 5, v) == 0) text.resize(text.size() - 5);
    return text;
}

// Each clip's limit lines (under its name when there are several), then the clips' count.
std::string clips_text(const OutcomeParts& p) {
    const bool several = p.clips.size() > 1;
    std::string report;
    std::vector<std::string> failing;
    for (const CheckClipReport& c : p.clips) {
        const std::string& name = c.verdict->given.clip;
        if (c.failed()) failing.push_back(name);
        if (several) report += "clip '" + name + "':\n";
        report += limit_lines(*c.verdict, *c.meshes, c.rom);
        if (c.volume) report += volume_lines(*c.volume, p.worst());
        if (several) report += c.failed() ? "FAIL\n" : "PASS\n";
    }
    if (several)
        report += "clips: " + std::to_string(p.clips.size()) + " judged, " + std::to_string(failing.size()) + " fail" +
                  (failing.empty() ? "" : ": " + name_list(failing)) + "\n";
    return report;
}

// The text check prints: the clips, lint's and the intersections' lines, the verdict line, then
// the ROM sweeps' failures.
std::string outcome_text(const OutcomeParts& p) {
    std::string report = clips_text(p);
    if (p.lint) report += lint_lines(*p.lint, p.worst());
    if (p.intersections) report += intersection_text(*p.intersections);
    // A run that left clips out says so on its verdict line: a PASS covers the clips it names.
    const std::size_t judged = p.judged.size();
    const std::string coverage = p.not_judged.empty() ? ""
                                                      : std::to_string(judged) + " of " + std::to_string(judged + p.not_judged.size()) +
                                                            " clips judged: " + name_list(p.judged) + "; not judged: " + name_list(p.not_judged);
    report += std::string(p.failed ? "FAIL" : "PASS") + (coverage.empty() ? "" : " (" + coverage + ")") + "\n";
    for (const CheckClipReport& c : p.clips)
        if (c.rom) report += rom_failures(*c.rom);
    return report;
}

// A clip left out is a skipped case of its own class, so a CI page shows what the PASS does
// not cover.
JUnitCase skipped_clip_case(const CheckLimits& opt, const std::string& name, const std::vector<std::string>& judged) {
    CheckLimits other = opt;
    other.clip = name;
    const std::string mesh_class = junit_class_name(other, "", 0);
    JUnitCase c;
    c.classname = mesh_class.substr(0, mesh_class.rfind('.'));
    c.name = "clip judged";
    c.skipped = true;
    c.message = "not judged: --clip chose " + name_list(judged) + " (--clip all judges every clip)";
    return c;
}

// The JUnit document: the run's limits as properties, a case per limit and mesh of each clip,
// the skipped clips, lint's and the intersections' cases; the text as its system-out.
std::string outcome_junit(const OutcomeParts& p, const std::string& report, const CheckRunInfo& run) {
    const CheckLimits& opt = p.opt();
    JUnitSuite suite;
    suite.name = junit_stem(opt.file);
    suite.package = "rigscope.check";
    suite.properties.emplace_back("input", opt.file);
    for (const CheckLimitVerdict& l : p.top().verdict->limits) suite.properties.emplace_back(names_of(l.kind).property, limit_text(l));
    suite.properties.emplace_back("clips", name_list(p.judged));
    if (!p.not_judged.empty()) suite.properties.emplace_back("clips_not_judged", name_list(p.not_judged));
    if (p.top().volume) suite.properties.emplace_back("max_volume_loss", number_text(p.top().volume->limit));
    for (const CheckClipReport& c : p.clips) {
        clip_cases(suite, *c.verdict, *c.meshes, c.rom);
        if (c.volume) suite.cases.push_back(volume_case(c.verdict->given, *c.volume, p.worst()));
    }
    for (const std::string& name : p.not_judged) suite.cases.push_back(skipped_clip_case(opt, name, p.judged));
    if (p.lint)
        for (JUnitCase& c : lint_junit_cases(*p.lint, p.worst(), opt.relpath.empty() ? std::filesystem::path(opt.file).filename().string() : opt.relpath))
            suite.cases.push_back(std::move(c));
    if (p.intersections) suite.cases.push_back(intersection_junit_case(*p.intersections, opt.file, opt.relpath));
    suite.system_out = report;
    return junit_xml(suite, run);
}

// The same verdict for a machine (check --json, Python's Session.check): the worst clip's
// limits at the top (one clip: its own), every clip's in "clips".
std::string outcome_json(const OutcomeParts& p) {
    const CheckLimits& opt = p.opt();
    bool evaluated = true;
    for (const CheckClipReport& c : p.clips) evaluated = evaluated && c.verdict->evaluated;
    std::string out;
    JsonWriter j(out);
    j.begin_object();
    write_json_header(j, "check", opt.file);
    j.member("passed", !p.failed).member("evaluated", evaluated).member("worst", opt.worst);
    clip_json(j, *p.top().verdict, *p.top().meshes, p.top().rom);
    if (p.top().volume) volume_json(j, *p.top().volume);
    j.member("clip", opt.clip).key("clips").begin_array();
    for (const CheckClipReport& c : p.clips) {
        j.begin_object().member("clip", c.verdict->given.clip).member("passed", !c.failed()).member("evaluated", c.verdict->evaluated);
        clip_json(j, *c.verdict, *c.meshes, c.rom);
        if (c.volume) volume_json(j, *c.volume);
        j.end_object();
    }
    j.end_array().key("not_judged").begin_array();
    for (const std::string& n : p.not_judged) j.value(n);
    j.end_array();
    if (p.lint) {
        std::string l = lint_json(*p.lint);
        while (!l.empty() && l.back() == '\n') l.pop_back();
        j.key("lint").raw(l);
    }
    if (p.intersections) j.key("intersections").raw(intersection_json(*p.intersections));
    j.end_object();
    out += '\n';
    return out;
}

}  // namespace

CheckOutcome check_outcome(const CheckVerdict& verdict, const CheckRunInfo& run, const std::vector<CheckMeshExtremes>& meshes, const CheckRom* rom,
                           const LintResult* lint) {
    return check_clips_outcome({CheckClipReport{&verdict, &meshes, rom}}, 0, verdict.failed() || (lint && lint->failed()), {}, run, lint);
}

CheckOutcome check_clips_outcome(const std::vector<CheckClipReport>& clips, std::size_t worst_clip, bool failed,
                                 const std::vector<std::string>& not_judged, const CheckRunInfo& run, const LintResult* lint,
                                 const IntersectionVerdict* intersections) {
    if (clips.empty() || worst_clip >= clips.size()) throw internal_error("check: a verdict over no clip");
    OutcomeParts parts{clips, worst_clip, failed, not_judged, lint, intersections, {}};
    for (const CheckClipReport& c : clips) parts.judged.push_back(c.verdict->given.clip);
    CheckOutcome o;
    o.failed = failed;
    o.report = outcome_text(parts);
    o.junit = outcome_junit(parts, o.report, run);
    o.json = outcome_json(parts);
    return o;
}

}  // namespace rigscope
