#include "rigscope/core/skin.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "rigscope/core/parallel.h"
#include "rigscope/core/point_cache.h"
#include "rigscope/core/skin_dq.h"
#include "skin_avx2.h"

namespace rigscope {

namespace {

// Every path below computes a vertex the same way, so deform_mesh and MeshDeformer
// agree bit for bit: morph deltas added in target order, then the joint matrices
// blended in influence order (one 4x4 per vertex instead of one transform per influence; Eigen
// does it in whole SIMD registers), then p' = c0 x + c1 y + c2 z + c3.
using Morphs = std::vector<std::pair<float, const Eigen::Vector3f*>>;

inline Eigen::Vector3f morphed(const Eigen::Vector3f* base, const Morphs& morphs, std::size_t v) {
    Eigen::Vector3f p = base[v];
    for (const auto& [w, d] : morphs) p += w * d[v];
    return p;
}

inline Eigen::Vector3f transform(const Eigen::Matrix4f& m, const Eigen::Vector3f& p) {
    const Eigen::Vector4f r = m.col(0) * p.x() + m.col(1) * p.y() + m.col(2) * p.z() + m.col(3);
    return r.head<3>();
}

void joint_matrices(const Scene& scene, const Mesh& mesh, const Pose& pose, std::vector<Eigen::Matrix4f>& out) {
    const Skin& skin = scene.skins[mesh.skin];
    out.resize(skin.joints.size());
    for (std::size_t j = 0; j < skin.joints.size(); ++j) {
        // world(joint) = inverse(inverse_bind) at bind, so the product is the identity exactly.
        // Otherwise composed in double: joint chains and inverse binds can be far from the
        // origin, and only the product needs to fit a float.
        out[j] = pose.bind ? Eigen::Matrix4f::Identity()
                           : Eigen::Matrix4f((pose.world[skin.joints[j]] * skin.inverse_bind[j]).cast<float>());
    }
}

void active_morphs(const Mesh& mesh, const std::vector<float>& weights, Morphs& out) {
    out.clear();
    for (std::size_t t = 0; t < mesh.targets.size() && t < weights.size(); ++t)
        if (weights[t] != 0.0f) out.emplace_back(weights[t], mesh.targets[t].deltas.data());
}

// Skinning straight from the file's compressed rows (no regrouping): for one-off calls.
void skin_csr(const Influences& inf, const Eigen::Matrix4f* joints, const Eigen::Vector3f* base, const Morphs& morphs,
              std::size_t begin, std::size_t end, Eigen::Vector3f* out) {
    for (std::size_t v = begin; v < end; ++v) {
        const Eigen::Vector3f p = morphed(base, morphs, v);
        const std::uint32_t b = inf.offsets[v], e = inf.offsets[v + 1];
        if (b == e) {
            out[v] = p;
            continue;
        }
        Eigen::Matrix4f m = inf.weights[b] * joints[inf.joints[b]];
        for (std::uint32_t k = b + 1; k < e; ++k) m += inf.weights[k] * joints[inf.joints[k]];
        out[v] = transform(m, p);
    }
}

void place_unskinned(const Eigen::Matrix4f& world, const Eigen::Vector3f* base, const Morphs& morphs, std::size_t begin,
                     std::size_t end, Eigen::Vector3f* out) {
    if (morphs.empty()) {
        for (std::size_t v = begin; v < end; ++v) out[v] = transform(world, base[v]);
    } else {
        for (std::size_t v = begin; v < end; ++v) out[v] = transform(world, morphed(base, morphs, v));
    }
}

Eigen::Matrix4f node_world(const Mesh& mesh, const Pose& pose) {
    return mesh.node >= 0 ? Eigen::Matrix4f(pose.world[mesh.node].cast<float>()) : Eigen::Matrix4f::Identity();
}

// A frame of a mesh with a point cache (Mesh::cache): the cache's positions placed as the stored
// ones are at the bind pose, a skinned mesh as they are (the skin, which the cache replaces, is
// what would have moved them) and another by its node's world matrix.
bool cache_frame(const Mesh& mesh, const Pose& pose) { return mesh.cache && !pose.bind; }
// A cache that reads parts and maps point i to vertex i: deform_block reads it, part by part.
bool cache_read_in_parts(const Mesh& mesh) { return mesh.cache_points.empty() && mesh.cache->reads_parts(); }

void place_cached(bool skinned, const Eigen::Matrix4f& world, const Eigen::Vector3f* cached, std::size_t begin,
                  std::size_t end, Eigen::Vector3f* out) {
    if (skinned) std::copy(cached + begin, cached + end, out + begin);
    else place_unskinned(world, cached, {}, begin, end, out);
}

}  // namespace

void skin_matrices(const Scene& scene, const Mesh& mesh, const Pose& pose, std::vector<Affine3x4>& out) {
    out.clear();
    if (mesh.skin < 0) return;
    std::vector<Eigen::Matrix4f> m;
    joint_matrices(scene, mesh, pose, m);
    out.resize(m.size());
    for (std::size_t j = 0; j < m.size(); ++j)
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 4; ++c) out[j].m[r * 4 + c] = m[j](r, c);
}

void deform_mesh(const Scene& scene, int mesh_index, const Pose& pose, std::vector<Eigen::Vector3f>& out, ThreadPool* pool) {
    const Mesh& mesh = scene.meshes[mesh_index];
    // [0, n) in fixed blocks, each vertex computed alone: the same bits on any thread count.
    auto blocks = [pool](std::size_t n, auto&& range) {
        constexpr std::size_t kBlock = MeshDeformer::kBlock;
        run_tasks(pool, (n + kBlock - 1) / kBlock, [&](std::size_t i) { range(i * kBlock, std::min(n, (i + 1) * kBlock)); });
    };
    if (cache_frame(mesh, pose)) {
        std::vector<Eigen::Vector3f> cached;
        CacheScratch scratch;
        cached_positions(mesh, pose.time, cached, scratch);
        out.resize(mesh.positions.size());
        const Eigen::Matrix4f world = node_world(mesh, pose);
        blocks(out.size(), [&](std::size_t b, std::size_t e) {
            place_cached(mesh.skin >= 0 && !mesh.influences.empty(), world, cached.data(), b, e, out.data());
        });
        return;
    }
    Morphs morphs;
    active_morphs(mesh, pose.morph_weights[mesh_index], morphs);
    out.resize(mesh.positions.size());
    if (mesh.skin >= 0 && !mesh.influences.empty()) {
        std::vector<Eigen::Matrix4f> joints;
        joint_matrices(scene, mesh, pose, joints);
        const std::size_t n = std::min(mesh.positions.size(), mesh.influences.vertex_count());
        const Skin& skin = scene.skins[mesh.skin];
        if (blends_dual_quaternions(skin.method)) {
            DqFrame frame;
            frame.set(scene, mesh, pose, joints.data());
            blocks(n, [&](std::size_t b, std::size_t e) {
                skin_dq_range(skin, mesh.influences, frame, joints.data(), mesh.positions.data(), morphs, b, e, out.data());
            });
        } else {
            blocks(n, [&](std::size_t b, std::size_t e) { skin_csr(mesh.influences, joints.data(), mesh.positions.data(), morphs, b, e, out.data()); });
        }
        for (std::size_t v = n; v < out.size(); ++v) out[v] = morphed(mesh.positions.data(), morphs, v);
        return;
    }
    const Eigen::Matrix4f world = node_world(mesh, pose);
    blocks(out.size(), [&](std::size_t b, std::size_t e) { place_unskinned(world, mesh.positions.data(), morphs, b, e, out.data()); });
}

// ---- MeshDeformer ------------------------------------------------------------------------

MeshDeformer::MeshDeformer(const Scene& scene, int mesh_index) : mesh_(mesh_index) {
    const Mesh& mesh = scene.meshes[mesh_index];
    vertices_ = mesh.positions.size();
    skinned_ = mesh.skin >= 0 && !mesh.influences.empty();
    if (!skinned_) return;
    dq_ = blends_dual_quaternions(scene.skins[mesh.skin].method);
    const Influences& inf = mesh.influences;
    const std::size_t n = std::min(vertices_, inf.vertex_count());
    std::vector<Run> by_count;
    for (std::size_t v = 0; v < vertices_; ++v) {
        const std::uint32_t count = v < n ? inf.offsets[v + 1] - inf.offsets[v] : 0;
        if (by_count.empty() || by_count.back().count != count)
            by_count.push_back(Run{static_cast<std::uint32_t>(v), static_cast<std::uint32_t>(v), count, v < n ? inf.offsets[v] : 0});
        by_count.back().end = static_cast<std::uint32_t>(v + 1);
    }
    // Dual quaternions read the rows themselves (skin_dq_range), not the runs.
    if (dq_) runs_ = std::move(by_count);
    else for (const Run& r : by_count) split_shared(inf, r);
    runs_.shrink_to_fit();
    // UsdDualQuaternion has the scalar loop alone (DqFrame::table), which reads no lanes.
    if (dq_ && in_.dq_frame.avx2 && scene.skins[mesh.skin].method != SkinningMethod::UsdDualQuaternion) dq_lanes_.build(inf, n);
}

void MeshDeformer::split_shared(const Influences& inf, const Run& run) {
    const std::uint32_t c = run.count;
    if (c == 0) {
        runs_.push_back(run);
        return;
    }
    const std::uint16_t* joints = inf.joints.data();
    const float* weights = inf.weights.data();
    auto at = [&](std::uint32_t v) { return run.first + (v - run.begin) * c; };  // v's first influence
    auto push = [&](std::uint32_t b, std::uint32_t e, Run::Kind kind) {
        if (b < e) runs_.push_back(Run{b, e, c, at(b), kind});
    };
    std::uint32_t rows_from = run.begin;  // the start of the plain rows not pushed yet
    for (std::uint32_t v = run.begin; v < run.end;) {
        // The vertices from v on that list v's joints in v's order (and have weight 1 where v
        // has one influence of weight 1): a walk over the rows, a few instructions a vertex
        // (this runs over every influence of the mesh in its set-up).
        const std::uint16_t* first = joints + at(v);
        const bool unit = c == 1 && weights[at(v)] == 1.0f;
        std::uint32_t e = v + 1;
        if (c == 1) {
            for (const std::uint16_t* j = first + 1; e < run.end && *j == *first && (weights[j - joints] == 1.0f) == unit; ++j) ++e;
        } else {
            for (const std::uint16_t* j = first + c; e < run.end && std::equal(first, first + c, j); j += c) ++e;
        }
        if (e - v >= kSharedMin) {
            push(rows_from, v, Run::rows);
            push(v, e, unit ? Run::unit : Run::shared);
            rows_from = e;
        }
        v = e;
    }
    push(rows_from, run.end, Run::rows);
}

void MeshDeformer::set_pose(const Scene& scene, const Pose& pose, ThreadPool* pool) {
    const Mesh& mesh = scene.meshes[mesh_];
    const bool was_cached = in_.cached;
    in_.cached = cache_frame(mesh, pose);
    if (in_.cached) {
        in_.cache_parts = cache_read_in_parts(mesh);
        if (in_.cache_parts) in_.cache_at = mesh.cache->locate(pose.time);
        else cached_positions(mesh, pose.time, cache_positions_, cache_scratch_, pool);  // read once: deform_block runs on several threads
        in_.joints.assign(1, node_world(mesh, pose));
        in_.morphs.clear();
        unchanged_ = false;
        moved_joints_ = kAllJoints;
        posed_ = true;
        return;
    }
    // The last pose's inputs, to compare bit for bit (-0 and 0 are different inputs).
    last_joints_.swap(in_.joints);
    last_morphs_.swap(in_.morphs);
    active_morphs(mesh, pose.morph_weights[mesh_], in_.morphs);
    if (skinned_) {
        joint_matrices(scene, mesh, pose, in_.joints);
        if (dq_) in_.dq_frame.set(scene, mesh, pose, in_.joints.data());
    } else {
        in_.joints.assign(1, node_world(mesh, pose));
    }
    auto same_morphs = [&] {
        if (in_.morphs.size() != last_morphs_.size()) return false;
        for (std::size_t i = 0; i < in_.morphs.size(); ++i)
            if (in_.morphs[i].second != last_morphs_[i].second ||
                std::memcmp(&in_.morphs[i].first, &last_morphs_[i].first, sizeof(float)) != 0)
                return false;
        return true;
    };
    // Dual quaternions come from the double world matrices, which two equal float products need
    // not share: such a skin is always deformed again.
    // With the same morph weights and every other input the same, a vertex's position depends
    // only on the matrices of the joints it lists: those that are bitwise the last pose's give
    // the last pose's bits. Each matrix compared once, for both answers.
    const bool comparable = posed_ && !was_cached && !dq_ && in_.joints.size() == last_joints_.size() && same_morphs();
    std::uint64_t moved = 0;
    bool any_moved = false;
    if (comparable)
        for (std::size_t j = 0; j < in_.joints.size(); ++j)
            if (std::memcmp(in_.joints[j].data(), last_joints_[j].data(), sizeof(Eigen::Matrix4f)) != 0) {
                moved |= std::uint64_t{1} << (j % 64);
                any_moved = true;
            }
    unchanged_ = comparable && !any_moved;
    moved_joints_ = comparable && skinned_ ? moved : kAllJoints;
    if (!all_moved() && block_joints_.empty()) {
        // Made once, at the first pose that holds a joint: a clip that moves every joint every
        // frame never pays for it.
        const Influences& inf = mesh.influences;
        const std::size_t n = std::min(vertices_, inf.vertex_count());
        block_joints_.assign((vertices_ + kStillBlock - 1) / kStillBlock, 0);
        const std::size_t per_task = 4096;  // blocks
        run_tasks(pool, (block_joints_.size() + per_task - 1) / per_task, [&](std::size_t t) {
            for (std::size_t k = t * per_task, ke = std::min(block_joints_.size(), k + per_task); k < ke; ++k) {
                std::uint64_t bits = 0;
                for (std::size_t v = k * kStillBlock, ve = std::min(n, v + kStillBlock); v < ve; ++v)
                    for (std::uint32_t i = inf.offsets[v]; i < inf.offsets[v + 1]; ++i) bits |= std::uint64_t{1} << (inf.joints[i] % 64);
                block_joints_[k] = bits;
            }
        });
    }
    posed_ = true;
}

bool MeshDeformer::pose_inputs_whole(const Scene& scene) const {
    const Mesh& mesh = scene.meshes[mesh_];
    return !mesh.cache || cache_read_in_parts(mesh);
}

std::size_t MeshDeformer::influence_bytes_read() const {
    std::size_t bytes = 0;
    for (const Run& r : runs_) {
        const std::size_t n = r.end - r.begin, joint = sizeof(std::uint16_t), weight = sizeof(float);
        if (r.kind == Run::rows) bytes += n * r.count * (joint + weight);
        else if (r.kind == Run::shared) bytes += r.count * joint + n * r.count * weight;
        else bytes += r.count * joint;
    }
    return bytes;
}

void MeshDeformer::deform_moved(const Scene& scene, std::size_t begin, std::size_t end, Eigen::Vector3f* out) const {
    if (all_moved()) {
        deform_block(scene, begin, end, out);
        return;
    }
    // Spans of consecutive moved blocks, each one deform_block: a vertex's bits do not depend on
    // the span it is skinned in (the AVX2 lanes and the Eigen loop agree, test_skin_simd.cpp).
    auto moved = [&](std::size_t v) { return (block_joints_[v / kStillBlock] & moved_joints_) != 0; };
    auto next_block = [&](std::size_t v) { return std::min(end, (v / kStillBlock + 1) * kStillBlock); };
    for (std::size_t v = begin; v < end;) {
        if (!moved(v)) {
            v = next_block(v);
            continue;
        }
        std::size_t e = next_block(v);
        while (e < end && moved(e)) e = next_block(e);
        deform_block(scene, v, e, out);
        v = e;
    }
}

void MeshDeformer::deform_block(const Scene& scene, const PoseInputs& in, std::size_t begin, std::size_t end,
                                Eigen::Vector3f* out) const {
    const Mesh& mesh = scene.meshes[mesh_];
    const Eigen::Vector3f* base = mesh.positions.data();
    if (in.cached && in.cache_parts) {
        // The block read into its place in the frame: one copy of the file's bytes, into
        // memory the frame's next pass reads while it is still in cache.
        thread_local std::vector<Eigen::Vector3f> second;  // the later sample of a blend
        if (in.cache_at.a != in.cache_at.b && second.size() < end - begin) second.resize(end - begin);
        mesh.cache->blend_part(in.cache_at, begin, end - begin, out + begin, second.data());
        if (!skinned_) place_unskinned(in.joints[0], out, {}, begin, end, out);
        return;
    }
    if (in.cached) {
        place_cached(skinned_, in.joints[0], cache_positions_.data(), begin, end, out);
        return;
    }
    if (!skinned_) {
        place_unskinned(in.joints[0], base, in.morphs, begin, end, out);
        return;
    }
    if (dq_) {
        const std::size_t n = std::min(end, mesh.influences.vertex_count());
        skin_dq_range(scene.skins[mesh.skin], mesh.influences, in.dq_frame, in.joints.data(), base, in.morphs, begin, n, out, &dq_lanes_);
        for (std::size_t v = std::max(begin, n); v < end; ++v) out[v] = morphed(base, in.morphs, v);
        return;
    }
    const Eigen::Matrix4f* J = in.joints.data();
    const std::uint16_t* joints = mesh.influences.joints.data();
    const float* weights = mesh.influences.weights.data();
    // The run holding `begin`: runs are sorted by their first vertex.
    auto it = std::upper_bound(runs_.begin(), runs_.end(), begin, [](std::size_t v, const Run& r) { return v < r.begin; });
    for (--it; it != runs_.end() && it->begin < end; ++it) {
        const Run& run = *it;
        const std::size_t b = std::max<std::size_t>(begin, run.begin), e = std::min<std::size_t>(end, run.end);
        const std::uint32_t count = run.count;
        const std::size_t first = run.first + (b - run.begin) * count;
        // A shared run's joints are its first vertex's (read once, not per vertex); a unit run's
        // blend is that joint's matrix, 1.0f * x being x bit for bit (no weight read).
        const bool rows = run.kind == Run::rows;
        const std::uint16_t* run_joints = joints + (rows ? first : run.first);
#if defined(RIGSCOPE_AVX2_KERNEL)
        // Without morphs, on AVX2 CPUs: the same bits, half the blend's instructions.
        if (avx2 && count > 0 && in.morphs.empty()) {
            if (rows) detail::skin_linear_avx2(J->data(), run_joints, weights + first, count, base->data(), b, e, out->data());
            else detail::skin_shared_avx2(J->data(), run_joints, run.kind == Run::unit ? nullptr : weights + first, count,
                                          base->data(), b, e, out->data());
            continue;
        }
#endif
        // A fixed count per run lets the compiler unroll the blend for the common counts.
        auto each = [&](auto blend) {
            const std::uint16_t* j = run_joints;
            const float* w = weights + first;
            const std::size_t step = rows ? count : 0;  // a shared run's joints stay
            if (in.morphs.empty()) {
                for (std::size_t v = b; v < e; ++v, j += step, w += count) out[v] = transform(blend(j, w), base[v]);
            } else {
                for (std::size_t v = b; v < e; ++v, j += step, w += count)
                    out[v] = transform(blend(j, w), morphed(base, in.morphs, v));
            }
        };
        auto fixed = [&](auto k) {
            each([J](const std::uint16_t* j, const float* w) {
                Eigen::Matrix4f m = w[0] * J[j[0]];
                for (int i = 1; i < decltype(k)::value; ++i) m += w[i] * J[j[i]];
                return m;
            });
        };
        if (run.kind == Run::unit) {
            const Eigen::Matrix4f& m = J[run_joints[0]];
            if (in.morphs.empty()) for (std::size_t v = b; v < e; ++v) out[v] = transform(m, base[v]);
            else for (std::size_t v = b; v < e; ++v) out[v] = transform(m, morphed(base, in.morphs, v));
            continue;
        }
        switch (count) {
            case 0:
                if (in.morphs.empty()) std::copy(base + b, base + e, out + b);
                else for (std::size_t v = b; v < e; ++v) out[v] = morphed(base, in.morphs, v);
                break;
            case 1: fixed(std::integral_constant<int, 1>{}); break;
            case 2: fixed(std::integral_constant<int, 2>{}); break;
            case 3: fixed(std::integral_constant<int, 3>{}); break;
            case 4: fixed(std::integral_constant<int, 4>{}); break;
            default:
                each([J, count](const std::uint16_t* j, const float* w) {
                    Eigen::Matrix4f m = w[0] * J[j[0]];
                    for (std::uint32_t i = 1; i < count; ++i) m += w[i] * J[j[i]];
                    return m;
                });
        }
    }
}

void MeshDeformer::deform(const Scene& scene, const Pose& pose, std::vector<Eigen::Vector3f>& out, ThreadPool* pool,
                          std::size_t block) {
    set_pose(scene, pose, pool);
    deform_posed(scene, out, pool, block);
}

void MeshDeformer::deform_posed(const Scene& scene, std::vector<Eigen::Vector3f>& out, ThreadPool* pool,
                                std::size_t block) const {
    out.resize(vertices_);
    block = std::max<std::size_t>(block, 1);
    const std::size_t blocks = (vertices_ + block - 1) / block;
    run_tasks(pool, blocks, [&](std::size_t i) {
        deform_block(scene, i * block, std::min(vertices_, (i + 1) * block), out.data());
    });
}

}  // namespace rigscope
