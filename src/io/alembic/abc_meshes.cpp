#include "io/alembic/abc_meshes.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "io/alembic/abc_point_cache.h"
#include "io/alembic/abc_uv.h"
#include "io/alembic/abc_xform.h"
#include "rigscope/core/error.h"

namespace rigscope::abc {

namespace {

std::string scope_name(const MetaData& m) {
    auto it = m.find("geoScope");
    const std::string s = it == m.end() ? "" : it->second;
    if (s == "uni") return "uniform (per face)";
    if (s == "var") return "varying";
    if (s == "vtx") return "vertex";
    if (s == "fvr") return "facevarying (per corner)";
    return s.empty() ? "no scope tag (constant)" : "constant";
}

std::string type_name(const Property& p) {
    std::string t = pod_name(p.pod);
    if (p.extent > 1) t += " x" + std::to_string(p.extent);
    auto it = p.meta.find("interpretation");
    if (it != p.meta.end() && !it->second.empty()) t += " " + it->second;
    return t;
}

// A geometry parameter (uv, N, an arbGeomParam): plain array, or a compound of .vals and
// .indices. Its first sample's sizes are checked against the file (array_sample) and its indices
// against its values; the description goes to `info`.
std::string describe_param(Archive& a, const Property& p, const std::string& what) {
    const Property* vals = &p;
    const Property* idx = nullptr;
    if (p.type == Property::Compound) {
        vals = p.child(".vals");
        idx = p.child(".indices");
        if (!vals) return p.name + " (a compound without .vals: not a geometry parameter)";
    }
    std::string d = p.name + " (" + type_name(*vals) + ", " + scope_name(p.type == Property::Compound ? p.meta : vals->meta);
    if (vals->type == Property::Array && vals->samples > 0 && pod_bytes(vals->pod) > 0 && vals->extent > 0) {
        std::uint64_t n = 0;
        a.array_sample(*vals, 0, what + "'s " + p.name, n);
        d += ", " + std::to_string(n) + " values";
        if (idx && idx->type == Property::Array && idx->samples > 0) {
            if (idx->pod != kU32 && idx->pod != kI32) a.file().fail(what + "'s " + p.name + ".indices are not 32-bit integers");
            std::uint64_t k = 0;
            const std::vector<char> b = a.array_bytes(*idx, 0, what + "'s " + p.name + ".indices", k);
            for (std::uint64_t i = 0; i < k; ++i) {
                std::uint32_t v;
                std::memcpy(&v, &b[i * 4], 4);
                if (v >= n) a.file().fail(what + "'s " + p.name + ".indices hold " + std::to_string(v) + ", past its " + std::to_string(n) + " values");
            }
            a.file().budget().release(b.size());
            d += ", indexed by " + std::to_string(k);
        }
    }
    if (vals->samples > 1) d += ", " + std::to_string(vals->samples) + " samples";
    return d + ")";
}

struct Walker {
    Archive& a;
    double metres_per_unit;  // --abc-unit: applied above the whole chain, points and translations alike
    std::vector<AbcMesh> out;
    std::vector<XformTrack> tracks;  // reserved up front: the chain keeps pointers
    std::vector<const XformTrack*> chain;

    [[noreturn]] void fail(const std::string& s) { a.file().fail(s); }

    // The matrix placing a mesh at time t: the chain from the top, restarted where a node does not
    // inherit its parent's.
    Eigen::Matrix4d world_at(double t) const {
        Eigen::Matrix4d w = Eigen::Matrix4d::Identity();
        for (const XformTrack* x : chain) w = x->inherits_at(t) ? Eigen::Matrix4d(w * x->local_at(t)) : x->local_at(t);
        if (metres_per_unit != 1.0) w.topRows<3>() *= metres_per_unit;
        return w;
    }

    void walk(const Object& o) {
        const std::string schema = o.schema();
        const Property* xform = o.props.child(".xform");
        bool pushed = false;
        if (schema.rfind("AbcGeom_Xform", 0) == 0 && xform) {
            tracks.push_back(read_xform(a, *xform, o.path));
            chain.push_back(&tracks.back());
            pushed = true;
        } else if (schema == "AbcGeom_PolyMesh_v1" || schema == "AbcGeom_SubD_v1") {
            const Property* geom = o.props.child(".geom");
            if (!geom || geom->type != Property::Compound) fail((schema == "AbcGeom_SubD_v1" ? "SubD " : "PolyMesh ") + o.path + " has no .geom compound");
            read_mesh(o, *geom, schema == "AbcGeom_SubD_v1");
        }
        for (const Object& c : o.children) walk(c);
        if (pushed) chain.pop_back();
    }

    const Property& array_of(const Property& geom, const char* name, int pod, int extent, const std::string& what) {
        const Property* p = geom.child(name);
        if (!p) fail(what + " has no " + name);
        if (p->type != Property::Array || p->pod != pod || p->extent != extent)
            fail(what + "'s " + name + " is not an array of " + pod_name(pod) + (extent > 1 ? " x" + std::to_string(extent) : std::string()));
        if (p->samples == 0) fail(what + "'s " + name + " has no samples");
        return *p;
    }

    // Whether sample i of p holds the same bytes as sample 0 (ref): by offset first (Ogawa writes
    // a repeated content once), else by content.
    bool same_as_first(const Property& p, std::uint32_t i, const DataRef& ref, const std::string& what) {
        std::uint64_t n = 0;
        const DataRef d = a.array_sample(p, i, what, n);
        if (d.pos == ref.pos && d.size == ref.size) return true;
        if (d.size != ref.size) return false;
        std::vector<char> x(std::min<std::uint64_t>(d.size, 1 << 20)), y(x.size());
        for (std::uint64_t at = 0; at < d.size; at += x.size()) {
            const std::uint64_t k = std::min<std::uint64_t>(x.size(), d.size - at);
            a.file().read(ref.pos + at, k, x.data(), what);
            a.file().read(d.pos + at, k, y.data(), what);
            if (std::memcmp(x.data(), y.data(), k) != 0) return false;
        }
        return true;
    }

    void check_constant(const Property& p, const DataRef& ref, const std::string& what) {
        for (std::uint32_t i = 1; i < p.samples; ++i) {
            if (p.stored(i) == 0) continue;
            if (!same_as_first(p, i, ref, what + "'s " + p.name))
                fail(what + "'s " + p.name + " at sample " + std::to_string(i) + " (" + number(a.sampling_of(p).time(i)) +
                     " s) differ from sample 0: a topology that changes over time, which rigscope does not read");
        }
    }

    // Faces: counts and corner indices of the first sample, every other sample checked to hold
    // the same (Blender writes them at every frame).
    void read_faces(const Property& counts, const Property& indices, std::uint64_t points, const std::string& what, Mesh& mesh) {
        std::uint64_t nfaces = 0, ncorners = 0;
        const DataRef c0 = a.array_sample(counts, 0, what + "'s .faceCounts", nfaces);
        const DataRef i0 = a.array_sample(indices, 0, what + "'s .faceIndices", ncorners);
        if (nfaces == 0) fail(what + " has no faces (rigscope reads meshes, not point clouds)");
        a.file().budget().charge(double(points) * 12 + double(ncorners) * 4 + double(nfaces + 1) * 4,
                                 what + "'s " + std::to_string(points) + " points and " + std::to_string(nfaces) + " faces");
        std::vector<std::int32_t> cv(nfaces), iv(ncorners);
        a.file().read(c0.pos, nfaces * 4, cv.data(), what + "'s .faceCounts");
        a.file().read(i0.pos, ncorners * 4, iv.data(), what + "'s .faceIndices");
        mesh.face_offsets.reserve(nfaces + 1);
        mesh.face_indices.resize(ncorners);
        std::uint64_t used = 0;
        for (std::uint64_t f = 0; f < nfaces; ++f) {
            const std::int32_t c = cv[f];
            if (c < 3) fail(what + "'s face " + std::to_string(f) + " has " + std::to_string(c) + " corners (a polygon needs 3)");
            if (std::uint64_t(c) > ncorners - used) fail(what + "'s .faceCounts add up past its " + std::to_string(ncorners) + " .faceIndices");
            // Alembic's faces wind clockwise against their normals; Blender's and Maya's importers
            // reverse each face's corners, so the polygon rigscope holds is the one they show.
            for (std::int32_t k = 0; k < c; ++k) {
                const std::int32_t v = iv[used + std::uint64_t(c - 1 - k)];
                if (v < 0 || std::uint64_t(v) >= points)
                    fail(what + "'s .faceIndices hold " + std::to_string(v) + ", past its " + std::to_string(points) + " points");
                mesh.face_indices[used + std::uint64_t(k)] = std::uint32_t(v);
            }
            used += std::uint64_t(c);
            mesh.face_offsets.push_back(std::uint32_t(used));
        }
        if (used != ncorners) fail(what + "'s .faceCounts add up to " + std::to_string(used) + ", not its " + std::to_string(ncorners) + " .faceIndices");
        check_constant(counts, c0, what);
        check_constant(indices, i0, what);
    }

    // P per sample: the same count at every sample; where each starts.
    std::vector<std::uint64_t> point_offsets(const Property& P, const DataRef& p0, std::uint64_t points, const std::string& what) {
        const TimeSampling& ts = a.sampling_of(P);
        std::vector<std::uint64_t> offsets(P.samples);
        a.file().budget().charge(double(P.samples) * 8, what + "'s table of " + std::to_string(P.samples) + " samples");
        offsets[0] = p0.pos;
        for (std::uint32_t i = 1; i < P.samples; ++i) {
            std::uint64_t n = 0;
            offsets[i] = a.array_sample(P, i, what + "'s P", n).pos;
            if (n != points)
                fail(what + "'s P at sample " + std::to_string(i) + " (" + number(ts.time(i)) + " s) holds " + std::to_string(n) + " points, not " +
                     std::to_string(points) + ": a topology that changes over time, which rigscope does not read");
        }
        return offsets;
    }

    // Times: P's own (and its frame rate, where its sampling has a step); a mesh whose points
    // stay but whose transforms move takes theirs, each sample then P's first.
    std::vector<double> sample_times(const Object& o, const Property& P, const DataRef& p0, std::vector<std::uint64_t>& offsets, AbcMesh& m) {
        const TimeSampling& ts = a.sampling_of(P);
        std::vector<double> times;
        bool moving = false;
        for (const XformTrack* x : chain) moving = moving || x->animated();
        if (P.samples > 1) {
            for (std::uint32_t i = 0; i < P.samples; ++i) times.push_back(ts.time(i));
            if (ts.has_step() && P.sampling != 0) {
                // The archive's default sampling (index 0, 1 s a sample) is no frame rate. A float
                // stored step (1/30 as 0.033333335) is a rate a hair off: rounded.
                const double raw = 1.0 / ts.time_per_cycle;
                m.fps = std::fabs(raw - std::round(raw)) <= 1e-4 * raw ? std::round(raw) : std::round(raw * 1e3) / 1e3;
                m.fps_note = "the time sampling of " + o.path + "'s P (" + ts.describe() + ")";
            }
        } else if (moving) {
            for (const XformTrack* x : chain)
                for (double t : x->times()) times.push_back(t);
            std::sort(times.begin(), times.end());
            times.erase(std::unique(times.begin(), times.end()), times.end());
            offsets.assign(times.size(), p0.pos);
        } else {
            times.push_back(ts.time(0));
        }
        return times;
    }

    // Frames are round(time x fps), as Blender's and Maya's importers place samples: times a
    // float step left a hair off a frame are put on it, unless that would merge two samples
    // (sub-frame samples for motion blur stay as they are).
    static void snap_to_frames(double fps, std::vector<double>& times) {
        if (!(fps > 0)) return;
        std::vector<double> snapped(times.size());
        bool ok = true;
        for (std::size_t i = 0; i < times.size() && ok; ++i) {
            const double f = std::round(times[i] * fps);
            ok = std::fabs(times[i] * fps - f) < 1e-2;
            snapped[i] = f / fps;
            if (i > 0) ok = ok && snapped[i] > snapped[i - 1];
        }
        if (ok) times = snapped;
    }

    // Rest positions: the first sample, in world space at its time (`rest_time`). Returns the
    // world matrix at each time, empty where every one is the identity.
    std::vector<Eigen::Matrix4d> rest_positions(const DataRef& p0, std::uint64_t points, const std::vector<double>& times, double rest_time,
                                                const std::string& what, Mesh& mesh) {
        mesh.positions.resize(points);
        a.file().read(p0.pos, points * 12, mesh.positions.data(), what + "'s P");
        for (const Eigen::Vector3f& v : mesh.positions)
            if (!v.allFinite()) fail(what + "'s P at sample 0 holds a point that is not a finite number");
        std::vector<Eigen::Matrix4d> worlds;
        bool identity = true;
        a.file().budget().charge(double(times.size()) * sizeof(Eigen::Matrix4d), what + "'s world matrices");
        for (double t : times) {
            worlds.push_back(world_at(t));
            identity = identity && worlds.back().isIdentity(0);
        }
        const Eigen::Matrix4d rest = world_at(rest_time);
        if (!rest.isIdentity(0)) place(rest, mesh.positions.data(), points);
        if (identity) worlds.clear();
        return worlds;
    }

    // What info lists: uv, N, the arbGeomParams, visibility.
    void describe_attributes(const Object& o, const Property& geom, const std::string& what, AbcMesh& m) {
        for (const char* name : {"uv", "N"})
            if (const Property* p = geom.child(name)) m.attributes.push_back(o.path + ": " + describe_param(a, *p, what));
        if (const Property* arb = geom.child(".arbGeomParams"); arb && arb->type == Property::Compound)
            for (const Property& p : arb->children) m.attributes.push_back(o.path + ": arbGeomParam " + describe_param(a, p, what));
        if (const Property* vis = o.props.child("visible"))
            m.attributes.push_back(o.path + ": visible (" + std::to_string(vis->samples) + (vis->samples == 1 ? " sample" : " samples") +
                                   "; rigscope evaluates hidden meshes too)");
    }

    void read_mesh(const Object& o, const Property& geom, bool subd) {
        const std::string what = (subd ? "SubD " : "PolyMesh ") + o.path;
        const Property& P = array_of(geom, "P", kF32, 3, what);
        const Property& counts = array_of(geom, ".faceCounts", kI32, 1, what);
        const Property& indices = array_of(geom, ".faceIndices", kI32, 1, what);
        const TimeSampling& ts = a.sampling_of(P);
        if (ts.kind == TimeSampling::Acyclic && P.samples > ts.times.size())
            fail(what + "'s P has " + std::to_string(P.samples) + " samples but its acyclic time sampling " + std::to_string(ts.times.size()) + " times");

        AbcMesh m;
        m.path = o.path;
        m.mesh.name = o.name;
        std::uint64_t points = 0;
        const DataRef p0 = a.array_sample(P, 0, what + "'s P", points);
        if (points == 0) fail(what + " has no points");
        if (points > 0xffffffffull) fail(what + " has " + std::to_string(points) + " points, past 2^32");
        read_faces(counts, indices, points, what, m.mesh);
        read_uv_set(a, geom, points, m.mesh, what);  // bake's and regions' UVs
        std::vector<std::uint64_t> offsets = point_offsets(P, p0, points, what);
        std::vector<double> times = sample_times(o, P, p0, offsets, m);
        snap_to_frames(m.fps, times);
        const double rest_time = P.samples > 1 ? ts.time(0) : times.front();
        std::vector<Eigen::Matrix4d> worlds = rest_positions(p0, points, times, rest_time, what, m.mesh);
        if (times.size() > 1) {
            // Two samples a frame blends and the positions built from them, as the PC2 reader counts.
            a.file().budget().charge(double(points) * 12 * 4, what + "'s point cache of " + std::to_string(points) + " points a sample");
            m.cache = std::make_shared<AbcPointCache>(a.file().path(), a.file().path() + " (" + o.path + ".P)", std::move(times), points,
                                                      std::move(offsets), std::move(worlds));
        }
        describe_attributes(o, geom, what, m);
        out.push_back(std::move(m));
    }
};

// Xforms to reserve: every object could be one (the chain holds pointers into the vector).
std::size_t count_objects(const Object& o) {
    std::size_t n = 1;
    for (const Object& c : o.children) n += count_objects(c);
    return n;
}

}  // namespace

std::vector<AbcMesh> read_meshes(Archive& a, double metres_per_unit) {
    if (!(metres_per_unit > 0) || !std::isfinite(metres_per_unit)) throw internal_error("an Alembic unit of no length");
    Walker w{a, metres_per_unit, {}, {}, {}};
    w.tracks.reserve(count_objects(a.top()));
    w.walk(a.top());
    return std::move(w.out);
}

}  // namespace rigscope::abc
