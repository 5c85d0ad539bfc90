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

}  // namespace rigscope
