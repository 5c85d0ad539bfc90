// The `rivet` job: fitted constraint-only pivots over the frames, or per-frame baked transforms,
// and what the glTF output adds to the input scene for each (docs/rivet.md; the fit and the bake
// themselves: run/rivet_engine.h).
#pragma once

#include <functional>

#include <optional>
#include <string>
#include <vector>

#include "rigscope/core/rivet.h"
#include "rigscope/io/check_report.h"
#include "rigscope/io/junit_report.h"
#include "rigscope/io/rivet_report.h"
#include "rigscope/io/rivet_fit_report.h"
#include "rigscope/run/input.h"
#include "rigscope/run/progress.h"

namespace rigscope {

// The `rivet` job (the CLI's and Python's): fit constraint-only rivets to vertices over the
// frames and judge each fit, or bake per-frame transforms. The writers (io/rivet_report.h, the
// glTF writer) take what run_rivet returns.
struct RivetJobOptions {
    InputOptions input;
    std::string vertices;               // --vertices: file vertex ids, "12,40,100..110"
    std::string joint;                  // --joint; empty: each vertex's default joint
    bool bake = false;                  // --bake: per-frame transforms instead of a fit
    std::string format = "json";        // json, csv or gltf (the CLI resolves it from -o)
    std::string out = "-";              // -o: gltf needs a .glb file
    std::optional<double> max_fit_error;  // --max-fit-error (share of the diagonal): a verdict; unset, a warning past kRivetFitWarning
    std::string junit;                  // --junit: the verdict as JUnit, needs max_fit_error

    // Throws Error (exit 2) for options that cannot make the run asked for, before any file is
    // read: each would otherwise silently give something other than what was asked.
    void validate() const;
};

struct RivetJobResult {
    int mesh = -1;
    std::vector<std::uint32_t> vertices;               // as --vertices listed them
    std::vector<RivetResult> rivets;                   // a fit: one per vertex
    std::vector<std::vector<BakedTransform>> frames;   // --bake: per selected frame, per vertex
    double diagonal = 0;                               // the mesh's bounding diagonal at rest
    CheckRunInfo info;                                 // start, host, the fit's wall time
    bool judged = false;                               // a fit judged against --max-fit-error
    // A fit's, judged once: past the limit (or the warning level). Its per-rivet lists index the
    // rivets as fitted, before the undetermined ones were dropped from `rivets`.
    RivetFitVerdict fit_verdict;
    RivetFitOutcome verdict;                           // what the text and JUnit say of it
};

// Runs on an input already loaded with opt.input (a Python session's, its frames selected).
RivetJobResult run_rivet(const RivetJobOptions& opt, const Input& in, const FrameProgress& progress = {});

// Validates, loads opt.input and runs; the input comes back too, since the writers need its
// scene (the glTF output is the input with the rivet nodes added) and its paths.
struct RivetJobLoaded {
    Input input;
    RivetJobResult result;
};
RivetJobLoaded load_and_run_rivet(const RivetJobOptions& opt, const FrameProgress& progress = {});

// The glTF output's scene: the input (retargeted with --animation) with a node per rivet, a
// fit's constraint-only pivots or, with --bake, nodes keyed at the selected frames.
Scene rivet_output_scene(const RivetJobOptions& opt, const Input& in, const RivetJobResult& r);

// The output in opt.format (json, csv or gltf) of a fit or, with opt.bake, of baked transforms
// (io/rivet_report.h, docs/rivet.md), written to `out` (not committed).
void write_rivet_output(const RivetJobOptions& opt, const Input& in, const RivetJobResult& r, OutputFile& out);

// --clip all (issue 57): the job over every clip of the file in turn, each with the outputs -o
// and --junit name for it ({clip} replaced: run/clip_select.h clip_outputs), `each` called with
// the clip's options, input and result while that clip is selected (the CLI writes them).
// Returns whether any clip's judged verdict failed: the file's verdict is the worst clip's.
bool run_rivet_clips(const RivetJobOptions& opt, const FrameProgress& progress,
                     const std::function<void(const RivetJobOptions&, const Input&, const RivetJobResult&)>& each);

}  // namespace rigscope
