// The OBJ reader's indices (src/io/obj/obj_reader.cpp): a negative index counts back from the
// last `v` read so far (-1 is the latest), the OBJ specification's relative form that Maya,
// Houdini and Blender's importers follow. The oracle is the same faces written with absolute
// indices, worked out by hand below.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "io/load_budget.h"
#include "io/obj/obj_reader.h"
#include "rigscope/core/error.h"

using namespace rigscope;

namespace {

ObjFile parse(const std::string& text) {
    LoadBudget budget("t.obj", 1u << 20);
    return parse_obj(text.data(), text.size(), "t.obj", budget);
}

}  // namespace

TEST_CASE("OBJ negative indices count back from the last vertex read so far", "[obj]") {
    // Two quads, each written right after its own four vertices with -4 -3 -2 -1: the second
    // quad is vertices 5..8 (0-based 4..7), not 4..1 as absolute indices would read them.
    const std::string relative =
        "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
        "f -4 -3 -2 -1\n"
        "v 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
        "f -4/-4 -3//-3 -2/-2/-2 -1\n";
    const std::string absolute =
        "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
        "f 1 2 3 4\n"
        "v 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n"
        "f 5 6 7 8\n";
    const ObjFile r = parse(relative), a = parse(absolute);
    REQUIRE(r.groups.size() == 1);
    REQUIRE(a.groups.size() == 1);
    CHECK(r.groups[0].face_offsets == std::vector<std::uint32_t>{0, 4, 8});
    CHECK(r.groups[0].face_indices == std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6, 7});
    CHECK(r.groups[0].face_indices == a.groups[0].face_indices);
}

TEST_CASE("OBJ negative and positive indices mix in one face", "[obj]") {
    // After three vertices, "f 1 -2 -1" is 0-based {0, 1, 2}; after five, "f -5 2 -1" is {0, 1, 4}.
    const ObjFile f = parse("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 -2 -1\nv 2 0 0\nv 2 1 0\nf -5 2 -1\n");
    REQUIRE(f.groups.size() == 1);
    CHECK(f.groups[0].face_indices == std::vector<std::uint32_t>{0, 1, 2, 0, 1, 4});
}

TEST_CASE("OBJ negative index before the first vertex is refused naming the line", "[obj]") {
    CHECK_THROWS_WITH(parse("v 0 0 0\nv 1 0 0\nv 0 1 0\nf -1 -2 -4\n"),
                      Catch::Contains("t.obj: line 4: vertex index -4 before the first vertex (3 so far)"));
}
