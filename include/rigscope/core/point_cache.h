// Point caches: animation given as whole-mesh positions per sample (a cloth or muscle simulation,
// an Alembic or USD points attribute baked out), instead of a skin driven by joints.
//
// Nothing here knows a file format: readers (src/io/cache for PC2, MDD and OBJ sequences, the USD
// reader for time-sampled points) derive from PointCache, and the core reads samples through it.
// A cache is read one sample at a time, so memory does not grow with the frame count: a run keeps
// at most two samples of a mesh (the two a frame between samples blends).
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rigscope/core/warning.h"

namespace rigscope {

struct Mesh;
struct Scene;
class ThreadPool;  // core/parallel.h

class PointCache {
public:
    // times: seconds, one per sample, strictly increasing (the reader checks its file's). points:
    // the positions every sample holds. source: the file it was read from, for messages.
    PointCache(std::string source, std::vector<double> times, std::size_t points);
    virtual ~PointCache() = default;
    PointCache(const PointCache&) = delete;
    PointCache& operator=(const PointCache&) = delete;

    const std::string& source() const { return source_; }
    const std::vector<double>& times() const { return times_; }
    std::size_t sample_count() const { return times_.size(); }
    std::size_t point_count() const { return points_; }
    // Every file the cache reads its samples from: its source, or a sequence's frame files (no
    // output of the run may replace one).
    virtual std::vector<std::string> files() const { return {source_}; }

    // Sample `sample` (< sample_count()) into out[0 .. point_count()). Called from several
    // threads at once (runs evaluate frames in parallel), so an implementation must not share a
    // file position between calls. Throws rigscope::Error naming the file if it can no longer be
    // read (a reader validates the whole file when it opens it, so this is a file changed or
    // removed since).
    virtual void read(std::size_t sample, Eigen::Vector3f* out) const = 0;

    // Whether read_part() reads a part of a sample for less than the whole: true for the binary
    // caches (PC2, MDD, memory), whose points sit at known offsets; false for a text sequence,
    // which must parse a file from its start. positions_at() reads in parts on several threads
    // then, as the frame's other work runs: a 262k-point sample is 3 MB to copy and check.
    virtual bool reads_parts() const { return false; }
    // Points [first, first + count) of sample into out[0 .. count): a cache that reads_parts()
    // overrides it, and positions_at() calls it on no other. The base has no fallback (reading
    // the whole sample per part would copy it once a part, unseen): it throws an internal error.
    virtual void read_part(std::size_t sample, std::size_t first, std::size_t count, Eigen::Vector3f* out) const;

    // Which samples a time falls on. A time within kSampleSnap of a sample interval from a sample
    // takes that sample exactly: frame times are number / fps in double, while caches store their
    // times by other routes (MDD as float seconds: at 100 s a float's step is 8e-6 s, 2e-4 of a
    // frame at 24 fps), and a real sub-frame sample (motion-blur steps) is a tenth of a frame or
    // more. Otherwise the two samples around it are blended linearly, as Blender's Mesh Cache
    // modifier does between frames (its Interpolation "Linear", the default). A time before the
    // first sample or after the last clamps to it, as a clip's keys do.
    struct Lookup {
        std::size_t a = 0, b = 0;  // samples; a == b when the time falls on a sample
        float u = 0.0f;            // weight of b: p = (1 - u) p_a + u p_b
    };
    static constexpr double kSampleSnap = 1e-3;
    Lookup locate(double time) const;

    // The positions at `time` (point_count() of them) into out: one read, or two blended.
    // scratch holds the second sample; both keep their capacity between calls. With a pool, a
    // cache that reads_parts() is read and blended in parts of kPartPoints on its threads: the
    // same bits as one thread (each point is read and blended alone).
    static constexpr std::size_t kPartPoints = 32768;
    void positions_at(double time, std::vector<Eigen::Vector3f>& out, std::vector<Eigen::Vector3f>& scratch,
                      ThreadPool* pool = nullptr) const;
    // Points [first, first + count) at `at` into out[0 .. count), for a cache that reads_parts():
    // sample a, and b (read into scratch[0 .. count)) blended in, the same bits as positions_at's.
    // A frame's tiles call it straight into the deformed positions while they are in cache, so
    // a sample is not first copied whole into a buffer and then again into the frame.
    void blend_part(const Lookup& at, std::size_t first, std::size_t count, Eigen::Vector3f* out,
                    Eigen::Vector3f* scratch) const;

private:
    std::string source_;
    std::vector<double> times_;
    std::size_t points_ = 0;
};

// Every sample in memory: for tests, and for readers whose format holds the samples anyway.
class MemoryPointCache : public PointCache {
public:
    // samples: one vector of `points` positions per time (checked: Error(kExitInternal) otherwise).
    MemoryPointCache(std::string source, std::vector<double> times, std::vector<std::vector<Eigen::Vector3f>> samples);
    void read(std::size_t sample, Eigen::Vector3f* out) const override;
    bool reads_parts() const override { return true; }
    void read_part(std::size_t sample, std::size_t first, std::size_t count, Eigen::Vector3f* out) const override;

private:
    std::vector<std::vector<Eigen::Vector3f>> samples_;
};

// Sets scene.meshes[mesh]'s cache. point_of_vertex: per file vertex, the cache point it takes
// (a cache of the welded vertices of a mesh split at seams); empty when point i is file vertex i.
// Throws Error (kExitMismatch) naming the cache when its point count fits neither. Returns the
// warnings to log: a skin or morph targets the cache replaces.
std::vector<Warning> attach_point_cache(Scene& scene, int mesh, std::shared_ptr<const PointCache> cache,
                                            std::vector<std::uint32_t> point_of_vertex = {});

// The mesh's cache positions per file vertex at `time` (mesh.cache must be set), through
// Mesh::cache_points. scratch keeps two samples' worth of buffers between calls; pool as
// PointCache::positions_at's.
struct CacheScratch {
    std::vector<Eigen::Vector3f> sample, second;
};
void cached_positions(const Mesh& mesh, double time, std::vector<Eigen::Vector3f>& out, CacheScratch& scratch,
                      ThreadPool* pool = nullptr);

}  // namespace rigscope
