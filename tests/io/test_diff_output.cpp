// diff's writers (src/io/writers/diff_output.cpp): what write_glb refuses in NEW's scene is NEW's fault
// (exit 3), not an internal error.
#include <catch2/catch.hpp>

#include "rigscope/core/error.h"
#include "rigscope/io/diff_output.h"
#include "temp_dir.h"

TEST_CASE("diff glTF: a scene the writer refuses is bad input named for NEW", "[diff_output]") {
    using namespace rigscope;
    DiffResult r;
    r.new_file = "new.glb";
    r.new_scene.source = "new.glb";  // as the loaded NEW scene names its file
    Mesh m;
    m.name = "body";
    m.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    m.face_indices = {0, 1, 5};  // a face index past the vertices
    m.face_offsets = {0, 3};
    r.new_scene.meshes.push_back(m);
    DiffMeshResult dm;
    dm.new_mesh = 0;
    dm.compared_of_new = {0, 1, 2};
    r.meshes.push_back(dm);
    DiffMesh e;
    e.displacement = {0.0f, 0.5f, 1.0f};
    r.extremes.push_back(e);
    rigscope_test::TempDir dir;
    OutputFile out(dir.file("diff.glb"));
    try {
        write_diff_gltf(r, out);
        FAIL("write_diff_gltf accepted a face index past the vertices");
    } catch (const Error& err) {
        CHECK(err.code() == kExitBadInput);
        CHECK(std::string(err.what()).find("new.glb: cannot be written as glTF") == 0);
    }
}
