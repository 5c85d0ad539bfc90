// `rivet --max-fit-error R`: a fitted rivet follows its vertex only as well as its fit, so a fit
// worse than R of the mesh's diagonal fails (exit 1), with the text on stderr and the JUnit
// report CI servers read (the same writer as `check`'s).
#pragma once

#include <string>
#include <vector>

#include "rigscope/io/check_report.h"
#include "rigscope/io/rivet_report.h"

namespace rigscope {

// Without --max-fit-error a fit worse than this share of the diagonal is warned about.
constexpr double kRivetFitWarning = 0.01;

struct RivetFitLimit {
    double max_relative = kRivetFitWarning;  // max_error / diagonal
    bool given = false;                      // --max-fit-error given: a verdict, else a warning
    std::string file;                        // the input as named (the JUnit class names)
};

// A fit's verdict, and without a limit given (limit.given false) the warning a failed one is
// said with: the summary line and the worst rivet's ("" when none is past the level).
struct RivetFitOutcome : CheckOutcome {
    std::string warning;
};

// The rivets whose max_error / diagonal passes limit.max_relative, listed worst first in
// `report`; `junit` has one test case per rivet.
RivetFitOutcome rivet_fit_outcome(const RivetFitLimit& limit, const CheckRunInfo& run, const Scene& scene, int mesh,
                               const std::vector<RivetResult>& rivets, double diagonal);

}  // namespace rigscope
