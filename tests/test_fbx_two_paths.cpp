// Every binary FBX of the corpus read through both paths: the file's own reader (read_fbx) and
// Assimp (fbx::read_fbx_assimp, the path binary FBX took before). Where they differ, the check
// below names the difference and why; everything else must agree.
//
// Known, intended differences:
// - mesh names: the model's name here, sometimes the geometry's in Assimp (matched by node then).
// - vertices: the new reader keeps every control point in file order; Assimp's path folds
//   unrolled corners back by position and weights in order of first use. So vertices are
//   matched by position (each Assimp vertex to the nearest control point), not by index, and
//   the control point count may be larger (distinct points at one position, unused points).
// - time: Assimp rebases each take to start at 0; the new reader keeps the file's timeline. A
//   frame f of the new reader is Assimp's time f / fps - take start.
// Tolerance: 1e-4 of the mesh diagonal (the tolerance for oracles); both read the same
// floats, so agreement is near float precision where both are right.
#include <catch2/catch.hpp>

#include "corpus.h"
#include "io/fbx_internal.h"
#include "rigscope/io/load.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/skin.h"

using namespace rigscope;

namespace {

double diagonal(const std::vector<Eigen::Vector3f>& p) {
    Eigen::Vector3f lo = p[0], hi = p[0];
    for (const auto& v : p) {
        lo = lo.cwiseMin(v);
        hi = hi.cwiseMax(v);
    }
    return (hi - lo).norm();
}

std::vector<std::size_t> nearest(const std::vector<Eigen::Vector3f>& from, const std::vector<Eigen::Vector3f>& to, double& worst) {
    std::vector<std::size_t> out(from.size());
    worst = 0;
    for (std::size_t i = 0; i < from.size(); ++i) {
        double best = INFINITY;
        for (std::size_t j = 0; j < to.size(); ++j) {
            const double d = (from[i] - to[j]).squaredNorm();
            if (d < best) {
                best = d;
                out[i] = j;
            }
        }
        worst = std::max(worst, std::sqrt(best));
    }
    return out;
}

}  // namespace

TEST_CASE("Binary FBX: the file's own reader and the Assimp path agree on the corpus", "[fbx][corpus][two_paths]") {
    const char* files[] = {"bend_cylinder/bend_cylinder.fbx", "joystick_face/joystick_face.fbx", "pab/arnaud.fbx", "pab/walk.fbx",
                           "assimp/FBX/huesitos.fbx", "assimp/FBX/animation_with_skeleton.fbx", "assimp/FBX/spider.fbx"};
    for (const char* file : files) {
        SECTION(file) {
            const Scene ours = load_scene(test::corpus(file));
            const Scene theirs = fbx::read_fbx_assimp(test::corpus(file), LoadOptions{});
            CHECK(ours.fps == theirs.fps);
            CHECK(ours.unit_scale == theirs.unit_scale);
            CHECK(ours.up_axis == theirs.up_axis);
            CHECK(ours.clips.size() == theirs.clips.size());
            for (const Mesh& tm : theirs.meshes) {
                int mi = -1;
                for (std::size_t m = 0; m < ours.meshes.size(); ++m)
                    if (ours.meshes[m].name == tm.name) mi = int(m);
                // Names: the new reader names a mesh after its model (the object the package
                // shows); Assimp sometimes after the geometry (animation_with_skeleton: model
                // 'Cube', geometry 'Cube.001'). Then the mesh on the node of that name.
                for (std::size_t m = 0; m < ours.meshes.size() && mi < 0; ++m)
                    if (ours.nodes[ours.meshes[m].node].name == theirs.nodes[tm.node].name) mi = int(m);
                INFO("mesh '" << tm.name << "'");
                REQUIRE(mi >= 0);
                const Mesh& om = ours.meshes[std::size_t(mi)];
                CHECK(om.vertex_count() >= tm.vertex_count());
                CHECK(om.face_count() == tm.face_count());
                CHECK(om.targets.size() == tm.targets.size());
                const int ti = int(&tm - theirs.meshes.data());
                std::vector<Eigen::Vector3f> a, b;
                deform_mesh(ours, mi, bind_pose(ours), a);
                deform_mesh(theirs, ti, bind_pose(theirs), b);
                const double tol = 1e-4 * diagonal(b);
                double worst = 0;
                const auto map = nearest(b, a, worst);
                CHECK(worst < tol);
                if (ours.clips.empty() || theirs.clips.empty()) continue;
                const Clip& oc = ours.clips[0];
                const Clip& tc = theirs.clips[0];
                Pose po = rest_pose(ours), pt = rest_pose(theirs);
                // Frames of the take that Assimp also covers (it keeps keys inside the take only).
                const long f0 = std::lround(oc.take_start * ours.fps), f1 = std::lround(oc.take_end * ours.fps);
                const long step = std::max(1L, (f1 - f0) / 12);
                for (long f = f0; f <= f1; f += step) {
                    const double t = double(f) / ours.fps;
                    const double tt = t - oc.take_start;
                    if (tt < tc.start - 1e-6 || tt > tc.end + 1e-6) continue;
                    sample_pose(ours, &oc, t, po);
                    sample_pose(theirs, &tc, tt, pt);
                    deform_mesh(ours, mi, po, a);
                    deform_mesh(theirs, ti, pt, b);
                    double w = 0;
                    for (std::size_t v = 0; v < b.size(); ++v) w = std::max(w, double((a[map[v]] - b[v]).norm()));
                    INFO("frame " << f << ": worst " << w << " (tolerance " << tol << ")");
                    CHECK(w < tol);
                }
            }
        }
    }
}
