// What `diff` reports beyond its per-frame rows: per OLD vertex the largest displacement and
// change in T over the frames (and where), per frame the largest of each, and from these the
// summary (largest values, percentiles, worst vertices and frames, joint regions), the limit
// verdict with its JUnit report, and a chunk's record of them so `merge` reports over all chunks
// as one run would (docs/farm.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rigscope/core/diff_verdict.h"
#include "rigscope/io/check_report.h"

namespace rigscope {

// The "summary" member of diff's JSON (an object, no trailing newline).
std::string diff_summary_json(const DiffLimits& limits, const std::vector<DiffMesh>& meshes, const std::vector<DiffFrame>& frames);

// One clip's part of a diff over several clips (run/diff_job.h): its limits (clip named), the
// per-mesh extremes and per-frame maxima, and the verdict judge_diff gave them (the writer
// only says it).
struct DiffClipReport {
    const DiffLimits* limits = nullptr;
    const std::vector<DiffMesh>* meshes = nullptr;
    const std::vector<DiffFrame>* frames = nullptr;
    const DiffVerdict* verdict = nullptr;
};

// The text on stdout (summary, then the verdict's cases) and the JUnit report, through check's
// writer (junit_report.h): suite named for NEW's stem in package rigscope.diff, one test case per
// case of `verdict`, classname rigscope.diff.<path>.<clip>.
CheckOutcome diff_outcome(const DiffClipReport& clip, const CheckRunInfo& run);

// The verdict over several clips, each judged on its own: the text gives each clip's summary and
// verdict under "clip 'NAME':", a count and the file's verdict (the worst clip's); the JUnit
// report a suite with every clip's cases (class rigscope.diff.<path>.<clip>). One clip: exactly
// diff_outcome's.
CheckOutcome diff_clips_outcome(const std::vector<DiffClipReport>& clips, const CheckRunInfo& run);

}  // namespace rigscope
