// Alembic outputs of deform and tension (`-o out.abc`): the run layer's side, feeding the one
// writer of the format (rigscope/io/alembic_output.h) frame by frame.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "rigscope/core/tension_map.h"
#include "rigscope/io/tension_output.h"
#include "rigscope/run/input.h"
#include "rigscope/run/progress.h"
#include "rigscope/run/tension_gltf.h"

namespace rigscope {

// Throws Error (usage) when an Alembic output is asked of stdout or of no file: an archive's
// header is finished last, which a stream cannot take back. `verb` names the command.
void check_abc_output(const std::string& out, const char* verb);

// deform: every selected mesh's points per frame. Returns nothing: the job counts.
void write_deform_abc(const Input& in, const std::string& out, double max_output_mb, const FrameProgress& progress = {});

// tension: the points and the maps per frame; `each(fi)` sees every frame once evaluated.
void write_tension_abc(const Input& in, std::vector<MeshTension>& meshes, const TensionRunInfo& run, const std::string& out,
                       TensionColor color, double max_output_mb, const FrameProgress& progress = {},
                       const std::function<void(std::size_t)>& each = {});

}  // namespace rigscope
