// The Alembic reader (src/io/alembic) on archives built here byte by byte from the Ogawa layout
// and AbcCoreOgawa's headers as Alembic's sources define them (not by rigscope's reader): the
// expected points, faces and times are worked out by hand below. And the archives Alembic's own
// repository keeps from its fuzzers and bug reports (tests/alembic/upstream, BSD): each is read
// or refused with one line naming the file, never anything else.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "rigscope/core/error.h"
#include "rigscope/core/point_cache.h"
#include "rigscope/io/load.h"
#include "rigscope/io/point_cache_reader.h"
#include "corpus.h"
#include "temp_dir.h"

using namespace rigscope;

namespace {

constexpr std::uint64_t kData = 1ull << 63;

// An Ogawa file: a 16-byte header, then groups and data blocks appended; offsets are known
// before a block is written (the current size), which the cycle case uses.
struct Ogawa {
    std::string b = std::string(16, '\0');
    std::uint64_t next() const { return b.size(); }
    template <typename T>
    static std::string raw(const T& v) {
        return std::string(reinterpret_cast<const char*>(&v), sizeof v);
    }
    std::uint64_t data(const std::string& payload) {
        if (payload.empty()) return kData;  // the empty data block
        const std::uint64_t at = next();
        b += raw<std::uint64_t>(payload.size()) + payload;
        return at | kData;
    }
    std::uint64_t group(const std::vector<std::uint64_t>& children) {
        const std::uint64_t at = next();
        b += raw<std::uint64_t>(children.size());
        for (std::uint64_t c : children) b += raw(c);
        return at;
    }
    std::string finish(std::uint64_t root) {
        std::string out = b;
        std::memcpy(&out[0], "Ogawa\xff\x00\x01", 8);
        std::memcpy(&out[8], &root, 8);
        return out;
    }
};

std::string key() { return std::string(16, 'k'); }  // the sample's content hash: not checked by readers
template <typename T>
std::string values(std::initializer_list<T> v) {
    std::string s;
    for (T x : v) s += Ogawa::raw(x);
    return s;
}

// A property header with 1-byte sized fields (hint 0) and the empty indexed metadata (index 0):
// info bits as AbcCoreOgawa's ReadPropertyHeaders reads them.
std::string prop_header(int type, int pod, int extent, const std::string& name, std::vector<std::uint8_t> fields, bool timed,
                        bool changed_range) {
    std::uint32_t info = std::uint32_t(type);
    if (type != 0) info |= std::uint32_t(pod) << 4 | std::uint32_t(extent) << 12 | (timed ? 0x100u : 0u) | (changed_range ? 0x200u : 0u);
    std::string s = Ogawa::raw(info);
    for (std::uint8_t f : fields) s += char(f);
    return s + char(name.size()) + name;
}

std::string child_header(const std::string& name, const std::string& meta) {
    return Ogawa::raw<std::uint32_t>(name.size()) + name + char(0xff) + Ogawa::raw<std::uint32_t>(meta.size()) + meta;
}

std::string write(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

// /xf (translate 1, 2, 3) / mesh: a triangle and a quad over 5 points; P on a 25 fps sampling from
// 0.04 s, 3 samples of which samples 1 and 2 share one stored block (first and last changed: 1).
// self_cycle: /xf's child object group is /xf's own group.
std::string archive(bool self_cycle = false) {
    Ogawa o;
    const std::string p0 = values<float>({0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 2, 1, 0});
    const std::string p1 = values<float>({0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1, 2, 1, 1});
    const std::uint64_t P = o.group({o.data(key() + p0), kData, o.data(key() + p1), kData});
    const std::uint64_t idx = o.group({o.data(key() + values<std::int32_t>({0, 1, 2, 1, 3, 4, 2})), kData});
    const std::uint64_t cnt = o.group({o.data(key() + values<std::int32_t>({3, 4})), kData});
    const std::string geom_headers = prop_header(2, 10, 3, "P", {3, 1, 1, 1}, true, true) +  // samples, first, last, sampling
                                     prop_header(2, 6, 1, ".faceIndices", {1}, false, false) +
                                     prop_header(2, 6, 1, ".faceCounts", {1}, false, false);
    const std::uint64_t geom = o.group({P, idx, cnt, o.data(geom_headers)});
    const std::uint64_t mesh_props = o.group({geom, o.data(prop_header(0, 0, 0, ".geom", {}, false, false))});
    const std::uint64_t mesh = o.group({mesh_props, o.data(std::string(32, 'h'))});

    const std::uint64_t ops = o.group({o.data(key() + std::string(1, char(1 << 4)))});  // translate
    const std::uint64_t vals = o.group({o.data(key() + values<double>({1, 2, 3}))});
    const std::uint64_t xform = o.group({ops, vals, o.data(prop_header(1, 1, 1, ".ops", {1}, false, false) +
                                                           prop_header(1, 11, 3, ".vals", {1}, false, false))});
    const std::uint64_t xf_props = o.group({xform, o.data(prop_header(0, 0, 0, ".xform", {}, false, false))});
    const std::uint64_t xf_headers = o.data(child_header("mesh", "schema=AbcGeom_PolyMesh_v1") + std::string(32, 'h'));
    const std::uint64_t xf_at = o.next();  // where the next group goes: /xf's own
    const std::uint64_t xf = o.group({xf_props, self_cycle ? xf_at : mesh, xf_headers});
    const std::uint64_t top_props = o.group({kData});
    const std::uint64_t top = o.group({top_props, xf, o.data(child_header("xf", "schema=AbcGeom_Xform_v3") + std::string(32, 'h'))});
    // Time samplings: the default (1 s a sample from 0) and 25 fps from 0.04 s.
    const std::string ts = values<std::uint32_t>({1}) + values<double>({1.0}) + values<std::uint32_t>({1}) + values<double>({0.0}) +
                           values<std::uint32_t>({3}) + values<double>({0.04}) + values<std::uint32_t>({1}) + values<double>({0.04});
    const std::uint64_t root = o.group({o.data(values<std::int32_t>({1})), o.data(values<std::int32_t>({10712})), top, kData,
                                        o.data(ts), kData});
    return o.finish(root);
}

}  // namespace

TEST_CASE("alembic: a hand-built archive's mesh in world space, faces reversed, samples shared", "[alembic]") {
    rigscope_test::TempDir dir("rigscope_alembic");
    const std::string path = write(dir.file("hand.abc"), archive());
    const Scene s = load_scene(path);
    REQUIRE(s.format == "Alembic");
    REQUIRE(s.meshes.size() == 1);
    const Mesh& m = s.meshes[0];
    CHECK(m.name == "mesh");
    REQUIRE(m.vertex_count() == 5);
    // Sample 0's points translated by (1, 2, 3): point 4 (2, 1, 0) is at (3, 3, 3).
    CHECK(m.positions[4] == Eigen::Vector3f(3, 3, 3));
    CHECK(m.positions[0] == Eigen::Vector3f(1, 2, 3));
    // Faces reversed corner by corner, as Blender's importer does: 0 1 2 -> 2 1 0; 1 3 4 2 -> 2 4 3 1.
    CHECK(m.face_offsets == std::vector<std::uint32_t>{0, 3, 7});
    CHECK(m.face_indices == std::vector<std::uint32_t>{2, 1, 0, 2, 4, 3, 1});
    CHECK(s.fps == 25.0);
    CHECK(s.fps_from_file);
    REQUIRE(m.cache);
    REQUIRE(m.cache->times().size() == 3);
    CHECK(m.cache->times()[0] == Approx(0.04).margin(1e-12));
    CHECK(m.cache->times()[2] == Approx(0.12).margin(1e-12));
    // Samples 1 and 2 are the one stored block p1: z = 1, then translated: z = 4.
    std::vector<Eigen::Vector3f> a(5), b(5);
    m.cache->read(1, a.data());
    m.cache->read(2, b.data());
    CHECK(a == b);
    CHECK(a[4] == Eigen::Vector3f(3, 3, 4));
    m.cache->read(0, a.data());
    CHECK(a[4] == Eigen::Vector3f(3, 3, 3));
    REQUIRE(s.clips.size() == 1);
    CHECK(s.clips[0].channels.empty());

    // The same archive as --cache: the one mesh's samples.
    const auto cache = open_point_cache(path, 24, LoadOptions{});
    CHECK(cache->point_count() == 5);
    CHECK(cache->sample_count() == 3);
}

TEST_CASE("alembic: a group that holds itself is refused as a cycle", "[alembic]") {
    rigscope_test::TempDir dir("rigscope_alembic");
    const std::string path = write(dir.file("cycle.abc"), archive(true));
    try {
        load_scene(path);
        FAIL("read a cycle of groups");
    } catch (const Error& e) {
        CHECK(e.code() == kExitBadInput);
        CHECK_THAT(e.what(), Catch::Contains("cycle.abc: object /xf/mesh: group at offset") && Catch::Contains("a cycle of groups"));
    }
}

TEST_CASE("alembic: each cut of a good archive is refused in one line", "[alembic]") {
    rigscope_test::TempDir dir("rigscope_alembic");
    const std::string bytes = archive();
    for (std::size_t cut = 0; cut < bytes.size(); cut += 7) {
        const std::string path = write(dir.file("cut.abc"), bytes.substr(0, cut));
        try {
            load_scene(path);
            FAIL("read an archive cut at byte " << cut);
        } catch (const Error& e) {
            CHECK(e.code() == kExitBadInput);
            CHECK(std::string(e.what()).find('\n') == std::string::npos);
            CHECK(std::string(e.what()).find("unknown extension") == std::string::npos);  // read as Alembic
        }
    }
}

TEST_CASE("alembic: the archives of Alembic's own tests are read or refused in one line", "[alembic]") {
    const std::filesystem::path folder = std::filesystem::path(rigscope::test::source_dir()) / "tests/alembic/upstream";
    std::size_t files = 0, refused = 0;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
        if (entry.path().extension() != ".abc") continue;
        ++files;
        const std::string path = entry.path().string();
        INFO(path);
        LoadOptions lo;
        lo.max_memory = 256ull << 20;
        try {
            const Scene s = load_scene(path, lo);
            // Read: a real mesh, every position finite.
            for (const Mesh& m : s.meshes)
                for (const auto& p : m.positions) CHECK(p.allFinite());
        } catch (const Error& e) {
            ++refused;
            CHECK(e.code() == kExitBadInput);
            CHECK(std::string(e.what()).rfind(path + ": ", 0) == 0);
            CHECK(std::string(e.what()).find('\n') == std::string::npos);
            CHECK(std::string(e.what()).find("unknown extension") == std::string::npos);  // read as Alembic
        }
    }
    CHECK(files >= 40);
    CHECK(refused > 0);
}
