// The HTML report (`rigscope report`, `check --html`): one self-contained page holding the viewer
// script (three.js bundled at build time) and the run's data in compact encodings: positions as
// 16-bit values over each mesh's bounding box, T as 8- or 16-bit steps of log T.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rigscope/core/check_verdict.h"
#include "rigscope/core/frames.h"
#include "rigscope/io/output.h"
#include "rigscope/io/tension_output.h"

namespace rigscope {

// How the page moves a mesh, the cheapest that reproduces rigscope's deformed positions:
// Static: one set of positions (unskinned, its node never moves); Skinned: linear blend skinning
// in the page from the file positions, influences and each shown frame's joint matrices;
// Baked: every shown frame's positions (morph targets, a rig).
enum class ReportMotion { Static, Skinned, Baked };

struct ReportMesh {
    std::string name;
    std::size_t vertex_count = 0;
    std::vector<std::uint32_t> triangles;       // file vertex indices, 3 per triangle
    int same_triangles_as = -1;                 // an earlier mesh with identical triangles (stored once)
    ReportMotion motion = ReportMotion::Baked;
    std::vector<float> rest;                    // Static, Baked: xyz per file vertex (Static: at every frame)
    std::vector<float> positions;               // Baked: xyz per file vertex, per shown frame
    std::vector<float> base;                    // Skinned: the file positions
    std::vector<std::uint8_t> influence_count;  // Skinned: per file vertex
    std::vector<std::uint16_t> joints;          // Skinned: per influence
    std::vector<float> weights;                 // Skinned: per influence
    std::size_t joint_count = 0;                // Skinned
    std::vector<float> rest_joints;             // Skinned: 12 per joint (row-major 3x4), the bind pose
    std::vector<float> frame_joints;            // Skinned: 12 per joint, per shown frame
    std::vector<float> t;                       // T per file vertex, per shown frame (Static: one frame)
    // --measure principal: two T per vertex, t holds the compress side's T_c = 1 / lambda_min and
    // t_stretch the stretch side's T_s = 1 / lambda_max (the same layout). Other measures: one T.
    bool two_sided = false;
    std::vector<float> t_stretch;
    // Where a mesh has faces other than triangles and the page marks faces: per file face its
    // first triangle in `triangles`, and one past the last face's (faces + 1 entries). Empty:
    // face f is triangle f.
    std::vector<std::uint32_t> face_first_triangle;
};

// check --html --max-intersections (issue 59): per evaluated frame with face pairs that cross,
// the faces of those pairs, per page mesh, ascending and each once (file face ids, as
// `rigscope intersect` names them). The viewer colours them.
struct ReportIntersectionFrame {
    std::size_t frame = 0;   // index into ReportData::frames
    std::size_t pairs = 0;
    std::vector<std::vector<std::uint32_t>> faces;  // per page mesh
};
struct ReportIntersections {
    std::size_t limit = 0;   // the most pairs a frame may have
    bool failed = false;     // some frame of this clip has more
    std::vector<std::size_t> pairs;  // per evaluated frame
    std::vector<ReportIntersectionFrame> frames;  // the frames with pairs, in order
};

// check --html --max-volume-loss: per measured column (a closed mesh's volume, region "*", or a
// joint region) its ratio to the bind measure at every evaluated frame (NaN: none), and a
// region's file faces; the viewer colours a region whose loss (1 - ratio) is past the limit.
struct ReportVolumeRegion {
    int mesh = 0;            // page mesh
    std::string region;      // "*" or the joint's node name (as `rigscope volume` names it)
    std::vector<std::uint32_t> faces;  // ascending; empty for "*"
    std::vector<double> ratios;        // per evaluated frame
};
struct ReportVolume {
    double limit = 0;
    bool failed = false;
    std::vector<ReportVolumeRegion> regions;
};

// A row of the worst-vertex table and its T at every evaluated frame (for the plot).
struct ReportVertex {
    int mesh = 0;
    std::uint32_t vertex = 0;
    std::string kind;        // "compress" or "stretch": the side of its worst T
    float t = 1;             // its worst T (principal: of that side, 1 / lambda)
    std::size_t frame = 0;   // index into ReportData::frames of that T
    std::vector<float> series;
};

struct ReportCheck {
    bool failed = false;
    bool has_stretch = false, has_compress = false;
    double max_stretch = 0, max_compress = 0;
    std::size_t stretch_count = 0, compress_count = 0;  // vertices past each limit
};

// The page's verdict from a check's (judge_check): its limits drawn on the T plot (a lambda
// limit as the T it stands for, T = 1 / lambda, and with a T limit on the same side too, the
// stricter; drawn only) and the offenders of each side counted once (side_failures).
ReportCheck report_check(const CheckVerdict& verdict);

struct ReportData {
    TensionRunInfo run;
    std::vector<Frame> frames;            // every evaluated frame
    std::vector<std::size_t> shown;       // indices into frames held in the page (all, or a subsample)
    std::string subsample_reason;         // empty when every frame is shown
    int t_bits = 16;                      // 8 or 16
    std::vector<ReportMesh> meshes;
    std::vector<ReportVertex> worst;
    bool has_check = false;
    ReportCheck check;
    std::string up_axis = "Y";            // the file's (Scene::up_axis): the viewer turns it upright
    bool has_intersections = false;       // check --max-intersections: the faces to mark
    ReportIntersections intersections;
    bool has_volume = false;              // check --max-volume-loss: the regions to mark
    ReportVolume volume;
};

// Page bytes for `meshes` (their motion and structure set, no frames yet) that do not depend on
// the frames shown: the viewer, topology, rest and skin data, the table and series, with room
// for the JSON framing. report_frame_bytes: what each shown frame adds.
std::size_t report_fixed_bytes(std::size_t viewer_bytes, const std::vector<ReportMesh>& meshes, std::size_t frames,
                               std::size_t worst_rows);
std::size_t report_frame_bytes(const std::vector<ReportMesh>& meshes, int t_bits);
// What the marks of `d` (intersections, volume, face_first_triangle) add, at most.
std::size_t report_mark_bytes(const ReportData& d);

// The viewer page (bundle) rigscope fills in: RIGSCOPE_REPORT_BUNDLE if set, else the path fixed
// at build time. Throws Error (exit 3) naming the path when it is missing or not the viewer.
std::string load_report_viewer(const std::string& build_time_path);

// Writes the page: the viewer with the data in place of its marker.
void write_report_html(const ReportData& data, const std::string& viewer, OutputFile& out);

// One clip of a page of several: its name on the page's clip menu and its data.
struct ReportClipData {
    std::string name;
    ReportData data;
};

// A page of several clips: {"clips": [{"name", "data"}...], "initial": k}; the viewer shows
// clips[initial] and lists every clip (with its verdict, when checked) in a menu. One clip: the
// page write_report_html writes.
void write_report_html_clips(const std::vector<ReportClipData>& clips, std::size_t initial, const std::string& viewer, OutputFile& out);

// Standard base64 of a byte range (exposed for tests).
void append_base64(std::string& out, const std::uint8_t* bytes, std::size_t n);

}  // namespace rigscope
