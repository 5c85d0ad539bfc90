// Test tool, not installed: reads any input rigscope reads and writes it back with write_glb,
// so tests/cli/gltf/gltf_validator.sh can run the Khronos validator on what the writer makes.
//   gltf_roundtrip [--attributes] IN OUT.glb
// --attributes adds a COLOR_0 and a _TENSION attribute to every mesh, as the commands do.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "rigscope/core/error.h"
#include "rigscope/io/gltf_writer.h"
#include "rigscope/io/load.h"
#include "rigscope/io/output.h"

int main(int argc, char** argv) {
    using namespace rigscope;
    bool attributes = false;
    int first = 1;
    if (argc > 1 && std::strcmp(argv[1], "--attributes") == 0) {
        attributes = true;
        ++first;
    }
    if (argc - first != 2) {
        std::fprintf(stderr, "usage: gltf_roundtrip [--attributes] IN OUT.glb\n");
        return 2;
    }
    try {
        const Scene scene = load_scene(argv[first]);
        std::vector<MeshAttributes> extra;
        if (attributes) {
            for (std::size_t m = 0; m < scene.meshes.size(); ++m) {
                const Mesh& mesh = scene.meshes[m];
                if (mesh.positions.empty()) continue;
                // Something spatially varying in [0, 1], like a tension map: height in the bounds.
                float lo = mesh.positions[0].y(), hi = lo;
                for (const auto& p : mesh.positions) lo = std::min(lo, p.y()), hi = std::max(hi, p.y());
                VertexAttribute color{"COLOR_0", 4, {}}, tension{"_TENSION", 1, {}};
                for (const auto& p : mesh.positions) {
                    const float u = hi > lo ? (p.y() - lo) / (hi - lo) : 0.5f;
                    color.data.insert(color.data.end(), {u, 0.2f, 1.0f - u, 1.0f});
                    tension.data.push_back(0.5f + u);
                }
                extra.push_back({static_cast<int>(m), {std::move(color), std::move(tension)}});
            }
        }
        OutputFile out(argv[first + 1], std::vector<std::string>{argv[first]});
        write_glb(scene, extra, out);
        out.commit();
    } catch (const Error& e) {
        std::fprintf(stderr, "gltf_roundtrip: %s\n", e.what());
        return e.code();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "gltf_roundtrip: %s\n", e.what());
        return 1;
    }
    return 0;
}
