#include "io/fbx/fbx_common.h"

#include <cmath>
#include <sstream>

#include "rigscope/core/bind_check.h"

namespace rigscope::fbx {

// FBX's TimeMode enumeration (GlobalSettings "TimeMode", Assimp's metadata "FrameRate").
FrameRate time_mode_fps(double mode, double custom) {
    // The FBX SDK's FbxTime::EMode, in order (eDefaultMode .. eFrames119_88). Its NTSC rates are
    // 29.97002617 fps (a frame of 1541078334 KTime, as its documentation gives them), not 29.97;
    // 59.94 and 119.88 are two and four times that.
    static const double kNtsc = 29.97002617;
    static const double table[] = {30, 120, 100, 60, 50, 48, 30, 30, kNtsc, kNtsc, 25, 24, 1000, 23.976, -1, 96, 72, 2 * kNtsc, 4 * kNtsc};
    static const char* const names[] = {"eDefaultMode", "eFrames120", "eFrames100", "eFrames60", "eFrames50", "eFrames48",
                                        "eFrames30", "eFrames30Drop", "eNTSCDropFrame", "eNTSCFullFrame", "ePAL", "eFrames24",
                                        "eFrames1000", "eFilmFullFrame", "eCustom", "eFrames96", "eFrames72", "eFrames59dot94",
                                        "eFrames119dot88"};
    constexpr int count = int(sizeof table / sizeof table[0]);
    if (std::isnan(mode)) return {24.0, false, "the file has no TimeMode: 24 fps, as ufbx and Blender take it"};
    const int m = mode >= 0 && mode < count && mode == std::floor(mode) ? int(mode) : -1;
    const std::string named = "TimeMode " + format_number(mode, 12);
    if (m < 0) return {24.0, false, named + " is not an FBX time mode: 24 fps"};
    if (m == 14) {
        if (custom > 0 && std::isfinite(custom))
            return {custom, true, named + " (eCustom): CustomFrameRate " + format_number(custom, 9) + " fps"};
        return {24.0, false, named + " (eCustom) without a positive CustomFrameRate: 24 fps"};
    }
    // eDefaultMode is 30 fps in the FBX SDK (FbxTime::GetFrameRate), which 3ds Max's files rely on.
    return {table[m], true, named + " (" + names[m] + "): " + format_number(table[m], 9) + " fps" + (m == 0 ? ", the FBX SDK's default mode" : "")};
}

std::string format_number(double v, int precision) {
    std::ostringstream os;
    os.precision(precision);
    os << v;
    return os.str();
}

// Every length in the scene times s: rest translations, positions, morph deltas, translation keys
// and the translation part of inverse binds (conjugating by a uniform scale leaves the rest alone).
void scale_lengths(Scene& scene, double s) {
    for (Node& n : scene.nodes) n.rest.translation *= s;
    for (Mesh& m : scene.meshes) {
        for (auto& p : m.positions) p *= float(s);
        for (auto& t : m.targets)
            for (auto& d : t.deltas) d *= float(s);
    }
    for (Skin& k : scene.skins)
        for (auto& ib : k.inverse_bind) ib.topRightCorner<3, 1>() *= s;
    for (Clip& c : scene.clips)
        for (Channel& ch : c.channels)
            if (ch.path == ChannelPath::Translation)
                for (float& v : ch.values) v *= float(s);
}

void warn_rest_not_bind(Scene& scene) {
    for (std::size_t m = 0; m < scene.meshes.size(); ++m) {
        const BindCheck check = check_bind(scene, static_cast<int>(m));
        if (!check.skinned || check.max_distance <= 1e-3 * check.diagonal) continue;
        std::string joints;
        const Skin& skin = scene.skins[scene.meshes[m].skin];
        for (std::size_t j = 0; j < check.joint_distance.size(); ++j)
            if (check.joint_distance[j] > 1e-3 * check.diagonal)
                joints += (joints.empty() ? "" : ", ") + scene.nodes[skin.joints[j]].name;
        scene.warnings.push_back({WarningKind::Transform, 
            "mesh '" + scene.meshes[m].name + "': skinning at the rest pose misses the stored mesh by up to " +
            format_number(check.max_distance) + " m (" + format_number(100.0 * check.max_distance / check.diagonal) +
            "% of its " + format_number(check.diagonal) + " m diagonal): the rest pose is not the bind pose" +
            (joints.empty() ? "" : " for " + joints)});
    }
}

}  // namespace rigscope::fbx
