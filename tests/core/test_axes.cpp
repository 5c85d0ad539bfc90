// core/axes.h: the turn from a file's up axis to glTF's +Y, checked by where it sends each axis
// (hand-derived: a quarter turn about the axis perpendicular to both, right-handed kept).
#include <catch2/catch.hpp>

#include "rigscope/core/axes.h"
#include "rigscope/core/error.h"

using namespace rigscope;

namespace {

// The rotation's image of v, to 1e-12 (the quaternions are built from sin/cos of 45 degrees).
bool sends(const std::string& up, const Eigen::Vector3d& v, const Eigen::Vector3d& to) {
    const Eigen::Quaterniond q = up_axis_to_y(up);
    return (q * v - to).norm() < 1e-12 && std::abs(q.norm() - 1.0) < 1e-12;
}

}  // namespace

TEST_CASE("up_axis_to_y turns the up axis onto +Y and keeps the frame right-handed") {
    const Eigen::Vector3d X = Eigen::Vector3d::UnitX(), Y = Eigen::Vector3d::UnitY(), Z = Eigen::Vector3d::UnitZ();
    // Z-up (Blender, 3ds Max): (x, y, z) -> (x, z, -y); the file's -Y front becomes +Z.
    CHECK(sends("Z", Z, Y));
    CHECK(sends("Z", -Y, Z));
    CHECK(sends("Z", X, X));
    CHECK(sends("-Z", -Z, Y));
    CHECK(sends("-Z", X, X));
    CHECK(sends("X", X, Y));
    CHECK(sends("X", Z, Z));
    CHECK(sends("-X", -X, Y));
    CHECK(sends("-Y", -Y, Y));
    CHECK(sends("-Y", X, X));
    CHECK(sends("Y", X, X));
    CHECK(sends("+Y", Z, Z));
    CHECK(sends("z", Z, Y));
    for (const char* up : {"Z", "-Z", "X", "-X", "-Y"}) CHECK(up_axis_to_y(up).toRotationMatrix().determinant() == Approx(1.0).margin(1e-12));
}

TEST_CASE("is_y_up and bad up axes") {
    CHECK(is_y_up("Y"));
    CHECK(is_y_up("+Y"));
    CHECK_FALSE(is_y_up("-Y"));
    CHECK_FALSE(is_y_up("Z"));
    CHECK_THROWS_AS(up_axis_to_y("W"), Error);
    CHECK_THROWS_AS(up_axis_to_y(""), Error);
    CHECK(parse_axes_option("file") == AxesOption::file);
    CHECK(parse_axes_option("y-up") == AxesOption::y_up);
    CHECK_THROWS_AS(parse_axes_option("z-up"), Error);
}
