// check --max-intersections' verdict (core/intersection_verdict.h).
#include "rigscope/core/intersection_verdict.h"

#include <algorithm>
#include <map>

namespace rigscope {

void add_intersection_frames(IntersectionVerdict& v, const std::string& clip, const Scene& scene, const std::vector<Frame>& frames,
                             const std::vector<IntersectFrame>& results) {
    for (std::size_t i = 0; i < results.size() && i < frames.size(); ++i) {
        const std::vector<FacePair>& pairs = results[i].pairs;
        ++v.frames;
        if (pairs.size() > v.limit) ++v.frames_over;
        // The first frame with the most pairs stays the worst; a clear run has none.
        if (pairs.empty() || pairs.size() <= v.pairs) continue;
        v.clip = clip;
        v.frame = frames[i];
        v.pairs = pairs.size();
        v.meshes.clear();
        std::map<std::string, std::size_t> by_joint;
        for (const FacePair& p : pairs) {
            const std::string& a = scene.meshes[p.mesh_a].name;
            const std::string m = p.mesh_a == p.mesh_b ? a + " with itself" : a + " with " + scene.meshes[p.mesh_b].name;
            if (std::find(v.meshes.begin(), v.meshes.end(), m) == v.meshes.end()) v.meshes.push_back(m);
            ++by_joint[p.joint >= 0 && p.joint < static_cast<int>(scene.nodes.size()) ? scene.nodes[p.joint].name : std::string()];
        }
        v.joint_pairs = 0;
        for (const auto& [joint, n] : by_joint)
            if (n > v.joint_pairs) {
                v.joint = joint;
                v.joint_pairs = n;
            }
    }
}

}  // namespace rigscope
