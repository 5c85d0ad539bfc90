#include "rigscope/io/rom_writer.h"

#include "rigscope/io/gltf_writer.h"

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

std::string rom_listing_json(const Scene& scene, const RomPlan& plan) {
    std::string s = "{\"angle_deg\":";
    append_number(s, plan.angle_deg);
    s += ",\"frames_per_sweep\":";
    append_number(s, plan.frames_per_sweep);
    s += ",\"fps\":";
    append_number(s, plan.fps);
    s += ",\"frames\":";
    append_number(s, plan.sweeps.empty() ? 0L : plan.sweeps.back().last + 1);
    s += ",\"sweeps\":[";
    for (std::size_t i = 0; i < plan.sweeps.size(); ++i) {
        const RomSweep& w = plan.sweeps[i];
        s += i ? ",{\"joint\":" : "{\"joint\":";
        append_json_string(s, scene.nodes[w.node].name);
        s += ",\"axis\":\"";
        s += rom_axis_name(w.axis);
        s += "\",\"first\":";
        append_number(s, w.first);
        s += ",\"last\":";
        append_number(s, w.last);
        s += ",\"plus_frame\":";
        append_number(s, w.first + plan.frames_per_sweep / 4);
        s += ",\"minus_frame\":";
        append_number(s, w.first + 3 * plan.frames_per_sweep / 4);
        s += '}';
    }
    s += "]}\n";
    return s;
}

}  // namespace rigscope
