#!/bin/bash
# bake's second check (issue 60): Blender 4.5 (bpy) bakes rigscope's own per-vertex T of the
# bend cylinder (frame 61, `tension -o x.csv`) into the same UV map through Cycles (an Emission
# shader fed by the values as a point attribute; blender_bake.py), and the two images must cover
# the same texels with the same values. Blender's rasteriser and interpolation are its own, so
# this checks bake against a DCC's, beside the numpy oracle of bake.sh.
source "$(dirname "$0")/../common.bash"
HERE=$(dirname "$0")
BPY=build/bpy-venv/bin/python
PY=build/usd-venv/bin/python
"$BPY" -c 'import bpy' 2>/dev/null || skip "bpy is not installed in build/bpy-venv (scripts/setup.sh installs it)"
"$PY" -c 'import PIL, numpy' 2>/dev/null || skip "Pillow or numpy missing in build/usd-venv (scripts/setup.sh installs them)"
CYL="$CORPUS/bend_cylinder/bend_cylinder.glb"
[ -f "$CYL" ] || skip "no corpus at $CORPUS"

expect 0 "tension CSV of frame 61" -- "$RIGSCOPE" tension "$CYL" --frames 61 -o "$WORK/cyl.csv"
expect 0 "rigscope bakes T of frame 61" -- "$RIGSCOPE" bake "$CYL" --frames 61 --map tension --range 0,2 --size 128 --padding 0 \
    -o "$WORK/rigscope.png"
expect 0 "Blender bakes the same values" -- "$BPY" "$HERE/blender_bake.py" "$CYL" "$WORK/cyl.csv" t 61 128 "$WORK/blender.npy" 0 2
expect 0 "the images agree" -- "$PY" - "$WORK/rigscope.png" "$WORK/blender.npy" <<'PYEOF'
import sys
import numpy as np
from PIL import Image
r = np.array(Image.open(sys.argv[1]), dtype=np.float64) / 65535
b = np.load(sys.argv[2])
cr, cb = r > 0, b > 0  # T/2 is never 0 on this rig: a texel is covered where it is not 0
differ = int((cr != cb).sum())
both = cr & cb
d = np.abs(r - b)[both]
mean, p99, worst = float(d.mean()), float(np.percentile(d, 99)), float(d.max())
print(f"rigscope {int(cr.sum())} texels, Blender {int(cb.sum())}, {differ} differ; |difference| of T/2 mean {mean:.2g}, "
      f"99th percentile {p99:.2g}, worst {worst:.2g}")
# Bounds: coverage may differ where a texel centre lies on an edge (the two tie rules differ),
# at most 0.2% of the texels; values: PNG's step (1.5e-5) plus Blender's float32 shading and its
# own sample position in the texel (the map's slope times a fraction of a texel): mean 1e-4,
# 99% within 5e-4. A flipped image (row 0 as v = 1) differs on a third of the texels.
sys.exit(0 if cr.sum() > 5000 and differ <= 0.002 * cr.sum() and mean <= 1e-4 and p99 <= 5e-4 else 1)
PYEOF
cat "$WORK/out"
finish
