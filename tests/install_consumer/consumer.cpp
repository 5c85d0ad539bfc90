// Loads FILE through the installed run layer and prints "meshes vertices frames max_t" for the
// first mesh over every frame: what install.sh compares with the CLI's own output.
#include <cstdio>

#include "rigscope/run/tension_run.h"

int main(int argc, char** argv) {
    if (argc != 2) return 2;
    rigscope::TensionOptions opt;
    opt.input.file = argv[1];
    try {
        rigscope::Input in = rigscope::load_input(opt.input);
        std::vector<rigscope::MeshTension> meshes = rigscope::prepare_tension(in, opt);
        float max_t = 0;
        rigscope::for_each_tension_frame(in, meshes, [&](std::size_t) {
            for (float t : meshes[0].t) max_t = t > max_t ? t : max_t;
        });
        std::printf("%zu %zu %zu %.9g\n", in.meshes.size(), in.scene.meshes[in.meshes[0]].vertex_count(), in.frames.size(), max_t);
    } catch (const rigscope::Error& e) {
        std::fprintf(stderr, "consumer: %s\n", e.what());
        return 3;
    }
    return 0;
}
