// The load step of the jobs that hand back the input they ran on beside their result
// (intersect, rivet, volume: the CLI's writers need both): one body for the three entries.
#pragma once

#include "rigscope/run/input.h"
#include "rigscope/run/progress.h"

namespace rigscope {

// Validates opt, loads opt.input and runs `run` (the job's run_x) on it. `Loaded` is the job's
// {Input input; Result result;}: the input is loaded into it and the job runs on it there (no copy).
template <class Loaded, class Options, class Run>
Loaded load_then_run(const Options& opt, const FrameProgress& progress, Run run) {
    opt.validate();
    Loaded l{load_input(opt.input), {}};
    l.result = run(opt, l.input, progress);
    return l;
}

}  // namespace rigscope
