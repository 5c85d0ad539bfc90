#include "rigscope/io/info_report.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "io/json_document.h"
#include "rigscope/core/axes.h"
#include "rigscope/core/bind_check.h"
#include "rigscope/core/error.h"
#include "rigscope/core/lint.h"
#include "rigscope/core/topology.h"

namespace rigscope {

namespace {

using nlohmann::json;

// What rigscope's outputs do with the file's axes (core/axes.h), so a user is not surprised.
std::string axes_note(const std::string& up) {
    if (is_y_up(up)) return "glTF, CSV and JSON outputs in the file's axes (Y-up, as glTF)";
    return "glTF outputs turned Y-up by a root node 'rigscope_up_" + up +
           "_to_Y'; CSV and JSON positions in the file's axes (" + up + "-up) unless --axes y-up";
}

json describe(const Scene& s, const std::vector<int>& selected, bool weld) {
    json j;
    j["file"] = s.source;
    j["format"] = s.format;
    j["units"] = {{"scale_to_metres", s.unit_scale}, {"note", s.units_note}};
    j["up_axis"] = s.up_axis;
    j["axes"] = axes_note(s.up_axis);
    j["fps"] = s.fps;
    j["fps_from_file"] = s.fps_from_file;
    if (!s.fps_note.empty()) j["fps_note"] = s.fps_note;
    j["vertex_ids"] = s.vertex_ids;
    j["nodes"] = s.nodes.size();
    std::size_t rrs = 0, rrss = 0;
    for (const Node& n : s.nodes) {
        rrs += n.inherit == InheritScale::IgnoreParentScale;
        rrss += n.inherit == InheritScale::Componentwise;
    }
    if (rrs || rrss) j["scale_inheritance"] = {{"rrs", rrs}, {"rrss", rrss}};
    j["extensions"] = s.extensions;
    if (s.format == "USD") j["composed"] = s.composed;
    if (!s.attributes.empty()) j["attributes"] = s.attributes;
    json warnings = json::array();  // the messages; the kinds are the library's and Python's (core/warning.h)
    for (const Warning& w : s.warnings) warnings.push_back(w.message);
    json meshes = json::array();
    for (int m : selected) {
        const Mesh& mesh = s.meshes[m];
        Topology topo;
        try {
            topo = build_topology(mesh, weld);
        } catch (const Error& e) {
            if (e.code() != kExitBadInput) throw;
            throw bad_input(s.source, e.what());
        }
        std::size_t most = 0;
        for (std::size_t v = 0; v < mesh.influences.vertex_count(); ++v)
            most = std::max<std::size_t>(most, mesh.influences.offsets[v + 1] - mesh.influences.offsets[v]);
        json targets = json::array();
        for (const auto& t : mesh.targets) targets.push_back(t.name);
        json jm = {{"name", mesh.name},
                   {"node", mesh.node >= 0 ? json(s.nodes[mesh.node].name) : json(nullptr)},
                   {"vertices", mesh.vertex_count()},
                   {"welded_vertices", topo.welded_count()},
                   {"faces", mesh.face_count()},
                   {"edges", topo.edge_count()},
                   {"morph_targets", targets},
                   {"skin", mesh.skin >= 0 ? json(s.skins[mesh.skin].name) : json(nullptr)},
                   {"max_influences", most}};
        if (mesh.skin >= 0) {
            const BindCheck check = check_bind(s, m);
            jm["bind_check"] = {{"max_distance", check.max_distance}, {"diagonal", check.diagonal}};
        }
        meshes.push_back(jm);
    }
    j["meshes"] = meshes;
    json skins = json::array();
    for (const Skin& skin : s.skins) {
        json names = json::array();
        for (int n : skin.joints) names.push_back(s.nodes[n].name);
        skins.push_back({{"name", skin.name}, {"joints", skin.joints.size()}, {"joint_names", names},
                         {"method", skinning_method_name(skin.method)}});
    }
    j["skins"] = skins;
    json clips = json::array();
    for (const Clip& c : s.clips) {
        std::size_t keys = 0;
        std::set<std::string> interps;
        for (const Channel& ch : c.channels) {
            keys += ch.times.size();
            interps.insert(interpolation_name(ch.interpolation));
        }
        clips.push_back({{"name", c.name},
                         {"start", c.start},
                         {"end", c.end},
                         {"duration", c.end - c.start},
                         {"channels", c.channels.size()},
                         {"keys", keys},
                         {"interpolations", interps}});
        if (c.has_take) {
            // Frame numbers on the file's own timeline (KTime n / fps).
            json& last = clips.back();
            last["take_frames"] = {std::lround(c.take_start * s.fps), std::lround(c.take_end * s.fps)};
            last["key_frames"] = {c.key_start * s.fps, c.key_end * s.fps};
        }
    }
    j["clips"] = clips;
    j["warnings"] = warnings;
    return j;
}

std::string as_text(const json& j) {
    std::string t;
    auto line = [&](const std::string& s) { t += s + "\n"; };
    line(j["file"].get<std::string>() + " (" + j["format"].get<std::string>() + ")");
    line("  units: " + j["units"]["note"].get<std::string>() + "; up axis " + j["up_axis"].get<std::string>());
    line("  axes: " + j["axes"].get<std::string>());
    line("  frame rate: " + std::to_string(j["fps"].get<double>()).substr(0, 6) + " fps" +
         (j.contains("fps_note") ? " (" + j["fps_note"].get<std::string>() + ")"
                                 : j["fps_from_file"].get<bool>() ? " (from the file)" : " (default; the file has none)"));
    line("  vertex ids: " + j["vertex_ids"].get<std::string>());
    std::string inherit;
    if (j.contains("scale_inheritance")) {
        const std::size_t rrs = j["scale_inheritance"]["rrs"].get<std::size_t>(), rrss = j["scale_inheritance"]["rrss"].get<std::size_t>();
        if (rrs) inherit += std::to_string(rrs) + " inherit scale as Rrs (Maya's segment scale compensation)";
        if (rrss) inherit += inherit.empty() ? std::to_string(rrss) + " inherit scale as RrSs" : ", " + std::to_string(rrss) + " as RrSs";
        inherit = " (" + inherit + ")";
    }
    line("  nodes: " + std::to_string(j["nodes"].get<std::size_t>()) + inherit);
    if (!j["extensions"].empty()) {
        std::string names;
        for (const json& e : j["extensions"]) names += (names.empty() ? "" : ", ") + e.get<std::string>();
        line("  extensions: " + names);
    }
    if (j.contains("composed")) {
        // A stage of many instances lists them all in the JSON; the text shows the first few.
        constexpr std::size_t kShown = 20;
        const json& c = j["composed"];
        if (c.empty()) line("  composed: the root layer alone (no sublayers, references, payloads, variants or instances)");
        else line("  composed: " + std::to_string(c.size()) + (c.size() == 1 ? " arc or sublayer" : " arcs and sublayers"));
        for (std::size_t i = 0; i < c.size() && i < kShown; ++i) line("    " + c[i].get<std::string>());
        if (c.size() > kShown) line("    ... and " + std::to_string(c.size() - kShown) + " more (--json lists every one)");
    }
    if (j.contains("attributes")) {
        line("  attributes (listed, not evaluated):");
        for (const json& a : j["attributes"]) line("    " + a.get<std::string>());
    }
    for (const json& m : j["meshes"]) {
        std::string targets;
        for (const json& n : m["morph_targets"]) targets += (targets.empty() ? "" : ", ") + n.get<std::string>();
        line("  mesh '" + m["name"].get<std::string>() + "': " + std::to_string(m["vertices"].get<std::size_t>()) + " vertices, " +
             std::to_string(m["welded_vertices"].get<std::size_t>()) + " welded, " + std::to_string(m["faces"].get<std::size_t>()) +
             " faces, " + std::to_string(m["edges"].get<std::size_t>()) + " edges" +
             (m["skin"].is_null() ? ", no skin" : ", skin '" + m["skin"].get<std::string>() + "' (at most " +
                                                      std::to_string(m["max_influences"].get<std::size_t>()) + " influences per vertex)"));
        if (!targets.empty()) line("    morph targets: " + targets);
        if (m.contains("bind_check"))
            line("    bind pose check: stored mesh vs rest skeleton differ by at most " +
                 lint_number(m["bind_check"]["max_distance"].get<double>()) + " (mesh diagonal " +
                 lint_number(m["bind_check"]["diagonal"].get<double>()) + ")");
    }
    for (const json& s : j["skins"])
        line("  skin '" + s["name"].get<std::string>() + "': " + std::to_string(s["joints"].get<std::size_t>()) + " joints, " +
             s["method"].get<std::string>() + " skinning");
    for (const json& c : j["clips"]) {
        std::string interps;
        for (const json& n : c["interpolations"]) interps += (interps.empty() ? "" : ", ") + n.get<std::string>();
        line("  clip '" + c["name"].get<std::string>() + "': " + std::to_string(c["start"].get<double>()) + " s to " +
             std::to_string(c["end"].get<double>()) + " s, " + std::to_string(c["channels"].get<std::size_t>()) + " channels, " +
             std::to_string(c["keys"].get<std::size_t>()) + " keys (" + interps + ")");
        if (c.contains("take_frames")) {
            std::ostringstream span;
            span << "    take: frames " << c["take_frames"][0].get<long>() << ".." << c["take_frames"][1].get<long>()
                 << " (the default frames); keys span frames " << c["key_frames"][0].get<double>() << ".."
                 << c["key_frames"][1].get<double>();
            line(span.str());
        }
    }
    if (j["clips"].empty()) line("  no animation");
    for (const json& w : j["warnings"]) line("  warning: " + w.get<std::string>());
    return t;
}

}  // namespace

std::string info_json(const Scene& scene, const std::vector<int>& meshes, bool weld) {
    return json_with_header("info", scene.source, describe(scene, meshes, weld), 2);
}

std::string info_text(const Scene& scene, const std::vector<int>& meshes, bool weld) { return as_text(describe(scene, meshes, weld)); }

}  // namespace rigscope
