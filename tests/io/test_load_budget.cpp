// One memory budget for every reader (src/io/load_budget.h, issue 43 item 4): a running total
// with one message, whatever the format. The readers are each given a limit below their file's
// size and must all refuse in the same words, naming the file and the limit and not the CLI's
// option (the CLI and Python add that: name_memory_option).
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>

#include "corpus.h"
#include "io/load_budget.h"
#include "rigscope/core/error.h"
#include "rigscope/io/load.h"
#include "rigscope/io/point_cache_reader.h"

using namespace rigscope;

TEST_CASE("the load budget is a running total with one message", "[load_budget]") {
    LoadBudget b("f.glb", 10 << 20);
    b.charge(4 << 20, "the file");
    CHECK(b.held() == 4u << 20);
    CHECK(b.try_charge(5 << 20, "the buffers").empty());
    CHECK(b.left() == 1u << 20);
    // The check that tips the total over names what it was for, its size, the limit and what
    // was held; nothing is charged by a refusal.
    const std::string m = b.try_charge(2 << 20, "accessors[3]");
    CHECK(m == "accessors[3] would take 2.0 MiB, past the memory limit of 10 MiB with 9.0 MiB held already");
    CHECK(b.held() == 9u << 20);
    CHECK(b.check(1 << 20, "x").empty());
    CHECK_THROWS_WITH(b.charge(1536 << 10, "the last array"),
                      "f.glb: the last array would take 1.5 MiB, past the memory limit of 10 MiB with 9.0 MiB held already");
    CHECK(b.try_charge(3000, "a small one").empty());
    CHECK(b.check(1 << 20, "another").find("would take 1.0 MiB") != std::string::npos);
    CHECK(over_budget_message(3000, "x", 2000, 0) == "x would take 3 KiB, past the memory limit of 2 KiB");
    CHECK(over_budget_message(100, "x", 50, 0) == "x would take 100 bytes, past the memory limit of 50 bytes");
    b.release(3000);
    // A size from a file can be any double: negative, NaN and past 2^64 are refused, never wrapped.
    CHECK_FALSE(b.check(-1, "x").empty());
    CHECK_FALSE(b.check(std::nan(""), "x").empty());
    CHECK_FALSE(b.check(1e30, "x").empty());
    b.release(8u << 20);
    CHECK(b.held() == 1u << 20);
    b.release(100u << 20);  // more than held: back to nothing, not a wrap
    CHECK(b.held() == 0);
}

TEST_CASE("the CLI and Python name their own option for the limit", "[load_budget]") {
    const std::string m = "f.glb: " + over_budget_message(3e9, "accessors[0]", 100 << 20, 0);
    CHECK(name_memory_option(m, "--max-memory") == m + " (set by --max-memory)");
    CHECK(name_memory_option("f.glb: not a glTF file", "--max-memory") == "f.glb: not a glTF file");
}

TEST_CASE("every reader refuses a load past the limit in the same words", "[load_budget][corpus]") {
    const std::string dir = std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp";
    const std::string ply = dir + "/rigscope_budget.ply";
    {
        std::ofstream out(ply);
        out << "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
               "element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
        for (int i = 0; i < 200; ++i) out << "comment padding past the limit below\n";
    }
    const std::string pc2 = dir + "/rigscope_budget.pc2";
    {
        std::ofstream out(pc2, std::ios::binary);
        const int header[] = {1, 1000, 0, 0, 4};
        out.write("POINTCACHE2\0", 12);
        out.write(reinterpret_cast<const char*>(header), sizeof header);
        const float one = 1.0f, rate = 1.0f;
        out.seekp(20);
        out.write(reinterpret_cast<const char*>(&one), 4);  // start frame
        out.write(reinterpret_cast<const char*>(&rate), 4);
        out.seekp(32 + 4 * 1000 * 12 - 1);
        out.put('\0');
    }
    const std::vector<std::string> files = {
        test::corpus("bend_cylinder/bend_cylinder.glb"), test::corpus("bend_cylinder/bend_cylinder.fbx"),
        test::source_dir() + "/tests/collada/bend_cylinder.dae", test::corpus("ufbx_dcc/blender440_shape_weight_anim_15.obj"),
        ply, test::corpus("usd/lbs.usda"), test::corpus("usd/RiggedSimple.usdz")};
    LoadOptions tiny;
    tiny.max_memory = 512;  // below every file's size
    for (const std::string& f : files) {
        INFO(f);
        CHECK_THROWS_WITH(load_scene(f, tiny), Catch::StartsWith(f + ": ") && Catch::Contains(" would take ") &&
                                                   Catch::Contains("past the memory limit of 512 bytes") &&
                                                   !Catch::Contains("--max-memory"));
        // Within the default limit the same file loads (the refusal above was the budget's).
        CHECK_NOTHROW(load_scene(f));
    }
    LoadOptions small;
    small.max_memory = 40000;  // the cache's four samples of 1000 points take 48000 bytes
    CHECK_THROWS_WITH(open_point_cache(pc2, 24.0, small),
                      Catch::StartsWith(pc2 + ": ") && Catch::Contains("past the memory limit of 39 KiB"));
    CHECK_NOTHROW(open_point_cache(pc2, 24.0, LoadOptions{}));
    std::remove(ply.c_str());
    std::remove(pc2.c_str());
}
