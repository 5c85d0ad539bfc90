// The `rom` job (run/rom_job.h).
#include "rigscope/run/rom_job.h"

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

InputOptions rom_input_options(const RomJobOptions& opt) {
    InputOptions io = opt.input;
    io.rom = true;
    io.frames.clear();
    io.chunk.clear();
    io.rig.clear();
    return io;
}

RomJobResult run_rom(const RomJobOptions& opt, const Input& in) {
    opt.validate();
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

RomJobResult load_and_run_rom(const RomJobOptions& opt) {
    opt.validate();  // before the file is read
    return run_rom(opt, load_input(rom_input_options(opt)));
}

}  // namespace rigscope
