// Rig lint's pure checks on scenes built here, each defect planted at a known vertex or joint:
// found, and found only there. The corpus cases (cesium_man's sums, planted glTF files) are in
// tests/cli/lint/lint.sh.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "rigscope/core/lint.h"
#include "rigscope/io/lint_report.h"

using namespace rigscope;

namespace {

// A strip of 2 x 5 vertices over x in {-2, -1, 0, 1, 2}, y in {0, 1}, as quads, symmetric in x:
// joints Root (centre), Arm_L (x > 0) and Arm_R (x < 0). Vertex 2k is (k - 2, 0), 2k+1 is
// (k - 2, 1). Weights: |x| / 2 on the side's arm, the rest on Root (no zero weights, as readers
// drop them).
Scene strip() {
    Scene s;
    s.format = "test";
    for (const char* name : {"Root", "Arm_L", "Arm_R"}) {
        Node n;
        n.name = name;
        s.nodes.push_back(n);
    }
    Skin skin;
    skin.name = "skin";
    skin.joints = {0, 1, 2};
    skin.inverse_bind.assign(3, Eigen::Matrix4d::Identity());
    s.skins.push_back(skin);
    Mesh m;
    m.name = "strip";
    m.skin = 0;
    m.influences.offsets.push_back(0);
    for (int k = 0; k < 5; ++k)
        for (int y = 0; y < 2; ++y) {
            const float x = static_cast<float>(k - 2);
            m.positions.emplace_back(x, static_cast<float>(y), 0.0f);
            const float side = std::abs(x) / 2;
            if (side < 1) {
                m.influences.joints.push_back(0);
                m.influences.weights.push_back(1 - side);
            }
            if (side > 0) {
                m.influences.joints.push_back(x > 0 ? 1 : 2);
                m.influences.weights.push_back(side);
            }
            m.influences.offsets.push_back(static_cast<std::uint32_t>(m.influences.joints.size()));
        }
    m.influences.stored_sums.assign(m.positions.size(), 1.0f);
    for (std::uint32_t k = 0; k < 4; ++k) {
        for (std::uint32_t v : {2 * k, 2 * k + 2, 2 * k + 3, 2 * k + 1}) m.face_indices.push_back(v);
        m.face_offsets.push_back(static_cast<std::uint32_t>(m.face_indices.size()));
    }
    s.meshes.push_back(m);
    return s;
}

// Sets vertex v's influences (joints, weights) in place of its own.
void set_weights(Mesh& m, std::uint32_t v, const std::vector<std::pair<std::uint16_t, float>>& row) {
    Influences& inf = m.influences;
    const std::uint32_t b = inf.offsets[v], e = inf.offsets[v + 1];
    inf.joints.erase(inf.joints.begin() + b, inf.joints.begin() + e);
    inf.weights.erase(inf.weights.begin() + b, inf.weights.begin() + e);
    for (std::size_t k = 0; k < row.size(); ++k) {
        inf.joints.insert(inf.joints.begin() + b + k, row[k].first);
        inf.weights.insert(inf.weights.begin() + b + k, row[k].second);
    }
    const std::int64_t shift = static_cast<std::int64_t>(row.size()) - (e - b);
    for (std::size_t i = v + 1; i < inf.offsets.size(); ++i) inf.offsets[i] = static_cast<std::uint32_t>(inf.offsets[i] + shift);
}

std::vector<Finding> run(const Scene& s, const LintParams& p = {}) {
    std::vector<Finding> out;
    const std::vector<std::uint32_t> coincident = coincident_vertices(s.meshes[0].positions);
    lint_weights(s, 0, p, out);
    lint_seams(s, 0, coincident, p, out);
    lint_unused_joints(s, {0}, out);
    lint_mirror(s, 0, p, out);
    lint_faces(s, 0, coincident, p, out);
    lint_bind_pose(s, 0, p, out);
    lint_joint_scale(s, {0}, p, out);
    lint_legacy_binding(s, 0, out);
    return out;
}

std::set<std::int64_t> vertices_of(const std::vector<Finding>& all, const std::string& check) {
    std::set<std::int64_t> v;
    for (const Finding& f : all)
        if (f.check == check) v.insert(f.vertex);
    return v;
}

std::set<int> joints_of(const std::vector<Finding>& all, const std::string& check) {
    std::set<int> j;
    for (const Finding& f : all)
        if (f.check == check) j.insert(f.joint);
    return j;
}

LintParams mirrored() {
    LintParams p;
    p.mirror_axis = 0;
    return p;
}

}  // namespace

TEST_CASE("mirror names: the common left/right patterns, both ways, and --mirror-names first", "[lint]") {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"LeftArm", "RightArm"},         {"mixamorig:LeftHand", "mixamorig:RightHand"}, {"left_eye", "right_eye"},
        {"ARM_LEFT", "ARM_RIGHT"},       {"hand_L", "hand_R"},                          {"hand.L", "hand.R"},
        {"hand.L.001", "hand.R.001"},    {"arm_l", "arm_r"},                            {"arm_L_01", "arm_R_01"},
        {"thigh.l", "thigh.r"},          {"L_foot", "R_foot"},                          {"l_foot", "r_foot"},
        {"rig:L_clavicle", "rig:R_clavicle"}};
    for (const auto& [a, b] : cases) {
        CHECK(mirror_joint_name(a) == b);
        CHECK(mirror_joint_name(b) == a);
    }
    // Centre joints and names that only look like a side keep their name.
    for (const char* centre : {"Spine", "Hips", "Bone.001", "neck_01", "Root", "_L", "L_", "Lower", "arm_Lx", "Ring"})
        CHECK(mirror_joint_name(centre) == centre);
    // Extra pairs come first, either way round.
    const std::vector<std::pair<std::string, std::string>> extra = {{"Lf", "Rt"}};
    CHECK(mirror_joint_name("armLf", extra) == "armRt");
    CHECK(mirror_joint_name("armRt", extra) == "armLf");
    CHECK(mirror_joint_name("LeftArm", extra) == "RightArm");
}

TEST_CASE("lint: a clean symmetric strip gives only what is true of it", "[lint]") {
    const std::vector<Finding> all = run(strip(), mirrored());
    // Every check runs, the mirror too; the strip has none of the defects.
    for (const Finding& f : all) INFO(f.check << " " << f.vertex << " " << f.message);
    CHECK(all.empty());
}

TEST_CASE("lint: each planted weight defect is found at its vertex only", "[lint]") {
    SECTION("weights_sum: a stored sum off 1 at vertex 3") {
        Scene s = strip();
        s.meshes[0].influences.stored_sums[3] = 0.9f;
        const auto all = run(s);
        CHECK(vertices_of(all, "weights_sum") == std::set<std::int64_t>{3});
        s.meshes[0].influences.stored_sums[3] = 1.0009f;  // within the 1e-3 tolerance
        CHECK(vertices_of(run(s), "weights_sum").empty());
    }
    SECTION("weights_sum without stored sums: a warning that it was not checked, never a pass") {
        Scene s = strip();
        s.meshes[0].influences.stored_sums.clear();
        const auto all = run(s);
        REQUIRE(vertices_of(all, "weights_sum") == std::set<std::int64_t>{-1});
        for (const Finding& f : all)
            if (f.check == "weights_sum") CHECK(f.severity == Severity::Warning);
    }
    SECTION("influences: five at vertex 7") {
        Scene s = strip();
        set_weights(s.meshes[0], 7, {{0, 0.2f}, {1, 0.2f}, {2, 0.2f}, {0, 0.2f}, {1, 0.2f}});
        CHECK(vertices_of(run(s), "influences") == std::set<std::int64_t>{7});
        LintParams p;
        p.max_influences = 5;
        CHECK(vertices_of(run(s, p), "influences").empty());
    }
    SECTION("small_weight: 5e-4 at vertex 6, the stored value (normalised times the stored sum)") {
        Scene s = strip();
        set_weights(s.meshes[0], 6, {{0, 0.9995f}, {1, 0.0005f}});
        CHECK(vertices_of(run(s), "small_weight") == std::set<std::int64_t>{6});
        s.meshes[0].influences.stored_sums[6] = 4.0f;  // stored as 0.002: not small
        CHECK(vertices_of(run(s), "small_weight").empty());
    }
    SECTION("unweighted: vertex 5 without influences") {
        Scene s = strip();
        set_weights(s.meshes[0], 5, {});
        CHECK(vertices_of(run(s), "unweighted") == std::set<std::int64_t>{5});
    }
}

TEST_CASE("lint: seams, unused joints, scale, bind pose, faces", "[lint]") {
    SECTION("seam_weights: a copy of vertex 4 with other weights") {
        Scene s = strip();
        Mesh& m = s.meshes[0];
        m.positions.push_back(m.positions[4]);  // vertex 10 at vertex 4's place
        m.influences.joints.push_back(1);
        m.influences.weights.push_back(1.0f);
        m.influences.offsets.push_back(static_cast<std::uint32_t>(m.influences.joints.size()));
        m.influences.stored_sums.push_back(1.0f);
        const auto all = run(s);
        REQUIRE(vertices_of(all, "seam_weights") == std::set<std::int64_t>{10});
        for (const Finding& f : all)
            if (f.check == "seam_weights") CHECK(f.partner == 4);
        // The same weights at the copy: no finding.
        m.influences.joints.back() = 0;
        CHECK(vertices_of(run(s), "seam_weights").empty());
    }
    SECTION("seam_weights: judged at --weight-tolerance itself, not a multiple of it") {
        // A copy of vertex 6 (0.5 Root, 0.5 Arm_L) whose weights differ by 1.5 and 0.5 times the
        // tolerance: only the first is a finding. A check that compared against ten times the
        // tolerance (a defect once planted) passes both, and fails here.
        for (double tol : {1e-3, 1e-2}) {
            LintParams p;
            p.weight_tolerance = tol;
            for (double times : {1.5, 0.5}) {
                Scene s = strip();
                Mesh& m = s.meshes[0];
                const float d = static_cast<float>(times * tol);
                m.positions.push_back(m.positions[6]);  // vertex 10 at vertex 6's place
                m.influences.joints.push_back(0);
                m.influences.weights.push_back(0.5f - d);
                m.influences.joints.push_back(1);
                m.influences.weights.push_back(0.5f + d);
                m.influences.offsets.push_back(static_cast<std::uint32_t>(m.influences.joints.size()));
                m.influences.stored_sums.push_back(1.0f);
                const auto seams = vertices_of(run(s, p), "seam_weights");
                INFO("tolerance " << tol << ", difference " << times << " x tolerance");
                if (times > 1)
                    CHECK(seams == std::set<std::int64_t>{10});
                else
                    CHECK(seams.empty());
            }
        }
    }
    SECTION("unused_joint: a fourth joint that weighs nothing") {
        Scene s = strip();
        Node extra;
        extra.name = "Spare";
        s.nodes.push_back(extra);
        s.skins[0].joints.push_back(3);
        s.skins[0].inverse_bind.push_back(Eigen::Matrix4d::Identity());
        CHECK(joints_of(run(s), "unused_joint") == std::set<int>{3});
    }
    SECTION("joint_scale: negative on Arm_R, non-uniform on Arm_L") {
        Scene s = strip();
        s.nodes[2].rest.scale = Eigen::Vector3d(-1, 1, 1);
        CHECK(joints_of(run(s), "joint_scale") == std::set<int>{2});
        s.nodes[2].rest.scale = Eigen::Vector3d(1, 1, 1);
        s.nodes[1].rest.scale = Eigen::Vector3d(1, 1.01, 1);
        CHECK(joints_of(run(s), "joint_scale") == std::set<int>{1});
        s.nodes[1].rest.scale = Eigen::Vector3d(1, 1.0005, 1);  // within 1e-3
        CHECK(joints_of(run(s), "joint_scale").empty());
    }
    SECTION("legacy_binding: the reader's reason, once, at the mesh") {
        Scene s = strip();
        CHECK(vertices_of(run(s), "legacy_binding").empty());
        s.skins[0].legacy_binding = "bound the old way";
        std::vector<Finding> found;
        for (const Finding& f : run(s))
            if (f.check == "legacy_binding") found.push_back(f);
        REQUIRE(found.size() == 1);
        CHECK(found[0].message == "bound the old way");
        CHECK(found[0].mesh == 0);
        CHECK(found[0].severity == Severity::Warning);
        s.meshes[0].skin = -1;  // an unskinned mesh has no binding to judge
        CHECK(vertices_of(run(s), "legacy_binding").empty());
    }
    SECTION("bind_pose: Arm_L's rest moved off its bind") {
        Scene s = strip();
        s.nodes[1].rest.translation = Eigen::Vector3d(0, 0, 0.1);
        CHECK(joints_of(run(s), "bind_pose") == std::set<int>{1});
    }
    SECTION("degenerate_face: face 2 collapsed to a line, and an edge of three faces") {
        Scene s = strip();
        Mesh& m = s.meshes[0];
        // Face 2 is (4, 6, 7, 5): put 6 and 7 onto 4 and 5's line.
        m.face_indices[9] = 5;
        m.face_indices[10] = 4;
        auto all = run(s);
        std::set<std::int64_t> faces;
        for (const Finding& f : all)
            if (f.check == "degenerate_face" && f.face >= 0) faces.insert(f.face);
        CHECK(faces == std::set<std::int64_t>{2});
        // A fifth face over the edge 2-3, which faces 0 and 1 already share.
        s = strip();
        for (std::uint32_t v : {2u, 3u, 9u}) s.meshes[0].face_indices.push_back(v);
        s.meshes[0].face_offsets.push_back(static_cast<std::uint32_t>(s.meshes[0].face_indices.size()));
        all = run(s);
        std::vector<std::pair<std::int64_t, std::int64_t>> edges;
        for (const Finding& f : all)
            if (f.check == "degenerate_face") edges.emplace_back(f.vertex, f.partner);
        CHECK(edges == std::vector<std::pair<std::int64_t, std::int64_t>>{{2, 3}});
    }
}

TEST_CASE("lint mirror: a weight off on one side is one finding at the pair, a moved vertex has no partner", "[lint]") {
    SECTION("weights") {
        Scene s = strip();
        set_weights(s.meshes[0], 8, {{0, 0.5f}, {1, 0.5f}});  // (2, 0): Arm_L 0.5, its partner (-2, 0) has Arm_R 1
        const auto all = run(s, mirrored());
        REQUIRE(vertices_of(all, "mirror") == std::set<std::int64_t>{8});
        for (const Finding& f : all)
            if (f.check == "mirror") CHECK(f.partner == 0);
        // Without the name patterns the joints do not swap: every off-centre vertex differs.
        LintParams p = mirrored();
        p.mirror_names = {{"Arm_L", "Arm_L"}};
        CHECK(vertices_of(run(strip(), p), "mirror").size() > 1);
    }
    SECTION("the same weights on a -x vertex are found from its +x partner") {
        Scene s = strip();
        set_weights(s.meshes[0], 1, {{0, 0.5f}, {2, 0.5f}});  // (-2, 1); partner 9 at (2, 1)
        const auto all = run(s, mirrored());
        REQUIRE(vertices_of(all, "mirror") == std::set<std::int64_t>{9});
    }
    SECTION("centre vertices are their own partners: Arm_L on one needs as much Arm_R") {
        Scene s = strip();
        set_weights(s.meshes[0], 4, {{0, 0.8f}, {1, 0.2f}});
        CHECK(vertices_of(run(s, mirrored()), "mirror") == std::set<std::int64_t>{4});
        set_weights(s.meshes[0], 4, {{0, 0.6f}, {1, 0.2f}, {2, 0.2f}});
        CHECK(vertices_of(run(s, mirrored()), "mirror").empty());
    }
    SECTION("unpaired") {
        Scene s = strip();
        s.meshes[0].positions[7].x() += 0.01f;  // (1.01, 1): 7 has no partner, and 3 at (-1, 1) lost its
        const auto all = run(s, mirrored());
        CHECK(vertices_of(all, "mirror_unpaired") == std::set<std::int64_t>{3, 7});
        CHECK(vertices_of(all, "mirror").empty());
    }
    SECTION("a joint whose mirror is not in the skin is named, not passed") {
        Scene s = strip();
        s.nodes[2].name = "Arm_X";
        const auto all = run(s, mirrored());
        CHECK(joints_of(all, "mirror").count(1) == 1);
    }
}

TEST_CASE("lint report: exit rule, text and JUnit per check", "[lint]") {
    LintResult r;
    r.file = "dir/rig.glb";
    r.checks = {"weights_sum", "small_weight"};
    r.mesh_names = {"Body"};
    Finding f;
    f.check = "small_weight";
    f.severity = Severity::Warning;
    f.mesh = 0;
    f.vertex = 12;
    f.message = "weight 0.0005 on joint 'A', below 0.001";
    r.findings.push_back(f);
    CHECK_FALSE(r.failed());
    r.strict = true;
    CHECK(r.failed());
    const std::string text = lint_text(r, 20);
    CHECK(text.find("warning small_weight 'Body' vertex 12: weight 0.0005") != std::string::npos);
    CHECK(text.substr(text.size() - 5) == "FAIL\n");
    const std::string xml = lint_junit(r, CheckRunInfo{"2026-12-01T00:00:00", 1.0, "host"}, 20);
    CHECK(xml.find("name=\"weights_sum\"") != std::string::npos);
    CHECK(xml.find("tests=\"2\" failures=\"1\"") != std::string::npos);
}
