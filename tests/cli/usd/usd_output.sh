# USD output (issue 39 item 6): `tension -o out.usda` and `deform -o out.usda` write a text layer
# that sublayers the USD input and adds over-specs. Checked in usd-core (build/usd-venv):
# tests/cli/usd/usd_output_check.py opens the layer's stage, finds the sublayer and the input's stage
# metadata, compares every primvar value with the tension CSV of the same run (exactly: both are
# the shortest text of one float) and runs UsdValidation (the successor of
# UsdUtils.ComplianceChecker, which this usd-core no longer ships). Baked points are compared
# with `deform`'s CSV and with UsdSkel.BakeSkinning of the input, within 1e-5 of the diagonal
# (tests/cli/usd/usd_compare.py says why); no baked mesh may be left under a SkelRoot, which would
# take the baked points as rest points to skin again (the SkelRoots above become Xforms, as
# UsdSkel.BakeSkinning makes them in its own output).
. "$(dirname "$0")/../common.bash"

USDPY=${RIGSCOPE_USD_PYTHON:-build/usd-venv/bin/python}
"$USDPY" -c 'import pxr.UsdSkel' 2>/dev/null || skip "no usd-core at $USDPY (scripts/setup.sh makes build/usd-venv)"

SCENES=$WORK/scenes
"$USDPY" scripts/usd/make_scenes.py "$SCENES" --usdc >/dev/null || { echo "FAIL: make_scenes.py"; exit 1; }
OUT=$WORK/out.d
mkdir -p "$OUT"

primvars() {  # primvars NAME INPUT [tension options...]: the layer's primvars are the CSV's
    local name=$1 input=$2
    shift 2
    expect 0 "$name: tension -o .usda" -- "$RIGSCOPE" -q tension "$input" "$@" -o "$OUT/$name.usda"
    expect 0 "$name: tension --format csv" -- "$RIGSCOPE" -q tension "$input" "$@" --format csv -o "$OUT/$name.csv"
    expect 0 "$name: the primvars equal the CSV, no validation errors" -- \
        "$USDPY" tests/cli/usd/usd_output_check.py "$OUT/$name.usda" "$input" "$OUT/$name.csv" --color maps
    [ "$(cat "$WORK/err")" = "" ] || sed 's/^/  /' "$WORK/out" | head -5
}
# A skinned tube, a Z-up centimetre stage at 30 time codes a second, framesPerSecond without
# timeCodesPerSecond, a point cache beside a skinned tube, OpenUSD's dual quaternions, a crate
# layer and a usdz package as the sublayer.
primvars linear "$SCENES/linear.usda"
primvars zup_cm "$SCENES/zup_cm.usda"
primvars metres_weights "$SCENES/metres_weights.usda"
primvars points_cache "$SCENES/points_cache.usdc"
primvars dual_quaternion "$SCENES/dual_quaternion.usda"
primvars rigged_simple "$CORPUS/usd/RiggedSimple.usdz"
primvars lbs "$CORPUS/usd/lbs.usda"
# The bind frame is the primvars' default value; frames at 48 fps are the half time codes.
primvars linear_bind "$SCENES/linear.usda" --frames bind,1..12
expect 0 "points_cache at 48 fps: tension -o .usda" -- "$RIGSCOPE" -q tension "$SCENES/points_cache.usdc" --fps 48 -o "$OUT/half.usda"
expect 0 "points_cache at 48 fps: tension csv" -- "$RIGSCOPE" -q tension "$SCENES/points_cache.usdc" --fps 48 --format csv -o "$OUT/half.csv"
expect 0 "points_cache at 48 fps: samples at the half time codes" -- \
    "$USDPY" tests/cli/usd/usd_output_check.py "$OUT/half.usda" "$SCENES/points_cache.usdc" "$OUT/half.csv" --codes-per-frame 0.5
check "the sublayer is relative to the output's folder" -- grep -q '@\.\./scenes/linear.usda@' "$OUT/linear.usda"
expect 0 "--color t: tension -o .usda" -- "$RIGSCOPE" -q tension "$SCENES/linear.usda" --color t -o "$OUT/heat.usda"
check "--color t: displayColor differs from the maps" -- sh -c "! cmp -s '$OUT/heat.usda' '$OUT/linear.usda'"

baked() {  # baked NAME INPUT COMMAND...: the layer's points, read back and re-skinned by usd-core
    local name=$1 input=$2
    shift 2
    expect 0 "$name: $*" -- "$RIGSCOPE" -q "$@" "$input" -o "$OUT/$name.usda"
    expect 0 "$name: deform csv" -- "$RIGSCOPE" -q deform "$input" -o "$OUT/$name.d.csv"
    expect 0 "$name: usd-core opens it, validation as BakeSkinning's" -- \
        "$USDPY" tests/cli/usd/usd_output_check.py "$OUT/$name.usda" "$input" --points-only --baked
    expect 0 "$name: the layer's points" -- "$USDPY" scripts/usd/bake_oracle.py "$OUT/$name.usda" "$OUT/$name.pts.json" --baked
    expect 0 "$name: equal deform's" -- python3 tests/cli/usd/usd_compare.py "$OUT/$name.d.csv" "$OUT/$name.pts.json"
    expect 0 "$name: BakeSkinning of the input" -- "$USDPY" scripts/usd/bake_oracle.py "$input" "$OUT/$name.oracle.json"
    expect 0 "$name: the layer's points where BakeSkinning puts the input's" -- \
        python3 tests/cli/usd/usd_compare.py "$OUT/$name.d.csv" "$OUT/$name.oracle.json"
}
baked deform_linear "$SCENES/linear.usda" deform
baked deform_dq "$SCENES/dual_quaternion.usdc" deform
baked deform_cache "$SCENES/points_cache.usda" deform
baked deform_zup "$SCENES/zup_cm.usda" deform
baked tension_points "$SCENES/xformops.usda" tension --bake-points
check "--bake-points retypes the SkelRoot" -- grep -q 'over Xform "Rig"' "$OUT/tension_points.usda"
check "--bake-points writes the points" -- grep -q 'point3f\[\] points.timeSamples' "$OUT/tension_points.usda"

# Refusals: exit 2, one line naming the problem, no output.
refused() {  # refused WHAT FRAGMENT command...
    local what=$1 fragment=$2
    shift 2
    rm -f "$OUT/refused.usda"
    expect 2 "$what" -- "$@"
    check "$what: one line naming '$fragment'" -- one_line_naming "$fragment"
    check "$what: no output" -- test ! -e "$OUT/refused.usda"
}
refused "a glTF input" "is not USD" "$RIGSCOPE" tension "$CORPUS/khronos/rigged_simple.gltf" -o "$OUT/refused.usda"
refused "deform of a glTF input" "is not USD" "$RIGSCOPE" deform "$CORPUS/khronos/rigged_simple.gltf" -o "$OUT/refused.usda"
refused "--animation" "--animation poses the rig otherwise" \
    "$RIGSCOPE" tension "$SCENES/linear.usda" --animation "$SCENES/sparse.usda" -o "$OUT/refused.usda"
refused "--bake-points without .usda" "--bake-points writes the points into a USD layer" \
    "$RIGSCOPE" tension "$SCENES/linear.usda" --bake-points -o "$OUT/refused.csv"
refused "--bake-points leaving a mesh of the SkelRoot unselected" "its mesh /Rig/Box is not selected" \
    "$RIGSCOPE" -q tension "$SCENES/dual_quaternion.usda" --bake-points --mesh Tube -o "$OUT/refused.usda"
refused "baked points where UsdSkel skins a Cube rigscope skips" "/Root/Cube, which UsdSkel skins there and rigscope does not read" \
    "$RIGSCOPE" -q deform "$CORPUS/usd/lbs.usda" -o "$OUT/refused.usda"
refused "stdout" "needs -o FILE.usda" "$RIGSCOPE" tension "$SCENES/linear.usda" --format usda -o -
refused "deform --axes y-up" "stage's own axes" "$RIGSCOPE" deform "$SCENES/zup_cm.usda" --axes y-up -o "$OUT/refused.usda"

# A layer holds all its time samples as text until written: its size (vertices x frames x the
# numbers a vertex has x 17 bytes at most) is charged to --max-memory before the first frame. The
# bench tube's rig as a crate layer (scripts/usd/bench_tube_usd.py): 2 x 262144 vertices x 24
# frames x 6 numbers ~ 1.3 GB of text for tension, 9 with --bake-points, 3 for deform.
TUBE=${RIGSCOPE_BENCH_DIR:-$(pwd)/../shared/bench}/tube_262k.glb
"$USDPY" scripts/usd/bench_tube_usd.py "$TUBE" "$WORK/tube.usdc" >/dev/null || echo "FAIL: bench_tube_usd.py"
for verb in tension deform; do
    expect 3 "$verb -o .usda past --max-memory is refused before the first frame" -- \
        "$RIGSCOPE" -q $verb "$WORK/tube.usdc" --max-memory 500 -o "$OUT/big_$verb.usda"
    check "$verb: the refusal names the layer's values and the limit" -- \
        bash -c "grep -q \"the .usda layer's values would hold about\" '$WORK/err' && grep -q 'max-memory 500 MiB' '$WORK/err' && test \$(wc -l <'$WORK/err') = 1"
    check "$verb: no layer written" -- test ! -e "$OUT/big_$verb.usda"
done
expect 0 "tension of the tube's first frame as .usda fits the same limit" -- \
    "$RIGSCOPE" -q tension "$WORK/tube.usdc" --frames 1 --max-memory 500 -o "$OUT/tube_one.usda"

finish
