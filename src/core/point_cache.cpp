#include "rigscope/core/point_cache.h"

#include <algorithm>
#include <cmath>

#include "rigscope/core/error.h"
#include "rigscope/core/parallel.h"
#include "rigscope/core/scene.h"

namespace rigscope {

PointCache::PointCache(std::string source, std::vector<double> times, std::size_t points)
    : source_(std::move(source)), times_(std::move(times)), points_(points) {
    if (times_.empty()) throw internal_error("point cache " + source_ + " with no sample");
    for (std::size_t i = 1; i < times_.size(); ++i)
        if (!(times_[i] > times_[i - 1])) throw internal_error("point cache " + source_ + ": sample times not increasing");
}

PointCache::Lookup PointCache::locate(double time) const {
    Lookup l;
    const std::size_t n = times_.size();
    if (n == 1 || !(time > times_.front())) return l;  // before the first (or NaN): the first
    if (time >= times_.back()) {
        l.a = l.b = n - 1;
        return l;
    }
    // times_[i] <= time < times_[i + 1]
    const std::size_t i = static_cast<std::size_t>(std::upper_bound(times_.begin(), times_.end(), time) - times_.begin()) - 1;
    const double u = (time - times_[i]) / (times_[i + 1] - times_[i]);
    if (u <= kSampleSnap) {
        l.a = l.b = i;
    } else if (u >= 1.0 - kSampleSnap) {
        l.a = l.b = i + 1;
    } else {
        l.a = i;
        l.b = i + 1;
        l.u = static_cast<float>(u);
    }
    return l;
}

void PointCache::read_part(std::size_t, std::size_t, std::size_t, Eigen::Vector3f*) const {
    throw internal_error("point cache " + source_ + " reads no parts (reads_parts() is false)");
}

namespace {

// out = (1 - u) out + u second, point by point: the one blend of two samples, wherever it runs.
void blend(Eigen::Vector3f* out, const Eigen::Vector3f* second, std::size_t count, float u) {
    const float w = 1.0f - u;
    for (std::size_t i = 0; i < count; ++i) out[i] = w * out[i] + u * second[i];
}

}  // namespace

void PointCache::blend_part(const Lookup& at, std::size_t first, std::size_t count, Eigen::Vector3f* out,
                            Eigen::Vector3f* scratch) const {
    read_part(at.a, first, count, out);
    if (at.a == at.b) return;
    read_part(at.b, first, count, scratch);
    blend(out, scratch, count, at.u);
}

void PointCache::positions_at(double time, std::vector<Eigen::Vector3f>& out, std::vector<Eigen::Vector3f>& scratch,
                              ThreadPool* pool) const {
    const Lookup l = locate(time);
    out.resize(points_);
    if (l.a != l.b) scratch.resize(points_);
    const std::size_t parts = (points_ + kPartPoints - 1) / kPartPoints;
    if (!pool || pool->size() < 2 || parts < 2 || !reads_parts()) {
        read(l.a, out.data());
        if (l.a != l.b) {
            read(l.b, scratch.data());
            blend(out.data(), scratch.data(), points_, l.u);
        }
        return;
    }
    // Each point read and blended alone: the same bits as one thread.
    pool->run(parts, [&](std::size_t p) {
        const std::size_t first = p * kPartPoints, count = std::min(points_, first + kPartPoints) - first;
        blend_part(l, first, count, out.data() + first, l.a != l.b ? scratch.data() + first : nullptr);
    });
}

MemoryPointCache::MemoryPointCache(std::string source, std::vector<double> times,
                                   std::vector<std::vector<Eigen::Vector3f>> samples)
    : PointCache(std::move(source), std::move(times), samples.empty() ? 0 : samples.front().size()),
      samples_(std::move(samples)) {
    if (samples_.size() != sample_count()) throw internal_error("point cache " + this->source() + ": samples and times differ in count");
    for (const auto& s : samples_)
        if (s.size() != point_count()) throw internal_error("point cache " + this->source() + ": samples of different sizes");
}

void MemoryPointCache::read(std::size_t sample, Eigen::Vector3f* out) const { read_part(sample, 0, point_count(), out); }

void MemoryPointCache::read_part(std::size_t sample, std::size_t first, std::size_t count, Eigen::Vector3f* out) const {
    if (sample >= samples_.size()) throw internal_error("point cache " + source() + ": no sample " + std::to_string(sample));
    if (first > point_count() || count > point_count() - first)
        throw internal_error("point cache " + source() + ": part past its points");
    std::copy(samples_[sample].begin() + first, samples_[sample].begin() + first + count, out);
}

std::vector<Warning> attach_point_cache(Scene& scene, int mesh_index, std::shared_ptr<const PointCache> cache,
                                            std::vector<std::uint32_t> point_of_vertex) {
    if (mesh_index < 0 || mesh_index >= static_cast<int>(scene.meshes.size()) || !cache)
        throw internal_error("attach_point_cache: no such mesh or no cache");
    Mesh& mesh = scene.meshes[mesh_index];
    if (!point_of_vertex.empty()) {
        if (point_of_vertex.size() != mesh.vertex_count()) throw internal_error("attach_point_cache: a point per file vertex expected");
        for (const std::uint32_t p : point_of_vertex)
            if (p >= cache->point_count())
                throw Error(kExitMismatch, cache->source() + ": has " + std::to_string(cache->point_count()) + " points; mesh '" +
                                               mesh.name + "' needs " + std::to_string(std::size_t(p) + 1) + " or more");
    } else if (cache->point_count() != mesh.vertex_count()) {
        throw Error(kExitMismatch, cache->source() + ": has " + std::to_string(cache->point_count()) + " points, mesh '" + mesh.name +
                                       "' of " + scene.source + " has " + std::to_string(mesh.vertex_count()) + " vertices");
    }
    std::vector<Warning> warnings;
    if (mesh.skin >= 0 && !mesh.influences.empty())
        warnings.push_back({WarningKind::Replaced, "mesh '" + mesh.name + "' has a skin; the point cache " + cache->source() +
                           " moves it instead (the skin is ignored)"});
    if (!mesh.targets.empty())
        warnings.push_back({WarningKind::Replaced, "mesh '" + mesh.name + "' has " + std::to_string(mesh.targets.size()) +
                           " morph targets; the point cache " + cache->source() + " replaces them (they are ignored)"});
    mesh.cache = std::move(cache);
    mesh.cache_points = std::move(point_of_vertex);
    return warnings;
}

void cached_positions(const Mesh& mesh, double time, std::vector<Eigen::Vector3f>& out, CacheScratch& scratch,
                      ThreadPool* pool) {
    if (mesh.cache_points.empty()) {
        mesh.cache->positions_at(time, out, scratch.second, pool);
        return;
    }
    mesh.cache->positions_at(time, scratch.sample, scratch.second, pool);
    out.resize(mesh.cache_points.size());
    const std::size_t block = PointCache::kPartPoints;
    run_tasks(pool, (out.size() + block - 1) / block, [&](std::size_t b) {
        for (std::size_t v = b * block; v < std::min(out.size(), (b + 1) * block); ++v) out[v] = scratch.sample[mesh.cache_points[v]];
    });
}

}  // namespace rigscope
