// src/farm: the chunk records and their gathering, tested below the CLI (tests/cli/merge/merge.sh runs
// the same end to end). Records are written with chunk_record_json, as a chunk run writes them.
#include <catch2/catch.hpp>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "farm/merge_internal.h"
#include "rigscope/core/error.h"
#include "rigscope/farm/chunk.h"
#include "rigscope/farm/merge.h"
#include "temp_dir.h"

using namespace rigscope;

namespace {

int exit_code_of(const std::function<void()>& f, std::string* message = nullptr) {
    try {
        f();
    } catch (const Error& e) {
        if (message) *message = e.what();
        return e.code();
    }
    return 0;
}

// Chunk `index` of `count` of one tension run writing dir/t.csv.I, its record beside its output.
ChunkRecord chunk(const rigscope_test::TempDir& dir, int index, int count, const std::string& frames = "0..9") {
    ChunkRecord r;
    r.version = "test";
    r.command = "tension";
    r.index = index;
    r.count = count;
    r.output = dir.file("t" + std::to_string(index) + ".csv");
    r.options = {{"--frames", {frames}}, {"--format", {"csv"}}};
    InputFingerprint in;
    in.option = "FILE";
    in.path = "bend.glb";
    in.bytes = 10;
    in.fnv1a64 = "0123456789abcdef";
    r.inputs = {in};
    return r;
}

void write(const ChunkRecord& r) {
    std::ofstream(r.output) << "mesh,frame\n";
    std::ofstream(chunk_record_path(r.output, r.index)) << chunk_record_json(r);
}

}  // namespace

TEST_CASE("farm: --chunk I/N is parsed and bounded", "[farm]") {
    int i = -1, n = -1;
    parse_chunk_spec("0/2", i, n);
    CHECK((i == 0 && n == 2));
    parse_chunk_spec("99999/100000", i, n);
    CHECK((i == 99999 && n == kMaxChunkCount));
    for (const char* bad : {"2/2", "-1/2", "0/0", "1/100001", "a/b", "1", "1/2/3", ""}) {
        INFO(bad);
        CHECK(exit_code_of([&] { parse_chunk_spec(bad, i, n); }) == kExitUsage);
    }
}

TEST_CASE("farm: a chunk record reads back as it was written", "[farm]") {
    rigscope_test::TempDir dir("rigscope_farm");
    ChunkRecord r = chunk(dir, 1, 3);
    r.state = {{"extremes", "{\"t\":[1,2]}"}};
    write(r);
    const ChunkRecord back = read_chunk_record(chunk_record_path(r.output, 1));
    CHECK(back.version == r.version);
    CHECK(back.command == r.command);
    CHECK((back.index == 1 && back.count == 3));
    CHECK(back.output == r.output);
    CHECK(back.options == r.options);
    REQUIRE(back.inputs.size() == 1);
    CHECK(back.inputs[0].fnv1a64 == r.inputs[0].fnv1a64);
    CHECK(back.inputs[0].bytes == r.inputs[0].bytes);
    CHECK(back.state == r.state);
    // Not a record: exit 3; no record: exit 5 (the chunk has not run).
    std::ofstream(dir.file("x.chunk.json")) << "{}";
    CHECK(exit_code_of([&] { read_chunk_record(dir.file("x.chunk.json")); }) == kExitBadInput);
    CHECK(exit_code_of([&] { read_chunk_record(dir.file("none.chunk.json")); }) == kExitMismatch);
}

TEST_CASE("farm: gather_chunks takes one run's chunks once each, in order, and names what is wrong", "[farm]") {
    rigscope_test::TempDir dir("rigscope_farm");
    const ChunkRecord c0 = chunk(dir, 0, 3), c1 = chunk(dir, 1, 3), c2 = chunk(dir, 2, 3);
    for (const ChunkRecord& c : {c2, c0, c1}) write(c);
    const std::vector<ChunkRecord> all = gather_chunks({c2.output, c0.output, c1.output}, "test");
    REQUIRE(all.size() == 3);
    for (int i = 0; i < 3; ++i) CHECK(all[i].index == i);

    std::string msg;
    // A chunk missing: exit 5, its number named.
    CHECK(exit_code_of([&] { gather_chunks({c0.output, c2.output}, "test"); }, &msg) == kExitMismatch);
    CHECK_THAT(msg, Catch::Contains("1 chunks missing of 3: 1"));
    // A chunk given twice (its output and its record name one chunk: not a duplicate).
    CHECK(gather_chunks({c0.output, chunk_record_path(c0.output, 0), c1.output, c2.output}, "test").size() == 3);
    // Another binary's chunks.
    CHECK(exit_code_of([&] { gather_chunks({c0.output, c1.output, c2.output}, "other"); }, &msg) == kExitMismatch);
    CHECK_THAT(msg, Catch::Contains("merge with the rigscope that ran the chunks"));
    // A chunk of a run with other frames: not the same run.
    ChunkRecord odd = chunk(dir, 1, 3, "0..19");
    odd.output = dir.file("odd1.csv");
    write(odd);
    CHECK(exit_code_of([&] { gather_chunks({c0.output, odd.output, c2.output}, "test"); }, &msg) == kExitMismatch);
    CHECK_THAT(msg, Catch::Contains("chunks of different runs"));
    // Two records claiming index 1.
    ChunkRecord twin = chunk(dir, 1, 3);
    twin.output = dir.file("twin1.csv");
    write(twin);
    CHECK(exit_code_of([&] { gather_chunks({c0.output, c1.output, twin.output, c2.output}, "test"); }, &msg) == kExitMismatch);
    CHECK_THAT(msg, Catch::Contains("chunk 1/3 given 2 times"));
}

TEST_CASE("farm: a baked rivet's quaternion signs follow across chunks", "[farm]") {
    // Chunk 0 ends on q; chunk 1 starts on -q (the same rotation, the other sign): the whole of
    // chunk 1 flips, as a single run's key-to-key sign choice would have written it.
    merge_detail::QuaternionContinuity qc;
    const double q[4] = {0.1, 0.2, 0.3, 0.927};
    const double minus_q[4] = {-0.1, -0.2, -0.3, -0.927};
    qc.start_chunk();
    CHECK_FALSE(qc.flip("r0", q));
    qc.record("r0", q);
    qc.start_chunk();
    CHECK(qc.flip("r0", minus_q));
    // Decided once per chunk: every later key of the chunk flips alike, whatever its sign.
    CHECK(qc.flip("r0", q));
    // Another rivet is decided on its own.
    CHECK_FALSE(qc.flip("r1", minus_q));
}
