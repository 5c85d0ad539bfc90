// The `report` job: one self-contained HTML page with the animated tension map, the worst
// vertices and their T over time (README, "The HTML report"); `check --html` writes the same
// page with the check's verdict and limits. io/report_html.h writes what the page holds.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "rigscope/io/check_report.h"
#include "rigscope/io/output.h"
#include "rigscope/run/progress.h"
#include "rigscope/run/tension_run.h"

namespace rigscope {

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
};

// Checks the output path and loads the viewer when made, before any frame is evaluated, so a
// bad path or a missing viewer fails fast and leaves nothing.
class ReportPage {
public:
    ReportPage(const ReportOptions& opt, const Input& in);
    // Evaluates in.frames, writes the page. With `verdict` (a check's, on the same meshes), the
    // table lists its offenders (or, when none, the most extreme vertices) and the page states
    // the verdict and limits; the page judges nothing itself.
    ReportResult write(const Input& in, std::vector<MeshTension>& meshes, const TensionRunInfo& run, const CheckVerdict* verdict,
                       const FrameProgress& progress = {});

private:
    ReportOptions opt_;
    std::string viewer_;
    OutputFile out_;
};

struct ReportJobOptions {
    TensionOptions tension;
    ReportOptions report;
    void validate() const;
};

// Loads, refuses a file with nothing to show (require_animation), writes the page.
ReportResult run_report(const ReportJobOptions& opt, const FrameProgress& progress = {});

}  // namespace rigscope
