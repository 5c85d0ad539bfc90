// legacy_binding: a skin that rigscope binds, as the format's older readers did, but that a newer
// reader of the format leaves unbound, so the file skins in one tool and not in another. The
// reader says why on the skin (Skin::legacy_binding); the check only reports it.
#include "lint_text.h"

namespace rigscope {

using lint_detail::finding;

void lint_legacy_binding(const Scene& scene, int m, std::vector<Finding>& out) {
    const Mesh& mesh = scene.meshes[m];
    if (!lint_has_skin(scene, mesh)) return;
    const std::string& why = scene.skins[mesh.skin].legacy_binding;
    if (why.empty()) return;
    out.push_back(finding("legacy_binding", Severity::Warning, m, why));
}

}  // namespace rigscope
