#include <catch2/catch.hpp>

#include "rigscope/io/check_report.h"
#include "rigscope/io/diff_report.h"

using namespace rigscope;

namespace {

// Three welded vertices: 0 stands for file vertices 0, 7 and 9; 1 for file vertex 3; 2 for the
// rest, and stays within every limit.
CheckMeshExtremes two_vertices(const std::string& name) {
    CheckMeshExtremes e;
    e.name = name;
    set_file_ids(e, {0, 2, 2, 1, 2, 2, 2, 0, 2, 0}, 3);
    e.lo_t = {0.5f, 0.9f, 1.0f};
    e.hi_t = {1.0f, 2.5f, 1.0f};
    e.lo_frame = {Frame{false, 12, 0.5}, Frame{false, 3, 0.125}, Frame{false, 1, 0.0}};
    e.hi_frame = {Frame{false, 1, 0.0}, Frame{false, 40, 1.6}, Frame{false, 1, 0.0}};
    return e;
}

CheckRunInfo run_info() {
    CheckRunInfo r;
    r.timestamp = "2026-01-02T03:04:05";
    r.seconds = 1.25;
    r.hostname = "farm01";
    return r;
}

// What a check writes for these limits: judged once, then written (as run_check and merge do).
CheckOutcome judged_outcome(const CheckLimits& limits, const CheckRunInfo& run, const std::vector<CheckMeshExtremes>& meshes,
                            const CheckRom* rom = nullptr) {
    return check_outcome(judge_check(limits, meshes), run, meshes, rom);
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("check report: class names rigscope.check.<path>.<clip>.<mesh>, each part an injective code", "[check_report]") {
    // Hand-written by the rule (io/junit_report.h): letters, digits, '_', '-' and non-ASCII UTF-8
    // stay, every other byte is ~HH, an empty part is "~"; folders are package levels.
    CheckLimits l;
    l.file = "data/bend_cylinder.glb";
    l.clip = "Walk";
    CHECK(junit_class_name(l, "Cylinder", 0) == "rigscope.check.bend_cylinder~2Eglb.Walk.Cylinder");
    l.file = "/a/b.c/my rig.v2.fbx";
    l.clip = "Take 001";
    CHECK(junit_class_name(l, "arm.L 01", 3) == "rigscope.check.my~20rig~2Ev2~2Efbx.Take~20001.arm~2EL~2001");
    l.relpath = "chars/b.c/rig.glb";
    l.clip = "";
    CHECK(junit_class_name(l, "", 2) == "rigscope.check.chars.b~2Ec.rig~2Eglb.~.~m2");
    CHECK(junit_key_part("épée<1>") == "épée~3C1~3E");
    // Names a dot-to-underscore rule, or Jenkins' safe() (which makes '/' '_'), would join stay apart.
    CHECK(junit_path_key("c.d/rig.glb") != junit_path_key("c_d.rig.glb"));
    CHECK(junit_key_part("a.b") != junit_key_part("a_b"));
    CHECK(junit_key_part("a/b") != junit_key_part("a_b"));
    CHECK(junit_key_part("~7E") != junit_key_part("~"));
    // No part holds a dot (the split) or a character Jenkins' safe() changes; a path's dots are
    // its folder levels only.
    CHECK(junit_key_part("a/b\\c:d?e#f%g<h>i.j k").find_first_of("/\\:?#%<>. ") == std::string::npos);
    CHECK(junit_path_key("x y/z.w") == "x~20y.z~2Ew");
}

TEST_CASE("check report: the file ids of each welded vertex, ascending", "[check_report]") {
    const CheckMeshExtremes e = two_vertices("m");
    CHECK(e.file_offsets == std::vector<std::uint32_t>{0, 3, 4, 10});
    CHECK(e.file_ids == std::vector<std::uint32_t>{0, 7, 9, 3, 1, 2, 4, 5, 6, 8});
}

TEST_CASE("check report: counts are of welded vertices, with every file id of each offender", "[check_report]") {
    CheckLimits limits;
    limits.has_stretch = limits.has_compress = true;
    limits.max_stretch = 0.8;
    limits.max_compress = 2;
    limits.file = "rig.glb";
    const CheckOutcome o = judged_outcome(limits, run_info(), {two_vertices("body")});
    CHECK(o.failed);
    CHECK(contains(o.report, "stretch limit T < 0.8: 1 welded vertex (3 file vertices) past the limit\n"));
    CHECK(contains(o.report, "  mesh 'body' file vertices 0, 7, 9 (one welded vertex) frame 12: T = 0.5\n"));
    CHECK(contains(o.report, "compress limit T > 2: 1 welded vertex (1 file vertex) past the limit\n"));
    CHECK(contains(o.report, "  mesh 'body' file vertex 3 frame 40: T = 2.5\n"));
}

TEST_CASE("check report: JUnit attributes the schemas require, a test case per mesh and limit", "[check_report]") {
    CheckLimits limits;
    limits.has_stretch = true;
    limits.max_stretch = 0.6;
    limits.file = "dir/rig.glb";
    const CheckOutcome o = judged_outcome(limits, run_info(), {two_vertices("a"), two_vertices("b")});
    const std::string& x = o.junit;
    CHECK(contains(x, "<testsuite name=\"rig\" package=\"rigscope.check\" id=\"0\" tests=\"2\" failures=\"2\" errors=\"0\" "
                      "skipped=\"0\" time=\"1.250\" timestamp=\"2026-01-02T03:04:05\" hostname=\"farm01\">"));
    CHECK(contains(x, "<testcase classname=\"rigscope.check.rig~2Eglb.~.a\" name=\"stretch T &lt; 0.6\" time=\"0\">"));
    CHECK(contains(x, "<testcase classname=\"rigscope.check.rig~2Eglb.~.b\" name=\"stretch T &lt; 0.6\" time=\"0\">"));
    CHECK(contains(x, "<failure type=\"rigscope.check.stretch\" message=\"1 welded vertex (3 file vertices) past the limit\">"));
    CHECK(contains(x, "<property name=\"max_stretch\" value=\"0.6\"/>"));
    CHECK(contains(x, "<system-out>stretch limit T &lt; 0.6"));
}

TEST_CASE("check report: names from files cannot break the XML", "[check_report]") {
    CheckLimits limits;
    limits.has_stretch = true;
    limits.max_stretch = 0.6;
    limits.file = "r.glb";
    // A control character, an invalid UTF-8 byte, a truncated sequence, markup; then valid UTF-8.
    const std::string name = std::string("a\x01") + "\xff" + "<&\"" + "\xc3" + " \xc3\xa9";
    const CheckOutcome o = judged_outcome(limits, run_info(), {two_vertices(name)});
    CHECK(contains(o.junit, "mesh 'a??&lt;&amp;&quot;? \xc3\xa9' file vertices"));
    for (char c : o.junit) {
        const auto u = static_cast<unsigned char>(c);
        CHECK((u >= 0x20 || c == '\n'));
        CHECK(u != 0xff);
    }
}

TEST_CASE("check report: a ROM run names each offender's joint, axis and signed angle", "[check_report]") {
    // Two joints, 8 frames per sweep, 40 degrees: frame f of sweep [s, s + 8] is at u = (f - s) / 2
    // quarter sweeps, the angle 40 * (u, 2 - u or u - 4) on the rise, fall and return.
    CheckRom rom;
    rom.plan.angle_deg = 40;
    rom.plan.frames_per_sweep = 8;
    for (int k = 0; k < 6; ++k) rom.plan.sweeps.push_back(RomSweep{k / 3, k % 3, 8L * k, 8L * k + 8, k < 3 ? "root" : "arm.L"});
    for (long f = 0; f <= 48; ++f) {
        rom.frames.push_back(Frame{false, f, f / 24.0});
        rom.failed.push_back(f == 13 || f == 14 || f == 42);
    }
    CheckMeshExtremes e = two_vertices("body");
    e.lo_frame[0] = Frame{false, 13, 0};  // root Y, u = 2.5: -20 degrees
    e.hi_frame[1] = Frame{false, 42, 0};  // arm.L Z, u = 1: +40 degrees
    CheckLimits limits;
    limits.has_stretch = limits.has_compress = true;
    limits.max_stretch = 0.8;
    limits.max_compress = 2;
    limits.file = "rig.glb";
    const CheckOutcome o = judged_outcome(limits, run_info(), {e}, &rom);
    CHECK(contains(o.report, "  mesh 'body' file vertices 0, 7, 9 (one welded vertex) frame 13 (joint 'root' axis Y at -20 deg): T = 0.5\n"));
    CHECK(contains(o.report, "  mesh 'body' file vertex 3 frame 42 (joint 'arm.L' axis Z at +40 deg): T = 2.5\n"));
    CHECK(contains(o.report, "FAIL\nROM frames 13..14: joint 'root' axis Y (-40 to -20 deg)\nROM frame 42: joint 'arm.L' axis Z (+40 deg)\n"));
    CHECK(contains(o.junit, "message=\"1 welded vertex (3 file vertices) past the limit; the worst at frame 13: joint 'root' axis Y at -20 deg\">"));
    CHECK(contains(o.junit, "message=\"1 welded vertex (1 file vertex) past the limit; the worst at frame 42: joint 'arm.L' axis Z at +40 deg\">"));
    // Without the ROM, the same extremes are reported without joints.
    const CheckOutcome plain = judged_outcome(limits, run_info(), {e});
    CHECK(contains(plain.report, "frame 13: T = 0.5\n"));
    CHECK(!contains(plain.report + plain.junit, "joint"));
}

TEST_CASE("diff report: JUnit through check's writer, with the attributes the schemas require", "[check_report]") {
    DiffMesh m;
    m.name = "body";
    m.diagonal = 2;
    m.regions = {"arm.L"};
    m.region = {0, 0};
    m.displacement = {0.5f, 0.0f};
    m.t_change = {0.25f, 0.0f};
    m.displacement_frame = m.t_change_frame = {Frame{false, 7, 0.0}, Frame{false, 1, 0.0}};
    const std::vector<DiffFrame> frames = {DiffFrame{Frame{false, 7, 0.0}, 0.5f, 0.25f, 0, 0, 0, 0}};
    const DiffLimits limits{0.1, 1, true, true, 10, "old/rig.glb", "new/rig.v2.glb"};
    const std::vector<DiffMesh> meshes = {m};
    const DiffVerdict judged = judge_diff(limits, meshes, frames);
    const CheckOutcome o = diff_outcome(DiffClipReport{&limits, &meshes, &frames, &judged}, run_info());
    const std::string& x = o.junit;
    CHECK(o.failed);
    CHECK(contains(x, "<testsuite name=\"rig_v2\" package=\"rigscope.diff\" id=\"0\" tests=\"2\" failures=\"1\" errors=\"0\" "
                      "skipped=\"0\" time=\"1.250\" timestamp=\"2026-01-02T03:04:05\" hostname=\"farm01\">"));
    CHECK(contains(x, "<property name=\"old\" value=\"old/rig.glb\"/>\n      <property name=\"new\" value=\"new/rig.v2.glb\"/>"));
    CHECK(contains(x, "<testcase classname=\"rigscope.diff.rig~2Ev2~2Eglb.~\" name=\"displacement &gt; 0.1\" time=\"0\">\n"
                      "      <failure type=\"rigscope.diff.displacement\" message=\"1 vertices past the limit\">"
                      "mesh 'body' vertex 0 (under 'arm.L') frame 7: moved 0.5 m (0.25 of the diagonal)\n</failure>"));
    CHECK(contains(x, "<testcase classname=\"rigscope.diff.rig~2Ev2~2Eglb.~\" name=\"|change in T| &gt; 1\" time=\"0\"/>"));
    CHECK(contains(x, "<system-out>diff old/rig.glb -&gt; new/rig.v2.glb\n"));
    CHECK(contains(o.report, "limit displacement > 0.1: 1 vertices past the limit\n  mesh 'body' vertex 0 (under 'arm.L') frame 7: moved"));
}

TEST_CASE("check report: lambda limits are reported as lambda, in the text, JUnit and JSON", "[check_report]") {
    // two_vertices: vertex 0's lowest stretch-side T is 0.5 (lambda_max 2), vertex 1's highest
    // compress-side T is 2.5 (lambda_min 0.4).
    CheckLimits limits;
    limits.has_max_lambda = limits.has_min_lambda = true;
    limits.max_lambda = 1.5;
    limits.min_lambda = 0.5;
    limits.file = "rig.glb";
    const CheckOutcome o = judged_outcome(limits, run_info(), {two_vertices("body")});
    CHECK(o.failed);
    CHECK(contains(o.report, "lambda_max limit > 1.5: 1 welded vertex (3 file vertices) past the limit\n"));
    CHECK(contains(o.report, "  mesh 'body' file vertices 0, 7, 9 (one welded vertex) frame 12: lambda_max = 2\n"));
    CHECK(contains(o.report, "lambda_min limit < 0.5: 1 welded vertex (1 file vertex) past the limit\n"));
    CHECK(contains(o.report, "  mesh 'body' file vertex 3 frame 40: lambda_min = 0.4\n"));
    CHECK(!contains(o.report, "T <"));
    CHECK(!contains(o.report, "T >"));
    CHECK(contains(o.junit, "<property name=\"max_lambda\" value=\"1.5\"/>"));
    CHECK(contains(o.junit, "name=\"lambda_min &lt; 0.5\""));
    CHECK(contains(o.junit, "type=\"rigscope.check.min_lambda\""));
    CHECK(contains(o.json, "{\"limit\":\"min_lambda\",\"value\":0.5,\"measure\":\"lambda_min\",\"welded_vertices\":1,\"file_vertices\":1"));
    // Limits a vertex stays within: a pass, and the lambda it reached is not reported.
    limits.max_lambda = 2.5;
    limits.min_lambda = 0.3;
    CHECK(!judged_outcome(limits, run_info(), {two_vertices("body")}).failed);
}

TEST_CASE("check report: with no frame evaluated nothing was checked, which never passes", "[check_report]") {
    CheckLimits limits;
    limits.has_compress = true;
    limits.max_compress = 1.5;
    limits.file = "rig.glb";
    CheckMeshExtremes empty;
    empty.name = "body";
    for (const auto& meshes : {std::vector<CheckMeshExtremes>{}, std::vector<CheckMeshExtremes>{empty}}) {
        const CheckOutcome o = judged_outcome(limits, run_info(), meshes);
        CHECK(o.failed);
        CHECK(contains(o.report, "nothing checked: no frame of any mesh was evaluated\nFAIL\n"));
        CHECK(contains(o.junit, "failures=\"1\""));
        CHECK(contains(o.json, "\"passed\":false,\"evaluated\":false"));
    }
}
