#include "tension_setup.h"

namespace rigscope::cli {

void add_tension_options(CLI::App* cmd, TensionOptions& opt) {
    add_input_options(cmd, opt.input);
    add_weld_option(cmd, opt.input);
    add_skinning_option(cmd, opt.input);
    add_threads_option(cmd, opt.input);
    auto* ref = cmd->add_option("--reference", opt.reference,
                                "Rest mesh from this file (any format read: a neutral OBJ or PLY too; in a batch it may hold placeholders: '{dir}/{stem}.obj'); default: FILE's bind pose");
    cmd->add_option("--reference-match", opt.reference_match,
                    "Pair the reference's vertices by index (default: vertex i, or welded vertex i) or by position (at the bind pose)")
        ->check(CLI::IsMember({"index", "position"}))
        ->needs(ref);
    cmd->add_option("--reference-scale", opt.reference_scale, "Scale the reference's positions by S first (0.01: centimetres to metres)")
        ->check(positive_number())
        ->needs(ref);
    cmd->add_option("--reference-tolerance", opt.reference_tolerance,
                    "--reference-match position: pair within this fraction of the diagonal (default 1e-4)")
        ->check(number_in(0.0, 1.0))
        ->needs(ref);
    cmd->add_option("--reference-frame", opt.reference_frame, "Rest mesh from this frame of the animation")
        ->excludes(ref);
    cmd->add_option("--falloff", opt.params.falloff, "Map falloff: map = ramp^(1/falloff) (default 1)")->check(positive_number());
    cmd->add_option("--stretch-area", opt.params.stretch_area, "Stretch Area: T at which stretch is full (default 0.75)")
        ->check(number_in(0.0, 1.0));
    cmd->add_option("--compress-area", opt.params.compress_area, "Compress Area: compress is full at T = 1/area (default 0.6)")
        ->check(number_in(0.0, 1.0));
    cmd->add_option("--weight-limit", opt.params.weight_limit, "Scale of both maps (default 1)")->check(number_in(0.0, 1.0));
    cmd->add_option("--smooth-k", opt.params.smooth_k, "Smoothing distance of the smooth min/max (default 0.1; 0: plain)")
        ->check(non_negative_number());
    cmd->add_option("--measure", opt.measure,
                    "What T measures: edge (mean edge length, default), area (one-ring area), principal (principal stretches)")
        ->check(CLI::IsMember({"edge", "area", "principal"}));
    cmd->add_option("--smooth", opt.smooth, "Iterations of one-ring averaging of the measure before the maps (default 0)")
        ->check(number_in(0, 10000));
    cmd->add_option("--smooth-weights", opt.smooth_weights, "Weights of --smooth: uniform (default) or cotan (rest cotangents)")
        ->check(CLI::IsMember({"uniform", "cotan"}));
}

}  // namespace rigscope::cli
