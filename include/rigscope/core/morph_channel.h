// A blend-shape channel's weight into the weights of its shapes: in-between shapes, as Maya and
// the FBX SDK evaluate them (docs/fbx_notes.md, "In-between shapes").
#pragma once

#include "rigscope/core/scene.h"

namespace rigscope {

// Writes into weights (one per mesh target) the weights of channel's targets at channel weight w
// (1 = 100 %), leaving other targets alone. The shapes stand on a line of full weights with the
// base mesh at 0: w between two neighbours blends those two linearly (the base contributes
// nothing), and w past the last shape on its side of 0 extrapolates the last two points there
// (the base counting as a point), so a single shape at full weight f gets w / f. Shapes may come
// in any order and at negative full weights; a shape at full weight 0 is never reached.
void morph_channel_weights(const MorphChannel& channel, double w, float* weights);

}  // namespace rigscope
