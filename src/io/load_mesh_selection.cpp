// --mesh's rule in one place: the run selects by it, and the glTF reader reads by it only what
// the run will select (LoadOptions::mesh).
#include <cstdlib>

#include "rigscope/io/load.h"

namespace rigscope {

std::vector<int> meshes_selected(const std::vector<std::string>& names, const std::string& spec) {
    std::vector<int> out;
    if (spec.empty()) return out;
    for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == spec) out.push_back(static_cast<int>(i));
    if (!out.empty()) return out;
    char* end = nullptr;
    const long i = std::strtol(spec.c_str(), &end, 10);
    if (end && *end == '\0' && i >= 0 && i < static_cast<long>(names.size())) out.push_back(static_cast<int>(i));
    return out;
}

}  // namespace rigscope
