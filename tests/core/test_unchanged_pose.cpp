// MeshTension::evaluate skips a pose whose inputs are the frame before's, bit for bit
// (MeshDeformer::pose_unchanged): what it keeps must be what a fresh evaluation gives, and any
// change (a joint, a morph weight, positions given by hand in between) must evaluate again.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>

#include "clip_poses.h"
#include "corpus.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/tension_map.h"
#include "rigscope/io/load.h"

using namespace rigscope;

namespace {

Pose at(const Scene& s, double time) { return test::clip_pose(s, time); }
std::vector<Eigen::Vector3f> bind_of(const Scene& s, int mesh) { return test::bind_positions(s, mesh); }

// T and positions of a MeshTension made for this one pose.
MeshTension fresh(const Scene& s, const Pose& p) {
    MeshTension mt(s, 0, true, bind_of(s, 0));
    mt.evaluate(s, p);
    return mt;
}

bool same(const MeshTension& a, const MeshTension& b) {
    return a.t.size() == b.t.size() && std::memcmp(a.t.data(), b.t.data(), a.t.size() * sizeof(float)) == 0 &&
           std::memcmp(a.deformed.data(), b.deformed.data(), a.deformed.size() * sizeof(a.deformed[0])) == 0 &&
           a.degenerate == b.degenerate;
}

}  // namespace

TEST_CASE("A pose that did not change is not evaluated again, and what is kept is a fresh evaluation's", "[tension_map][unchanged]") {
    const Scene s = load_scene(test::corpus("bend_cylinder/bend_cylinder.glb"));
    REQUIRE(!s.clips.empty());
    const Clip& c = s.clips[0];
    const Pose a = at(s, c.start + 0.3 * (c.end - c.start)), b = at(s, c.start + 0.7 * (c.end - c.start));
    MeshTension mt(s, 0, true, bind_of(s, 0));
    mt.evaluate(s, a);
    CHECK_FALSE(mt.deformer.pose_unchanged());  // the first pose
    CHECK(same(mt, fresh(s, a)));
    mt.evaluate(s, a);
    CHECK(mt.deformer.pose_unchanged());
    CHECK(same(mt, fresh(s, a)));
    mt.evaluate(s, b);
    CHECK_FALSE(mt.deformer.pose_unchanged());
    CHECK(same(mt, fresh(s, b)));
    CHECK_FALSE(same(mt, fresh(s, a)));  // the two poses differ, so the checks above can fail

    // Positions given by hand in between: the same pose again is evaluated again.
    mt.evaluate_positions(bind_of(s, 0));
    mt.evaluate(s, b);
    CHECK(mt.deformer.pose_unchanged());
    CHECK(same(mt, fresh(s, b)));

    // One joint moved by a millimetre: evaluated again.
    Pose nudged = b;
    const int joint = s.skins[s.meshes[0].skin].joints.back();
    nudged.world[joint](0, 3) += 1e-3;
    mt.evaluate(s, nudged);
    CHECK_FALSE(mt.deformer.pose_unchanged());
}
