// The lint engine (run/lint_checks.h).
#include "rigscope/run/lint_checks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "rigscope/core/error.h"

namespace rigscope {

namespace {

void require(bool ok, const std::string& option, const std::string& what) {
    if (!ok) throw Error(kExitUsage, option + ": " + what);
}

std::string text(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", x);
    return buf;
}

std::pair<std::string, std::string> name_pair(const std::string& spec) {
    const std::size_t eq = spec.find('=');
    require(eq != std::string::npos && eq > 0 && eq + 1 < spec.size() && spec.find('=', eq + 1) == std::string::npos, "--mirror-names",
            "'" + spec + "' is not A=B (two joint name parts, such as Lf=Rt)");
    std::pair<std::string, std::string> p{spec.substr(0, eq), spec.substr(eq + 1)};
    require(p.first != p.second, "--mirror-names", "'" + spec + "' maps a name onto itself");
    return p;
}

}  // namespace

void LintOptions::validate() const {
    const LintParams& p = params;
    auto fraction = [](double x) { return std::isfinite(x) && x >= 0; };
    require(fraction(p.weight_tolerance) && p.weight_tolerance < 1, "--weight-tolerance", text(p.weight_tolerance) + " is not in [0, 1)");
    require(p.max_influences >= 1 && p.max_influences <= 65536, "--max-influences", std::to_string(p.max_influences) + " is not in 1..65536");
    require(fraction(p.min_weight) && p.min_weight < 1, "--min-weight", text(p.min_weight) + " is not in [0, 1)");
    require(std::isfinite(p.mirror_tolerance) && p.mirror_tolerance > 0 && p.mirror_tolerance < 1, "--mirror-tolerance",
            text(p.mirror_tolerance) + " is not in (0, 1)");
    require(fraction(p.bind_tolerance), "--bind-tolerance", text(p.bind_tolerance) + " is not a finite number >= 0");
    require(fraction(p.scale_tolerance), "--scale-tolerance", text(p.scale_tolerance) + " is not a finite number >= 0");
    require(fraction(p.area_tolerance), "area tolerance", text(p.area_tolerance) + " is not a finite number >= 0");
    require(mirror.empty() || mirror == "x" || mirror == "y" || mirror == "z", "--mirror", "'" + mirror + "' is not x, y or z");
    require(mirror_names.empty() || !mirror.empty(), "--mirror-names", "needs --mirror (the names are only used by the mirror check)");
    require(!mirror.empty() || p.mirror_tolerance == LintParams{}.mirror_tolerance, "--mirror-tolerance",
            "needs --mirror (the tolerance is only used by the mirror check)");
    for (const std::string& spec : mirror_names) name_pair(spec);
}

LintResult lint_checks(const LintOptions& opt, const Input& in, const FrameProgress& progress) {
    opt.validate();
    LintResult r;
    r.version = RIGSCOPE_VERSION;
    r.strict = opt.strict;
    r.params = opt.params;
    r.params.mirror_axis = opt.mirror.empty() ? -1 : opt.mirror[0] - 'x';
    r.params.mirror_names.clear();
    for (const std::string& spec : opt.mirror_names) r.params.mirror_names.push_back(name_pair(spec));
    const Scene& scene = in.scene;
    r.file = scene.source;
    for (const Mesh& m : scene.meshes) r.mesh_names.push_back(m.name);
    for (const Node& n : scene.nodes) r.joint_names.push_back(n.name);
    // With no skin among the selected meshes, the checks that read one have nothing to check:
    // they are listed as not checked, which fails the lint, instead of passing with no finding
    // (a rig whose skin the exporter dropped must not lint clean).
    bool any_skin = false;
    for (int m : in.meshes) any_skin = any_skin || lint_has_skin(scene, scene.meshes[m]);
    if (!any_skin)
        r.not_checked_reason = in.meshes.size() == 1 ? "the selected mesh has no skin"
                                                     : "none of the " + std::to_string(in.meshes.size()) + " selected meshes has a skin";
    for (const std::string& c : lint_check_names()) {
        if (r.params.mirror_axis < 0 && (c == "mirror" || c == "mirror_unpaired")) continue;
        if (!any_skin && lint_check_reads_skin(c)) r.not_checked.push_back(c);
        else r.checks.push_back(c);
    }

    const LintParams& p = r.params;
    std::vector<Finding>& out = r.findings;
    const std::size_t steps = 5;
    std::size_t done = 0;
    auto step = [&] { report_progress(progress, ++done, steps); };
    // A mesh the weld refuses is the file's fault (exit 3 naming it), as in every other command.
    blaming(scene.source, [&] {
        for (int m : in.meshes) lint_weights(scene, m, p, out);
        step();
        for (int m : in.meshes) {
            const std::vector<std::uint32_t> coincident = coincident_vertices(scene.meshes[m].positions);
            lint_seams(scene, m, coincident, p, out);
            lint_faces(scene, m, coincident, p, out);
        }
        step();
        lint_unused_joints(scene, in.meshes, out);
        if (p.mirror_axis >= 0)
            for (int m : in.meshes) lint_mirror(scene, m, p, out);
        step();
        for (int m : in.meshes) lint_bind_pose(scene, m, p, out);
        step();
        lint_joint_scale(scene, in.meshes, p, out);
        for (int m : in.meshes) lint_legacy_binding(scene, m, out);
        step();
        return 0;
    });
    // Report order: by check, each check's findings as it listed them.
    auto rank = [&](const Finding& f) {
        const auto& names = lint_check_names();
        return std::find(names.begin(), names.end(), f.check) - names.begin();
    };
    std::stable_sort(out.begin(), out.end(), [&](const Finding& a, const Finding& b) { return rank(a) < rank(b); });
    return r;
}

}  // namespace rigscope
