#include "io/usd/usd_transforms.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <set>

#include "io/usd/usd_values.h"
#include "rigscope/core/error.h"

namespace rigscope::usd {

namespace {

[[noreturn]] void fail(const TransformPlace& where, const std::string& what) {
    throw bad_input(where.file, "prim " + where.prim + ": " + what);
}

Eigen::Matrix3d axis_rotation(int axis, double degrees) {
    return Eigen::AngleAxisd(degrees * M_PI / 180.0, Eigen::Vector3d::Unit(axis)).toRotationMatrix();
}

Eigen::Matrix4d op_matrix(const XformOp& op, double t, double mpu, const TransformPlace& where) {
    std::vector<double> n;
    int w = 1;
    if (!numbers_at(op.prop, t, n, w)) fail(where, op.prop.name + " has no value");
    auto need = [&](std::size_t count) {
        if (n.size() != count)
            fail(where, op.prop.name + " holds " + std::to_string(n.size()) + " numbers, not " + std::to_string(count));
    };
    Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
    const std::string& k = op.kind;
    if (k == "translate") {
        need(3);
        m.block<3, 1>(0, 3) = Eigen::Vector3d(n[0], n[1], n[2]) * mpu;
    } else if (k == "translateX" || k == "translateY" || k == "translateZ") {
        need(1);
        m(k.back() - 'X', 3) = n[0] * mpu;
    } else if (k == "scale") {
        need(3);
        m.block<3, 3>(0, 0) = Eigen::Vector3d(n[0], n[1], n[2]).asDiagonal();
    } else if (k == "scaleX" || k == "scaleY" || k == "scaleZ") {
        need(1);
        m(k.back() - 'X', k.back() - 'X') = n[0];
    } else if (k == "rotateX" || k == "rotateY" || k == "rotateZ") {
        need(1);
        m.block<3, 3>(0, 0) = axis_rotation(k.back() - 'X', n[0]);
    } else if (k.size() == 9 && k.compare(0, 6, "rotate") == 0) {
        // rotateXYZ: about X first, then Y, then Z (each axis's angle is its own component).
        need(3);
        Eigen::Matrix3d r = Eigen::Matrix3d::Identity();
        for (int i = 0; i < 3; ++i) {
            const int axis = k[6 + i] - 'X';
            if (axis < 0 || axis > 2) fail(where, "unknown xformOp '" + op.prop.name + "'");
            r = axis_rotation(axis, n[axis]) * r;
        }
        m.block<3, 3>(0, 0) = r;
    } else if (k == "orient") {
        // GfRotation of the quaternion: normalised, unlike a SkelAnimation's rotations.
        need(4);
        m.block<3, 3>(0, 0) = usd_quaternion(n.data()).normalized().toRotationMatrix();
    } else if (k == "transform") {
        need(16);
        m = usd_matrix(n.data());
        m.block<3, 1>(0, 3) *= mpu;
    } else {
        fail(where, "unknown xformOp '" + op.prop.name + "'");
    }
    return op.invert ? Eigen::Matrix4d(m.inverse()) : m;
}

std::vector<double> seconds_of(std::set<double> codes, double tcps) {
    std::vector<double> out;
    for (double c : codes) out.push_back(c / tcps);
    return out;
}

class XformStacks final : public LocalMatrices {
public:
    XformStacks(std::vector<int> nodes, std::vector<std::vector<XformOp>> stacks, std::vector<TransformPlace> places, double mpu,
                double tcps)
        : LocalMatrices(std::move(nodes)), stacks_(std::move(stacks)), places_(std::move(places)), mpu_(mpu), tcps_(tcps) {}

    void at(double seconds, Eigen::Matrix4d* out) const override {
        const double t = time_code_of(seconds, tcps_);
        for (std::size_t k = 0; k < stacks_.size(); ++k) out[k] = stack_matrix(stacks_[k], t, mpu_, places_[k]);
    }
    std::vector<double> sample_times() const override {
        std::set<double> codes;
        for (const auto& s : stacks_)
            for (const auto& op : s)
                for (const auto& sample : op.prop.samples) codes.insert(sample.first);
        return seconds_of(codes, tcps_);
    }
    std::string name(std::size_t k) const override { return places_[k].prim; }

private:
    std::vector<std::vector<XformOp>> stacks_;
    std::vector<TransformPlace> places_;
    double mpu_, tcps_;
};

class SkelAnimation final : public LocalMatrices {
public:
    SkelAnimation(std::vector<int> nodes, std::vector<std::string> names, const PropertySpec& t, const PropertySpec& r,
                  const PropertySpec& s, TransformPlace where, double mpu, double tcps)
        : LocalMatrices(std::move(nodes)), names_(std::move(names)), props_{t, r, s}, where_(std::move(where)), mpu_(mpu), tcps_(tcps) {}

    void at(double seconds, Eigen::Matrix4d* out) const override {
        const double t = time_code_of(seconds, tcps_);
        std::vector<double> v[3];
        const int widths[3] = {3, 4, 3};
        const std::size_t joints = nodes().size();
        for (int k = 0; k < 3; ++k) {
            int w = 1;
            if (!numbers_at(props_[k], t, v[k], w) || w != widths[k] || v[k].size() != joints * std::size_t(widths[k]))
                throw bad_input(where_.file, "SkelAnimation " + where_.prim + "'s " + props_[k].name + " do not hold one value per joint (" +
                                                 std::to_string(joints) + ") at time code " + std::to_string(t));
        }
        for (std::size_t j = 0; j < joints; ++j) out[j] = skel_joint_matrix(&v[0][3 * j], &v[1][4 * j], &v[2][3 * j], mpu_);
    }
    std::vector<double> sample_times() const override {
        std::set<double> codes;
        for (const auto& p : props_)
            for (const auto& sample : p.samples) codes.insert(sample.first);
        return seconds_of(codes, tcps_);
    }
    std::string name(std::size_t k) const override { return where_.prim + " joint " + names_[k]; }

private:
    std::vector<std::string> names_;
    PropertySpec props_[3];
    TransformPlace where_;
    double mpu_, tcps_;
};

}  // namespace

std::vector<XformOp> xform_ops(const PrimSpec& p, const TransformPlace& where) {
    std::vector<XformOp> ops;
    const PropertySpec* order = p.property("xformOpOrder");
    if (!order || !order->has_default) return ops;
    for (const auto& name : strings_of(order->value)) {
        if (name == "!resetXformStack!")
            throw bad_input(where.file, "prim " + where.prim + " resets the transform stack (!resetXformStack!), which rigscope does not read");
        const bool invert = name.compare(0, 8, "!invert!") == 0;
        const std::string op = invert ? name.substr(8) : name;
        if (op.compare(0, 8, "xformOp:") != 0) fail(where, "xformOpOrder names '" + name + "', not an xformOp");
        const PropertySpec* prop = p.property(op);
        if (!prop) fail(where, "xformOpOrder names '" + op + "', which the prim does not have");
        std::string kind = op.substr(8);
        kind = kind.substr(0, kind.find(':'));
        ops.push_back({*prop, kind, invert});
    }
    return ops;
}

Eigen::Matrix4d stack_matrix(const std::vector<XformOp>& ops, double t, double mpu, const TransformPlace& where) {
    // xformOpOrder lists the ops outermost first: the last op applies to a point first.
    Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
    for (const auto& op : ops) m = m * op_matrix(op, t, mpu, where);
    return m;
}

Eigen::Matrix4d skel_joint_matrix(const double* tr, const double* q, const double* s, double mpu) {
    // GfMatrix3f(GfQuatf): the products in float, then 1 - 2(...) in double stored as float; the
    // quaternion as interpolated (GfSlerp does not normalise, nor does this).
    const float r = float(q[0]), i0 = float(q[1]), i1 = float(q[2]), i2 = float(q[3]);
    float rot[3][3];
    rot[0][0] = float(1.0 - 2.0 * (i1 * i1 + i2 * i2));
    rot[0][1] = float(2.0 * (i0 * i1 + i2 * r));
    rot[0][2] = float(2.0 * (i2 * i0 - i1 * r));
    rot[1][0] = float(2.0 * (i0 * i1 - i2 * r));
    rot[1][1] = float(1.0 - 2.0 * (i2 * i2 + i0 * i0));
    rot[1][2] = float(2.0 * (i1 * i2 + i0 * r));
    rot[2][0] = float(2.0 * (i2 * i0 + i1 * r));
    rot[2][1] = float(2.0 * (i1 * i2 - i0 * r));
    rot[2][2] = float(1.0 - 2.0 * (i1 * i1 + i0 * i0));
    // UsdSkelMakeTransform: row k of the rotation times scale k (row vectors: scale, rotate, then
    // translate), as the transpose for rigscope's column vectors.
    Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
    for (int row = 0; row < 3; ++row)
        for (int c = 0; c < 3; ++c) m(c, row) = double(rot[row][c] * float(s[row]));
    for (int c = 0; c < 3; ++c) m(c, 3) = double(float(tr[c])) * mpu;
    return m;
}

bool holds_as_trs(const Eigen::Matrix4d& m, const Transform& t) {
    const Eigen::Matrix4d back = t.matrix();
    const double size = std::max(1.0, m.topLeftCorner<3, 3>().norm());
    return (m.topLeftCorner<3, 3>() - back.topLeftCorner<3, 3>()).norm() <= 1e-12 * size && m(3, 0) == 0 && m(3, 1) == 0 &&
           m(3, 2) == 0 && m(3, 3) == 1;
}

double time_code_of(double seconds, double tcps) {
    const double t = seconds * tcps;
    const double snapped = std::round(t * 1048576.0) / 1048576.0;
    return std::abs(t - snapped) <= 1e-9 * std::max(1.0, std::abs(t)) ? snapped : t;
}

std::shared_ptr<const LocalMatrices> xform_matrices(std::vector<int> nodes, std::vector<std::vector<XformOp>> stacks,
                                                    std::vector<TransformPlace> places, double mpu, double tcps) {
    return std::make_shared<XformStacks>(std::move(nodes), std::move(stacks), std::move(places), mpu, tcps);
}

std::shared_ptr<const LocalMatrices> skel_animation_matrices(std::vector<int> nodes, std::vector<std::string> names,
                                                             const PropertySpec& translations, const PropertySpec& rotations,
                                                             const PropertySpec& scales, const TransformPlace& where, double mpu,
                                                             double tcps) {
    return std::make_shared<SkelAnimation>(std::move(nodes), std::move(names), translations, rotations, scales, where, mpu, tcps);
}

}  // namespace rigscope::usd
