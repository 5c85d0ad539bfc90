// The `report` job: the HTML page (run/report_page.h) of a file's clips, for `rigscope report`,
// its batch and the Python module's Session.report().
#pragma once

#include "rigscope/run/input.h"
#include "rigscope/run/progress.h"
#include "rigscope/run/report_page.h"
#include "rigscope/run/tension_run.h"

namespace rigscope {

struct ReportJobOptions {
    TensionOptions tension;
    ReportOptions report;
    // Throws Error (exit 2) for a page that cannot be written as asked, before any file is read.
    void validate() const;
};

// What the page holds (the clip it opens on; every page of --clip all with {clip}: the first).
using ReportJobResult = ReportResult;

// What report loads: opt.tension.input's file with every clip at hand (clip_load_options).
Input load_report_input(const ReportJobOptions& opt);

// Validates, refuses a file with nothing to show (require_animation, require_meshes) and writes
// the page of the clips opt.tension.input selects on `in`: every clip by default, one page with
// a clip menu; --clip all with {clip} in the page's name, a page per clip. `in` is
// load_report_input's, or a Python session's with its clip and frames selected; its selected
// clip may change (a caller that keeps `in` restores it: ClipRestore).
ReportJobResult run_report(const ReportJobOptions& opt, Input& in, const FrameProgress& progress = {});

// Validates, loads (load_report_input) and runs: the CLI's and a batch's entry.
ReportJobResult load_and_run_report(const ReportJobOptions& opt, const FrameProgress& progress = {});

}  // namespace rigscope
