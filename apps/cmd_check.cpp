// `rigscope check`: tension limits for rig CI. Exit 1 when any vertex passes a limit, listing the
// worst vertices and frames; --junit writes a report CI servers read.
#include <algorithm>
#include <cmath>
#include <memory>

#include "commands.h"
#include "rigscope/check_report.h"
#include "rigscope/error.h"
#include "rigscope/output.h"
#include "tension_setup.h"

namespace rigscope::cli {

namespace {

struct CheckCommand {
    TensionOptions tension;
    double max_stretch = 0;    // fail where T < this
    double max_compress = 0;   // fail where T > this
    bool has_stretch = false, has_compress = false;
    std::string junit;
    int worst = 10;
};

struct Violation {
    std::string mesh;
    std::uint32_t vertex;
    Frame frame;
    float t;
};

struct Extreme {
    float t;
    Frame frame;
};

std::string describe(const Violation& v) {
    std::string s = "mesh '" + v.mesh + "' vertex " + std::to_string(v.vertex) + " frame ";
    append_frame_label(s, v.frame);
    s += ": T = ";
    append_number(s, v.t);
    return s;
}

void xml_escape(std::string& out, const std::string& s) {
    for (char c : s) {
        switch (c) {
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '&': out += "&amp;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
}

int run_check(const CheckCommand& opt) {
    if (!opt.has_stretch && !opt.has_compress) throw Error(kExitUsage, "check needs --max-stretch and/or --max-compress");
    Input in = load_input(opt.tension.input);
    std::vector<MeshTension> meshes = prepare_tension(in, opt.tension);
    // Per welded vertex, the lowest and highest T seen and where: enough to rank violations
    // without keeping any frame.
    std::vector<std::vector<Extreme>> lo(meshes.size()), hi(meshes.size());
    for_each_tension_frame(in, meshes, "check", [&](std::size_t fi) {
        const Frame& f = in.frames[fi];
        for (std::size_t m = 0; m < meshes.size(); ++m) {
            const auto& t = meshes[m].t;
            if (lo[m].empty()) {
                lo[m].assign(t.size(), Extreme{t.empty() ? 1.0f : t[0], f});
                hi[m] = lo[m];
                for (std::size_t w = 0; w < t.size(); ++w) lo[m][w] = hi[m][w] = Extreme{t[w], f};
                continue;
            }
            for (std::size_t w = 0; w < t.size(); ++w) {
                if (t[w] < lo[m][w].t) lo[m][w] = Extreme{t[w], f};
                if (t[w] > hi[m][w].t) hi[m][w] = Extreme{t[w], f};
            }
        }
    });
    if (!opt.tension.input.chunk.empty()) {
        // A chunk sees only its frames: its extremes go to the chunk record, and `merge`
        // reports over all chunks as one run would.
        const CheckLimits limits{opt.max_stretch, opt.max_compress, opt.has_stretch, opt.has_compress, opt.worst, opt.tension.input.file};
        std::vector<CheckMeshExtremes> extremes(meshes.size());
        for (std::size_t m = 0; m < meshes.size(); ++m) {
            CheckMeshExtremes& e = extremes[m];
            e.name = in.scene.meshes[meshes[m].mesh].name;
            for (std::size_t w = 0; w < lo[m].size(); ++w) {
                e.vertex.push_back(meshes[m].topo.representative[w]);
                e.lo_t.push_back(lo[m][w].t);
                e.lo_frame.push_back(lo[m][w].frame);
                e.hi_t.push_back(hi[m][w].t);
                e.hi_frame.push_back(hi[m][w].frame);
            }
        }
        record_check_chunk(limits, extremes);
    }
    std::vector<Violation> stretched, compressed;
    for (std::size_t m = 0; m < meshes.size(); ++m) {
        const std::string& name = in.scene.meshes[meshes[m].mesh].name;
        for (std::size_t w = 0; w < lo[m].size(); ++w) {
            const std::uint32_t v = meshes[m].topo.representative[w];
            if (opt.has_stretch && lo[m][w].t < opt.max_stretch) stretched.push_back({name, v, lo[m][w].frame, lo[m][w].t});
            if (opt.has_compress && hi[m][w].t > opt.max_compress) compressed.push_back({name, v, hi[m][w].frame, hi[m][w].t});
        }
    }
    std::sort(stretched.begin(), stretched.end(), [](const auto& a, const auto& b) { return a.t < b.t; });
    std::sort(compressed.begin(), compressed.end(), [](const auto& a, const auto& b) { return a.t > b.t; });

    std::string report;
    auto section = [&](const char* kind, double limit, const std::vector<Violation>& list, bool active) {
        if (!active) return;
        report += std::string(kind) + " limit T " + (std::string(kind) == "stretch" ? "< " : "> ");
        append_number(report, limit);
        report += ": " + std::to_string(list.size()) + " vertices past the limit\n";
        for (std::size_t i = 0; i < list.size() && i < static_cast<std::size_t>(opt.worst); ++i)
            report += "  " + describe(list[i]) + "\n";
    };
    section("stretch", opt.max_stretch, stretched, opt.has_stretch);
    section("compress", opt.max_compress, compressed, opt.has_compress);
    const bool failed = !stretched.empty() || !compressed.empty();
    report += failed ? "FAIL\n" : "PASS\n";
    OutputFile out("-");
    out.write(report);
    out.commit();

    if (!opt.junit.empty()) {
        std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n<testsuite name=\"rigscope.check\" tests=\"";
        x += std::to_string(int(opt.has_stretch) + int(opt.has_compress)) + "\" failures=\"" +
             std::to_string(int(!stretched.empty()) + int(!compressed.empty())) + "\">\n";
        auto testcase = [&](const char* kind, const std::vector<Violation>& list, bool active) {
            if (!active) return;
            x += "  <testcase classname=\"";
            xml_escape(x, opt.tension.input.file);
            x += "\" name=\"" + std::string(kind) + "\">";
            if (!list.empty()) {
                x += "\n    <failure message=\"" + std::to_string(list.size()) + " vertices past the " + kind + " limit\">";
                for (std::size_t i = 0; i < list.size() && i < static_cast<std::size_t>(opt.worst); ++i) {
                    xml_escape(x, describe(list[i]));
                    x += "\n";
                }
                x += "</failure>\n  ";
            }
            x += "</testcase>\n";
        };
        testcase("stretch", stretched, opt.has_stretch);
        testcase("compress", compressed, opt.has_compress);
        x += "</testsuite>\n</testsuites>\n";
        OutputFile junit(opt.junit, in.paths);
        junit.write(x);
        junit.commit();
    }
    // A chunk's verdict is partial (merge gives the run's); failing it would stop the farm's merge.
    return failed && opt.tension.input.chunk.empty() ? kExitCheckFailed : kExitOk;
}

}  // namespace

void add_check_command(CLI::App& app, Runner& run) {
    auto opt = std::make_shared<CheckCommand>();
    CLI::App* cmd = app.add_subcommand("check", "Rig CI: exit 1 when any vertex's T passes a limit");
    add_tension_options(cmd, opt->tension);
    cmd->add_option("--max-stretch", opt->max_stretch, "Fail where T falls below this (e.g. 0.7)")
        ->check(CLI::PositiveNumber)
        ->each([opt](const std::string&) { opt->has_stretch = true; });
    cmd->add_option("--max-compress", opt->max_compress, "Fail where T rises above this (e.g. 1.5)")
        ->check(CLI::PositiveNumber)
        ->each([opt](const std::string&) { opt->has_compress = true; });
    cmd->add_option("--junit", opt->junit, "Also write a JUnit XML report here");
    cmd->add_option("--worst", opt->worst, "How many of the worst vertices to list (default 10)")->check(CLI::PositiveNumber);
    cmd->callback([&run, opt] { run = [opt] { return run_check(*opt); }; });
}

RIGSCOPE_REGISTER_COMMAND(3, add_check_command);

}  // namespace rigscope::cli
