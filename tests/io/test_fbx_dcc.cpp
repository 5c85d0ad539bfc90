// FBX files that Maya, MotionBuilder, 3ds Max and Blender exported, against each DCC's own OBJ of
// the posed mesh (corpus/ufbx_dcc, from ufbx's test data; its README says what each file shows).
// The OBJ is the DCC's own answer, so this is the strongest oracle there is for what the DCCs do
// where the FBX documentation is silent: inherit types under animated scale, in-between and
// Blender shape keys, 3ds Max's default time mode, weighted and automatic tangents.
//
// Pairing: OBJ face corner k is polygon corner k of the FBX mesh, as ufbx's own harness pairs
// them (an OBJ lists its vertices in its own order, its faces in the FBX's). The two
// max_transformed_skin OBJs say "ufbx:bad_order" in their header (3ds Max wrote the faces in
// another order): there every OBJ vertex is paired with the nearest deformed control point and
// every control point with the nearest OBJ vertex, and the larger of the two distances counts.
//
// Time: NAME_F.obj is the pose at F / fps, fps the DCC's (24 for Maya, MotionBuilder and Blender,
// 30 for 3ds Max: ufbx's tests state each), which rigscope must take from the file itself.
// Units: the OBJ is in the file's units, rigscope's positions in metres (x unit_scale).
//
// Tolerance: 1e-5 of the OBJ mesh's diagonal, the bound, for every file. The OBJs print
// 4 to 6 decimals (3ds Max: 1e-4 units on a mesh of about 90, 1.1e-6 of the diagonal).
// max_transformed_skin_7500_ascii holds the weighted flags (weights 3332 / 9999) on automatic
// keys, which 3ds Max itself evaluates unweighted: read weighted it is 4.3e-5 off its OBJ (5.6e-5
// with weights decoded as ten-thousandths), read as Max does 9e-7 (docs/fbx_notes.md, "Curves").
// max2009_cube_anim's user keys are weighted 0.333233326673508 (FBX 6): kept at that precision
// it is 4e-8 off, rounded to 0.3332 it was 6.3e-6.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "corpus.h"
#include "rigscope/core/pose.h"
#include "rigscope/core/skin.h"
#include "rigscope/io/load.h"

using namespace rigscope;
namespace fs = std::filesystem;

namespace {

struct Obj {
    std::vector<Eigen::Vector3d> v;
    std::vector<std::uint32_t> corners;   // face corners' vertex indices, faces in order
    std::vector<std::string> groups;      // names on g and o lines
    bool bad_order = false;
};

Obj read_obj(const std::string& path) {
    Obj o;
    std::ifstream in(path);
    REQUIRE(in);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream s(line);
        std::string tag;
        s >> tag;
        if (tag == "v") {
            Eigen::Vector3d p;
            s >> p.x() >> p.y() >> p.z();
            o.v.push_back(p);
        } else if (tag == "f") {
            std::string c;
            while (s >> c) o.corners.push_back(std::uint32_t(std::stol(c.substr(0, c.find('/'))) - 1));
        } else if (tag == "g" || tag == "o") {
            std::string name;
            while (s >> name) o.groups.push_back(name);
        } else if (line.rfind("# ufbx:bad_order", 0) == 0) {
            o.bad_order = true;
        }
    }
    return o;
}

double diagonal(const std::vector<Eigen::Vector3d>& p) {
    Eigen::Vector3d lo = p.front(), hi = p.front();
    for (const auto& x : p) lo = lo.cwiseMin(x), hi = hi.cwiseMax(x);
    return (hi - lo).norm();
}

// The FBX file's OBJs: its stem without the version and encoding ("_7500_ascii"), then _F.obj.
std::vector<std::pair<long, std::string>> objs_of(const fs::path& fbx) {
    const std::string base = std::regex_replace(fbx.stem().string(), std::regex("_[0-9]{4}_(ascii|binary)"), "");
    std::vector<std::pair<long, std::string>> out;
    const std::regex name(base + "_([0-9]+)\\.obj");
    for (const auto& e : fs::directory_iterator(fbx.parent_path())) {
        std::smatch m;
        const std::string f = e.path().filename().string();
        if (std::regex_match(f, m, name)) out.push_back({std::stol(m[1]), e.path().string()});
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

TEST_CASE("FBX files of Maya, MotionBuilder, 3ds Max and Blender deform as each DCC's own OBJ", "[fbx][fbx_dcc][oracle]") {
    const std::string dir = test::corpus("ufbx_dcc");
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".fbx") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    REQUIRE(files.size() == 9);
    for (const fs::path& fbx : files) {
        SECTION(fbx.filename().string()) {
            const auto objs = objs_of(fbx);
            REQUIRE(objs.size() >= 2);
            const Scene scene = load_scene(fbx.string());
            const bool max = fbx.filename().string().rfind("max", 0) == 0;
            CHECK(scene.fps == (max ? 30.0 : 24.0));
            REQUIRE(!scene.clips.empty());
            Pose pose = rest_pose(scene);
            std::vector<Eigen::Vector3f> got;
            for (const auto& [frame, path] : objs) {
                const Obj obj = read_obj(path);
                int mi = -1;
                for (std::size_t m = 0; m < scene.meshes.size(); ++m)
                    if (std::find(obj.groups.begin(), obj.groups.end(), scene.meshes[m].name) != obj.groups.end()) mi = int(m);
                if (mi < 0 && scene.meshes.size() == 1) mi = 0;
                INFO(path << " against mesh " << (mi >= 0 ? scene.meshes[mi].name : "?"));
                REQUIRE(mi >= 0);
                const Mesh& mesh = scene.meshes[mi];
                sample_pose(scene, &scene.clips[0], double(frame) / scene.fps, pose);
                deform_mesh(scene, mi, pose, got);
                std::vector<Eigen::Vector3d> mine(got.size());
                for (std::size_t v = 0; v < got.size(); ++v) mine[v] = got[v].cast<double>() / scene.unit_scale;
                const double diag = diagonal(obj.v);
                double worst = 0;
                std::string where;
                if (obj.bad_order) {
                    auto nearest = [](const Eigen::Vector3d& p, const std::vector<Eigen::Vector3d>& set) {
                        double d = INFINITY;
                        for (const auto& q : set) d = std::min(d, (p - q).norm());
                        return d;
                    };
                    for (const auto& p : obj.v) worst = std::max(worst, nearest(p, mine));
                    for (const auto& p : mine) worst = std::max(worst, nearest(p, obj.v));
                    where = "nearest pairing";
                } else {
                    REQUIRE(obj.corners.size() == mesh.face_indices.size());
                    for (std::size_t k = 0; k < obj.corners.size(); ++k) {
                        REQUIRE(obj.corners[k] < obj.v.size());
                        const double d = (obj.v[obj.corners[k]] - mine[mesh.face_indices[k]]).norm();
                        if (d > worst) worst = d, where = "control point " + std::to_string(mesh.face_indices[k]);
                    }
                }
                const double tol = 1e-5 * diag;
                INFO("frame " << frame << ": worst " << worst << " units (" << worst / diag << " of the diagonal) at " << where
                              << ", tolerance " << tol);
                CHECK(worst <= tol);
            }
        }
    }
}
