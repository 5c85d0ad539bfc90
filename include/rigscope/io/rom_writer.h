// Writing a range-of-motion clip (rigscope/rom.h) as a plain glTF animation of the file's own
// skeleton and meshes, so any package can play it or take it as an --animation.
#pragma once

#include <string>

#include "rigscope/io/output.h"
#include "rigscope/core/rom.h"
#include "rigscope/core/scene.h"

namespace rigscope {

// The scene's nodes, meshes and skins with `plan`'s clip as its only animation (the file's own
// clips left out), as .glb into out (the caller commits).
void write_rom_glb(const Scene& scene, const RomPlan& plan, OutputFile& out);

// Which frames sweep which joint about which axis, one line per sweep:
// "frames 0..24 joint 'Bone' axis X: +60 deg at frame 6, -60 deg at frame 18".
std::string rom_listing(const Scene& scene, const RomPlan& plan);

// The same as JSON: {"angle_deg", "frames_per_sweep", "fps", "frames", "sweeps": [...]}.
std::string rom_listing_json(const std::string& input, const Scene& scene, const RomPlan& plan);

}  // namespace rigscope
