#include "io/alembic/abc_mesh_writer.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <set>

#include "rigscope/core/axes.h"
#include "rigscope/core/error.h"

namespace rigscope::abc {

namespace {

// Alembic's plain-old-data numbers (abc_archive.h's Pod) for what is written.
constexpr int kPodU32 = 5, kPodI32 = 6, kPodF32 = 10, kPodF64 = 11;
constexpr std::uint32_t kSampling = 1;  // index 0 is the archive's default (1 s a sample), never a frame rate

// AbcGeom's metadata, keys in the sorted order Alembic serialises them ("k=v;k=v").
const char* const kMeshObjectMeta =
    "schema=AbcGeom_PolyMesh_v1;schemaBaseType=AbcGeom_GeomBase_v1;schemaObjTitle=AbcGeom_PolyMesh_v1:.geom";
const char* const kGeomMeta = "schema=AbcGeom_PolyMesh_v1;schemaBaseType=AbcGeom_GeomBase_v1";
const char* const kPointMeta = "geoScope=vtx;interpretation=point";
const char* const kBoxMeta = "interpretation=box";
// The schema's uv: an indexed V2f of facevarying scope (per corner), as Maya and Blender write
// it (Blender's importer reads only indexed UVs).
const char* const kUvMeta = "arrayExtent=1;geoScope=fvr;interpretation=vector;isGeomParam=true;podExtent=2;podName=float32_t";
// N: an indexed N3f of facevarying scope, as Blender's and Maya's exporters write normals per
// corner (Blender's importer makes them custom normals): the values per sample (a normal per
// vertex, then one per flat face), the corners' indices once.
const char* const kNormalMeta = "arrayExtent=1;geoScope=fvr;interpretation=normal;isGeomParam=true;podExtent=3;podName=float32_t";
const char* const kFloatParamMeta = "arrayExtent=1;geoScope=vtx;isGeomParam=true;podExtent=1;podName=float32_t";
// A C3f geometry parameter of vertex scope with Maya's mark: Maya's AbcImport makes a C3f/C4f
// parameter with `mayaColorSet` a colour set (1: the current one, shown); Blender's importer
// takes any C3f of interpretation rgb as a colour attribute.
const char* const kColourParamMeta =
    "arrayExtent=1;geoScope=vtx;interpretation=rgb;isGeomParam=true;mayaColorSet=1;podExtent=3;podName=float32_t";

// Alembic's acyclic marker, as the reader knows it (abc_archive.cpp).
const double kAcyclicTimePerCycle = DBL_MAX / 32.0;

void push32(std::string& b, std::uint32_t v, unsigned hint) {
    const unsigned n = hint == 0 ? 1 : hint == 1 ? 2 : 4;
    for (unsigned i = 0; i < n; ++i) b += char((v >> (8 * i)) & 0xff);
}

void push_raw(std::string& b, const void* p, std::size_t n) { b.append(static_cast<const char*>(p), n); }

// An object name Alembic accepts: no '/', not empty.
std::string object_name(std::string s) {
    std::replace(s.begin(), s.end(), '/', '_');
    return s.empty() ? std::string("mesh") : s;
}

}  // namespace

// One property: its header fields as Alembic's writer keeps them (samples, the first and last
// changed, scalar-like) and its stored samples' block offsets (arrays: data, dimensions).
struct AbcArchiveWriter::Prop {
    std::string name;
    int type = 0;  // 0 compound, 1 scalar, 2 array
    int pod = 0;
    int extent = 1;
    std::string meta;
    std::vector<std::uint64_t> blocks;
    std::uint32_t next = 0, first = 0, last = 0;
    std::uint64_t previous = 0;
    Digest previous_key;
    bool scalar_like = true;
    Digest hash;  // the samples' keys chained: the object's property hash
    std::vector<std::unique_ptr<Prop>> children;

    Prop* child(const std::string& n) {
        for (auto& c : children)
            if (c->name == n) return c.get();
        return nullptr;
    }
    Prop& add(const std::string& n, int t, int pd, int ext, const std::string& m) {
        children.push_back(std::make_unique<Prop>());
        Prop& p = *children.back();
        p.name = n, p.type = t, p.pod = pd, p.extent = ext, p.meta = m;
        return p;
    }
};

AbcArchiveWriter::AbcArchiveWriter(OutputFile& out, const std::vector<AbcMeshOut>& meshes, const AbcArchiveOptions& opt)
    : w_(out), opt_(opt) {
    if (opt_.times.empty()) throw internal_error("an Alembic archive of no sample");
    for (std::size_t i = 1; i < opt_.times.size(); ++i)
        if (!(opt_.times[i] > opt_.times[i - 1]))
            throw Error(kExitUsage, out.path() + ": an Alembic archive's sample times must increase (" + number_text(opt_.times[i - 1]) +
                                        " s then " + number_text(opt_.times[i]) + " s): select frames in order, once each");
    // Consecutive frames (k/fps from the first): a uniform sampling of 1/fps, as Blender and Maya
    // write, whose step readers take for the frame rate. Any other selection (every 5th frame)
    // keeps its times in a list (acyclic): a step of 5/fps would read as another frame rate.
    for (std::size_t i = 1; i < opt_.times.size(); ++i)
        if (std::abs(opt_.times[i] - (opt_.times[0] + double(i) / opt_.fps)) > 1e-9 * std::max(1.0, std::abs(opt_.times[i]))) uniform_ = false;
    if (!is_y_up(opt_.up_axis)) {
        turn_ = true;
        to_y_up_ = up_axis_to_y(opt_.up_axis).toRotationMatrix().cast<float>();
    }
    std::set<std::string> taken;
    for (const AbcMeshOut& m : meshes) {
        // Two meshes of one name (glTF allows it) get _2, _3: Alembic's siblings are unique.
        std::string base = object_name(m.name), name = base;
        for (int k = 2; taken.count(name); ++k) name = base + "_" + std::to_string(k);
        taken.insert(name);
        names_.push_back(name);
        auto geom = std::make_unique<Prop>();
        geom->name = ".geom";
        geom->meta = kGeomMeta;
        geom->add(".selfBnds", 1, kPodF64, 6, kBoxMeta);
        geom->add("P", 2, kPodF32, 3, kPointMeta);
        geom->add(".faceIndices", 2, kPodI32, 1, "");
        geom->add(".faceCounts", 2, kPodI32, 1, "");
        if (!m.uv_corners.empty()) {
            if (m.uv_corners.size() != m.face_indices->size()) throw internal_error("UVs for another count of corners than the faces'");
            Prop& uv = geom->add("uv", 0, 0, 1, kUvMeta);
            uv.add(".vals", 2, kPodF32, 2, kUvMeta);
            uv.add(".indices", 2, kPodU32, 1, "");
        }
        normals_.emplace_back();
        if (m.rest_normals) {
            if (!m.rest_positions || m.rest_normals->size() != m.points || m.rest_positions->size() != m.points)
                throw internal_error("normals for another count of points than the mesh's");
            Prop& n = geom->add("N", 0, 0, 1, kNormalMeta);
            n.add(".vals", 2, kPodF32, 3, kNormalMeta);
            n.add(".indices", 2, kPodU32, 1, "");
            normals_.back() = std::make_unique<CarriedNormals>(*m.rest_positions, *m.rest_normals, *m.face_offsets, *m.face_indices);
        }
        if (opt_.maps) {
            Prop& arb = geom->add(".arbGeomParams", 0, 0, 1, "");
            arb.add("tension", 2, kPodF32, 1, kFloatParamMeta);
            arb.add("compress", 2, kPodF32, 1, kFloatParamMeta);
            arb.add("stretch", 2, kPodF32, 1, kFloatParamMeta);
            arb.add("Cd", 2, kPodF32, 3, kColourParamMeta);
        }
        geoms_.push_back(std::move(geom));
    }
    faces_ = meshes;
}

AbcArchiveWriter::~AbcArchiveWriter() = default;

std::uint64_t AbcArchiveWriter::sample(Prop& p, const void* bytes, std::uint64_t n, std::uint64_t elements) {
    const Digest key = digest128(bytes, n, std::uint32_t(p.pod));
    // Alembic's rule: a sample equal to the one before is not stored; the header's first and
    // last changed indices tell a reader which stored sample each index takes.
    if (p.next == 0 || key != p.previous_key) {
        if (p.first != 0)
            for (std::uint32_t s = p.last + 1; s < p.next; ++s) {
                p.blocks.push_back(p.previous);
                if (p.type == 2) p.blocks.push_back(OgawaWriter::kEmptyData);
            }
        // A content written before anywhere in the archive is referenced, not written again.
        const std::array<std::uint64_t, 3> id{key.w[0], key.w[1], n};
        auto it = written_.find(id);
        std::uint64_t at = 0;
        if (it != written_.end()) {
            at = it->second;
        } else {
            at = n == 0 ? OgawaWriter::kEmptyData : w_.data({{key.w, 16}, {bytes, n}});
            written_.emplace(id, at);
        }
        p.blocks.push_back(at);
        // Rank-1 arrays store no dimensions: the element count follows from the block's size.
        if (p.type == 2) p.blocks.push_back(OgawaWriter::kEmptyData);
        if (elements != 1) p.scalar_like = false;
        if (p.first == 0) p.first = p.next;
        p.last = p.next;
        p.previous = at;
        p.previous_key = key;
    }
    const std::uint64_t chain[4] = {p.hash.w[0], p.hash.w[1], key.w[0], key.w[1]};
    p.hash = digest128(chain, sizeof chain);
    ++p.next;
    return p.previous;
}

void AbcArchiveWriter::repeat(Prop& p) {
    const std::uint64_t chain[4] = {p.hash.w[0], p.hash.w[1], p.previous_key.w[0], p.previous_key.w[1]};
    p.hash = digest128(chain, sizeof chain);
    ++p.next;
}

void AbcArchiveWriter::points(std::size_t m, const std::vector<Eigen::Vector3f>& p) {
    Prop& geom = *geoms_.at(m);
    const AbcMeshOut& mesh = faces_[m];
    if (p.size() != mesh.points) throw internal_error("an Alembic sample of another point count");
    const std::vector<Eigen::Vector3f>* pts = &p;
    if (turn_) {
        turned_.resize(p.size());
        for (std::size_t i = 0; i < p.size(); ++i) turned_[i] = to_y_up_ * p[i];
        pts = &turned_;
    }
    double box[6] = {0, 0, 0, 0, 0, 0};
    if (!pts->empty()) {
        Eigen::Vector3f lo = (*pts)[0], hi = (*pts)[0];
        for (const Eigen::Vector3f& v : *pts) lo = lo.cwiseMin(v), hi = hi.cwiseMax(v);
        for (int k = 0; k < 3; ++k) box[k] = lo[k], box[3 + k] = hi[k];
    }
    sample(*geom.child(".selfBnds"), box, sizeof box, 1);
    static_assert(sizeof(Eigen::Vector3f) == 12, "points are written as packed float triples");
    sample(*geom.child("P"), pts->data(), pts->size() * 12, pts->size());
    Prop* normals = geom.child("N");
    if (normals) {
        // From the points as written (Y-up): the carried normals turn with them.
        normals_[m]->at(*pts, sample_normals_);
        sample(*normals->child(".vals"), sample_normals_.data(), sample_normals_.size() * 12, sample_normals_.size());
    }
    Prop& fi = *geom.child(".faceIndices");
    Prop& fc = *geom.child(".faceCounts");
    Prop* uv = geom.child("uv");
    if (fi.next > 0) {
        // The topology is constant: every sample names the first (Alembic's first and last changed 0).
        repeat(fi);
        repeat(fc);
        if (uv) repeat(*uv->child(".vals")), repeat(*uv->child(".indices"));
        if (normals) repeat(*normals->child(".indices"));
        return;
    }
    // Alembic's faces wind clockwise: each face's corners reversed, as the reader reverses them back.
    const std::vector<std::uint32_t>& off = *mesh.face_offsets;
    const std::vector<std::uint32_t>& idx = *mesh.face_indices;
    const std::size_t faces = off.empty() ? 0 : off.size() - 1;
    std::vector<std::int32_t> counts(faces), indices(idx.size());
    for (std::size_t f = 0; f < faces; ++f) {
        const std::uint32_t a = off[f], b = off[f + 1];
        counts[f] = std::int32_t(b - a);
        for (std::uint32_t k = a; k < b; ++k) indices[k] = std::int32_t(idx[a + (b - 1 - k)]);
    }
    sample(fi, indices.data(), indices.size() * 4, indices.size());
    sample(fc, counts.data(), counts.size() * 4, counts.size());
    if (uv) {
        // The corners' value indices in the written (clockwise) order, as the faces' points.
        static_assert(sizeof(Eigen::Vector2f) == 8, "UVs are written as packed float pairs");
        std::vector<std::uint32_t> corners(mesh.uv_corners.size());
        for (std::size_t f = 0; f < faces; ++f) {
            const std::uint32_t a = off[f], b = off[f + 1];
            for (std::uint32_t k = a; k < b; ++k) corners[k] = mesh.uv_corners[a + (b - 1 - k)];
        }
        sample(*uv->child(".vals"), mesh.uv_values.data(), mesh.uv_values.size() * 8, mesh.uv_values.size());
        sample(*uv->child(".indices"), corners.data(), corners.size() * 4, corners.size());
    }
    if (normals) {
        // The corners' value indices in the written (clockwise) order, as the faces' points.
        const std::vector<std::uint32_t>& by_corner = normals_[m]->corners();
        std::vector<std::uint32_t> corners(by_corner.size());
        for (std::size_t f = 0; f < faces; ++f) {
            const std::uint32_t a = off[f], b = off[f + 1];
            for (std::uint32_t k = a; k < b; ++k) corners[k] = by_corner[a + (b - 1 - k)];
        }
        sample(*normals->child(".indices"), corners.data(), corners.size() * 4, corners.size());
    }
}

void AbcArchiveWriter::maps(std::size_t m, const float* t, const float* compress, const float* stretch, const float* rgb) {
    Prop& arb = *geoms_.at(m)->child(".arbGeomParams");
    const std::uint64_t n = faces_[m].points;
    sample(*arb.child("tension"), t, n * 4, n);
    sample(*arb.child("compress"), compress, n * 4, n);
    sample(*arb.child("stretch"), stretch, n * 4, n);
    sample(*arb.child("Cd"), rgb, n * 12, n);
}

std::uint32_t AbcArchiveWriter::meta_index(const std::string& meta) {
    // Alembic's indexed metadata: 0 is the empty text, up to 254 others of under 256 bytes each;
    // 0xff means the text is written in place.
    if (meta.empty()) return 0;
    if (meta.size() >= 256) return 0xff;
    auto it = meta_.find(meta);
    if (it != meta_.end()) return it->second;
    if (meta_order_.size() >= 254) return 0xff;
    meta_order_.push_back(meta);
    return meta_[meta] = std::uint32_t(meta_order_.size());
}

std::uint64_t AbcArchiveWriter::write_compound(Prop& c) {
    std::vector<std::uint64_t> groups;
    std::string headers;
    std::vector<std::uint64_t> hashes;
    for (auto& q : c.children) {
        groups.push_back(q->type == 0 ? write_compound(*q) : w_.group(q->blocks));
        hashes.push_back(q->hash.w[0]), hashes.push_back(q->hash.w[1]);
        const std::uint32_t mi = meta_index(q->meta);
        // The header's numbers are 1, 2 or 4 bytes, by the largest of them (Alembic's size hint).
        std::uint64_t largest = std::max<std::uint64_t>(q->meta.size(), q->name.size());
        std::uint32_t info = (mi & 0xff) << 20;
        if (q->type != 0) largest = std::max<std::uint64_t>({largest, q->next, kSampling});
        const unsigned hint = largest > 65535 ? 2 : largest > 255 ? 1 : 0;
        info |= hint << 2;
        if (q->type != 0) {
            info |= std::uint32_t(q->type) | (q->type == 2 && q->scalar_like ? 1u : 0u);
            info |= std::uint32_t(q->pod) << 4;
            info |= 0x100;  // a time sampling other than the default
            const bool constant = q->first == 0 && q->last == 0;
            const bool first_last = !constant && !(q->first == 1 && q->last + 1 == q->next);
            if (constant) info |= 0x800;
            if (first_last) info |= 0x200;
            info |= (std::uint32_t(q->extent) & 0xff) << 12;
            push32(headers, info, 2);
            push32(headers, q->next, hint);
            if (first_last) push32(headers, q->first, hint), push32(headers, q->last, hint);
            push32(headers, kSampling, hint);
        } else {
            push32(headers, info, 2);
        }
        push32(headers, std::uint32_t(q->name.size()), hint);
        headers += q->name;
        if (mi == 0xff) push32(headers, std::uint32_t(q->meta.size()), hint), headers += q->meta;
    }
    c.hash = hashes.empty() ? Digest{} : digest128(hashes.data(), hashes.size() * 8);
    if (!headers.empty()) groups.push_back(w_.data(headers.data(), headers.size()));
    return w_.group(groups);
}

void AbcArchiveWriter::close() {
    if (closed_) return;
    closed_ = true;
    std::vector<std::uint64_t> top;
    top.push_back(OgawaWriter::kEmptyGroup);  // the top object's own properties: none
    std::string child_headers;
    std::vector<std::uint64_t> child_hashes;
    std::uint32_t most = 0;  // the largest sample count on the run's sampling
    for (std::size_t m = 0; m < geoms_.size(); ++m) {
        Prop& geom = *geoms_[m];
        std::vector<Prop*> stack{&geom};
        while (!stack.empty()) {
            Prop* p = stack.back();
            stack.pop_back();
            if (p->type != 0) most = std::max(most, p->first == 0 && p->last == 0 && p->next > 0 ? 1u : p->next);
            for (auto& c : p->children) stack.push_back(c.get());
        }
        // The object's properties: the one .geom compound.
        Prop props;
        props.children.push_back(std::move(geoms_[m]));
        const std::uint64_t props_group = write_compound(props);
        // An object's last block: its children's headers (none) and two hashes, its
        // properties' and its children's.
        std::uint64_t hashes[4] = {props.hash.w[0], props.hash.w[1], 0, 0};
        const std::uint64_t object = w_.group({props_group, w_.data(hashes, sizeof hashes)});
        top.push_back(object);
        const std::uint32_t mi = meta_index(kMeshObjectMeta);
        push32(child_headers, std::uint32_t(names_[m].size()), 2);
        child_headers += names_[m];
        push32(child_headers, mi, 0);
        if (mi == 0xff) push32(child_headers, std::uint32_t(std::strlen(kMeshObjectMeta)), 2), child_headers += kMeshObjectMeta;
        const Digest h = digest128(hashes, 16, std::uint32_t(m));
        child_hashes.push_back(h.w[0]), child_hashes.push_back(h.w[1]);
    }
    const Digest children = digest128(child_hashes.data(), child_hashes.size() * 8);
    const std::uint64_t top_hashes[4] = {0, 0, children.w[0], children.w[1]};
    push_raw(child_headers, top_hashes, sizeof top_hashes);
    top.push_back(w_.data(child_headers.data(), child_headers.size()));
    const std::uint64_t top_group = w_.group(top);

    // Versions: AbcCoreOgawa's file format 0 and the Alembic release whose layout this follows
    // (1.8.12, which the tests' alembic3d is).
    const std::int32_t format = 0, library = 10812;
    const std::uint64_t format_block = w_.data(&format, 4);
    const std::uint64_t library_block = w_.data(&library, 4);
    std::string archive_meta;
    auto clean = [](std::string s) {
        for (char& c : s)
            if (c == ';' || c == '=' || static_cast<unsigned char>(c) < 0x20) c = ' ';
        return s;
    };
    if (!opt_.application.empty()) archive_meta += "_ai_Application=" + clean(opt_.application);
    if (!opt_.description.empty()) archive_meta += (archive_meta.empty() ? "" : ";") + std::string("_ai_Description=") + clean(opt_.description);
    const std::uint64_t meta_block = w_.data(archive_meta.data(), archive_meta.size());

    // Time samplings: per sampling the largest sample count, the time per cycle, the count of
    // times and the times. The default first (1 s a sample from 0), then the run's.
    std::string ts;
    auto sampling = [&](std::uint32_t max_samples, double per_cycle, const std::vector<double>& times) {
        push32(ts, max_samples, 2);
        push_raw(ts, &per_cycle, 8);
        push32(ts, std::uint32_t(times.size()), 2);
        push_raw(ts, times.data(), times.size() * 8);
    };
    sampling(0, 1.0, {0.0});
    if (uniform_) {
        sampling(most, 1.0 / opt_.fps, {opt_.times[0]});
    } else {
        sampling(most, kAcyclicTimePerCycle, opt_.times);
    }
    const std::uint64_t ts_block = w_.data(ts.data(), ts.size());
    std::string indexed;
    for (const std::string& s : meta_order_) indexed += char(s.size()), indexed += s;
    const std::uint64_t indexed_block = w_.data(indexed.data(), indexed.size());
    w_.close(w_.group({format_block, library_block, top_group, meta_block, ts_block, indexed_block}));
}

}  // namespace rigscope::abc
