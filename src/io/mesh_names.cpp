#include "io/mesh_names.h"

#include <string>
#include <unordered_map>
#include <unordered_set>

namespace rigscope {

void name_mesh_instances(Scene& scene) {
    std::unordered_map<std::string, int> uses;
    for (const Mesh& m : scene.meshes) ++uses[m.name];
    bool shared = false;
    for (Mesh& m : scene.meshes)
        if (uses[m.name] > 1 && m.node >= 0 && m.node < static_cast<int>(scene.nodes.size())) {
            m.name = scene.nodes[m.node].name;
            shared = true;
        }
    if (!shared) return;
    // Node names are not unique in every format: number the repeats, skipping names taken.
    std::unordered_set<std::string> taken;
    std::unordered_map<std::string, int> next;
    for (const Mesh& m : scene.meshes) taken.insert(m.name);
    std::unordered_set<std::string> seen;
    for (Mesh& m : scene.meshes) {
        if (seen.insert(m.name).second) continue;
        const std::string base = m.name;
        int& k = next[base];
        if (k < 2) k = 2;
        std::string name;
        do name = base + "#" + std::to_string(k++);
        while (taken.count(name));
        taken.insert(name);
        seen.insert(name);
        m.name = name;
    }
}

}  // namespace rigscope
