// Rig lint: the skinning mistakes that break a rig before anyone animates it, as pure checks over
// the scene model. Each check has a stable name (the CLI's, the JSON's, the JUnit case's) and
// appends its findings; none reads a file or names an option.
//
// Weights are checked as the file stores them where the reader kept their sums
// (Influences::stored_sums), since the readers normalise them: a sum off 1 is the file's fault
// even though rigscope itself skins with the normalised weights.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "rigscope/core/scene.h"
#include "rigscope/core/topology.h"

namespace rigscope {

enum class Severity { Info, Warning, Error };
const char* severity_name(Severity s);  // "info", "warning", "error"

// A number as lint's messages write it: seven significant digits, a float weight's precision,
// short enough to read. info states the bind check's distances with it, so that one figure
// reads the same in both.
std::string lint_number(double x);

// The checks in report order. mirror and mirror_unpaired run only with a mirror axis.
inline const std::vector<std::string>& lint_check_names() {
    static const std::vector<std::string> names = {"weights_sum", "influences",  "small_weight",    "unweighted",
                                                   "seam_weights", "unused_joint", "mirror",          "mirror_unpaired",
                                                   "degenerate_face", "bind_pose", "joint_scale", "legacy_binding"};
    return names;
}

// Every check but degenerate_face reads a skin (weights, joints, the bind skeleton): on meshes
// without one it has nothing to check.
inline bool lint_check_reads_skin(const std::string& check) { return check != "degenerate_face"; }

// A mesh the skin checks read: one whose skin index names a skin of the scene. The checks skip
// the others, and the lint job calls them not checked when no selected mesh is one.
inline bool lint_has_skin(const Scene& scene, const Mesh& mesh) { return mesh.skin >= 0 && mesh.skin < static_cast<int>(scene.skins.size()); }

struct Finding {
    std::string check;
    Severity severity = Severity::Warning;
    int mesh = -1;              // index into Scene::meshes; -1: the finding is a skin's, not a mesh's
    std::int64_t vertex = -1;   // file vertex, or -1
    int joint = -1;             // node index of a joint, or -1
    std::int64_t face = -1;     // degenerate_face: the face
    std::int64_t partner = -1;  // mirror: the partner vertex; degenerate_face: an edge's other end
    double value = 0;           // the measured quantity the message states (a sum, a count, a distance)
    bool has_value = false;
    std::string message;
};

struct LintParams {
    double weight_tolerance = 1e-3;  // weights_sum, seam_weights and mirror: largest difference allowed
    int max_influences = 4;          // influences: more non-zero weights than this
    double min_weight = 1e-3;        // small_weight: a non-zero weight below this
    int mirror_axis = -1;            // 0, 1, 2 for x, y, z; -1: mirror not checked
    double mirror_tolerance = 1e-5;  // mirror partners: this far apart at most, relative to the mesh diagonal
    // Joint name pairs the mirror maps onto each other before the built-in patterns (--mirror-names).
    std::vector<std::pair<std::string, std::string>> mirror_names;
    double bind_tolerance = 1e-4;    // bind_pose: largest distance, relative to the mesh diagonal
    double scale_tolerance = 1e-3;   // joint_scale: largest relative spread of the scale's axes
    double area_tolerance = 1e-12;   // degenerate_face: face area over the squared diagonal at most
};

// The mirrored joint name: the first of `extra`'s pairs found in `name` (either way round), else
// the first built-in pattern that applies (Left/Right, left/right, LEFT/RIGHT anywhere; _L/_R,
// .L/.R, _l/_r, .l/.r before the end or a '.', '_' or digit; L_/R_, l_/r_ at the start or after a
// namespace ':'); `name` itself when none does (a centre joint).
std::string mirror_joint_name(const std::string& name, const std::vector<std::pair<std::string, std::string>>& extra = {});

// Per file vertex, the first file vertex at its position (within relative_tolerance of the
// positions' bounding diagonal), whatever their weights: the surface as it is placed. Linear
// (the weld's grid, topology.h). seam_weights and degenerate_face read it.
std::vector<std::uint32_t> coincident_vertices(const std::vector<Eigen::Vector3f>& positions,
                                               double relative_tolerance = kWeldRelativeTolerance);

// weights_sum, influences, small_weight and unweighted on one mesh (skinned meshes only).
void lint_weights(const Scene& scene, int mesh, const LintParams& params, std::vector<Finding>& out);

// seam_weights: file vertices at one position (within the weld tolerance) whose weights differ
// by more than the tolerance on some joint. One finding per vertex that differs from the first
// vertex of its position, naming that one as the partner. `coincident`: coincident_vertices of
// the mesh's positions.
void lint_seams(const Scene& scene, int mesh, const std::vector<std::uint32_t>& coincident, const LintParams& params,
                std::vector<Finding>& out);

// unused_joint: per skin used by `meshes`, the joints no vertex of those meshes has a non-zero
// weight on. The finding's mesh is the first of them using the skin.
void lint_unused_joints(const Scene& scene, const std::vector<int>& meshes, std::vector<Finding>& out);

// mirror and mirror_unpaired on one skinned mesh in its bind pose (the stored positions), about
// the plane through the origin normal to params.mirror_axis.
void lint_mirror(const Scene& scene, int mesh, const LintParams& params, std::vector<Finding>& out);

// degenerate_face: faces of (near) zero area and edges of the welded surface shared by more than
// two faces, over the vertices welded by position (`coincident`, as for lint_seams): the surface
// as placed, where seam copies are one point whatever their weights.
void lint_faces(const Scene& scene, int mesh, const std::vector<std::uint32_t>& coincident, const LintParams& params,
                std::vector<Finding>& out);

// bind_pose: the joints whose rest pose moves the vertices they influence away from the stored
// mesh (core/bind_check.h).
void lint_bind_pose(const Scene& scene, int mesh, const LintParams& params, std::vector<Finding>& out);

// joint_scale: joints of the skins used by `meshes` whose rest scale is negative or not uniform.
void lint_joint_scale(const Scene& scene, const std::vector<int>& meshes, const LintParams& params, std::vector<Finding>& out);

// legacy_binding: a skinned mesh whose skin a newer reader of its format would not bind
// (Skin::legacy_binding says why: a USD file written before SkelBindingAPI was required).
void lint_legacy_binding(const Scene& scene, int mesh, std::vector<Finding>& out);

}  // namespace rigscope
