// The page's assembly: how each mesh moves (skinned in the page, baked, static), the size
// budget, the worst-vertex table and the plotted series.
#include "rigscope/run/report_page.h"

#include "rigscope/run/clip_select.h"

#include <algorithm>
#include <cmath>
#include <spdlog/spdlog.h>

#include "rigscope/core/error.h"
#include "rigscope/core/intersect.h"
#include "rigscope/core/skin.h"
#include "rigscope/io/volume_output.h"
#include "rigscope/io/report_html.h"
#include "rigscope/run/check_job.h"
#include "rigscope/run/run_budget.h"

namespace rigscope {

namespace {

// Polygons fanned into triangles (glTF faces are triangles already).
std::vector<std::uint32_t> triangles_of(const Mesh& mesh) {
    std::vector<std::uint32_t> out;
    for (std::size_t f = 0; f < mesh.face_count(); ++f) {
        const std::uint32_t b = mesh.face_offsets[f], e = mesh.face_offsets[f + 1];
        for (std::uint32_t k = b + 1; k + 1 < e; ++k) {
            out.push_back(mesh.face_indices[b]);
            out.push_back(mesh.face_indices[k]);
            out.push_back(mesh.face_indices[k + 1]);
        }
    }
    return out;
}

struct Candidate {
    int mesh;
    std::uint32_t welded;
    std::string kind;
    float t;
    std::size_t frame;
};

std::string mb(double v) {
    std::string s;
    append_number(s, v);
    return s;
}

// Spreads k of n frame indices evenly, first and last included.
std::vector<std::size_t> spread(std::size_t n, std::size_t k) {
    std::vector<std::size_t> out;
    if (k >= n) {
        for (std::size_t i = 0; i < n; ++i) out.push_back(i);
        return out;
    }
    for (std::size_t i = 0; i < k; ++i) {
        const std::size_t f = k == 1 ? 0 : static_cast<std::size_t>(std::llround(double(i) * double(n - 1) / double(k - 1)));
        if (out.empty() || out.back() != f) out.push_back(f);
    }
    return out;
}

// check's marks (issue 59) into the page's data: the faces of each frame's crossing pairs and
// each measured volume's faces and ratios, on the page's meshes (scene meshes not on the page
// are not marked). A mesh with other faces than triangles gets its face -> triangle map.
void add_marks(const Input& in, const std::vector<MeshTension>& meshes, const ReportPageMarks& marks, ReportData& d) {
    if (!marks.intersections && !marks.volume) return;
    std::vector<int> page_of(in.scene.meshes.size(), -1);
    for (std::size_t m = 0; m < meshes.size(); ++m) page_of[static_cast<std::size_t>(meshes[m].mesh)] = static_cast<int>(m);
    for (std::size_t m = 0; m < meshes.size(); ++m) {
        const Mesh& mesh = in.scene.meshes[meshes[m].mesh];
        bool triangles = true;
        for (std::size_t f = 0; f < mesh.face_count() && triangles; ++f) triangles = mesh.face_offsets[f + 1] - mesh.face_offsets[f] == 3;
        if (triangles) continue;
        std::vector<std::uint32_t>& first = d.meshes[m].face_first_triangle;
        std::uint32_t t = 0;
        for (std::size_t f = 0; f < mesh.face_count(); ++f) {
            first.push_back(t);
            const std::uint32_t corners = mesh.face_offsets[f + 1] - mesh.face_offsets[f];
            if (corners >= 3) t += corners - 2;  // triangles_of's fan
        }
        first.push_back(t);
    }
    if (marks.intersections) {
        const std::vector<IntersectFrame>& frames = *marks.intersections;
        if (frames.size() != in.frames.size()) throw internal_error("report: intersection marks of other frames than the page's");
        ReportIntersections& x = d.intersections;
        d.has_intersections = true;
        x.limit = marks.intersection_limit;
        for (std::size_t fi = 0; fi < frames.size(); ++fi) {
            const IntersectFrame& f = frames[fi];
            x.pairs.push_back(f.pairs.size());
            x.failed = x.failed || f.pairs.size() > x.limit;
            if (f.pairs.empty()) continue;
            ReportIntersectionFrame rf;
            rf.frame = fi;
            rf.pairs = f.pairs.size();
            rf.faces.resize(meshes.size());
            for (const FacePair& p : f.pairs)
                for (const auto& [mesh, face] : {std::pair{p.mesh_a, p.face_a}, std::pair{p.mesh_b, p.face_b}})
                    if (mesh < page_of.size() && page_of[mesh] >= 0) rf.faces[static_cast<std::size_t>(page_of[mesh])].push_back(face);
            for (std::vector<std::uint32_t>& faces : rf.faces) {
                std::sort(faces.begin(), faces.end());
                faces.erase(std::unique(faces.begin(), faces.end()), faces.end());
            }
            x.frames.push_back(std::move(rf));
        }
    }
    if (marks.volume) {
        const VolumeTable& t = *marks.volume;
        if (t.frames != in.frames.size()) throw internal_error("report: volume marks of other frames than the page's");
        d.has_volume = true;
        d.volume.limit = marks.volume_limit;
        d.volume.failed = marks.volume_failed;
        for (std::size_t c = 0; c < t.columns.size(); ++c) {
            const VolumeMeshInfo& info = t.meshes[t.columns[c].mesh];
            const int pm = page_of[static_cast<std::size_t>(info.mesh)];
            if (pm < 0) continue;
            ReportVolumeRegion r;
            r.mesh = pm;
            r.region = t.region_name(c);
            if (t.columns[c].region >= 0)
                for (std::size_t f = 0; f < info.face_region.size(); ++f)
                    if (info.face_region[f] == t.columns[c].region) r.faces.push_back(static_cast<std::uint32_t>(f));
            for (std::size_t f = 0; f < t.frames; ++f) r.ratios.push_back(t.ratio(f, c));
            d.volume.regions.push_back(std::move(r));
        }
    }
}

// Per scene node, whether its world matrix differs from the bind pose's at some frame. `pose`
// is left at the last frame's.
std::vector<char> nodes_that_move(const Input& in, const Pose& bind, Pose& pose) {
    std::vector<char> node_moves(in.scene.nodes.size(), 0);
    for (const Frame& f : in.frames) {
        pose_at(in, f, pose);
        for (std::size_t n = 0; n < node_moves.size(); ++n)
            if (pose.world[n] != bind.world[n]) node_moves[n] = 1;
    }
    return node_moves;
}

// Each mesh's triangles and how it moves in the page: skinned there (its rest, influences and
// bind joints), else baked per frame or static (its rest as deformed at bind).
void describe_meshes(const Input& in, const std::vector<MeshTension>& meshes, const std::vector<char>& node_moves, const Pose& bind,
                     ReportData& d) {
    std::vector<Eigen::Vector3f> rest;
    std::vector<Affine3x4> mats;
    for (std::size_t m = 0; m < meshes.size(); ++m) {
        const Mesh& mesh = in.scene.meshes[meshes[m].mesh];
        ReportMesh& rm = d.meshes[m];
        rm.name = mesh.name;
        rm.two_sided = meshes[m].measure.measure == Measure::principal;
        rm.vertex_count = mesh.vertex_count();
        rm.triangles = triangles_of(mesh);
        for (std::size_t e = 0; e < m && rm.same_triangles_as < 0; ++e)
            if (d.meshes[e].vertex_count == rm.vertex_count && d.meshes[e].triangles == rm.triangles) rm.same_triangles_as = int(e);
        bool skinnable = mesh.skin >= 0 && mesh.targets.empty() && mesh.influences.vertex_count() == mesh.vertex_count()
                         && !blends_dual_quaternions(in.scene.skins[mesh.skin].method);  // the page skins linearly
        for (std::size_t v = 0; skinnable && v < mesh.vertex_count(); ++v)
            skinnable = mesh.influences.offsets[v + 1] - mesh.influences.offsets[v] <= 255;
        if (skinnable) {
            rm.motion = ReportMotion::Skinned;
            for (const auto& p : mesh.positions) rm.base.insert(rm.base.end(), {p.x(), p.y(), p.z()});
            for (std::size_t v = 0; v < mesh.vertex_count(); ++v)
                rm.influence_count.push_back(static_cast<std::uint8_t>(mesh.influences.offsets[v + 1] - mesh.influences.offsets[v]));
            rm.joints = mesh.influences.joints;
            rm.weights = mesh.influences.weights;
            skin_matrices(in.scene, mesh, bind, mats);
            rm.joint_count = mats.size();
            for (const Affine3x4& a : mats) rm.rest_joints.insert(rm.rest_joints.end(), a.m, a.m + 12);
        } else {
            rm.motion = mesh.skin < 0 && mesh.targets.empty() && !(mesh.node >= 0 && node_moves[mesh.node]) ? ReportMotion::Static
                                                                                                           : ReportMotion::Baked;
            deform_mesh(in.scene, meshes[m].mesh, bind, rest);
            for (const auto& p : rest) rm.rest.insert(rm.rest.end(), {p.x(), p.y(), p.z()});
        }
    }
}

// The budget decides T's width and how many frames the page holds: 16-bit T if every frame fits
// so, else 8-bit, else 8-bit on an even subsample of the frames. Sets d.t_bits, d.shown and the
// reason for a subsample.
void fit_frames_in_budget(const ReportOptions& opt, std::size_t viewer_size, std::size_t clips, std::size_t rows, ReportData& d) {
    const std::size_t nf = d.frames.size();
    // Several clips share the page: the viewer once, the rest of --max-size in equal parts.
    const double viewer_bytes = double(viewer_size);
    const double budget = clips == 1 ? opt.max_mb * 1e6 : viewer_bytes + std::max(0.0, opt.max_mb * 1e6 - viewer_bytes) / double(clips);
    const double fixed = double(report_fixed_bytes(viewer_size, d.meshes, nf, rows) + report_mark_bytes(d));
    auto fit = [&](int bits) {
        const double per = double(report_frame_bytes(d.meshes, bits));
        return budget <= fixed ? 0.0 : per <= 0 ? double(nf) : std::floor((budget - fixed) / per);
    };
    std::size_t k = nf;
    if (fit(16) >= double(nf)) {
        d.t_bits = 16;
    } else {
        d.t_bits = 8;
        if (fit(8) < double(nf)) {
            k = static_cast<std::size_t>(fit(8));
            if (k == 0)
                throw Error(kExitUsage, opt.out + ": --max-size " + mb(opt.max_mb) + " MB cannot hold the mesh and one frame");
        }
    }
    d.shown = spread(nf, k);
    if (d.shown.size() < nf) {
        d.subsample_reason = std::to_string(d.shown.size()) + " of " + std::to_string(nf) +
                             " frames shown, evenly spread, to keep the page within " + mb(opt.max_mb) + " MB (--max-size" +
                             (clips > 1 ? ", shared by " + std::to_string(clips) + " clips)" : ")");
        spdlog::info("report: {}", d.subsample_reason);
    }
}

// Per welded vertex, its lowest and highest T and where, and every frame's T when kept.
struct FrameTension {
    VertexTensionExtremes ext;
    bool keep_all = false;
    std::vector<std::vector<float>> all_c, all_s;  // all_s: two-sided meshes only
};

// One pass over the frames: the extremes per welded vertex, the measure's T (--measure), the
// stretch side's for the lows and the compress side's for the highs (one T but for principal);
// the shown frames' T, positions and joints into the page. Every frame's T is kept for the
// plotted series when that fits in memory, else the series take a second pass.
FrameTension collect_frames(const Input& in, std::vector<MeshTension>& meshes, Pose& pose, ReportData& d) {
    const std::size_t nm = meshes.size(), nf = in.frames.size();
    FrameTension ft;
    ft.ext.reset(meshes, false);
    std::size_t welded_total = 0;
    for (std::size_t m = 0; m < nm; ++m) welded_total += meshes[m].topo.welded_count() * (d.meshes[m].two_sided ? 2 : 1);
    ft.keep_all = double(welded_total) * double(nf) * 4.0 <= 512.0 * 1024 * 1024;
    ft.all_c.resize(nm);
    ft.all_s.resize(nm);
    std::vector<Affine3x4> mats;
    std::size_t next_shown = 0;
    for_each_tension_frame(in, meshes, [&](std::size_t fi) {
        const bool shown = next_shown < d.shown.size() && d.shown[next_shown] == fi;
        if (shown) ++next_shown;
        for (std::size_t m = 0; m < nm; ++m) {
            const MeshTension& mt = meshes[m];
            const std::vector<float>& tc = mt.compress_t();
            const std::vector<float>& ts = mt.stretch_t();
            ft.ext.add(m, mt, static_cast<std::uint32_t>(fi));
            if (ft.keep_all) {
                ft.all_c[m].insert(ft.all_c[m].end(), tc.begin(), tc.end());
                if (d.meshes[m].two_sided) ft.all_s[m].insert(ft.all_s[m].end(), ts.begin(), ts.end());
            }
            if (!shown) continue;
            ReportMesh& rm = d.meshes[m];
            if (rm.motion == ReportMotion::Static && !rm.t.empty()) continue;  // the same at every frame
            for (std::uint32_t w : mt.topo.welded_of) rm.t.push_back(tc[w]);
            if (rm.two_sided)
                for (std::uint32_t w : mt.topo.welded_of) rm.t_stretch.push_back(ts[w]);
            if (rm.motion == ReportMotion::Baked)
                for (const auto& p : mt.deformed) rm.positions.insert(rm.positions.end(), {p.x(), p.y(), p.z()});
            if (rm.motion == ReportMotion::Skinned) {
                pose_at(in, in.frames[fi], pose);
                skin_matrices(in.scene, in.scene.meshes[mt.mesh], pose, mats);
                for (const Affine3x4& a : mats) rm.frame_joints.insert(rm.frame_joints.end(), a.m, a.m + 12);
            }
        }
    });
    return ft;
}

// The table's vertices: a check's offenders, worst first, else the `worst` vertices farthest
// from T = 1. The offenders are the verdict's (judge_check), per side: the page and the text
// agree on who passed which limit by construction.
std::vector<Candidate> table_rows(const CheckVerdict* verdict, const VertexTensionExtremes& ext, std::size_t nm, int worst) {
    std::vector<Candidate> rows_out;
    auto lo = [&](std::size_t m, std::size_t w) { return Candidate{int(m), std::uint32_t(w), "stretch", ext.min[m][w], ext.min_at[m][w]}; };
    auto hi = [&](std::size_t m, std::size_t w) { return Candidate{int(m), std::uint32_t(w), "compress", ext.max[m][w], ext.max_at[m][w]}; };
    if (verdict) {
        const std::vector<CheckFailure> st = side_failures(*verdict, true), co = side_failures(*verdict, false);
        // The extremes the verdict judged are this pass's too (the same meshes and frames): the
        // rows take their frame indices from it.
        const std::size_t n = static_cast<std::size_t>(verdict->given.worst);
        for (std::size_t i = 0; i < std::min(n, st.size()); ++i) rows_out.push_back(lo(st[i].mesh, st[i].welded));
        for (std::size_t i = 0; i < std::min(n, co.size()); ++i) rows_out.push_back(hi(co[i].mesh, co[i].welded));
    }
    if (rows_out.empty()) {
        std::vector<Candidate> all;
        for (std::size_t m = 0; m < nm; ++m)
            for (std::size_t w = 0; w < ext.min[m].size(); ++w) {
                const bool compress = std::abs(std::log(ext.max[m][w])) >= std::abs(std::log(ext.min[m][w]));
                all.push_back(compress ? hi(m, w) : lo(m, w));
            }
        const std::size_t n = std::min(all.size(), static_cast<std::size_t>(worst));
        std::partial_sort(all.begin(), all.begin() + n, all.end(),
                          [](const auto& a, const auto& b) { return std::abs(std::log(a.t)) > std::abs(std::log(b.t)); });
        rows_out.assign(all.begin(), all.begin() + n);
    }
    return rows_out;
}

// The table's rows into the page, each with the series of its side: from the kept T, else by a
// second pass over the frames.
void add_worst_rows(const Input& in, std::vector<MeshTension>& meshes, const std::vector<Candidate>& rows_out, const FrameTension& ft,
                    const FrameProgress& progress, ReportData& d) {
    const std::size_t nf = in.frames.size();
    for (const Candidate& c : rows_out) {
        ReportVertex v;
        v.mesh = c.mesh;
        v.vertex = meshes[c.mesh].topo.representative[c.welded];
        v.kind = c.kind;
        v.t = c.t;
        v.frame = c.frame;
        // The series of the row's side.
        const bool stretch_side = d.meshes[c.mesh].two_sided && c.kind == "stretch";
        if (ft.keep_all) {
            const std::size_t nw = meshes[c.mesh].topo.welded_count();
            const std::vector<float>& all = stretch_side ? ft.all_s[c.mesh] : ft.all_c[c.mesh];
            for (std::size_t f = 0; f < nf; ++f) v.series.push_back(all[f * nw + c.welded]);
        }
        d.worst.push_back(std::move(v));
    }
    if (!ft.keep_all && !rows_out.empty())
        for_each_tension_frame(in, meshes, [&](std::size_t) {
            for (std::size_t i = 0; i < rows_out.size(); ++i) {
                const MeshTension& mt = meshes[rows_out[i].mesh];
                const std::vector<float>& side = rows_out[i].kind == "stretch" ? mt.stretch_t() : mt.compress_t();
                d.worst[i].series.push_back(side[rows_out[i].welded]);
            }
        }, progress);
}

}  // namespace

void ReportOptions::validate() const {
    if (out.empty() || out == "-") throw Error(kExitUsage, "the HTML report needs a file name (-o report.html)");
    // The name says what the file holds: a page under report.json would be opened as JSON.
    {
        const auto slash = out.find_last_of('/'), dot = out.find_last_of('.');
        std::string ext = dot == std::string::npos || (slash != std::string::npos && dot < slash) ? "" : out.substr(dot);
        for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (ext != ".html" && ext != ".htm")
            throw Error(kExitUsage, out + ": the report is an HTML page; name the file .html");
    }
    if (worst < 1) throw Error(kExitUsage, "--worst: must be 1 or more");
    if (!(max_mb >= 0.5 && max_mb <= 4096)) throw Error(kExitUsage, "--max-size: must be from 0.5 to 4096 MB");
}

ReportPage::ReportPage(const ReportOptions& opt, const Input& in)
    : opt_((opt.validate(), opt)), viewer_(load_report_viewer(opt.viewer)), out_(opt.out, in.paths) {
    if (in.chunk_count > 1) throw Error(kExitUsage, "the HTML report covers a whole run: drop --chunk");
}

ReportResult ReportPage::write(const Input& in, std::vector<MeshTension>& meshes, const TensionRunInfo& run, const CheckVerdict* verdict,
                               const FrameProgress& progress, const ReportPageMarks& marks) {
    ReportData d;
    ReportResult r = build(in, meshes, run, verdict, progress, 1, d, marks);
    write_report_html(d, viewer_, out_);
    out_.commit();
    return r;
}

ReportResult ReportPage::write_clips(Input& in, const TensionOptions& tension, std::vector<MeshTension>& meshes,
                                     const std::vector<ReportPageClip>& clips, std::size_t initial, const FrameProgress& progress) {
    if (clips.empty() || initial >= clips.size()) throw internal_error("report: a page of no clip");
    std::vector<ReportClipData> data(clips.size());
    ReportResult shown;
    for (std::size_t k = 0; k < clips.size(); ++k) {
        use_clip(in, tension.input, clips[k].index);
        data[k].name = clips[k].name;
        ReportResult r = build(in, meshes, describe_run(in, tension), clips[k].verdict, progress, clips.size(), data[k].data, clips[k].marks);
        if (k == initial) shown = std::move(r);
    }
    write_report_html_clips(data, initial, viewer_, out_);
    out_.commit();
    shown.clips = clips.size();
    return shown;
}

ReportResult ReportPage::build(const Input& in, std::vector<MeshTension>& meshes, const TensionRunInfo& run, const CheckVerdict* verdict,
                               const FrameProgress& progress, std::size_t clips, ReportData& d, const ReportPageMarks& marks) {
    const CheckLimits* limits = verdict ? &verdict->given : nullptr;
    const std::size_t nm = meshes.size(), nf = in.frames.size();
    d.run = run;
    d.up_axis = in.scene.up_axis;
    d.frames = in.frames;
    d.meshes.resize(nm);
    const Pose bind = bind_pose(in.scene);
    // A mesh without skin or morph targets moves only with its node: when that node's world
    // matrix is the same at every frame, the mesh is stored once.
    Pose pose = bind;
    const std::vector<char> node_moves = nodes_that_move(in, bind, pose);
    describe_meshes(in, meshes, node_moves, bind, d);
    const std::size_t rows = 2 * static_cast<std::size_t>(limits ? limits->worst : opt_.worst);
    add_marks(in, meshes, marks, d);
    fit_frames_in_budget(opt_, viewer_.size(), clips, rows, d);
    const FrameTension ft = collect_frames(in, meshes, pose, d);
    const std::vector<Candidate> rows_out = table_rows(verdict, ft.ext, nm, opt_.worst);
    if (verdict) {
        d.has_check = true;
        d.check = report_check(*verdict);
    }
    add_worst_rows(in, meshes, rows_out, ft, progress, d);

    ReportResult r;
    r.path = opt_.out;
    r.frames = nf;
    r.shown = d.shown.size();
    r.t_bits = d.t_bits;
    r.subsample_reason = d.subsample_reason;
    for (std::size_t m = 0; m < nm; ++m)
        r.meshes.push_back(check_mesh_extremes(in.scene.meshes[meshes[m].mesh].name, ft.ext, m, meshes[m].topo.welded_of, in.frames));
    return r;
}

}  // namespace rigscope
