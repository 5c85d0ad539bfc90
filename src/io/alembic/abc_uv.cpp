#include "io/alembic/abc_uv.h"

#include <cstring>
#include <vector>

namespace rigscope::abc {

void read_uv_set(Archive& a, const Property& geom, std::uint64_t points, Mesh& mesh, const std::string& what) {
    const Property* p = geom.child("uv");
    if (!p) return;
    // Plain: values per corner or point. Indexed: a compound of .vals and .indices, the indices
    // per corner or point.
    const Property* vals = p;
    const Property* idx = nullptr;
    if (p->type == Property::Compound) {
        vals = p->child(".vals");
        idx = p->child(".indices");
    }
    const std::string name = what + "'s uv";
    if (!vals || vals->type != Property::Array || vals->pod != kF32 || vals->extent != 2 || vals->samples == 0)
        a.file().fail(name + " is not an array of float32 x2 (AbcGeom's V2f UVs)");
    if (idx && (idx->type != Property::Array || (idx->pod != kU32 && idx->pod != kI32) || idx->extent != 1 || idx->samples == 0))
        a.file().fail(name + ".indices are not an array of 32-bit integers");
    LoadBudget& budget = a.file().budget();

    std::uint64_t n = 0;
    std::vector<char> vb = a.array_bytes(*vals, 0, name, n);
    UvSet set;
    set.name = "uv";
    set.uv.resize(n);
    std::memcpy(set.uv.data(), vb.data(), n * 8);
    budget.release(vb.size());
    budget.charge(double(n) * 8, name + "'s " + std::to_string(n) + " values");

    // The value of each entry the scope counts: the index, or the entry itself.
    std::vector<std::uint32_t> entry;
    if (idx) {
        std::uint64_t k = 0;
        std::vector<char> ib = a.array_bytes(*idx, 0, name + ".indices", k);
        entry.resize(k);
        std::memcpy(entry.data(), ib.data(), k * 4);
        budget.release(ib.size());
        for (std::uint32_t v : entry)
            if (v >= n) a.file().fail(name + ".indices hold " + std::to_string(v) + ", past its " + std::to_string(n) + " values");
    } else {
        entry.resize(n);
        for (std::uint64_t i = 0; i < n; ++i) entry[i] = std::uint32_t(i);
    }

    // Per corner (facevarying, what Blender and Maya write) or per point (vertex, varying); the
    // scope tag is sometimes missing, and then the count decides.
    const MetaData& meta = p->type == Property::Compound ? p->meta : vals->meta;
    const auto tag = meta.find("geoScope");
    const std::string scope = tag == meta.end() ? "" : tag->second;
    const std::size_t corners = mesh.face_indices.size();
    set.corners.resize(corners);
    const bool per_corner = scope == "fvr" || (scope != "vtx" && scope != "var" && entry.size() == corners);
    if (per_corner && entry.size() == corners) {
        // The file's corners run clockwise; the mesh's are each face's reversed.
        std::uint32_t begin = 0;
        for (std::uint32_t end : mesh.face_offsets) {
            for (std::uint32_t k = 0; k < end - begin; ++k) set.corners[begin + k] = entry[end - 1 - k];
            begin = end;
        }
    } else if (!per_corner && entry.size() == points) {
        for (std::size_t c = 0; c < corners; ++c) set.corners[c] = entry[mesh.face_indices[c]];
    } else {
        a.file().fail(name + " has " + std::to_string(entry.size()) + " entries" + (scope.empty() ? "" : " (scope " + scope + ")") +
                      ": neither the mesh's " + std::to_string(corners) + " face corners nor its " + std::to_string(points) + " points");
    }
    budget.charge(double(corners) * 4, name + "'s corners");
    mesh.uv_sets.push_back(std::move(set));
}

}  // namespace rigscope::abc
