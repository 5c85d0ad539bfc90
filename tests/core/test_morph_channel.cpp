// In-between shapes (core/morph_channel.h): the rule Maya and the FBX SDK follow, worked by hand
// on a channel whose shapes come out of order, one negative and one at 100 %; and the joystick
// rig driving such a channel by its name. tests/io/test_fbx_dcc.cpp checks the same rule against
// Maya's own OBJ exports of maya_blend_inbetween.
#include <catch2/catch.hpp>

#include "rigscope/core/joystick.h"
#include "rigscope/core/morph_channel.h"
#include "rigscope/core/pose.h"

using namespace rigscope;

namespace {

// Three shapes: target 0 whole at 100 %, target 1 at -50 %, target 2 at 40 % (file order).
MorphChannel three_shapes() { return MorphChannel{"smile", {0, 1, 2}, {1.0, -0.5, 0.4}}; }

std::vector<float> at(const MorphChannel& ch, double w) {
    std::vector<float> out(3, 9.0f);
    morph_channel_weights(ch, w, out.data());
    return out;
}

}  // namespace

TEST_CASE("In-between shapes blend neighbours on the line of full weights", "[morph_channel]") {
    const MorphChannel ch = three_shapes();
    // Between the base (0) and the 40 % shape.
    CHECK(at(ch, 0.2) == std::vector<float>{0.0f, 0.0f, 0.5f});
    // Exactly on a shape.
    CHECK(at(ch, 0.4) == std::vector<float>{0.0f, 0.0f, 1.0f});
    // Between 40 % and 100 %: (0.7 - 0.4) / 0.6 of the way.
    const auto mid = at(ch, 0.7);
    CHECK(mid[0] == Approx(0.5));
    CHECK(mid[2] == Approx(0.5));
    CHECK(mid[1] == 0.0f);
    // Past the last shape: the 40 % - 100 % segment extrapolated.
    const auto past = at(ch, 1.5);
    CHECK(past[0] == Approx(1.1 / 0.6));
    CHECK(past[2] == Approx(1 - 1.1 / 0.6));
    // Negative side: between the base and the -50 % shape, then extrapolated past it.
    CHECK(at(ch, -0.25) == std::vector<float>{0.0f, 0.5f, 0.0f});
    CHECK(at(ch, -1.0) == std::vector<float>{0.0f, 2.0f, 0.0f});
    // At rest nothing moves.
    CHECK(at(ch, 0.0) == std::vector<float>{0.0f, 0.0f, 0.0f});
}

TEST_CASE("A channel with shapes on one side of zero extrapolates through the base", "[morph_channel]") {
    // One shape at 100 %: w / 1, negative weights included (Maya extrapolates them).
    const MorphChannel one{"a", {0}, {1.0}};
    std::vector<float> w(1);
    morph_channel_weights(one, -0.3, w.data());
    CHECK(w[0] == Approx(-0.3));
    morph_channel_weights(one, 2.0, w.data());
    CHECK(w[0] == Approx(2.0));
    // Only a negative shape at -80 %: a positive weight goes the other way along it.
    const MorphChannel neg{"b", {0}, {-0.8}};
    morph_channel_weights(neg, 0.4, w.data());
    CHECK(w[0] == Approx(-0.5));
    morph_channel_weights(neg, -0.4, w.data());
    CHECK(w[0] == Approx(0.5));
}

TEST_CASE("A joystick corner may name a channel of in-between shapes", "[morph_channel][joystick]") {
    Scene scene;
    scene.source = "inline";
    Node control;
    control.name = "CTRL";
    scene.nodes.push_back(control);
    Mesh mesh;
    mesh.name = "Face";
    mesh.positions.assign(1, Eigen::Vector3f::Zero());
    for (const char* name : {"smile@100", "smile@-50", "smile@40"}) mesh.targets.push_back(MorphTarget{name, {Eigen::Vector3f::Zero()}});
    mesh.default_weights.assign(3, 0.0f);
    mesh.channels.push_back(three_shapes());
    scene.meshes.push_back(mesh);

    Rig rig;
    rig.source = "rig.json";
    RigControl rc;
    rc.name = "mouth";
    rc.node = "CTRL";
    rc.mesh = "Face";
    rc.axes = {SignedAxis{0, 1}, SignedAxis{1, 1}};
    rc.travel = {Travel{-1, 1}, Travel{-1, 1}};
    rc.targets[0] = "smile";  // up_left
    rig.controls.push_back(rc);
    const ResolvedRig resolved = resolve_rig(rig, scene);
    REQUIRE(resolved.driven.size() == 3);

    Pose pose = rest_pose(scene);
    pose.local[0].translation = Eigen::Vector3d(-1, 0.7, 0);  // up_left corner at 0.7
    apply_rig(resolved, scene, pose);
    CHECK(pose.morph_weights[0][0] == Approx(0.5));
    CHECK(pose.morph_weights[0][2] == Approx(0.5));
    CHECK(pose.morph_weights[0][1] == 0.0f);

    rig.controls[0].targets[0] = "frown";
    CHECK_THROWS_WITH(resolve_rig(rig, scene), Catch::Contains("no morph target 'frown'") && Catch::Contains("smile"));
}
