#include "diff_pairing.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <spdlog/spdlog.h>

#include "rigscope/core/error.h"
#include "rigscope/core/vertex_match.h"

namespace rigscope {

namespace {

std::string frames_text(const std::vector<Frame>& frames) {
    if (frames.empty()) return "none";
    std::ostringstream s;
    auto one = [&](const Frame& f) {
        if (f.bind) s << "bind";
        else s << f.number;
    };
    one(frames.front());
    s << "..";
    one(frames.back());
    s << " (" << frames.size() << " frames)";
    return s.str();
}

std::string names_of(const Scene& scene, const std::vector<int>& meshes) {
    std::string s;
    for (int m : meshes) s += (s.empty() ? "'" : ", '") + scene.meshes[m].name + "'";
    return s.empty() ? "none" : s;
}

// The file vertices of each welded vertex (compressed rows, ascending).
void file_vertices(const Topology& t, std::vector<std::uint32_t>& offsets, std::vector<std::uint32_t>& ids) {
    offsets.assign(t.welded_count() + 1, 0);
    for (std::uint32_t w : t.welded_of) ++offsets[w + 1];
    for (std::size_t w = 0; w < t.welded_count(); ++w) offsets[w + 1] += offsets[w];
    ids.resize(t.welded_of.size());
    std::vector<std::uint32_t> fill(offsets.begin(), offsets.end() - 1);
    for (std::size_t v = 0; v < t.welded_of.size(); ++v) ids[fill[t.welded_of[v]]++] = static_cast<std::uint32_t>(v);
}

}  // namespace

std::vector<int> pair_meshes(const DiffJobOptions& opt, const Input& a, const Input& b) {
    // One mesh against one: an exporter that renamed it (Cylinder, Cylinder.001) still made the
    // same rig.
    if (a.meshes.size() == 1 && b.scene.meshes.size() == 1) {
        const std::string &old_name = a.scene.meshes[a.meshes[0]].name, &new_name = b.scene.meshes[0].name;
        if (old_name != new_name)
            spdlog::warn("{}: its only mesh '{}' is compared with {}'s only mesh '{}'", opt.new_file, new_name, opt.input.file, old_name);
        return {0};
    }
    std::vector<int> out;
    std::vector<char> taken(b.scene.meshes.size(), 0);
    for (int m : a.meshes) {
        const std::string& name = a.scene.meshes[m].name;
        int partner = -1;
        for (std::size_t n = 0; n < b.scene.meshes.size() && partner < 0; ++n)
            if (!taken[n] && b.scene.meshes[n].name == name) partner = static_cast<int>(n);
        if (partner < 0) {
            std::vector<int> all(b.scene.meshes.size());
            for (std::size_t n = 0; n < all.size(); ++n) all[n] = static_cast<int>(n);
            throw Error(kExitMismatch, opt.new_file + ": no mesh '" + name + "' to compare with " + opt.input.file + "'s (" +
                                           opt.new_file + " has " + names_of(b.scene, all) + ")");
        }
        taken[static_cast<std::size_t>(partner)] = 1;
        out.push_back(partner);
    }
    // With every OLD mesh selected, a NEW mesh left over is one OLD lacks: the rig changed.
    if (opt.input.mesh.empty())
        for (std::size_t n = 0; n < taken.size(); ++n)
            if (!taken[n])
                throw Error(kExitMismatch, opt.new_file + ": mesh '" + b.scene.meshes[n].name + "' is not in " + opt.input.file + " (" +
                                               opt.input.file + " has " + names_of(a.scene, a.meshes) + ")");
    return out;
}

std::vector<Frame> new_frames(const DiffJobOptions& opt, const Input& a, const Input& b, long& offset) {
    const std::vector<Frame> old_all = default_frames(a.clip_ptr(), a.fps), new_all = default_frames(b.clip_ptr(), b.fps);
    offset = opt.frame_offset_or_zero();
    if (opt.align == "start") {
        if (!a.has_clip || !b.has_clip)
            throw Error(kExitMismatch, (a.has_clip ? opt.new_file : opt.input.file) + ": --align start: no animation to align");
        offset = new_all.front().number - old_all.front().number;
    }
    std::vector<Frame> out;
    out.reserve(a.frames.size());
    for (const Frame& f : a.frames) {
        if (f.bind) out.push_back(f);
        else out.push_back(Frame{false, f.number + offset, static_cast<double>(f.number + offset) / b.fps});
    }
    const std::string hint = " (choose them with --frames, or map them with --align start or --frame-offset K)";
    try {
        check_frames_in_clip(out, b.clip_ptr(), b.fps);
    } catch (const Error& e) {
        if (e.code() != kExitUsage) throw;
        throw Error(kExitMismatch, opt.new_file + ": " + e.what() + ", mapped from " + opt.input.file + "'s frames " +
                                       frames_text(a.frames) + " with offset " + std::to_string(offset) + hint);
    }
    // Without --frames both clips are compared whole: a clip that got longer or shorter is a change.
    if (opt.input.frames.empty()) {
        bool same = old_all.size() == new_all.size();
        for (std::size_t i = 0; same && i < old_all.size(); ++i)
            same = old_all[i].bind == new_all[i].bind && (old_all[i].bind || old_all[i].number + offset == new_all[i].number);
        if (!same)
            throw Error(kExitMismatch, opt.new_file + ": frames " + frames_text(new_all) + ", " + opt.input.file + ": frames " +
                                           frames_text(old_all) + (offset ? " (offset " + std::to_string(offset) + ")" : "") + hint);
    }
    return out;
}

VertexPairing pair_vertices(const DiffJobOptions& opt, const std::string& old_name, const std::string& new_name, const MeshTension& om,
                            const MeshTension& nm, const std::vector<Eigen::Vector3f>& old_rest, const std::vector<Eigen::Vector3f>& new_rest,
                            double diagonal) {
    VertexPairing p;
    std::vector<std::uint32_t> old_off, old_ids, new_off, new_ids;
    file_vertices(om.topo, old_off, old_ids);
    file_vertices(nm.topo, new_off, new_ids);
    const std::size_t compared = om.topo.welded_count();
    p.vertex.resize(compared);
    p.new_vertex.resize(compared);
    p.offsets.assign(1, 0);
    p.compared_of_new.assign(nm.topo.welded_of.size(), 0);
    auto mesh_text = [&] {
        return opt.input.file + " mesh '" + old_name + "' has " + std::to_string(old_rest.size()) + " vertices (" + std::to_string(compared) +
               " welded), " + opt.new_file + " mesh '" + new_name + "' " + std::to_string(new_rest.size()) + " (" +
               std::to_string(nm.topo.welded_count()) + " welded)";
    };
    if (opt.match == "index") {
        if (old_rest.size() != new_rest.size())
            throw Error(kExitMismatch, opt.new_file + ": mesh '" + new_name + "' has " + std::to_string(new_rest.size()) + " vertices, " +
                                           opt.input.file + " mesh '" + old_name + "' has " + std::to_string(old_rest.size()) +
                                           " (--match position pairs vertices by rest position)");
        // Each file vertex is its own compared vertex: a welded vertex whose file vertices moved
        // differently (NEW changed the weights of one seam copy) lists each with its own
        // displacement, so the one that changed is named, not its twin.
        const std::size_t n = old_rest.size();
        p.vertex.resize(n);
        p.new_vertex.resize(n);
        for (std::size_t v = 0; v < n; ++v) {
            p.vertex[v] = p.new_vertex[v] = static_cast<std::uint32_t>(v);
            p.pairs.emplace_back(static_cast<std::uint32_t>(v), static_cast<std::uint32_t>(v));
            p.compared_of_new[v] = static_cast<std::uint32_t>(v);
            p.offsets.push_back(static_cast<std::uint32_t>(p.pairs.size()));
        }
        // Seams NEW tears: file vertices OLD welds into one that NEW's weld keeps apart. Per such
        // OLD vertex, its first file vertex against the first of each other NEW welded vertex.
        for (std::size_t w = 0; w < compared; ++w) {
            const std::uint32_t first = old_ids[old_off[w]];
            std::vector<std::uint32_t> seen{nm.topo.welded_of[first]};
            for (std::uint32_t k = old_off[w] + 1; k < old_off[w + 1]; ++k) {
                const std::uint32_t v = old_ids[k], nw = nm.topo.welded_of[v];
                if (std::find(seen.begin(), seen.end(), nw) != seen.end()) continue;
                seen.push_back(nw);
                p.torn.emplace_back(first, v);
            }
        }
        return p;
    }
    // Welded vertices pair, so that seam copies (several file vertices at one point, split
    // differently by each exporter) share their welded vertex's partner.
    std::vector<Eigen::Vector3f> ow(compared), nw(nm.topo.welded_count());
    for (std::size_t w = 0; w < ow.size(); ++w) ow[w] = old_rest[om.topo.representative[w]];
    for (std::size_t w = 0; w < nw.size(); ++w) nw[w] = new_rest[nm.topo.representative[w]];
    const double tolerance = opt.match_tolerance_or_default() * diagonal;
    VertexMatch vm = match_by_position(ow, nw, tolerance);
    if (vm.complete()) {
        // Each NEW welded vertex once: two OLD vertices on one NEW vertex merged in NEW.
        std::vector<char> used(nw.size(), 0);
        for (std::uint32_t w : vm.b_of_a) vm.ambiguous += used[w]++ ? 1 : 0;
    }
    if (!vm.complete()) {
        const double need = covering_distance(ow, nw);
        std::ostringstream s;
        s << opt.new_file << ": mesh '" << new_name << "': --match position: " << vm.unmatched
          << " welded vertices without a partner within " << tolerance << " m and " << vm.ambiguous << " with several ("
          << mesh_text() << "); every vertex has one within " << need << " m (--match-tolerance " << (diagonal > 0 ? need / diagonal : 0.0)
          << " of the diagonal " << diagonal << " m)";
        throw Error(kExitMismatch, s.str());
    }
    for (std::size_t c = 0; c < compared; ++c) {
        const std::uint32_t w = vm.b_of_a[c];
        p.vertex[c] = old_ids[old_off[c]];
        p.new_vertex[c] = new_ids[new_off[w]];
        for (std::uint32_t k = old_off[c]; k < old_off[c + 1]; ++k)
            for (std::uint32_t l = new_off[w]; l < new_off[w + 1]; ++l) p.pairs.emplace_back(old_ids[k], new_ids[l]);
        for (std::uint32_t l = new_off[w]; l < new_off[w + 1]; ++l) p.compared_of_new[new_ids[l]] = static_cast<std::uint32_t>(c);
        p.offsets.push_back(static_cast<std::uint32_t>(p.pairs.size()));
    }
    return p;
}

}  // namespace rigscope
