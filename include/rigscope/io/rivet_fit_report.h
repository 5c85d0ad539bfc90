// What `rivet --max-fit-error R` says of its verdict (core/rivet_verdict.h judges it): the text on
// stderr and the JUnit report CI servers read (the same writer as `check`'s).
#pragma once

#include <string>
#include <vector>

#include "rigscope/core/rivet_verdict.h"
#include "rigscope/io/check_report.h"
#include "rigscope/io/rivet_report.h"

namespace rigscope {

// The verdict said, and without a limit given (verdict.limit.given false) the warning a failed one
// is said with: the summary line and the worst rivet's ("" when none is past the level).
struct RivetFitOutcome : CheckOutcome {
    std::string warning;
};

// The verdict's rivets past the limit listed worst first in `report`; `junit` has one test case
// per rivet. Compares nothing: each rivet's pass or fail is the verdict's.
RivetFitOutcome rivet_fit_outcome(const RivetFitVerdict& verdict, const CheckRunInfo& run, const Scene& scene, int mesh,
                                  const std::vector<RivetResult>& rivets);

}  // namespace rigscope
