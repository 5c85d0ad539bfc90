#include "rigscope/run/rom_run.h"

#include <cctype>
#include <memory>

#include "rigscope/core/error.h"
#include "rigscope/io/output.h"
#include "rigscope/io/rom_writer.h"

namespace rigscope {

void RomJobOptions::validate() const {
    if (out.empty()) return;
    // The extension of the file name only: a dot in a folder name is not one.
    const auto slash = out.find_last_of('/'), dot = out.find_last_of('.');
    std::string ext = dot == std::string::npos || (slash != std::string::npos && dot < slash) ? "" : out.substr(dot + 1);
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    // rom writes binary glTF: a .gltf name (JSON text) would not say what the file holds.
    if (!ext.empty() && ext != "glb") throw Error(kExitUsage, out + ": rom writes binary glTF; name the file .glb");
}

namespace {

InputOptions rom_input(const RomJobOptions& opt) {
    InputOptions io = opt.input;
    io.rom = true;
    io.frames.clear();
    io.chunk.clear();
    io.rig.clear();
    return io;
}

RomJobResult list_and_write(const RomJobOptions& opt, const Input& in) {
    RomJobResult r;
    r.plan = in.rom;
    r.text = rom_listing(in.scene, in.rom);
    r.json = rom_listing_json(opt.input.file, in.scene, in.rom);
    if (!opt.out.empty()) {
        OutputFile glb(opt.out, in.paths);
        write_rom_glb(in.scene, in.rom, glb);
        glb.commit();
        r.written = opt.out;
    }
    return r;
}

}  // namespace

RomJobResult run_rom(const RomJobOptions& opt) {
    opt.validate();
    return list_and_write(opt, load_input(rom_input(opt)));
}

RomJobResult run_rom(const RomJobOptions& opt, const Scene& scene) {
    opt.validate();
    // The plan as --rom makes it (the same checks and messages), over the scene in memory.
    return list_and_write(opt, input_from_scene(scene, rom_input(opt)));
}

}  // namespace rigscope
