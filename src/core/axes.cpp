#include "rigscope/core/axes.h"

#include <cmath>

#include "rigscope/core/error.h"

namespace rigscope {

namespace {

// "Z" -> (2, +1), "-X" -> (0, -1); axis -1 for anything else.
std::pair<int, int> parse_axis(const std::string& up) {
    std::string s = up;
    int sign = 1;
    if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
        sign = s[0] == '-' ? -1 : 1;
        s = s.substr(1);
    }
    if (s.size() != 1) return {-1, 1};
    const char c = static_cast<char>(s[0] & ~0x20);  // upper case
    return {c == 'X' ? 0 : c == 'Y' ? 1 : c == 'Z' ? 2 : -1, sign};
}

}  // namespace

bool is_y_up(const std::string& up_axis) {
    const auto [axis, sign] = parse_axis(up_axis);
    return axis == 1 && sign > 0;
}

Eigen::Quaterniond up_axis_to_y(const std::string& up_axis) {
    const auto [axis, sign] = parse_axis(up_axis);
    if (axis < 0) throw Error(kExitBadInput, "up axis '" + up_axis + "' names no axis (X, Y, Z, with an optional sign)");
    const Eigen::Vector3d up = Eigen::Vector3d::Unit(axis) * sign;
    // -Y has no single perpendicular: half a turn about X keeps X and turns Z to -Z, so the
    // frame stays right-handed as for the others.
    if (axis == 1 && sign < 0) return Eigen::Quaterniond(Eigen::AngleAxisd(M_PI, Eigen::Vector3d::UnitX()));
    return Eigen::Quaterniond::FromTwoVectors(up, Eigen::Vector3d::UnitY());
}

AxesOption parse_axes_option(const std::string& text) {
    if (text == "file") return AxesOption::file;
    if (text == "y-up") return AxesOption::y_up;
    throw Error(kExitUsage, "--axes takes file or y-up, not '" + text + "'");
}

}  // namespace rigscope
