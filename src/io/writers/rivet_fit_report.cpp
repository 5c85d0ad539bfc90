#include "rigscope/io/rivet_fit_report.h"

#include <algorithm>

#include "rigscope/io/output.h"

namespace rigscope {

RivetFitOutcome rivet_fit_outcome(const RivetFitVerdict& verdict, const CheckRunInfo& run, const Scene& scene, int mesh,
                                  const std::vector<RivetResult>& rivets) {
    const RivetFitLimit& limit = verdict.limit;
    auto relative = [&](const RivetResult& r) { return verdict.relative[static_cast<std::size_t>(&r - rivets.data())]; };
    std::string limit_text;
    append_number(limit_text, limit.max_relative);
    auto line = [&](const RivetResult& r) {
        std::string s = "vertex " + std::to_string(r.vertex) + " on joint '" + scene.nodes[r.joint].name + "': max error ";
        append_number(s, r.fit.max_error);
        s += " = ";
        append_number(s, relative(r));
        s += " of the diagonal";
        return s;
    };

    std::vector<const RivetResult*> worse, unfit;
    for (std::size_t i : verdict.worse) worse.push_back(&rivets[i]);
    for (std::size_t i : verdict.unfit) unfit.push_back(&rivets[i]);
    RivetFitOutcome o;
    o.failed = verdict.failed();
    const std::string summary = "rivet fit limit max_error > " + limit_text + " of the diagonal: " + std::to_string(worse.size()) + " of " +
                                std::to_string(rivets.size()) + (rivets.size() == 1 ? " rivet" : " rivets") + " past the limit";
    o.report = summary + "\n";
    if (!limit.given && !worse.empty()) o.warning = summary + "; the worst: " + line(*worse.front());
    for (const RivetResult* r : worse) o.report += "  " + line(*r) + "\n";
    if (!unfit.empty()) {
        o.report += "not fitted (undetermined, not written): " + std::to_string(unfit.size()) + " of " + std::to_string(rivets.size()) +
                    (rivets.size() == 1 ? " rivet" : " rivets") + "\n";
        for (const RivetResult* r : unfit) o.report += "  " + r->undetermined + "\n";
    }
    o.report += o.failed ? "FAIL\n" : "PASS\n";

    JUnitSuite suite;
    suite.name = junit_stem(limit.file);
    suite.package = "rigscope.rivet";
    suite.properties.emplace_back("input", limit.file);
    suite.properties.emplace_back("max_fit_error", limit_text);
    for (const RivetResult& r : rivets) {
        JUnitCase c;
        c.classname = "rigscope.rivet." + junit_stem(limit.file) + "." + junit_class_part(scene.meshes[mesh].name);
        c.name = "vertex " + std::to_string(r.vertex) + " fit error <= " + limit_text;
        c.failed = verdict.rivet_failed[static_cast<std::size_t>(&r - rivets.data())] != 0;
        if (!r.undetermined.empty()) {
            c.type = "rigscope.rivet.undetermined";
            c.message = r.undetermined;
            c.text = c.message + "\n";
        } else if (c.failed) {
            c.type = "rigscope.rivet.fit_error";
            c.message = line(r);
            c.text = c.message + "\n";
        }
        suite.cases.push_back(std::move(c));
    }
    suite.system_out = o.report;
    o.junit = junit_xml(suite, run);
    return o;
}

}  // namespace rigscope
