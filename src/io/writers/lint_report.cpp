#include "rigscope/io/lint_report.h"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "io/json_document.h"

namespace rigscope {

namespace {

std::string name_of(const std::vector<std::string>& names, long i) {
    if (i < 0 || i >= static_cast<long>(names.size())) return "#" + std::to_string(i);
    return names[i];
}

// "error weights_sum 'Body' vertex 12: message" (the issue's severity check mesh vertex|joint
// message, with the names quoted as the other reports quote them).
std::string line(const LintResult& r, const Finding& f) {
    std::string s = std::string(severity_name(f.severity)) + " " + f.check;
    if (f.mesh >= 0) s += " '" + name_of(r.mesh_names, f.mesh) + "'";
    if (f.vertex >= 0) s += " vertex " + std::to_string(f.vertex);
    else if (f.joint >= 0) s += " joint '" + name_of(r.joint_names, f.joint) + "'";
    return s + ": " + f.message;
}

std::string plural(std::size_t n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); }

std::string tally(const LintResult& r, const std::string& check) {
    std::size_t n[3] = {0, 0, 0};
    for (const Finding& f : r.findings)
        if (f.check == check) ++n[static_cast<int>(f.severity)];
    return plural(n[2], "error", "errors") + ", " + plural(n[1], "warning", "warnings") + ", " + plural(n[0], "info", "info");
}

}  // namespace

std::size_t LintResult::count(Severity s) const {
    std::size_t n = 0;
    for (const Finding& f : findings) n += f.severity == s;
    return n;
}

bool LintResult::failed() const {
    if (!not_checked.empty()) return true;
    for (const Finding& f : findings)
        if (counts(f)) return true;
    return false;
}

std::string lint_text(const LintResult& r, std::size_t listed) {
    std::string out;
    for (const std::string& check : r.checks) {
        std::size_t shown = 0, total = 0;
        for (const Finding& f : r.findings) {
            if (f.check != check) continue;
            ++total;
            if (listed == 0 || shown < listed) {
                out += line(r, f) + "\n";
                ++shown;
            }
        }
        if (total > shown) out += "  ... " + plural(total - shown, "more finding", "more findings") + " of " + check + " (all in --format json)\n";
    }
    if (!r.not_checked.empty()) {
        out += "not checked: ";
        for (std::size_t i = 0; i < r.not_checked.size(); ++i) out += (i ? ", " : "") + r.not_checked[i];
        out += " (" + r.not_checked_reason + ")\n";
    }
    out += r.file + ": " + plural(r.count(Severity::Error), "error", "errors") + ", " + plural(r.count(Severity::Warning), "warning", "warnings") +
           ", " + plural(r.count(Severity::Info), "info", "info") + " (checks: ";
    for (std::size_t i = 0; i < r.checks.size(); ++i) out += (i ? ", " : "") + r.checks[i];
    out += ")\n";
    out += r.failed() ? "FAIL\n" : "PASS\n";
    return out;
}

std::string lint_json(const LintResult& r) {
    using nlohmann::json;
    const LintParams& p = r.params;
    json params = {{"weight_tolerance", p.weight_tolerance}, {"max_influences", p.max_influences}, {"min_weight", p.min_weight},
                   {"bind_tolerance", p.bind_tolerance},     {"scale_tolerance", p.scale_tolerance}, {"area_tolerance", p.area_tolerance},
                   {"strict", r.strict}};
    if (p.mirror_axis >= 0) {
        params["mirror"] = std::string(1, "xyz"[p.mirror_axis]);
        params["mirror_tolerance"] = p.mirror_tolerance;
        json names = json::array();
        for (const auto& [a, b] : p.mirror_names) names.push_back(a + "=" + b);
        params["mirror_names"] = names;
    }
    json not_checked = json::array();
    for (const std::string& c : r.not_checked) not_checked.push_back({{"check", c}, {"reason", r.not_checked_reason}});
    json findings = json::array();
    for (const Finding& f : r.findings) {
        json j = {{"check", f.check}, {"severity", severity_name(f.severity)}};
        j["mesh"] = f.mesh >= 0 ? json(name_of(r.mesh_names, f.mesh)) : json(nullptr);
        if (f.vertex >= 0) j["vertex"] = f.vertex;
        if (f.joint >= 0) j["joint"] = name_of(r.joint_names, f.joint);
        if (f.face >= 0) j["face"] = f.face;
        if (f.partner >= 0) j["partner"] = f.partner;
        if (f.has_value) j["value"] = f.value;
        j["message"] = f.message;
        findings.push_back(std::move(j));
    }
    const json doc = {{"parameters", params},
                      {"checks", r.checks},
                      {"not_checked", not_checked},
                      {"counts", {{"error", r.count(Severity::Error)}, {"warning", r.count(Severity::Warning)}, {"info", r.count(Severity::Info)}}},
                      {"failed", r.failed()},
                      {"findings", findings}};
    return json_with_header("lint", r.file, doc);
}

std::vector<JUnitCase> lint_junit_cases(const LintResult& r, std::size_t listed, const std::string& relpath) {
    std::vector<JUnitCase> cases;
    const std::string classname =
        "rigscope.lint." + junit_path_key(relpath.empty() ? std::filesystem::path(r.file).filename().string() : relpath);
    for (const std::string& check : r.checks) {
        JUnitCase c;
        c.classname = classname;
        c.name = check;
        std::size_t counted = 0, shown = 0;
        for (const Finding& f : r.findings) {
            if (f.check != check || !r.counts(f)) continue;
            ++counted;
            if (listed == 0 || shown < listed) c.text += line(r, f) + "\n", ++shown;
        }
        if (counted > shown) c.text += "... " + plural(counted - shown, "more finding", "more findings") + "\n";
        c.failed = counted > 0;
        if (c.failed) {
            c.type = "rigscope.lint." + check;
            c.message = tally(r, check);
        }
        cases.push_back(std::move(c));
    }
    for (const std::string& check : r.not_checked) {
        JUnitCase c;
        c.classname = classname;
        c.name = check;
        c.failed = true;
        c.type = "rigscope.lint.not_checked";
        c.message = "not checked: " + r.not_checked_reason;
        cases.push_back(std::move(c));
    }
    return cases;
}

std::string lint_junit(const LintResult& r, const CheckRunInfo& run, std::size_t listed, const std::string& relpath) {
    JUnitSuite suite;
    suite.name = junit_stem(r.file);
    suite.package = "rigscope.lint";
    suite.properties.emplace_back("input", r.file);
    suite.properties.emplace_back("strict", r.strict ? "true" : "false");
    suite.cases = lint_junit_cases(r, listed, relpath);
    suite.system_out = lint_text(r, listed);
    return junit_xml(suite, run);
}

}  // namespace rigscope
