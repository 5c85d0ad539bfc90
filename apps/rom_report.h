// What a --rom run adds to a check's report: the joint and axis swept at each failing frame.
#pragma once

#include <string>
#include <vector>

#include "cli_common.h"

namespace rigscope::cli {

// For a --rom run, one line per run of consecutive failing frames within a sweep:
// "ROM frames 6..10: joint 'Bone' axis X (+40 to +60 deg)", "ROM frame 12: ... (-60 deg)".
// Empty for other runs or no failure.
std::string rom_failures(const Input& in, const std::vector<char>& frame_failed);

}  // namespace rigscope::cli
