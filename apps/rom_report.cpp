#include "rom_report.h"

#include <cstdio>

namespace rigscope::cli {

namespace {

std::string degrees(double d) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+g", d);
    return buf;
}

}  // namespace

std::string rom_failures(const Input& in, const std::vector<char>& frame_failed) {
    if (!in.has_rom) return "";
    std::string out;
    std::size_t i = 0;
    while (i < in.frames.size()) {
        const Frame& f = in.frames[i];
        const RomSweep* s = f.bind ? nullptr : rom_sweep_at(in.rom, f.number);
        if (!frame_failed[i] || !s) {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j + 1 < in.frames.size() && frame_failed[j + 1] && !in.frames[j + 1].bind &&
               rom_sweep_at(in.rom, in.frames[j + 1].number) == s)
            ++j;
        double lo = 0, hi = 0;
        for (std::size_t k = i; k <= j; ++k) {
            const double a = rom_angle_at(in.rom, *s, static_cast<double>(in.frames[k].number));
            if (k == i || a < lo) lo = a;
            if (k == i || a > hi) hi = a;
        }
        const std::string span = j == i ? "frame " + std::to_string(f.number)
                                        : "frames " + std::to_string(f.number) + ".." + std::to_string(in.frames[j].number);
        out += "ROM " + span + ": joint '" +
               in.scene.nodes[s->node].name + "' axis " + rom_axis_name(s->axis) + " (" + (lo == hi ? degrees(lo) : degrees(lo) + " to " + degrees(hi)) + " deg)\n";
        i = j + 1;
    }
    return out;
}

}  // namespace rigscope::cli
