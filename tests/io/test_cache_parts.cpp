// A point cache read in parts on several threads (PointCache::read_part, positions_at with a
// pool): the same bits as one thread reading the whole sample, for PC2 and MDD files and for the
// in-memory cache, on a sample time and between two; a bad float found in a later part names its
// own point. The oracle is the single-threaded read of the same file (memcmp: a part read at a
// wrong offset, a part left unread or a blend applied twice all change bytes).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>

#include "rigscope/core/error.h"
#include "rigscope/core/parallel.h"
#include "rigscope/core/point_cache.h"
#include "rigscope/io/load.h"
#include "rigscope/io/point_cache_reader.h"

using namespace rigscope;

namespace {

// 3 x kPartPoints + 5 points: four parts, the last a short one.
constexpr std::size_t kPoints = 3 * PointCache::kPartPoints + 5;
constexpr int kSamples = 3;

std::vector<float> random_floats(std::size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(-2.0f, 2.0f);
    std::vector<float> v(n);
    for (float& f : v) f = d(rng);
    return v;
}

void put32(std::ofstream& out, std::uint32_t v, bool big) {
    unsigned char b[4];
    for (int i = 0; i < 4; ++i) b[i] = static_cast<unsigned char>(big ? v >> (24 - 8 * i) : v >> (8 * i));
    out.write(reinterpret_cast<const char*>(b), 4);
}
std::uint32_t bits(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

// A PC2 (little-endian, frames 0, 1, 2) or an MDD (big-endian, times 0, 1/24, 2/24 s) of `floats`.
std::string write_cache(const std::string& name, const std::vector<float>& floats, bool mdd) {
    const std::string path = (std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp")) + "/" + name;
    std::ofstream out(path, std::ios::binary);
    if (mdd) {
        put32(out, kSamples, true);
        put32(out, kPoints, true);
        for (int i = 0; i < kSamples; ++i) put32(out, bits(float(i / 24.0)), true);
    } else {
        out.write("POINTCACHE2\0", 12);
        put32(out, 1, false);
        put32(out, kPoints, false);
        put32(out, bits(0.0f), false);
        put32(out, bits(1.0f), false);
        put32(out, kSamples, false);
    }
    for (float f : floats) put32(out, bits(f), mdd);
    return path;
}

bool same_bits(const std::vector<Eigen::Vector3f>& a, const std::vector<Eigen::Vector3f>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Eigen::Vector3f)) == 0;
}

// At a sample time, and a third and two thirds of the way to the next: pool and no pool agree.
void check_parts_agree(const PointCache& cache) {
    REQUIRE(cache.reads_parts());
    ThreadPool pool(2);
    for (const double time : {0.0, 1.0 / 72, 2.0 / 72, 1.0 / 24, 1.5 / 24, 5.0}) {
        std::vector<Eigen::Vector3f> one, one_scratch, many, many_scratch;
        cache.positions_at(time, one, one_scratch);
        cache.positions_at(time, many, many_scratch, &pool);
        INFO("time " << time);
        REQUIRE(one.size() == kPoints);
        CHECK(same_bits(one, many));
    }
    // A part alone is the whole sample's slice.
    std::vector<Eigen::Vector3f> whole(kPoints), part(7);
    cache.read(1, whole.data());
    cache.read_part(1, PointCache::kPartPoints - 3, 7, part.data());
    CHECK(std::memcmp(part.data(), whole.data() + PointCache::kPartPoints - 3, 7 * sizeof(Eigen::Vector3f)) == 0);
}

}  // namespace

TEST_CASE("a PC2 and an MDD read in parts on two threads give the bits of one thread", "[point_cache]") {
    const std::vector<float> floats = random_floats(3 * kPoints * kSamples, 7);
    LoadOptions options;
    for (const bool mdd : {false, true}) {
        const std::string path = write_cache(mdd ? "rigscope_parts.mdd" : "rigscope_parts.pc2", floats, mdd);
        INFO(path);
        const auto cache = open_point_cache(path, 24.0, options);
        check_parts_agree(*cache);
        // The first sample's floats are the file's, in order (the part offsets are the file's).
        std::vector<Eigen::Vector3f> first(kPoints);
        cache->read(0, first.data());
        CHECK(std::memcmp(first.data(), floats.data(), kPoints * 12) == 0);
        std::remove(path.c_str());
    }
}

TEST_CASE("the in-memory cache reads in parts as well", "[point_cache]") {
    const std::vector<float> floats = random_floats(3 * kPoints * kSamples, 11);
    std::vector<std::vector<Eigen::Vector3f>> samples(kSamples, std::vector<Eigen::Vector3f>(kPoints));
    for (int s = 0; s < kSamples; ++s) std::memcpy(samples[s].data(), floats.data() + 3 * kPoints * s, kPoints * 12);
    const MemoryPointCache cache("memory", {0.0, 1.0 / 24, 2.0 / 24}, samples);
    check_parts_agree(cache);
}

TEST_CASE("a NaN in a later part of a PC2 sample names its own point", "[point_cache]") {
    std::vector<float> floats = random_floats(3 * kPoints * kSamples, 5);
    const std::size_t bad_point = 2 * PointCache::kPartPoints + 17;
    floats[3 * kPoints + 3 * bad_point + 1] = std::nanf("");  // sample 1
    const std::string path = write_cache("rigscope_parts_nan.pc2", floats, false);
    LoadOptions options;
    const auto cache = open_point_cache(path, 24.0, options);
    ThreadPool pool(2);
    std::vector<Eigen::Vector3f> out, scratch;
    cache->positions_at(0.0, out, scratch, &pool);  // sample 0 is clean
    try {
        cache->positions_at(1.0 / 24, out, scratch, &pool);
        FAIL("a NaN was read without an error");
    } catch (const Error& e) {
        CHECK(std::string(e.what()).find("point " + std::to_string(bad_point) + " is not a finite") != std::string::npos);
    }
    std::remove(path.c_str());
}

namespace {

// A cache that reads whole samples only (as an OBJ sequence does): sample s, point i is (i, s, 0).
class WholeSamples : public PointCache {
public:
    WholeSamples() : PointCache("whole.cache", {0.0, 1.0}, kPoints) {}
    void read(std::size_t sample, Eigen::Vector3f* out) const override {
        for (std::size_t i = 0; i < point_count(); ++i) out[i] = Eigen::Vector3f(static_cast<float>(i), static_cast<float>(sample), 0.0f);
    }
};

}  // namespace

TEST_CASE("a cache that reads no parts is read whole with a pool too, and read_part refuses it", "[point_cache]") {
    const WholeSamples cache;
    REQUIRE_FALSE(cache.reads_parts());
    ThreadPool pool(3);
    std::vector<Eigen::Vector3f> out, scratch;
    cache.positions_at(0.5, out, scratch, &pool);  // between the samples: both read whole, blended
    REQUIRE(out.size() == kPoints);
    CHECK(out[kPoints - 1] == Eigen::Vector3f(static_cast<float>(kPoints - 1), 0.5f, 0.0f));
    // positions_at never asks it for a part; a caller that did has broken the contract.
    std::vector<Eigen::Vector3f> part(4);
    try {
        cache.read_part(0, 0, 4, part.data());
        FAIL("read_part of a cache that reads no parts returned");
    } catch (const Error& e) {
        CHECK(e.code() == kExitInternal);
        CHECK_THAT(e.what(), Catch::Contains("whole.cache reads no parts"));
    }
}
