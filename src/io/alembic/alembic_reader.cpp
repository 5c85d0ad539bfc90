// Alembic archives (.abc, Ogawa) as a scene and as a point cache (docs/alembic_notes.md).
#include "io/alembic/alembic_reader.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "io/alembic/abc_archive.h"
#include "io/alembic/abc_meshes.h"
#include "io/load_budget.h"
#include "rigscope/core/error.h"
#include "rigscope/io/output.h"

namespace rigscope {

namespace {

constexpr const char* kUnitsNote =
    "Alembic stores no unit: taken as metres (Blender writes metres; Maya writes centimetres: --abc-unit cm)";
constexpr const char* kScaledNote = "Alembic stores no unit: --abc-unit names it, scaled by ";
constexpr const char* kVertexIds = "Alembic: vertex ids are a mesh's P indices, in the file's order";

std::string list_paths(const std::vector<abc::AbcMesh>& meshes) {
    std::string s;
    for (const auto& m : meshes) s += (s.empty() ? "" : ", ") + m.path;
    return s;
}

}  // namespace

Scene read_alembic(const std::string& path, const LoadOptions& options) {
    LoadBudget budget(path, options.max_memory);
    abc::Archive archive(path, budget);
    std::vector<abc::AbcMesh> meshes = abc::read_meshes(archive, options.alembic_metres_per_unit);
    if (meshes.empty()) throw bad_input(path, "the archive holds no PolyMesh or SubD (an empty archive, or other objects alone)");

    Scene scene;
    scene.source = path;
    scene.format = "Alembic";
    scene.unit_scale = options.alembic_metres_per_unit;
    scene.units_note = options.alembic_metres_per_unit == 1.0 ? std::string(kUnitsNote)
                                                              : std::string(kScaledNote) + number_text(options.alembic_metres_per_unit) + " to metres";
    scene.vertex_ids = kVertexIds;
    scene.up_axis = "Y";
    // A mesh is named by its object's name; where two share it (Houdini names every mesh of a file
    // alike), by their full paths.
    std::map<std::string, int> uses;
    for (const auto& m : meshes) ++uses[m.mesh.name];
    Clip clip;
    clip.name = "animation";
    bool animated = false;
    for (auto& m : meshes) {
        if (uses[m.mesh.name] > 1) m.mesh.name = m.path;
        if (m.fps > 0 && !scene.fps_from_file) {
            scene.fps = m.fps;
            scene.fps_from_file = true;
            scene.fps_note = m.fps_note;
        } else if (m.fps > 0 && m.fps != scene.fps) {
            scene.warnings.push_back({WarningKind::Sampling, m.path + "'s P is sampled at " + std::to_string(m.fps) + " fps, not the " + std::to_string(scene.fps) +
                                     " fps of the first animated mesh, which the frames follow"});
        }
        for (auto& a : m.attributes) scene.attributes.push_back(std::move(a));
        Node n;
        n.name = m.mesh.name;
        n.mesh = static_cast<int>(scene.meshes.size());
        m.mesh.node = static_cast<int>(scene.nodes.size());
        scene.nodes.push_back(std::move(n));
        scene.meshes.push_back(std::move(m.mesh));
        if (m.cache) {
            const auto& t = m.cache->times();
            clip.start = animated ? std::min(clip.start, t.front()) : t.front();
            clip.end = animated ? std::max(clip.end, t.back()) : t.back();
            animated = true;
            for (auto& w : attach_point_cache(scene, static_cast<int>(scene.meshes.size()) - 1, std::move(m.cache)))
                scene.warnings.push_back(std::move(w));
        }
    }
    if (!scene.fps_from_file)
        scene.fps_note = animated ? "no mesh's P has a uniform time sampling of its own: 24, or --fps"
                                  : "no animation: 24, or --fps";
    if (animated) scene.clips.push_back(std::move(clip));
    return scene;
}

std::shared_ptr<const PointCache> open_alembic_cache(const std::string& path, const LoadOptions& options) {
    LoadBudget budget(path, options.max_memory);
    abc::Archive archive(path, budget);
    std::vector<abc::AbcMesh> meshes = abc::read_meshes(archive, options.alembic_metres_per_unit);
    if (meshes.empty()) throw bad_input(path, "the archive holds no PolyMesh or SubD to read as a point cache");
    if (meshes.size() > 1)
        throw bad_input(path, "a point cache animates one mesh, and the archive holds " + std::to_string(meshes.size()) + " (" +
                                  list_paths(meshes) + "): give it as the input file instead, and pick one with --mesh");
    abc::AbcMesh& m = meshes.front();
    if (m.cache) return m.cache;
    // One sample and no moving transform: a cache of one sample, the rest pose.
    std::vector<std::vector<Eigen::Vector3f>> samples{std::move(m.mesh.positions)};
    return std::make_shared<MemoryPointCache>(path + " (" + m.path + ".P)", std::vector<double>{0.0}, std::move(samples));
}

}  // namespace rigscope
