// A stage's layers composed into one layer of composed prims, as OpenUSD's stage sees them
// (docs/usd_notes.md "What is composed"): the root layer's sublayers (stronger first, with their
// layer offsets and timeCodesPerSecond), internal and external references and payloads (to the
// target prim or the layer's defaultPrim, with layer offsets), instanceable prims as their
// prototype's prims, and authored variant selections; strength order local, variants,
// references, payloads. Each composed prim holds one spec: its specifier, type, metadata and
// properties resolved (a property's default and time samples from the strongest spec that has
// them, times mapped to the stage's, relationship targets mapped into the stage's namespace).
// Inherits, specializes, relocates and value clips are refused by name with the usd-core command
// that flattens the stage.
#pragma once

#include <string>
#include <vector>

#include "io/usd/usd_layer.h"
#include "io/usd/usd_layer_files.h"
#include "rigscope/core/warning.h"

namespace rigscope::usd {

// `root` is files' root layer. Throws rigscope::Error (exit 3) naming the file and the problem;
// `warnings` gets what USD would also pass over (a relationship target outside a reference), and
// `composed` what was composed, once each in the order met, for info: "sublayer F (offset o,
// scale s)", "reference /P -> F</T>", "payload ...", "variant /P {set=choice}", "instance /P".
Layer compose_stage(LayerFiles& files, const Layer& root, std::vector<Warning>& warnings, std::vector<std::string>& composed);

// The command that flattens `path` with usd-core, for refusals of what rigscope does not compose.
std::string flatten_hint(const std::string& path);

}  // namespace rigscope::usd
