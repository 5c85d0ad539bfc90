#include "rigscope/io/diff_report.h"

#include <algorithm>
#include <filesystem>
#include <charconv>
#include <cstdlib>
#include <cmath>
#include <numeric>

#include "rigscope/io/json_keys.h"
#include "rigscope/io/json_text.h"
#include "rigscope/io/json_writer.h"
#include "rigscope/core/error.h"
#include "rigscope/io/output.h"
#include "rigscope/io/tension_output.h"

namespace rigscope {

namespace {

std::uint32_t file_vertex(const DiffMesh& m, std::uint32_t c) { return m.vertex.empty() ? c : m.vertex[c]; }

using VertexRef = DiffVertexRef;

// Nearest-rank percentile of sorted values (0 for none).
float percentile(const std::vector<float>& sorted, double p) {
    if (sorted.empty()) return 0;
    std::size_t rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(sorted.size())));
    rank = std::clamp<std::size_t>(rank, 1, sorted.size());
    return sorted[rank - 1];
}

std::string describe(const std::vector<DiffMesh>& meshes, const VertexRef& r, bool t) {
    const DiffMesh& m = meshes[r.mesh];
    std::string s = "mesh '" + m.name + "' vertex " + std::to_string(file_vertex(m, r.vertex)) + " (under '" + m.regions[m.region[r.vertex]] + "') frame ";
    append_frame(s, t ? m.t_change_frame[r.vertex] : m.displacement_frame[r.vertex], false);
    if (t) {
        s += ": change in T ";
        append_number(s, m.t_change[r.vertex]);
    } else {
        s += ": moved ";
        append_number(s, m.displacement[r.vertex]);
        s += " m (";
        append_number(s, m.diagonal > 0 ? m.displacement[r.vertex] / m.diagonal : 0.0);
        s += " of the diagonal)";
    }
    return s;
}

std::string describe_seam(const DiffMesh& m, const SeamTear& t) {
    std::string s = "mesh '" + m.name + "' vertices " + std::to_string(t.vertex) + " and " + std::to_string(t.other) +
                    ": seam torn (one vertex in OLD, apart in NEW) by ";
    append_number(s, t.gap);
    s += " m at frame ";
    append_frame(s, t.frame, false);
    return s;
}

struct Region {
    std::string name;
    std::size_t vertices = 0, changed = 0;
    float displacement = 0, t_change = 0;
};

// Regions over all meshes, by name: the largest displacement first, then name.
std::vector<Region> regions(const std::vector<DiffMesh>& meshes) {
    std::vector<Region> out;
    for (const DiffMesh& m : meshes)
        for (std::size_t v = 0; v < m.displacement.size(); ++v) {
            const std::string& name = m.regions[m.region[v]];
            auto it = std::find_if(out.begin(), out.end(), [&](const Region& r) { return r.name == name; });
            if (it == out.end()) {
                out.push_back(Region{name});
                it = out.end() - 1;
            }
            ++it->vertices;
            it->changed += m.displacement[v] > 0 || m.t_change[v] != 0;
            it->displacement = std::max(it->displacement, m.displacement[v]);
            it->t_change = std::max(it->t_change, std::fabs(m.t_change[v]));
        }
    std::stable_sort(out.begin(), out.end(), [](const Region& a, const Region& b) {
        return a.displacement != b.displacement ? a.displacement > b.displacement : a.name < b.name;
    });
    return out;
}

std::vector<float> sorted_values(const std::vector<DiffMesh>& meshes, bool t) {
    std::vector<float> v;
    for (const DiffMesh& m : meshes)
        for (std::size_t i = 0; i < m.displacement.size(); ++i) v.push_back(t ? std::fabs(m.t_change[i]) : m.displacement[i]);
    std::sort(v.begin(), v.end());
    return v;
}

std::vector<std::size_t> worst_frames(const std::vector<DiffFrame>& frames, std::size_t n) {
    std::vector<std::size_t> idx(frames.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return frames[a].displacement > frames[b].displacement; });
    if (idx.size() > n) idx.resize(n);
    return idx;
}

}  // namespace

std::string diff_summary_json(const DiffLimits& lim, const std::vector<DiffMesh>& meshes, const std::vector<DiffFrame>& frames) {
    namespace k = json_keys;
    const std::size_t worst = static_cast<std::size_t>(lim.worst);
    std::string b;
    JsonWriter w(b);
    auto vertex_json = [&](const VertexRef& r) {
        const DiffMesh& m = meshes[r.mesh];
        w.begin_object().member(k::mesh, m.name).member(k::vertex, file_vertex(m, r.vertex)).member("region", m.regions[m.region[r.vertex]]);
        w.member("displacement", m.displacement[r.vertex]).member("relative", m.diagonal > 0 ? m.displacement[r.vertex] / m.diagonal : 0.0);
        w.key(k::frame).frame(m.displacement_frame[r.vertex]).member("t_change", m.t_change[r.vertex]);
        w.key("t_frame").frame(m.t_change_frame[r.vertex]).end_object();
    };
    const auto by_disp = diff_ranked(meshes, false);
    const auto by_t = diff_ranked(meshes, true);
    std::size_t changed = 0;
    for (const DiffMesh& m : meshes)
        for (std::size_t v = 0; v < m.displacement.size(); ++v) changed += m.displacement[v] > 0 || m.t_change[v] != 0;
    w.begin_object().member(k::vertices, static_cast<unsigned long>(by_disp.size())).member("changed_vertices", static_cast<unsigned long>(changed));
    w.key("max_displacement");
    if (by_disp.empty()) w.null(); else vertex_json(by_disp.front());
    w.key("max_t_change");
    if (by_t.empty()) w.null(); else vertex_json(by_t.front());
    w.key("percentiles").begin_object();
    for (int t = 0; t < 2; ++t) {
        const std::vector<float> v = sorted_values(meshes, t == 1);
        w.key(t ? "t_change" : "displacement").begin_object();
        for (const char* p : {"50", "95", "99"}) w.member(p, percentile(v, std::atof(p)));
        w.end_object();
    }
    w.end_object().key("worst_vertices").begin_array();
    for (std::size_t i = 0; i < by_disp.size() && i < worst; ++i) vertex_json(by_disp[i]);
    w.end_array().key("worst_frames").begin_array();
    for (std::size_t i : worst_frames(frames, worst)) {
        const DiffFrame& f = frames[i];
        w.begin_object().key(k::frame).frame(f.frame).member("displacement", f.displacement);
        w.member(k::mesh, meshes.empty() ? "" : meshes[f.mesh].name).member(k::vertex, f.vertex).member("t_change", f.t_change).end_object();
    }
    w.end_array().key("seams_torn").begin_array();
    for (const VertexRef& ref : diff_ranked_seams(meshes)) {
        const DiffMesh& m = meshes[ref.mesh];
        const SeamTear& t = m.seams[ref.vertex];
        w.begin_object().member(k::mesh, m.name).member(k::vertex, t.vertex).member("other", t.other).member("gap", t.gap);
        w.member("relative", m.diagonal > 0 ? t.gap / m.diagonal : 0.0).key(k::frame).frame(t.frame).end_object();
    }
    w.end_array().key("regions").begin_array();
    for (const Region& g : regions(meshes)) {
        w.begin_object().member("joint", g.name).member(k::vertices, static_cast<unsigned long>(g.vertices));
        w.member("changed", static_cast<unsigned long>(g.changed)).member("max_displacement", g.displacement).member("max_t_change", g.t_change).end_object();
    }
    w.end_array().end_object();
    return b;
}

namespace {

std::string name_list(const std::vector<std::string>& names) {
    std::string s;
    for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
    return s;
}

// One clip's summary and the cases of its verdict: its text appended to `r` (without the final
// PASS/FAIL), its cases to `suite`; whether the verdict failed. Nothing here compares a value with
// a limit: judge_diff did (core/diff_verdict.h).
bool diff_clip(const DiffClipReport& clip, JUnitSuite& suite, std::string& r, bool properties) {
    const DiffLimits& lim = *clip.limits;
    const std::vector<DiffMesh>& meshes = *clip.meshes;
    const std::vector<DiffFrame>& frames = *clip.frames;
    const std::size_t worst = static_cast<std::size_t>(lim.worst);
    const auto by_disp = diff_ranked(meshes, false);
    const std::vector<float> d = sorted_values(meshes, false), t = sorted_values(meshes, true);
    auto stats = [&](const char* what, const std::vector<float>& v, const char* unit) {
        r += std::string(what) + ": max ";
        append_number(r, v.empty() ? 0.0f : v.back());
        r += unit;
        for (double p : {50.0, 95.0, 99.0}) {
            r += ", p" + std::to_string(static_cast<int>(p)) + " ";
            append_number(r, percentile(v, p));
        }
        r += " (per vertex, its largest over the frames)\n";
    };
    stats("displacement", d, " m");
    stats("|change in T|", t, "");
    if (!by_disp.empty() && meshes[by_disp.front().mesh].displacement[by_disp.front().vertex] > 0) {
        r += "worst vertices:\n";
        for (std::size_t i = 0; i < by_disp.size() && i < worst && meshes[by_disp[i].mesh].displacement[by_disp[i].vertex] > 0; ++i)
            r += "  " + describe(meshes, by_disp[i], false) + "\n";
        r += "worst frames:";
        for (std::size_t i : worst_frames(frames, worst)) {
            if (!(frames[i].displacement > 0)) break;
            r += " ";
            append_frame(r, frames[i].frame, false);
            r += " (";
            append_number(r, frames[i].displacement);
            r += " m)";
        }
        r += "\nby joint region (heaviest influence in OLD):\n";
        for (const Region& g : regions(meshes)) {
            if (g.changed == 0) continue;
            r += "  under '" + g.name + "': " + std::to_string(g.changed) + " of " + std::to_string(g.vertices) + " vertices changed, max ";
            append_number(r, g.displacement);
            r += " m, max |change in T| ";
            append_number(r, g.t_change);
            r += "\n";
        }
    } else {
        r += "no vertex moved\n";
    }
    const std::vector<VertexRef> seams = diff_ranked_seams(meshes);
    if (!seams.empty()) {
        r += "seams torn: " + std::to_string(seams.size()) + "\n";
        for (std::size_t i = 0; i < seams.size() && i < worst; ++i)
            r += "  " + describe_seam(meshes[seams[i].mesh], meshes[seams[i].mesh].seams[seams[i].vertex]) + "\n";
    }

    // One test case per case judged.
    if (properties) suite.properties = {{"old", lim.old_file}, {"new", lim.new_file}};
    // Unique per pair and clip in any batch (issue 57): the class is the clip, its package the path.
    const std::string classname = "rigscope.diff." +
                                  junit_path_key(lim.relpath.empty() ? std::filesystem::path(lim.new_file).filename().string() : lim.relpath) +
                                  "." + junit_key_part(lim.clip);
    for (const DiffCaseVerdict& v : clip.verdict->cases) {
        JUnitCase c;
        c.classname = classname;
        c.failed = v.failed();
        std::string bound_text;
        append_number(bound_text, v.bound);
        switch (v.kind) {
            case DiffCaseKind::nothing_compared:
                r += "nothing compared: no vertex of any mesh was evaluated\n";
                c.name = "vertices compared";
                c.type = "rigscope.diff.nothing_compared";
                c.message = "no vertex of any mesh was evaluated: nothing compared";
                break;
            case DiffCaseKind::displacement:
            case DiffCaseKind::t_change: {
                const bool t_limit = v.kind == DiffCaseKind::t_change;
                if (properties) suite.properties.emplace_back(t_limit ? "max_t_change" : "max_displacement", bound_text);
                c.name = (t_limit ? "|change in T| > " : "displacement > ") + bound_text;
                c.type = t_limit ? "rigscope.diff.t_change" : "rigscope.diff.displacement";
                c.message = std::to_string(v.failures.size()) + " vertices past the limit";
                r += (t_limit ? "limit |change in T| > " : "limit displacement > ") + bound_text + ": " + c.message + "\n";
                for (std::size_t i = 0; i < v.failures.size() && i < worst; ++i) {
                    const std::string line = describe(meshes, v.failures[i], t_limit);
                    r += "  " + line + "\n";
                    c.text += line + "\n";
                }
                break;
            }
            case DiffCaseKind::seam_torn:
                c.name = "seam torn";
                c.type = "rigscope.diff.seam_torn";
                for (std::size_t i = 0; i < v.failures.size() && i < worst; ++i)
                    c.text += describe_seam(meshes[v.failures[i].mesh], meshes[v.failures[i].mesh].seams[v.failures[i].vertex]) + "\n";
                c.message = std::to_string(v.failures.size()) + " seams torn" + (lim.has_displacement ? " by more than the displacement limit" : "");
                r += "limit seam torn: " + c.message + "\n";
                break;
        }
        suite.cases.push_back(std::move(c));
    }
    return clip.verdict->failed();
}

// The verdict line: PASS or FAIL, and the clips a --clip left out.
std::string verdict_line(bool failed, const std::vector<std::string>& judged, const std::vector<std::string>& not_judged) {
    std::string line = failed ? "FAIL" : "PASS";
    if (!not_judged.empty())
        line += " (" + std::to_string(judged.size()) + " of " + std::to_string(judged.size() + not_judged.size()) +
                " clips judged: " + name_list(judged) + "; not judged: " + name_list(not_judged) + ")";
    return line + "\n";
}

}  // namespace

CheckOutcome diff_outcome(const DiffClipReport& clip, const CheckRunInfo& run) { return diff_clips_outcome({clip}, run); }

CheckOutcome diff_clips_outcome(const std::vector<DiffClipReport>& clips, const CheckRunInfo& run) {
    if (clips.empty()) throw internal_error("diff: a verdict over no clip");
    const DiffLimits& lim = *clips.front().limits;
    const bool several = clips.size() > 1;
    CheckOutcome o;
    std::string& r = o.report;
    r += "diff " + lim.old_file + " -> " + lim.new_file + "\n";
    JUnitSuite suite;
    suite.name = junit_stem(lim.new_file);
    suite.package = "rigscope.diff";
    std::vector<std::string> judged, failing;
    for (std::size_t k = 0; k < clips.size(); ++k) {
        const DiffClipReport& c = clips[k];
        judged.push_back(c.limits->clip);
        if (several) r += "clip '" + c.limits->clip + "':\n";
        const std::size_t cases = suite.cases.size();
        const bool failed = diff_clip(c, suite, r, k == 0);
        if (failed) failing.push_back(c.limits->clip);
        o.failed = o.failed || failed;
        // A clip's own verdict, when it had cases to judge (a limit, or nothing compared).
        if (several && suite.cases.size() > cases) r += failed ? "FAIL\n" : "PASS\n";
    }
    if (several)
        r += "clips: " + std::to_string(clips.size()) + " judged, " + std::to_string(failing.size()) + " fail" +
             (failing.empty() ? "" : ": " + name_list(failing)) + "\n";
    if (!suite.cases.empty()) r += verdict_line(o.failed, judged, lim.not_judged);
    if (!lim.not_judged.empty()) {
        suite.properties.emplace_back("clips", name_list(judged));
        suite.properties.emplace_back("clips_not_judged", name_list(lim.not_judged));
        // Each clip left out is a skipped case of its own class, as check's.
        for (const std::string& name : lim.not_judged) {
            JUnitCase c;
            c.classname = "rigscope.diff." +
                          junit_path_key(lim.relpath.empty() ? std::filesystem::path(lim.new_file).filename().string() : lim.relpath) + "." +
                          junit_key_part(name);
            c.name = "clip judged";
            c.skipped = true;
            c.message = "not judged: --clip chose " + name_list(judged) + " (--clip all judges every clip)";
            suite.cases.push_back(std::move(c));
        }
    }
    suite.system_out = r;
    o.junit = junit_xml(suite, run);
    return o;
}

}  // namespace rigscope
