// Optional string arguments of the module's calls: None means "not given"; an empty string is a
// slip (an unset variable, as on the command line), refused naming the argument rather than read
// as "not given", which would drop an output silently.
#pragma once

#include <optional>
#include <string>

#include "rigscope/io/output.h"

namespace rigscope_python {

// The value, or "" for None. Throws rigscope::Error (usage) for "".
inline std::string given(const std::optional<std::string>& v, const char* name) {
    if (v) rigscope::refuse_empty_path(name, *v);
    return v.value_or("");
}

}  // namespace rigscope_python
