// `rivet --max-fit-error R`'s verdict, decided in one place (issue 61: never by a writer): a
// fitted rivet follows its vertex only as well as its fit, so a fit worse than R of the mesh's
// diagonal fails, and a fit that could not be made (its joint does not turn) is never a pass.
// io/rivet_fit_report.h says the verdict (text, JUnit); Python and the CLI read it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace rigscope {

// Without --max-fit-error a fit worse than this share of the diagonal is warned about.
constexpr double kRivetFitWarning = 0.01;

struct RivetFitLimit {
    double max_relative = kRivetFitWarning;  // max_error / diagonal
    bool given = false;                      // --max-fit-error given: a verdict, else a warning
    std::string file;                        // the input as named (the JUnit class names)
};

// One rivet as the verdict sees it: its fit's largest error (metres), and whether no fit could
// be made.
struct RivetFitSample {
    double max_error = 0;
    bool undetermined = false;
};

struct RivetFitVerdict {
    RivetFitLimit limit;
    double diagonal = 0;
    std::vector<double> relative;      // per rivet, max_error / diagonal (0 for a zero diagonal)
    std::vector<char> rivet_failed;    // per rivet: past the limit, or undetermined
    std::vector<std::size_t> worse;    // fitted rivets past the limit, worst first (ties in input order)
    std::vector<std::size_t> unfit;    // undetermined rivets, in input order
    bool failed() const { return !worse.empty() || !unfit.empty(); }
};

// A fit whose error is not a number has not shown it is good enough: it is past any limit.
RivetFitVerdict judge_rivet_fit(const RivetFitLimit& limit, const std::vector<RivetFitSample>& rivets, double diagonal);

}  // namespace rigscope
