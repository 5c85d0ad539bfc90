#!/usr/bin/env bash
# diff across exports (issue 27): meshes paired by name whatever their order, welded vertices
# paired by rest position whatever their order and seams, clips aligned on their first frame.
. "$(dirname "$0")/../common.bash"
MERGE="python3 $(dirname "$0")/diff_gltf_merge.py"
GT=scripts/gltf_tools/node_modules/.bin/gltf-transform
CESIUM=$CORPUS/khronos/cesium_man.gltf
SIMPLE=$CORPUS/khronos/rigged_simple.gltf
BC_GLB=$CORPUS/bend_cylinder/bend_cylinder.glb
BC_FBX=$CORPUS/bend_cylinder/bend_cylinder.fbx

# --- two skinned meshes of different sizes, in the other order in NEW: exactly 0 --------------
$MERGE merge "$WORK/ab.gltf" "$CESIUM" "$SIMPLE"
$MERGE merge "$WORK/ba.gltf" "$SIMPLE" "$CESIUM"
expect 0 "swapped meshes: diff passes zero limits" -- "$RIGSCOPE" diff "$WORK/ab.gltf" "$WORK/ba.gltf" \
    --max-displacement 0 --max-t-change 0 -o "$WORK/swap.json"
check "swapped meshes: both meshes compared, each with its own, every value exactly 0" -- python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert [(m["name"], m["new_name"]) for m in d["meshes"]] == [("Cesium_Man", "Cesium_Man"), ("Cylinder", "Cylinder")], d["meshes"]
s = d["summary"]
assert s["changed_vertices"] == 0 and s["max_displacement"]["displacement"] == 0 and s["max_t_change"]["t_change"] == 0, s
assert d["frames"] and all(f["max_displacement"] == 0 and f["max_t_change"] == 0 for f in d["frames"])' "$WORK/swap.json"
expect 0 "swapped meshes: --match position too" -- "$RIGSCOPE" -q diff "$WORK/ab.gltf" "$WORK/ba.gltf" --match position \
    --max-displacement 0 --max-t-change 0

# --- a mesh in one file only: named, exit 5 ------------------------------------------------------
expect 5 "a mesh NEW lacks" -- "$RIGSCOPE" -q diff "$WORK/ab.gltf" "$CESIUM"
check "a mesh NEW lacks: named" -- one_line_naming "no mesh 'Cylinder'"
expect 5 "a mesh OLD lacks" -- "$RIGSCOPE" -q diff "$CESIUM" "$WORK/ab.gltf"
check "a mesh OLD lacks: named" -- one_line_naming "mesh 'Cylinder' is not in"
expect 0 "--mesh compares the one chosen" -- "$RIGSCOPE" -q diff "$CESIUM" "$WORK/ab.gltf" --mesh Cesium_Man --frames 1..10 --max-displacement 0

# --- the same rig from Blender as glTF (frames 1..91, triangles, metres) and as FBX (frames
# 0..90 as Assimp reads the take, quads, centimetres converted to metres) ------------------------
expect 5 "glb against fbx without --align: frames differ" -- "$RIGSCOPE" -q diff "$BC_GLB" "$BC_FBX" --match position
check "frames differ: both ranges and the way out named" -- one_line_naming "frame 91 is outside clip .*(frames 0..90 .*frames 1..91 (91 frames).*--align start"
# 1e-5 m: the issue's bound; both files hold float32 positions of a 3.46 m cylinder (ulp 2.4e-7
# near 2 m) written by two exporters, one through a factor 100.
expect 0 "glb against fbx, --match position --align start: within 1e-5 m" -- "$RIGSCOPE" diff "$BC_GLB" "$BC_FBX" \
    --match position --align start --max-displacement 1e-5 -o "$WORK/bc.json"
check "glb against fbx: every welded vertex once (544, corpus README), frame offset -1, 91 frames" -- python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["frame_offset"] == -1 and len(d["frames"]) == 91 and d["frames"][0]["frame"] == 1, (d["frame_offset"], d["frames"][0])
assert d["meshes"][0]["vertices"] == 544 and d["summary"]["vertices"] == 544, d["meshes"]
worst = [(v["mesh"], v["vertex"]) for v in d["summary"]["worst_vertices"]]
assert len(set(worst)) == len(worst), worst' "$WORK/bc.json"
expect 0 "--frame-offset -1 is --align start here" -- "$RIGSCOPE" -q diff "$BC_GLB" "$BC_FBX" --match position --frame-offset -1 -o "$WORK/bc_k.json"
check "--frame-offset -1: the same JSON" -- cmp -s "$WORK/bc.json" "$WORK/bc_k.json"
expect 0 "--frame-offset maps OLD frames onto NEW's: glb 2..91 against glb 1..90 with offset -1 moves the bend a frame" -- \
    "$RIGSCOPE" -q diff "$BC_GLB" "$BC_GLB" --frames 2..91 --frame-offset -1 -o "$WORK/shift.json"
check "--frame-offset: a frame's difference of a 90 degree bend over 90 frames is seen" -- python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
assert s["max_displacement"]["displacement"] > 0.01, s["max_displacement"]' "$WORK/shift.json"
expect 2 "--align excludes --frame-offset" -- "$RIGSCOPE" -q diff "$BC_GLB" "$BC_FBX" --align start --frame-offset 1
expect 2 "--match-tolerance is for --match position" -- "$RIGSCOPE" -q diff "$BC_GLB" "$BC_GLB" --match-tolerance 1e-4

# --- cesium_man against a Draco copy (gltf-transform: vertices reordered and split anew) --------
check "gltf-transform installed (scripts/setup.sh)" -- test -x "$GT"
$GT draco "$CESIUM" "$WORK/cm_draco.glb" >/dev/null 2>&1
# gltf-transform draco quantizes positions to 14 bits over the mesh's box, largest side S <= D
# (the diagonal): each rest position is off by at most sqrt(3)/2 * S / (2^14 - 1) <= 5.29e-5 D.
# Pairing within 6e-5 D leaves room for float rounding (1e-7 D), far below the 1e-3 D or so
# between neighbouring welded vertices.
expect 5 "Draco copy: the default tolerance is below the quantization" -- "$RIGSCOPE" -q diff "$CESIUM" "$WORK/cm_draco.glb" --match position
check "Draco copy: the refusal says which tolerance pairs every vertex" -- one_line_naming "every vertex has one within .* m (--match-tolerance"
need=$(sed -n 's/.*(--match-tolerance \([0-9.e+-]*\) of the diagonal.*/\1/p' "$WORK/err")
check "Draco copy: that tolerance is within the quantization's bound" -- python3 -c "assert 0 < float('$need') <= 5.29e-5, '$need'"
expect 0 "Draco copy: the tolerance the refusal named pairs every vertex" -- "$RIGSCOPE" -q diff "$CESIUM" "$WORK/cm_draco.glb" \
    --match position --match-tolerance "$(python3 -c "print(float('$need') * 1.001)")"
expect 0 "Draco copy, --match position --match-tolerance 6e-5" -- "$RIGSCOPE" -q diff "$CESIUM" "$WORK/cm_draco.glb" \
    --match position --match-tolerance 6e-5 -o "$WORK/cm.csv"
expect 0 "cesium_man deformed (for each frame's box)" -- "$RIGSCOPE" -q deform "$CESIUM" -o "$WORK/cm_deform.csv"
# The bound of tests/cli/compare_compressed.py, per frame with the deformed box's diagonal D_f and
# its largest side over the rest box's (the joints' scale, at least 1): 14-bit positions
# sqrt(3)/2 S / (2^14 - 1) times that scale, 12-bit weights (gltf-transform's default for
# generic attributes) renormalised, 4 D_f / (2^12 - 1), and float rounding 1e-6 D_f.
check "Draco copy: every vertex within the quantization bound at every frame" -- /usr/bin/python3 -c '
import csv, math, sys
import numpy as np
pos = {}
for r in csv.DictReader(open(sys.argv[1])):
    pos.setdefault(int(r["frame"]), []).append([float(r[c]) for c in "xyz"])
pos = {f: np.array(p) for f, p in pos.items()}
rest = pos[min(pos)]
side = float((rest.max(0) - rest.min(0)).max())
worst = {}
for r in csv.DictReader(open(sys.argv[2])):
    f = int(r["frame"])
    worst[f] = max(worst.get(f, 0.0), float(r["displacement"]))
assert sorted(worst) == sorted(pos), "frames differ"
for f, err in worst.items():
    box = pos[f].max(0) - pos[f].min(0)
    diag = float(np.linalg.norm(box))
    scale = max(1.0, float(box.max()) / side)
    bound = math.sqrt(3) / 2 * side / (2**14 - 1) * scale + 4 * diag / (2**12 - 1) + 1e-6 * diag
    assert 0 < err <= bound, (f, err, bound)' "$WORK/cm_deform.csv" "$WORK/cm.csv"

# --- --max-memory covers what the run holds, not only the load -----------------------------------
# At 10000 fps the keys from 1/24 s to 91/24 s span frames 417..37916, 37,500 frames: 37,500 x 625 vertices x 8 bytes of per-frame
# values are 179 MiB, past 64 MiB, while loading the 0.1 MiB file needs far less.
expect 3 "--max-memory: the per-frame arrays are counted before the run" -- "$RIGSCOPE" -q diff "$BC_GLB" "$BC_GLB" --fps 10000 --max-memory 64
check "--max-memory: the refusal says what would be held" -- one_line_naming "diff would hold .* MiB (37500 frames x 625 vertices"

finish
