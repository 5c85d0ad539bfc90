// Reading a rig description file (docs/rig.md, docs/rig.schema.json) into the core's Rig.
#pragma once

#include <string>

#include "rigscope/core/rig.h"

namespace rigscope {

// Reads and validates a rig file strictly. Throws Error(kExitUsage) naming the file and the JSON
// path of the first problem (unknown key, wrong type, missing field, bad value), Error(kExitUsage)
// also when the file cannot be read or is not JSON.
Rig read_rig(const std::string& path);
// The same from JSON text; `source` names it in messages.
Rig parse_rig(const std::string& text, const std::string& source);

}  // namespace rigscope
