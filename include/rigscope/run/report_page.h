// The report page engine: one self-contained HTML page with the animated tension map, the worst
// vertices and their T over time (docs/rig_ci.md, "report"), as the report job
// (run/report_job.h) and `check --html` write it, the latter with the check's verdict and limits.
// io/report_html.h writes what the page holds.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "rigscope/io/check_report.h"
#include "rigscope/io/output.h"
#include "rigscope/run/progress.h"
#include "rigscope/run/tension_run.h"

namespace rigscope {

struct ReportData;  // io/report_html.h
struct IntersectFrame;  // core/intersect.h
struct VolumeTable;     // io/volume_output.h

// check's verdicts beside T's on one clip, for the page to mark (issue 59): --max-intersections'
// frames (each evaluated frame's pairs, as run_intersect found them) and --max-volume-loss's
// measures (measure_volumes' table). Null: not judged, nothing marked.
struct ReportPageMarks {
    const std::vector<IntersectFrame>* intersections = nullptr;
    std::size_t intersection_limit = 0;
    const VolumeTable* volume = nullptr;
    double volume_limit = 0;
    bool volume_failed = false;  // the clip's volume verdict (VolumeLossVerdict::failed), as judged
};

struct ReportOptions {
    std::string out;        // the page
    int worst = 10;         // rows in the worst-vertex table
    double max_mb = 40;     // page size budget, 10^6 bytes; beyond it frames are subsampled
    std::string viewer;     // the bundled viewer page (RIGSCOPE_REPORT_BUNDLE overrides it)

    // Throws Error (exit 2) for a page that cannot be written as asked.
    void validate() const;
};

// What the page holds, for the caller to say.
struct ReportResult {
    std::string path;
    std::size_t frames = 0, shown = 0;  // evaluated, and held by the page (--max-size subsamples)
    int t_bits = 16;
    std::string subsample_reason;       // empty when every frame is shown
    // Per mesh, each welded vertex's T extremes and their frames, as the page ranked them (a
    // batch's row and index read them).
    std::vector<CheckMeshExtremes> meshes;
    // Clips the page holds (its clip menu); the fields above are the clip it opens on.
    std::size_t clips = 1;
};

// A clip of a page of several (ReportPage::write_clips): its index in the scene (-1: the input's
// own motion), its name on the menu, and a check's verdict on it (null for `report`).
struct ReportPageClip {
    int index = -1;
    std::string name;
    const CheckVerdict* verdict = nullptr;
    ReportPageMarks marks;
};

// Checks the output path and loads the viewer when made, before any frame is evaluated, so a
// bad path or a missing viewer fails fast and leaves nothing.
class ReportPage {
public:
    ReportPage(const ReportOptions& opt, const Input& in);
    // Evaluates in.frames, writes the page. With `verdict` (a check's, on the same meshes), the
    // table lists its offenders (or, when none, the most extreme vertices) and the page states
    // the verdict and limits; the page judges nothing itself.
    // `marks`: the faces and regions check's other verdicts found, marked on the page.
    ReportResult write(const Input& in, std::vector<MeshTension>& meshes, const TensionRunInfo& run, const CheckVerdict* verdict,
                       const FrameProgress& progress = {}, const ReportPageMarks& marks = {});
    // One page of several clips with a clip menu (issue 57: a library's rigs carry many clips,
    // each judged on its own): each clip selected on `in` in turn (use_clip; the caller restores
    // the input's clip), evaluated and held with its own verdict, the page's size budget shared;
    // the page opens on clips[initial] (check: the worst clip). One clip: the page `write` makes.
    ReportResult write_clips(Input& in, const TensionOptions& tension, std::vector<MeshTension>& meshes,
                             const std::vector<ReportPageClip>& clips, std::size_t initial, const FrameProgress& progress = {});

private:
    // One clip's page data into `d`; `clips` share the size budget.
    ReportResult build(const Input& in, std::vector<MeshTension>& meshes, const TensionRunInfo& run, const CheckVerdict* verdict,
                       const FrameProgress& progress, std::size_t clips, ReportData& d, const ReportPageMarks& marks);

    ReportOptions opt_;
    std::string viewer_;
    OutputFile out_;
};

}  // namespace rigscope
