#include "rigscope/core/rom.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "rigscope/core/error.h"

namespace rigscope {

namespace {

constexpr double kPi = 3.14159265358979323846;

std::vector<char> joint_flags(const Scene& scene) {
    std::vector<char> is_joint(scene.nodes.size(), 0);
    for (const Skin& s : scene.skins)
        for (int j : s.joints)
            if (j >= 0 && j < static_cast<int>(scene.nodes.size())) is_joint[j] = 1;
    return is_joint;
}

}  // namespace

const char* rom_axis_name(int axis) { return axis == 0 ? "X" : axis == 1 ? "Y" : "Z"; }

std::vector<int> rom_joints(const Scene& scene, const std::vector<std::string>& names) {
    const std::vector<char> is_joint = joint_flags(scene);
    if (std::find(is_joint.begin(), is_joint.end(), 1) == is_joint.end())
        throw Error(kExitMismatch, scene.source + ": a range of motion needs a skeleton, and the file has no skin");
    std::vector<char> wanted = is_joint;
    if (!names.empty()) {
        std::fill(wanted.begin(), wanted.end(), 0);
        for (const std::string& n : names) {
            bool found = false;
            for (std::size_t i = 0; i < scene.nodes.size(); ++i)
                if (is_joint[i] && scene.nodes[i].name == n) wanted[i] = found = true;
            if (!found) {
                std::string list;
                for (std::size_t i = 0; i < scene.nodes.size(); ++i)
                    if (is_joint[i]) list += (list.empty() ? "" : ", ") + scene.nodes[i].name;
                throw Error(kExitUsage, scene.source + ": no joint '" + n + "' (joints: " + list + ")");
            }
        }
    }
    // Depth first from the roots: a parent always before its children, siblings in file order.
    std::vector<int> order;
    std::vector<char> seen(scene.nodes.size(), 0);
    std::function<void(int)> visit = [&](int n) {
        if (n < 0 || n >= static_cast<int>(scene.nodes.size()) || seen[n]) return;
        seen[n] = 1;
        if (wanted[n]) order.push_back(n);
        for (int c : scene.nodes[n].children) visit(c);
    };
    for (std::size_t i = 0; i < scene.nodes.size(); ++i)
        if (scene.nodes[i].parent < 0) visit(static_cast<int>(i));
    return order;
}

RomPlan make_rom(const Scene& scene, const RomOptions& opt, double fps) {
    if (!(opt.angle_deg > 0 && opt.angle_deg < 180)) throw Error(kExitUsage, "sweep angle must be above 0 and below 180 degrees");
    if (opt.frames_per_sweep < 4 || opt.frames_per_sweep % 4 != 0 || opt.frames_per_sweep > 100000)
        throw Error(kExitUsage, "frames per sweep must be a multiple of 4 from 4 to 100000 (keys fall on quarter sweeps)");
    if (!(fps > 0)) throw Error(kExitUsage, "a range of motion needs a positive frame rate");
    RomPlan plan;
    plan.angle_deg = opt.angle_deg;
    plan.frames_per_sweep = opt.frames_per_sweep;
    plan.fps = fps;
    plan.clip.name = "rom";
    const long n = opt.frames_per_sweep;
    const std::vector<int> joints = rom_joints(scene, opt.joints);
    const long total = static_cast<long>(joints.size()) * 3 * n;
    const double angle = opt.angle_deg * kPi / 180.0;
    static const double kQuarter[5] = {0, 1, 0, -1, 0};
    long start = 0;
    for (int j : joints) {
        Channel ch;
        ch.node = j;
        ch.path = ChannelPath::Rotation;
        ch.interpolation = Interpolation::Linear;
        ch.width = 4;
        const Eigen::Quaterniond rest = scene.nodes[j].rest.rotation.normalized();
        auto key = [&](long frame, const Eigen::Quaterniond& q) {
            const float t = static_cast<float>(frame / fps);
            if (!ch.times.empty() && ch.times.back() >= t) return;  // a shared boundary key
            ch.times.push_back(t);
            for (double c : {q.x(), q.y(), q.z(), q.w()}) ch.values.push_back(static_cast<float>(c));
        };
        // Rest until its first sweep, its three sweeps, rest after: every channel spans the
        // whole clip, so its value never depends on clamping.
        key(0, rest);
        for (int axis = 0; axis < 3; ++axis) {
            plan.sweeps.push_back(RomSweep{j, axis, start, start + n, scene.nodes[j].name});
            for (int k = 0; k < 5; ++k) {
                const Eigen::Vector3d a = Eigen::Vector3d::Unit(axis);
                key(start + k * n / 4, rest * Eigen::Quaterniond(Eigen::AngleAxisd(kQuarter[k] * angle, a)));
            }
            start += n;
        }
        key(total, rest);
        plan.clip.channels.push_back(std::move(ch));
    }
    plan.clip.start = 0;
    plan.clip.end = total / fps;
    return plan;
}

const RomSweep* rom_sweep_at(const RomPlan& plan, long frame) {
    if (plan.sweeps.empty() || frame < 0 || frame > plan.sweeps.back().last) return nullptr;
    const std::size_t i = std::min<std::size_t>(static_cast<std::size_t>(frame / plan.frames_per_sweep), plan.sweeps.size() - 1);
    return &plan.sweeps[i];
}

double rom_angle_at(const RomPlan& plan, const RomSweep& s, double frame) {
    const double u = (frame - s.first) / plan.frames_per_sweep * 4.0;  // quarter sweeps
    if (u <= 0 || u >= 4) return 0;
    const double tri = u < 1 ? u : u < 3 ? 2 - u : u - 4;
    return tri * plan.angle_deg;
}

}  // namespace rigscope
