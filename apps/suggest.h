// "Did you mean": the known name closest to what the user typed, for unknown commands and
// options (a typo gets the name it missed, not "A subcommand is required").
#pragma once

#include <string>
#include <vector>

namespace rigscope::cli {

// The candidate at the smallest edit distance from `typed`, if that distance is small for the
// name's length (at most a third of it, and at least one edit allowed); "" when none is close.
std::string closest_name(const std::string& typed, const std::vector<std::string>& candidates);

// " (did you mean 'X'?)" or "".
std::string did_you_mean(const std::string& typed, const std::vector<std::string>& candidates);

}  // namespace rigscope::cli
