// Dual-quaternion and blended skinning; the formulas are in docs/methods.md ("Skinning methods").
#include "rigscope/core/skin_dq.h"

#include <Eigen/LU>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>

#include "rigscope/core/measure.h"
#include "skin_dq_layout.h"

namespace rigscope {

namespace {

// The rotation of a matrix's linear part that keeps its Y axis (Blender's orthogonalize_m4 with
// axis 1, which its Preserve Volume uses): y = a1/|a1|, z = (a0 x y)/|a0 x y|, x = y x z. Where
// that is undefined (an axis scaled to nothing, X along Y) the nearest rotation instead.
Eigen::Matrix3d rigid_frame(const Eigen::Matrix3d& a) {
    const double yn = a.col(1).norm();
    if (yn > 0 && std::isfinite(yn)) {
        const Eigen::Vector3d y = a.col(1) / yn;
        const Eigen::Vector3d zc = a.col(0).cross(y);
        const double zn = zc.norm();
        if (zn > 1e-12 * a.col(0).norm() && zn > 0) {
            Eigen::Matrix3d q;
            q.col(1) = y;
            q.col(2) = zc / zn;
            q.col(0) = y.cross(q.col(2));
            return q;
        }
    }
    const Eigen::JacobiSVD<Eigen::Matrix3d> svd(a, Eigen::ComputeFullU | Eigen::ComputeFullV);
    Eigen::Matrix3d u = svd.matrixU();
    if ((u * svd.matrixV().transpose()).determinant() < 0) u.col(2) = -u.col(2);
    return u * svd.matrixV().transpose();
}

// R x + t for the blended, unnormalised dual quaternion (r, d): R and t of (r, d) / |r|, so the
// normalisation costs one division. R x = x + 2/|r|^2 (w (v x x) + v x (v x x)),
// t = 2/|r|^2 (w dv - dw v + v x dv).
template <typename V4, typename V3>
inline V3 rigid_apply(const V4& r, const V4& d, const V3& x) {
    using T = typename V3::Scalar;
    const T k = T(2) / r.squaredNorm();
    const V3 v = r.template head<3>(), dv = d.template head<3>();
    const V3 c = v.cross(x);
    return x + k * (r.w() * c + v.cross(c) + r.w() * dv - d.w() * v + v.cross(dv));
}

inline Eigen::Vector3f apply(const Eigen::Matrix4f& m, const Eigen::Vector3f& p) {
    const Eigen::Vector4f r = m.col(0) * p.x() + m.col(1) * p.y() + m.col(2) * p.z() + m.col(3);
    return r.head<3>();
}

// One vertex: the shortest-arc sign of each influence against the first, the blended dual
// quaternion, and the blended S applied first when the pose scales any joint.
template <int K>
inline Eigen::Vector3f dq_point(const DqFrame::Joint* J, const Eigen::Matrix4f* S, const std::uint16_t* j, const float* w,
                                std::uint32_t count, const Eigen::Vector3f& p) {
    const std::uint32_t n = K > 0 ? std::uint32_t(K) : count;
    const Eigen::Vector4f& r0 = J[j[0]].real;
    Eigen::Vector4f r = w[0] * r0, d = w[0] * J[j[0]].dual;
    for (std::uint32_t i = 1; i < n; ++i) {
        const DqFrame::Joint& q = J[j[i]];
        const float s = r0.dot(q.real) < 0.0f ? -w[i] : w[i];
        r += s * q.real;
        d += s * q.dual;
    }
    if (!S) return rigid_apply(r, d, p);
    Eigen::Matrix4f m = w[0] * S[j[0]];
    for (std::uint32_t i = 1; i < n; ++i) m += w[i] * S[j[i]];
    return rigid_apply(r, d, apply(m, p));
}

// OpenUSD's rule for one vertex (UsdSkel's dualQuaternion): the point through G first; the
// shortest-arc sign of each influence against the pivot, the first influence of the largest
// weight; S blended with the unsigned weights when the pose scales any joint; a blend whose real
// part is shorter than 1e-10 (every influence singular) is the identity, as GfDualQuat's
// Normalize makes it. Normalising the dual part against the real one, as Normalize also does,
// leaves the translation 2 d conj(r) as it is, so rigid_apply's formula is the same.
inline Eigen::Vector3f usd_dq_point(const DqFrame::Joint* J, const Eigen::Matrix4f* S, const Eigen::Matrix4f& G,
                                    const std::uint16_t* j, const float* w, std::uint32_t n, const Eigen::Vector3f& p) {
    const Eigen::Vector3f p0 = apply(G, p);
    std::uint32_t pivot = 0;
    for (std::uint32_t i = 1; i < n; ++i)
        if (w[pivot] < w[i]) pivot = i;
    const Eigen::Vector4f& rp = J[j[pivot]].real;
    Eigen::Vector4f r = Eigen::Vector4f::Zero(), d = Eigen::Vector4f::Zero();
    for (std::uint32_t i = 0; i < n; ++i) {
        const DqFrame::Joint& q = J[j[i]];
        const float s = rp.dot(q.real) < 0.0f ? -w[i] : w[i];
        r += s * q.real;
        d += s * q.dual;
    }
    Eigen::Vector3f x = p0;
    if (S) {
        Eigen::Matrix4f m = w[0] * S[j[0]];
        for (std::uint32_t i = 1; i < n; ++i) m += w[i] * S[j[i]];
        x = apply(m, p0);
    }
    if (!(r.squaredNorm() >= 1e-20f)) return x;
    return rigid_apply(r, d, x);
}

inline Eigen::Vector3f linear_point(const Eigen::Matrix4f* L, const std::uint16_t* j, const float* w, std::uint32_t n,
                                    const Eigen::Vector3f& p) {
    Eigen::Matrix4f m = w[0] * L[j[0]];
    for (std::uint32_t i = 1; i < n; ++i) m += w[i] * L[j[i]];
    return apply(m, p);
}

template <int K>
void vertices(const Skin& skin, const Influences& inf, const DqFrame& frame, const Eigen::Matrix4f* linear, const Eigen::Vector3f* base,
              const MorphList& morphs, std::size_t v, std::size_t end, Eigen::Vector3f* out) {
    const DqFrame::Joint* J = frame.joints.data();
    const Eigen::Matrix4f* S = frame.scale.empty() ? nullptr : frame.scale.data();
    const bool blend = skin.method == SkinningMethod::Blend;
    const bool usd = skin.method == SkinningMethod::UsdDualQuaternion;
    const std::size_t nb = skin.blend_weights.size();
    for (; v < end; ++v) {
        Eigen::Vector3f p = base[v];
        for (const auto& [mw, delta] : morphs) p += mw * delta[v];
        const std::uint32_t b = inf.offsets[v], count = inf.offsets[v + 1] - b;
        if (count == 0) {  // K is 0 for such a run too
            out[v] = p;
            continue;
        }
        const std::uint16_t* j = inf.joints.data() + b;
        const float* w = inf.weights.data() + b;
        if (usd) {
            out[v] = usd_dq_point(J, S, frame.geom, j, w, K > 0 ? std::uint32_t(K) : count, p);
            continue;
        }
        if (!blend) {
            out[v] = dq_point<K>(J, S, j, w, count, p);
            continue;
        }
        // b = 0 leaves the linear position exactly; b = 1 the dual-quaternion one.
        const float bw = v < nb ? skin.blend_weights[v] : 0.0f;
        const Eigen::Vector3f lin = linear_point(linear, j, w, count, p);
        if (bw == 0.0f) out[v] = lin;
        else if (bw == 1.0f) out[v] = dq_point<K>(J, S, j, w, count, p);
        else out[v] = (1.0f - bw) * lin + bw * dq_point<K>(J, S, j, w, count, p);
    }
}

}  // namespace

JointSplit split_joint(const Eigen::Matrix4d& world, const Eigen::Matrix4d& inverse_bind) {
    JointSplit out;
    const Eigen::Matrix4d bind = inverse_bind.inverse();
    const Eigen::Matrix3d aw = world.topLeftCorner<3, 3>(), ab = bind.topLeftCorner<3, 3>();
    const Eigen::Vector3d tw = world.topRightCorner<3, 1>(), tb = bind.topRightCorner<3, 1>();
    const Eigen::Matrix3d qw = rigid_frame(aw), qb = rigid_frame(ab);
    const Eigen::Matrix3d q = qw * qb.transpose();
    out.rotation = Eigen::Quaterniond(q);
    out.translation = tw - q * tb;
    // The joints' own scale and shear now and at bind, each in its rigid frame.
    const Eigen::Matrix3d lw = qw.transpose() * aw, lb = qb.transpose() * ab;
    const double size = std::max(1.0, lb.cwiseAbs().maxCoeff());
    out.scaled = (lw - lb).cwiseAbs().maxCoeff() > 1e-9 * size;
    if (out.scaled) {
        // S = P_b (L_w L_b^-1) P_b^-1, P_b = [q_b | t_b]: scale about the joint's bind position.
        const Eigen::Matrix3d s = qb * (lw * lb.inverse()) * qb.transpose();
        out.scale.topLeftCorner<3, 3>() = s;
        out.scale.topRightCorner<3, 1>() = tb - s * tb;
    }
    return out;
}

void DqFrame::set(const Scene& scene, const Mesh& mesh, const Pose& pose, const Eigen::Matrix4f* linear) {
    set_joints(scene, mesh, pose);
    table.clear();
    if (!avx2 || scene.skins[mesh.skin].method == SkinningMethod::UsdDualQuaternion) return;
    using K = detail::DqLayout;
    const bool blend = scene.skins[mesh.skin].method == SkinningMethod::Blend;
    table.assign(joints.size() * K::kStride, 0.0f);
    for (std::size_t j = 0; j < joints.size(); ++j) {
        float* t = table.data() + j * K::kStride;
        for (int c = 0; c < 4; ++c) t[c] = joints[j].real[c], t[4 + c] = joints[j].dual[c];
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 4; ++c) {
                if (!scale.empty()) t[K::kScale + 4 * r + c] = scale[j](r, c);
                if (blend) t[K::kLinear + 4 * r + c] = linear[j](r, c);
            }
    }
}

void DqFrame::set_joints(const Scene& scene, const Mesh& mesh, const Pose& pose) {
    const Skin& skin = scene.skins[mesh.skin];
    const std::size_t n = skin.joints.size();
    joints.assign(n, Joint{Eigen::Vector4f(0, 0, 0, 1), Eigen::Vector4f::Zero()});
    scale.clear();
    geom.setIdentity();
    if (pose.bind) return;  // every joint matrix is the identity at bind (skin.cpp's rule)
    if (skin.method == SkinningMethod::UsdDualQuaternion) {
        set_usd_joints(scene, mesh, pose);
        return;
    }
    std::vector<JointSplit> split(n);
    bool scaled = false;
    for (std::size_t j = 0; j < n; ++j) {
        split[j] = split_joint(pose.world[skin.joints[j]], skin.inverse_bind[j]);
        scaled = scaled || split[j].scaled;
    }
    for (std::size_t j = 0; j < n; ++j) {
        const Eigen::Quaterniond& r = split[j].rotation;
        const Eigen::Vector3d& t = split[j].translation;
        // dual = (t/2) * r: w = -t.v/2, v = (r.w t + t x r.v)/2.
        const Eigen::Vector3d dv = 0.5 * (r.w() * t + t.cross(r.vec()));
        joints[j].real = Eigen::Vector4f(float(r.x()), float(r.y()), float(r.z()), float(r.w()));
        joints[j].dual = Eigen::Vector4f(float(dv.x()), float(dv.y()), float(dv.z()), float(-0.5 * t.dot(r.vec())));
    }
    if (scaled) {
        scale.resize(n);
        for (std::size_t j = 0; j < n; ++j) scale[j] = split[j].scale.cast<float>();
    }
}

// The joint's own matrix world_j bind_j^-1 = world_j inverse_bind_j G^-1, split OpenUSD's way.
static std::vector<UsdJointSplit> usd_splits(const Skin& skin, const Pose& pose, bool& scaled) {
    const Eigen::Matrix4d g_inv = skin.geom_bind.inverse();
    std::vector<UsdJointSplit> split(skin.joints.size());
    scaled = false;
    for (std::size_t j = 0; j < split.size(); ++j) {
        split[j] = usd_split_joint(pose.world[skin.joints[j]] * skin.inverse_bind[j] * g_inv);
        scaled = scaled || split[j].scaled;
    }
    return split;
}

static void usd_dual_quaternion(const UsdJointSplit& s, Eigen::Vector4d& real, Eigen::Vector4d& dual) {
    if (s.singular) {  // UsdSkel's zero dual quaternion: no weight of this joint moves anything
        real.setZero();
        dual.setZero();
        return;
    }
    const Eigen::Quaterniond& r = s.rotation;
    const Eigen::Vector3d& t = s.translation;
    const Eigen::Vector3d dv = 0.5 * (r.w() * t + t.cross(r.vec()));
    real = Eigen::Vector4d(r.x(), r.y(), r.z(), r.w());
    dual = Eigen::Vector4d(dv.x(), dv.y(), dv.z(), -0.5 * t.dot(r.vec()));
}

void DqFrame::set_usd_joints(const Scene& scene, const Mesh& mesh, const Pose& pose) {
    const Skin& skin = scene.skins[mesh.skin];
    bool scaled = false;
    const std::vector<UsdJointSplit> split = usd_splits(skin, pose, scaled);
    for (std::size_t j = 0; j < split.size(); ++j) {
        Eigen::Vector4d r, d;
        usd_dual_quaternion(split[j], r, d);
        joints[j].real = r.cast<float>();
        joints[j].dual = d.cast<float>();
    }
    if (scaled) {
        scale.resize(split.size());
        for (std::size_t j = 0; j < split.size(); ++j) scale[j] = split[j].scale.cast<float>();
    }
    geom = skin.geom_bind.cast<float>();
}

void DqLanes::build(const Influences& inf, std::size_t vertices) {
    using K = detail::DqLayout;
    const std::size_t batches = vertices / K::kLanes;
    slot_start.assign(1, 0);
    slot_min.clear();
    row.clear();
    weight.clear();
    for (std::size_t b = 0; b < batches; ++b) {
        std::uint32_t kmax = 0, kmin = ~0u;
        for (std::size_t l = 0; l < K::kLanes; ++l) {
            const std::size_t v = K::kLanes * b + l;
            const std::uint32_t c = inf.offsets[v + 1] - inf.offsets[v];
            kmax = std::max(kmax, c);
            kmin = std::min(kmin, c);
        }
        for (std::uint32_t i = 0; i < kmax; ++i)
            for (std::size_t l = 0; l < K::kLanes; ++l) {
                const std::size_t v = K::kLanes * b + l;
                const bool has = inf.offsets[v] + i < inf.offsets[v + 1];
                row.push_back(has ? static_cast<std::int32_t>(inf.joints[inf.offsets[v] + i] * K::kStride) : 0);
                weight.push_back(has ? inf.weights[inf.offsets[v] + i] : 0.0f);
            }
        slot_start.push_back(slot_start.back() + kmax);
        slot_min.push_back(kmin);
    }
}

void skin_dq_range(const Skin& skin, const Influences& inf, const DqFrame& frame, const Eigen::Matrix4f* linear,
                   const Eigen::Vector3f* base, const MorphList& morphs, std::size_t begin, std::size_t end, Eigen::Vector3f* out,
                   const DqLanes* lanes) {
    (void)lanes;  // only the AVX2 kernel reads it
#if defined(RIGSCOPE_AVX2_KERNEL)
    if (frame.avx2 && !frame.table.empty() && begin < end) {
        static_assert(sizeof(Eigen::Vector3f) == 3 * sizeof(float), "Vector3f must be x y z");
        std::vector<const float*> deltas;
        std::vector<float> mw;
        for (const auto& [w, d] : morphs) mw.push_back(w), deltas.push_back(d->data());
        const bool blend = skin.method == SkinningMethod::Blend;
        detail::DqLayout k{frame.table.data(), base->data(), deltas.data(), mw.data(), morphs.size(),
                                 inf.offsets.data(), inf.joints.data(), inf.weights.data(), !frame.scale.empty(),
                                 blend ? skin.blend_weights.data() : nullptr, blend ? skin.blend_weights.size() : 0,
                                 nullptr, nullptr, nullptr, nullptr};
        // The regrouped lanes cover whole batches below lanes' end only.
        const bool regrouped = lanes && !lanes->slot_min.empty();
        if (regrouped) {
            k.slot_start = lanes->slot_start.data();
            k.slot_min = lanes->slot_min.data();
            k.slot_row = lanes->row.data();
            k.slot_weight = lanes->weight.data();
        }
        const std::size_t covered = regrouped ? std::min(end, detail::DqLayout::kLanes * lanes->slot_min.size()) : begin;
        if (begin < covered) detail::skin_dq_avx2(k, begin, covered, out->data());
        k.slot_start = nullptr;
        if (std::max(begin, covered) < end) detail::skin_dq_avx2(k, std::max(begin, covered), end, out->data());
        return;
    }
#endif
    // Runs of one influence count take the fixed-count loop, which the compiler unrolls.
    std::size_t v = begin;
    while (v < end) {
        const std::uint32_t count = inf.offsets[v + 1] - inf.offsets[v];
        std::size_t e = v + 1;
        while (e < end && inf.offsets[e + 1] - inf.offsets[e] == count) ++e;
        switch (count) {
            case 1: vertices<1>(skin, inf, frame, linear, base, morphs, v, e, out); break;
            case 2: vertices<2>(skin, inf, frame, linear, base, morphs, v, e, out); break;
            case 3: vertices<3>(skin, inf, frame, linear, base, morphs, v, e, out); break;
            case 4: vertices<4>(skin, inf, frame, linear, base, morphs, v, e, out); break;
            default: vertices<0>(skin, inf, frame, linear, base, morphs, v, e, out);
        }
        v = e;
    }
}

// usd_dq_point's rule in double as p' = T p.
static Eigen::Matrix<double, 3, 4> usd_vertex_transform(const Skin& skin, const Influences& inf, const Pose& pose,
                                                        std::uint32_t vertex) {
    bool scaled = false;
    const std::vector<UsdJointSplit> split = usd_splits(skin, pose, scaled);
    const std::uint32_t b = inf.offsets[vertex], e = inf.offsets[vertex + 1];
    std::uint32_t pivot = b;
    for (std::uint32_t k = b + 1; k < e; ++k)
        if (inf.weights[pivot] < inf.weights[k]) pivot = k;
    Eigen::Vector4d rp, dp, r = Eigen::Vector4d::Zero(), d = Eigen::Vector4d::Zero();
    usd_dual_quaternion(split[inf.joints[pivot]], rp, dp);
    Eigen::Matrix4d s = Eigen::Matrix4d::Identity();
    if (scaled) s.setZero();
    for (std::uint32_t k = b; k < e; ++k) {
        Eigen::Vector4d rq, dq;
        usd_dual_quaternion(split[inf.joints[k]], rq, dq);
        const double w = inf.weights[k], sw = rp.dot(rq) < 0 ? -w : w;
        r += sw * rq;
        d += sw * dq;
        if (scaled) s += w * split[inf.joints[k]].scale;
    }
    const Eigen::Matrix4d sg = s * skin.geom_bind;
    if (!(r.norm() >= 1e-10)) return sg.topRows<3>();
    Eigen::Matrix<double, 3, 4> m;
    const Eigen::Vector3d t = rigid_apply(r, d, Eigen::Vector3d::Zero().eval());
    for (int c = 0; c < 3; ++c) m.col(c) = rigid_apply(r, d, Eigen::Vector3d(sg.block<3, 1>(0, c))) - t;
    m.col(3) = rigid_apply(r, d, Eigen::Vector3d(sg.block<3, 1>(0, 3)));
    return m;
}

Eigen::Matrix<double, 3, 4> dq_vertex_transform(const Scene& scene, const Mesh& mesh, const Pose& pose, std::uint32_t vertex) {
    Eigen::Matrix<double, 3, 4> m = Eigen::Matrix<double, 3, 4>::Identity();
    const Skin& skin = scene.skins[mesh.skin];
    const Influences& inf = mesh.influences;
    if (pose.bind) return m;
    if (skin.method == SkinningMethod::UsdDualQuaternion) return usd_vertex_transform(skin, inf, pose, vertex);
    const std::uint32_t b = inf.offsets[vertex], e = inf.offsets[vertex + 1];
    Eigen::Vector4d r0 = Eigen::Vector4d::Zero(), r = Eigen::Vector4d::Zero(), d = Eigen::Vector4d::Zero();
    Eigen::Matrix4d s = Eigen::Matrix4d::Zero(), lin = Eigen::Matrix4d::Zero();
    for (std::uint32_t k = b; k < e; ++k) {
        const int node = skin.joints[inf.joints[k]];
        const JointSplit js = split_joint(pose.world[node], skin.inverse_bind[inf.joints[k]]);
        const Eigen::Quaterniond& q = js.rotation;
        const Eigen::Vector4d rq(q.x(), q.y(), q.z(), q.w());
        const Eigen::Vector3d dv = 0.5 * (q.w() * js.translation + js.translation.cross(q.vec()));
        const Eigen::Vector4d dq(dv.x(), dv.y(), dv.z(), -0.5 * js.translation.dot(q.vec()));
        if (k == b) r0 = rq;
        const double w = inf.weights[k], sw = r0.dot(rq) < 0 ? -w : w;
        r += sw * rq;
        d += sw * dq;
        s += w * js.scale;
        lin += w * pose.world[node] * skin.inverse_bind[inf.joints[k]];
    }
    // p' = R (S p) + t: the columns are the images of the axes, the last column of the origin.
    const Eigen::Vector3d t = rigid_apply(r, d, Eigen::Vector3d::Zero().eval());
    for (int c = 0; c < 3; ++c)
        m.col(c) = rigid_apply(r, d, Eigen::Vector3d(s.block<3, 1>(0, c))) - t;
    m.col(3) = rigid_apply(r, d, Eigen::Vector3d(s.block<3, 1>(0, 3)));
    if (skin.method == SkinningMethod::Blend) {
        const double bw = vertex < skin.blend_weights.size() ? skin.blend_weights[vertex] : 0.0;
        m = (1.0 - bw) * lin.topRows<3>() + bw * m;
    }
    return m;
}

}  // namespace rigscope
