// Collada (.dae) through Assimp 5.2.5 into the plain scene model: the format-neutral conversion
// (assimp_scene.cpp) plus what is Collada's own: the <unit> and <up_axis> that Assimp folds into
// its root node, node names, and the checks before Assimp sees the file (collada_check.cpp).
#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/scene.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <memory>
#include <set>
#include <unordered_map>

#include "io/load_budget.h"
#include "io/collada/assimp_scene.h"
#include "io/collada/collada_check.h"
#include "io/collada/collada_reader.h"
#include "io/fbx/fbx_common.h"
#include "rigscope/core/error.h"
#include "rigscope/io/load.h"

namespace rigscope {

namespace {

// Refuses what is plainly no Collada before Assimp reads it: the root element must be <COLLADA
// within the first few kilobytes (after the XML declaration and comments).
void check_header(const std::string& path, std::uint64_t max_memory) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) throw bad_input(path, "cannot open the file");
    const auto size = static_cast<std::uint64_t>(in.tellg());
    LoadBudget(path, max_memory).charge(double(size), "the file");
    in.seekg(0);
    char head[4096] = {0};
    in.read(head, sizeof head);
    const std::string text(head, static_cast<std::size_t>(in.gcount()));
    if (text.find("<COLLADA") == std::string::npos)
        throw bad_input(path, "not a Collada file (no <COLLADA> root element at its start)");
}

// Assimp applies <unit meter="u"> and <up_axis> to its root node: root = u * R, where R turns
// the file's up axis to +Y. These are the three R Assimp 5.2.5 uses (ColladaLoader).
struct Axes {
    double unit = 1.0;
    std::string up = "Y";
    bool recognised = false;
};

Axes root_axes(const Eigen::Matrix4d& root) {
    Axes out;
    const Eigen::Matrix3d m = root.topLeftCorner<3, 3>();
    const double det = m.determinant();
    if (!(det > 0) || !std::isfinite(det) || !root.topRightCorner<3, 1>().isZero(0)) return out;
    const double u = std::cbrt(det);
    const Eigen::Matrix3d r = m / u;
    Eigen::Matrix3d z_up, x_up;
    z_up << 1, 0, 0, 0, 0, 1, 0, -1, 0;
    x_up << 0, -1, 0, 1, 0, 0, 0, 0, 1;
    constexpr double kExact = 1e-6;  // Assimp writes these matrices' entries exactly (0, 1, -1)
    if (r.isApprox(Eigen::Matrix3d::Identity(), kExact)) out.up = "Y";
    else if (r.isApprox(z_up, kExact)) out.up = "Z";
    else if (r.isApprox(x_up, kExact)) out.up = "X";
    else return out;
    out.unit = u;
    out.recognised = true;
    return out;
}

void collect_names(const aiNode* n, std::unordered_map<std::string, int>& count, int depth) {
    if (!n || depth > 4096) return;
    ++count[n->mName.C_Str()];
    for (unsigned i = 0; i < n->mNumChildren && n->mChildren; ++i) collect_names(n->mChildren[i], count, depth + 1);
}

// A name that two nodes share and that a bone or an animation channel uses: Assimp resolves it
// to one of them, so the skin or the motion would land on the wrong node.
std::string ambiguous_reference(const aiScene& ai) {
    std::unordered_map<std::string, int> count;
    collect_names(ai.mRootNode, count, 0);
    auto shared = [&](const aiString& s) {
        auto it = count.find(s.C_Str());
        return it != count.end() && it->second > 1;
    };
    for (unsigned m = 0; m < ai.mNumMeshes && ai.mMeshes; ++m)
        for (unsigned b = 0; ai.mMeshes[m] && b < ai.mMeshes[m]->mNumBones && ai.mMeshes[m]->mBones; ++b)
            if (ai.mMeshes[m]->mBones[b] && shared(ai.mMeshes[m]->mBones[b]->mName)) return ai.mMeshes[m]->mBones[b]->mName.C_Str();
    for (unsigned a = 0; a < ai.mNumAnimations && ai.mAnimations; ++a)
        for (unsigned c = 0; ai.mAnimations[a] && c < ai.mAnimations[a]->mNumChannels && ai.mAnimations[a]->mChannels; ++c)
            if (ai.mAnimations[a]->mChannels[c] && shared(ai.mAnimations[a]->mChannels[c]->mNodeName))
                return ai.mAnimations[a]->mChannels[c]->mNodeName.C_Str();
    return "";
}

// Assimp's Collada messages may quote the rest of an array: the first 200 characters say enough.
std::string assimp_message(const std::string& raw) {
    std::string s = assimp::one_line(raw);
    if (s.size() > 200) s = s.substr(0, 200) + "...";
    return s;
}

std::unique_ptr<aiScene> import(const std::string& path, bool collada_names) {
    Assimp::Importer importer;
    importer.SetPropertyBool(AI_CONFIG_IMPORT_COLLADA_USE_COLLADA_NAMES, collada_names);
    importer.SetPropertyBool(AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, false);  // read back from the root
    const aiScene* ai = nullptr;
    try {
        ai = importer.ReadFile(path, 0);  // no post-processing: polygons stay polygons
    } catch (const std::exception& e) {
        throw bad_input(path, assimp_message(e.what()));
    }
    if (!ai) throw bad_input(path, assimp_message(importer.GetErrorString()));
    if (!ai->mRootNode) throw bad_input(path, "Collada file without a visual scene");
    return std::unique_ptr<aiScene>(importer.GetOrphanedScene());
}

// Readers differ on the transform of the node that instances a skinned mesh: the Collada
// specification and Assimp leave it out of skinning (world = joint x inverse bind x bind shape x
// v), and so does rigscope; Blender's Collada import applies it after skinning. Checked on
// Blender's own export of the Khronos rigged_simple rig (tests/collada/rigged_simple.dae): Blender
// = that node's rest world x rigscope, at every frame. Exporters other than Blender write the
// identity there, where all agree.
void warn_placed_skins(Scene& scene) {
    for (const Mesh& m : scene.meshes) {
        if (m.skin < 0 || m.node < 0) continue;
        Eigen::Matrix4d world = Eigen::Matrix4d::Identity();
        for (int n = m.node; n >= 0; n = scene.nodes[n].parent) world = scene.nodes[n].rest.matrix() * world;
        if (world.isApprox(Eigen::Matrix4d::Identity(), 1e-6)) continue;
        scene.warnings.push_back({WarningKind::Transform, "mesh '" + m.name + "': its node '" + scene.nodes[m.node].name +
                                 "' has a transform, which skinning leaves out (Collada specification, Assimp); "
                                 "Blender's Collada import applies it after skinning"});
    }
}

Scene read(const std::string& path, const LoadOptions& options) {
    check_header(path, options.max_memory);
    check_collada(path, options.max_memory);

    // Nodes are named as the file names them (<node name>), which users see in Blender and
    // elsewhere; where two nodes share a name that a skin or an animation refers to, the
    // file's unique ids are used instead.
    std::unique_ptr<aiScene> ai = import(path, true);
    bool by_id = false;
    if (!ambiguous_reference(*ai).empty()) {
        ai = import(path, false);
        by_id = true;
        const std::string still = ambiguous_reference(*ai);
        if (!still.empty()) throw bad_input(path, "two nodes named '" + still + "' and a skin or animation refers to that name");
    }

    LoadBudget(path, options.max_memory).charge(double(assimp::mesh_bytes(*ai)), "the meshes");

    Scene scene;
    scene.source = path;
    scene.format = "Collada";
    scene.vertex_ids = "Collada: vertex ids are positions in order of first use by the faces (Assimp's unrolled corners folded back)";
    if (by_id) scene.warnings.push_back({WarningKind::Naming, "node names repeat in the file; nodes are named by their Collada ids"});

    // Lengths in metres, axes as the file has them (as for FBX): the unit is applied, the up axis
    // is reported, not rotated.
    const Axes axes = root_axes(assimp::to_eigen(&ai->mRootNode->mTransformation));
    if (axes.recognised) {
        ai->mRootNode->mTransformation = aiMatrix4x4();
        scene.unit_scale = axes.unit;
        scene.up_axis = axes.up;
        scene.units_note = "Collada <unit meter=\"" + fbx::format_number(axes.unit, 6) + "\">" +
                           (axes.unit == 1.0 ? ": metres" : ": scaled by " + fbx::format_number(axes.unit, 6) + " to metres");
    } else {
        // The visual scene's root carries a transform of its own: it stays a node, unit included.
        scene.units_note = "Collada: unit and up axis left in the root node's transform";
        scene.warnings.push_back({WarningKind::Transform, "the root node's transform is not a unit scale and up-axis turn; kept as a node"});
    }

    const assimp::NodeMap map = assimp::build_nodes(*ai, scene);
    assimp::MeshHooks hooks;
    hooks.offsets_include_placement = false;  // see warn_placed_skins
    assimp::build_meshes(*ai, map, hooks, path, scene);
    assimp::build_clips(*ai, map, scene.fps, scene);
    if (axes.recognised) fbx::scale_lengths(scene, axes.unit);
    warn_placed_skins(scene);

    fbx::warn_rest_not_bind(scene);
    return scene;
}

}  // namespace

Scene read_collada(const std::string& path, const LoadOptions& options) {
    try {
        return read(path, options);
    } catch (const std::bad_alloc&) {
        throw bad_input(path, "out of memory while reading the Collada file");
    }
}

}  // namespace rigscope
