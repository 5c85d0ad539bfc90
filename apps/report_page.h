// What `report` and `check --html` share: evaluating the frames once more for the HTML report
// and writing it (rigscope/report_html.h).
#pragma once

#include <string>
#include <vector>

#include "rigscope/io/check_report.h"
#include "tension_setup.h"

namespace rigscope::cli {

struct ReportOptions {
    std::string out;        // the page
    int worst = 10;         // rows in the worst-vertex table
    double max_mb = 40;     // page size budget, 10^6 bytes; beyond it frames are subsampled
};

// --max-size (and, with_worst, --worst: `check` has its own).
void add_report_options(CLI::App* cmd, ReportOptions& opt, bool with_worst);

// Checks the output path and finds the viewer before any frame is evaluated, so a bad path or
// a missing viewer fails fast and leaves nothing.
class ReportPage {
public:
    ReportPage(const ReportOptions& opt, const Input& in);
    // Evaluates in.frames, writes the page. With `limits`, the table lists the check's offenders
    // (or, when none, the most extreme vertices) and the page states the verdict and limits.
    void write(const Input& in, std::vector<MeshTension>& meshes, const TensionRun& run, const CheckLimits* limits);

private:
    ReportOptions opt_;
    std::string viewer_;
    OutputFile out_;
};

}  // namespace rigscope::cli
