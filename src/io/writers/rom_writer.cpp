#include "rigscope/io/rom_writer.h"

#include "rigscope/io/gltf_writer.h"
#include "rigscope/io/json_keys.h"
#include "rigscope/io/json_writer.h"

namespace rigscope {

void write_rom_glb(const Scene& scene, const RomPlan& plan, OutputFile& out) {
    Scene copy = scene;
    copy.clips.assign(1, plan.clip);
    write_glb(copy, {}, out);
}

std::string rom_listing(const Scene& scene, const RomPlan& plan) {
    std::string s;
    const long n = plan.frames_per_sweep;
    for (const RomSweep& w : plan.sweeps) {
        s += "frames " + std::to_string(w.first) + ".." + std::to_string(w.last) + " joint '" + scene.nodes[w.node].name + "' axis " +
             rom_axis_name(w.axis) + ": +";
        append_number(s, plan.angle_deg);
        s += " deg at frame " + std::to_string(w.first + n / 4) + ", -";
        append_number(s, plan.angle_deg);
        s += " deg at frame " + std::to_string(w.first + 3 * n / 4) + "\n";
    }
    return s;
}

std::string rom_listing_json(const std::string& input, const Scene& scene, const RomPlan& plan) {
    std::string s;
    JsonWriter w(s);
    w.begin_object();
    write_json_header(w, "rom", input);
    w.member("angle_deg", plan.angle_deg).member("frames_per_sweep", plan.frames_per_sweep).member("fps", plan.fps);
    w.member(json_keys::frames, plan.sweeps.empty() ? 0L : plan.sweeps.back().last + 1).key("sweeps").begin_array();
    for (const RomSweep& sw : plan.sweeps) {
        w.begin_object().member("joint", scene.nodes[sw.node].name).member("axis", rom_axis_name(sw.axis));
        w.member("first", sw.first).member("last", sw.last).member("plus_frame", sw.first + plan.frames_per_sweep / 4);
        w.member("minus_frame", sw.first + 3 * plan.frames_per_sweep / 4).end_object();
    }
    w.end_array().end_object();
    s += '\n';
    return s;
}

}  // namespace rigscope
