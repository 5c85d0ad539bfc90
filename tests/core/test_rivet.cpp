// Rivet pivots (src/core/rivet*.cpp): the fit against the skinned vertex as deform_mesh computes
// it, the note's closed form against the fit, the exported nodes against both, and baked frames.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <unistd.h>

#include "corpus.h"
#include "rigscope/core/frames.h"
#include "rigscope/io/gltf_writer.h"
#include "rigscope/io/load.h"
#include "rigscope/io/output.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/rivet.h"
#include "rigscope/core/skin.h"
#include "rigscope/core/topology.h"

using namespace rigscope;
using rigscope::test::corpus;
namespace fs = std::filesystem;

namespace {

double diagonal_of(const Mesh& mesh) {
    Eigen::Vector3f lo = mesh.positions[0], hi = lo;
    for (const auto& p : mesh.positions) {
        lo = lo.cwiseMin(p);
        hi = hi.cwiseMax(p);
    }
    return (hi - lo).cast<double>().norm();
}

// Every frame of the first clip, posed once, with deform_mesh's positions (the reference the
// rivet must follow: the project's own skinning, not rivet.cpp's double-precision copy of it).
struct Evaluated {
    Scene scene;
    std::vector<Frame> frames;
    std::vector<Pose> poses;
    std::vector<std::vector<Eigen::Vector3f>> positions;
    double diagonal = 0;

    explicit Evaluated(const std::string& path) : scene(load_scene(path)) {
        frames = default_frames(&scene.clips[0], scene.fps);
        for (const Frame& f : frames) {
            Pose pose;
            sample_pose(scene, &scene.clips[0], f.time, pose);
            positions.emplace_back();
            deform_mesh(scene, 0, pose, positions.back());
            poses.push_back(std::move(pose));
        }
        diagonal = diagonal_of(scene.meshes[0]);
    }

    std::vector<RivetSample> samples(std::uint32_t v, int joint) const {
        std::vector<RivetSample> out;
        for (const Pose& p : poses) out.push_back(rivet_sample(scene, 0, p, v, joint));
        return out;
    }
};

const Evaluated& bend() {
    static const Evaluated e(corpus("bend_cylinder/bend_cylinder.glb"));
    return e;
}

const Evaluated& bend_fbx() {
    static const Evaluated e(corpus("bend_cylinder/bend_cylinder.fbx"));
    return e;
}

const Evaluated& cesium() {
    static const Evaluated e(corpus("khronos/cesium_man.gltf"));
    return e;
}

struct TempFile {
    std::string path;
    explicit TempFile(const std::string& name)
        : path((fs::temp_directory_path() / ("rigscope_rivet_" + std::to_string(getpid()) + "_" + name)).string()) {}
    ~TempFile() {
        std::error_code ec;
        fs::remove(path, ec);
    }
};

Scene write_and_read(const Scene& scene, const std::string& path) {
    {
        OutputFile out(path);
        write_glb(scene, {}, out);
        out.commit();
    }
    return read_gltf(path, {});
}

Eigen::Vector3d translation_of(const Eigen::Matrix4d& m) { return m.topRightCorner<3, 1>(); }

}  // namespace

TEST_CASE("rivet: synthetic rotations about one axis leave p + o free along it (rank 5, minimum norm)", "[rivet]") {
    // Parent at identity, J rotating about z through c = (1, 2, 3); the vertex is J-rigid.
    const Eigen::Vector3d c(1, 2, 3), arm(0.5, -0.25, 0.75);
    std::vector<RivetSample> samples;
    for (int k = 0; k < 10; ++k) {
        RivetSample s;
        s.joint_linear = Eigen::AngleAxisd(0.1 * k, Eigen::Vector3d::UnitZ()).toRotationMatrix();
        s.vertex = c + s.joint_linear * arm;
        samples.push_back(s);
    }
    const RivetFit fit = fit_rivet(samples);
    CHECK(fit.rank == 5);
    CHECK(fit.max_error < 1e-12);
    // Undetermined: z of p and o apart (only their sum, 3.75, is fixed); minimum norm splits it.
    CHECK(fit.pivot_parent.z() == Approx(fit.offset.z()).margin(1e-12));
    CHECK(fit.pivot_parent.z() + fit.offset.z() == Approx(c.z() + arm.z()));
    CHECK((fit.pivot_parent.head<2>() - c.head<2>()).norm() < 1e-12);
    CHECK((fit.offset.head<2>() - arm.head<2>()).norm() < 1e-12);

    // A second axis determines everything.
    RivetSample tilt;
    tilt.joint_linear = Eigen::AngleAxisd(0.5, Eigen::Vector3d::UnitX()).toRotationMatrix();
    tilt.vertex = c + tilt.joint_linear * arm;
    samples.push_back(tilt);
    const RivetFit full = fit_rivet(samples);
    CHECK(full.rank == 6);
    CHECK((full.pivot_parent - c).norm() < 1e-10);
    CHECK((full.offset - arm).norm() < 1e-10);
}

TEST_CASE("rivet: rounding noise does not count as a determined direction", "[rivet]") {
    // As keys stored in float give: about one axis, give or take 1e-9 rad about another. A
    // solve that took the noise for information would put p and o metres apart along z.
    const Eigen::Vector3d c(1, 2, 3), arm(0.5, -0.25, 0.75);
    std::vector<RivetSample> samples;
    for (int k = 0; k < 10; ++k) {
        RivetSample s;
        s.joint_linear = (Eigen::AngleAxisd(0.1 * k, Eigen::Vector3d::UnitZ()) *
                          Eigen::AngleAxisd((k % 3) * 1e-9, Eigen::Vector3d::UnitX())).toRotationMatrix();
        s.vertex = c + s.joint_linear * arm;
        samples.push_back(s);
    }
    const RivetFit fit = fit_rivet(samples);
    CHECK(fit.rank == 5);
    CHECK(fit.max_error < 1e-8);
    // The minimum-norm split along the undetermined axis, as without noise.
    CHECK(fit.pivot_parent.z() == Approx(fit.offset.z()).margin(1e-6));
    CHECK((fit.pivot_parent.head<2>() - c.head<2>()).norm() < 1e-6);
}

TEST_CASE("rivet: a joint that never turns against its parent leaves rank 3, and the fit is still exact", "[rivet]") {
    // The parent tumbles; J keeps one local rotation, so A_J = M_P C and only p + C o is seen.
    const Eigen::Matrix3d turn = Eigen::AngleAxisd(0.7, Eigen::Vector3d(1, 1, 0).normalized()).toRotationMatrix();
    const Eigen::Vector3d q(0.3, -0.2, 0.1);  // the vertex in the parent's space
    std::vector<RivetSample> samples;
    for (int k = 0; k < 12; ++k) {
        RivetSample s;
        s.parent_world.topLeftCorner<3, 3>() =
            (Eigen::AngleAxisd(0.3 * k, Eigen::Vector3d::UnitY()) * Eigen::AngleAxisd(0.2 * k, Eigen::Vector3d::UnitX())).toRotationMatrix();
        s.parent_world.topRightCorner<3, 1>() = Eigen::Vector3d(k, 0.5 * k, -k);
        s.joint_linear = s.parent_world.topLeftCorner<3, 3>() * turn;
        s.vertex = (s.parent_world * q.homogeneous()).head<3>();
        samples.push_back(s);
    }
    const RivetFit fit = fit_rivet(samples);
    CHECK(fit.rank == 3);
    CHECK(fit.max_error < 1e-12);
    // Minimum norm: the seen sum split evenly, p = q / 2 and C o = q / 2.
    CHECK((fit.pivot_parent - q / 2).norm() < 1e-12);
    CHECK((turn * fit.offset - q / 2).norm() < 1e-12);
}

TEST_CASE("rivet: bend_cylinder two-influence vertices are reproduced exactly, the note's pivot on the solution set",
          "[rivet][corpus]") {
    const Evaluated& e = bend();
    const Mesh& mesh = e.scene.meshes[0];
    const Pose bind = bind_pose(e.scene);
    const double tol = 1e-5 * e.diagonal;
    int tested = 0;
    for (std::uint32_t v = 0; v < mesh.vertex_count(); ++v) {
        const auto inf = vertex_influences(e.scene, mesh, v);
        if (inf.size() != 2) continue;
        ++tested;
        const int j = default_rivet_joint(e.scene, inf);
        const int parent = e.scene.nodes[j].parent;
        REQUIRE(e.scene.nodes[j].name == "Bone.001");
        const auto samples = e.samples(v, j);
        const RivetFit fit = fit_rivet(samples);
        INFO("vertex " << v);
        CHECK(fit.rank == 5);  // Bone.001 turns about one axis only
        CHECK(fit.max_error < tol);
        for (std::size_t f = 0; f < samples.size(); ++f)
            CHECK((rivet_position(samples[f], fit.pivot_parent, fit.offset) - e.positions[f][v].cast<double>()).norm() < tol);

        // The note's pivot with its offset (the vertex's arm from the pivot, w (v - p_J), in J's
        // bind frame) is another exact solution: it differs from the fit only along the axis.
        const auto pivot = analytic_pivot(e.scene, mesh, v, j);
        REQUIRE(pivot);
        const Eigen::Matrix4d parent_bind = rivet_node_world(e.scene, mesh, bind, parent);
        const Eigen::Matrix4d joint_bind = rivet_node_world(e.scene, mesh, bind, j);
        const Eigen::Vector3d p = (parent_bind.inverse() * pivot->homogeneous()).head<3>();
        const Eigen::Vector3d o = joint_bind.topLeftCorner<3, 3>().inverse() * (mesh.positions[v].cast<double>() - *pivot);
        for (std::size_t f = 0; f < samples.size(); ++f)
            CHECK((rivet_position(samples[f], p, o) - samples[f].vertex).norm() < tol);
    }
    CHECK(tested > 100);
}

TEST_CASE("rivet: the exported glTF's rivet nodes follow the skinned vertex (bend_cylinder glb and fbx, cesium_man)",
          "[rivet][corpus]") {
    for (const Evaluated* e : {&bend(), &bend_fbx(), &cesium()}) {
        const Mesh& mesh = e->scene.meshes[0];
        Scene out = e->scene;
        std::vector<std::uint32_t> vertices;
        std::vector<RivetFit> fits;
        for (std::uint32_t v = 0; v < mesh.vertex_count(); v += 37) {
            const int j = default_rivet_joint(e->scene, vertex_influences(e->scene, mesh, v));
            vertices.push_back(v);
            fits.push_back(fit_rivet(e->samples(v, j)));
            add_rivet_nodes(out, v, j, fits.back());
        }
        TempFile file("rivets.glb");
        const Scene back = write_and_read(out, file.path);
        // The file holds floats: keys, p and o each round to ~1e-7 of their size.
        const double float_tol = 1e-6 * e->diagonal;
        Pose pose;
        for (std::size_t i = 0; i < vertices.size(); ++i) {
            const int node = back.find_node("rivet_" + std::to_string(vertices[i]));
            REQUIRE(node >= 0);
            REQUIRE(back.nodes[back.nodes[node].parent].name == "rivet_" + std::to_string(vertices[i]) + "_pivot");
            for (std::size_t f = 0; f < e->frames.size(); ++f) {
                sample_pose(back, &back.clips[0], e->frames[f].time, pose);
                const double d = (translation_of(pose.world[node]) - e->positions[f][vertices[i]].cast<double>()).norm();
                INFO(e->scene.source << " vertex " << vertices[i] << " frame " << e->frames[f].number);
                CHECK(d <= fits[i].max_error + float_tol);
            }
        }
    }
}

TEST_CASE("rivet: cesium_man errors of a 3+-influence vertex are the real distances", "[rivet][corpus]") {
    const Evaluated& e = cesium();
    const Mesh& mesh = e.scene.meshes[0];
    std::uint32_t v = 0;
    while (vertex_influences(e.scene, mesh, v).size() < 3) ++v;
    const int j = default_rivet_joint(e.scene, vertex_influences(e.scene, mesh, v));
    const int parent = e.scene.nodes[j].parent;
    const RivetFit fit = fit_rivet(e.samples(v, j));
    CHECK(!analytic_pivot(e.scene, mesh, v, j));
    // Recomputed from the poses' world matrices and deform_mesh, not from the samples.
    double sum = 0, worst = 0;
    for (std::size_t f = 0; f < e.poses.size(); ++f) {
        const Eigen::Matrix4d& mp = e.poses[f].world[parent];
        const Eigen::Vector3d r = (mp * fit.pivot_parent.homogeneous()).head<3>() +
                                  e.poses[f].world[j].topLeftCorner<3, 3>() * fit.offset;
        const double d = (r - e.positions[f][v].cast<double>()).norm();
        sum += d * d;
        worst = std::max(worst, d);
    }
    INFO("vertex " << v << " max " << fit.max_error << " rms " << fit.rms_error);
    CHECK(fit.max_error > 1e-4 * e.diagonal);  // a real drift, or the check below proves little
    CHECK(fit.max_error == Approx(worst).margin(1e-6 * e.diagonal));
    CHECK(fit.rms_error == Approx(std::sqrt(sum / e.poses.size())).margin(1e-6 * e.diagonal));
}

TEST_CASE("rivet: a joint listed twice by a vertex counts once", "[rivet]") {
    Scene s;
    s.nodes.resize(2);
    s.nodes[0].name = "root";
    s.nodes[1].name = "child";
    s.nodes[1].parent = 0;
    s.nodes[0].children = {1};
    s.skins.push_back(Skin{"skin", {0, 1}, {Eigen::Matrix4d::Identity(), Eigen::Matrix4d::Identity()}});
    Mesh m;
    m.skin = 0;
    m.positions = {Eigen::Vector3f(1, 0, 0)};
    m.influences.offsets = {0, 3};
    m.influences.joints = {1, 0, 1};
    m.influences.weights = {0.25f, 0.5f, 0.25f};
    const auto inf = vertex_influences(s, m, 0);
    REQUIRE(inf.size() == 2);
    CHECK(inf[0].weight == Approx(0.5));
    CHECK(default_rivet_joint(s, inf) == 1);  // the child: its parent is also an influence
    CHECK(analytic_pivot(s, m, 0, 1));
    CHECK(!analytic_pivot(s, m, 0, 0));  // the root's parent is no influence
}

TEST_CASE("rivet: baked frames over bend_cylinder's full bend stay on the vertex and turn smoothly, except where the surface folds",
          "[rivet][corpus]") {
    const Evaluated& e = bend();
    const Mesh& mesh = e.scene.meshes[0];
    const Topology topo = build_topology(mesh);
    // Twice the area of the faces around the vertex, projected on their mean normal: how much
    // surface the normal is taken from (Newell's sum, as the bake computes it).
    auto area_normal = [](const BakeStencil& st, const std::vector<Eigen::Vector3d>& pts) {
        Eigen::Vector3d n = Eigen::Vector3d::Zero();
        for (std::size_t f = 0; f + 1 < st.face_offsets.size(); ++f)
            for (std::uint32_t k = st.face_offsets[f]; k < st.face_offsets[f + 1]; ++k) {
                const std::uint32_t next = k + 1 < st.face_offsets[f + 1] ? k + 1 : st.face_offsets[f];
                n += (pts[st.face_corners[k]] - pts[0]).cross(pts[st.face_corners[next]] - pts[0]);
            }
        return n;
    };
    auto deformed = [&](const BakeStencil& st, const Pose& pose) {
        std::vector<Eigen::Vector3d> pts;
        for (std::uint32_t p : st.points) pts.push_back(skinned_vertex(e.scene, 0, pose, p));
        return pts;
    };
    std::vector<std::uint32_t> folded;
    for (std::uint32_t v = 0; v < mesh.vertex_count(); ++v) {
        const BakeStencil st = bake_stencil(mesh, topo, v);
        BakedTransform previous;
        double worst = 1;
        std::size_t worst_frame = 0;
        for (std::size_t f = 0; f < e.poses.size(); ++f) {
            const BakedTransform t = bake_rivet(e.scene, 0, e.poses[f], st, f ? &previous : nullptr);
            INFO("vertex " << v << " frame " << e.frames[f].number);
            CHECK((t.position - e.positions[f][v].cast<double>()).norm() < 1e-6 * e.diagonal);
            const Eigen::Matrix3d r = t.rotation.toRotationMatrix();
            CHECK((r.transpose() * r - Eigen::Matrix3d::Identity()).norm() < 1e-9);
            CHECK(r.determinant() == Approx(1.0));
            if (f) {
                CHECK(t.rotation.coeffs().dot(previous.rotation.coeffs()) > 0);  // one hemisphere
                const Eigen::Matrix3d r0 = previous.rotation.toRotationMatrix();
                for (int c = 0; c < 3; ++c)
                    if (r.col(c).dot(r0.col(c)) < worst) {
                        worst = r.col(c).dot(r0.col(c));
                        worst_frame = f;
                    }
            }
            previous = t;
        }
        // Frames are 1 degree of bend apart: an axis turning by more than 8 degrees in one is a
        // fold, and a fold must be real: on the inner seam at the joint (y = 1, x < 0), with the
        // faces around the vertex collapsed to a sliver of their area where it turns.
        if (worst > 0.99) continue;
        folded.push_back(v);
        INFO("vertex " << v << " turns by " << std::acos(worst) * 180 / M_PI << " degrees at frame " << e.frames[worst_frame].number);
        const Eigen::Vector3f p = mesh.positions[v];
        CHECK(std::abs(p.y() - 1.0f) < 1e-4f);
        CHECK(p.x() < 0.0f);
        const double bind_area = area_normal(st, deformed(st, bind_pose(e.scene))).norm();
        const double fold_area = std::min(area_normal(st, deformed(st, e.poses[worst_frame])).norm(),
                                          area_normal(st, deformed(st, e.poses[worst_frame - 1])).norm());
        CHECK(fold_area < 0.2 * bind_area);
    }
    CHECK(folded.size() <= 9);  // the inner half of the seam ring, of 32 around
}

TEST_CASE("rivet: baked normals point out of the cylinder's side", "[rivet][corpus]") {
    const Evaluated& e = bend();
    const Mesh& mesh = e.scene.meshes[0];
    const Topology topo = build_topology(mesh);
    const Pose bind = bind_pose(e.scene);
    int side = 0;
    for (std::uint32_t v = 0; v < mesh.vertex_count(); ++v) {
        const Eigen::Vector3d p = mesh.positions[v].cast<double>();
        // Side vertices away from the caps (the cylinder runs along y from 0 to 2, radius 1).
        if (p.y() < 0.2 || p.y() > 1.8) continue;
        ++side;
        const BakeStencil st = bake_stencil(mesh, topo, v);
        const Eigen::Vector3d n = bake_rivet(e.scene, 0, bind, st, nullptr).rotation.toRotationMatrix().col(1);
        INFO("vertex " << v);
        CHECK(n.dot(Eigen::Vector3d(p.x(), 0, p.z()).normalized()) > 0.99);
    }
    CHECK(side > 100);
}

TEST_CASE("rivet: baked nodes in the exported glTF replay the baked transforms", "[rivet][corpus]") {
    const Evaluated& e = bend();
    const Mesh& mesh = e.scene.meshes[0];
    const Topology topo = build_topology(mesh);
    const std::uint32_t v = 400;
    const BakeStencil st = bake_stencil(mesh, topo, v);
    std::vector<double> times;
    std::vector<BakedTransform> keys;
    for (std::size_t f = 0; f < e.poses.size(); ++f) {
        keys.push_back(bake_rivet(e.scene, 0, e.poses[f], st, keys.empty() ? nullptr : &keys.back()));
        times.push_back(e.frames[f].time);
    }
    Scene out = e.scene;
    add_baked_rivet_node(out, v, keys.front(), 0, times, keys);
    TempFile file("baked.glb");
    const Scene back = write_and_read(out, file.path);
    const int node = back.find_node("rivet_400");
    REQUIRE(node >= 0);
    Pose pose;
    for (std::size_t f = 0; f < times.size(); ++f) {
        sample_pose(back, &back.clips[0], times[f], pose);
        CHECK((translation_of(pose.world[node]) - keys[f].position).norm() < 1e-6 * e.diagonal);
        CHECK(std::abs(Eigen::Quaterniond(pose.world[node].topLeftCorner<3, 3>()).dot(keys[f].rotation)) > 1 - 1e-6);
    }
}
