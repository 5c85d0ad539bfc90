# UsdSkel and xformOps as OpenUSD evaluates them (issue 56): the scenes of
# scripts/usd/make_skel_eval_scenes.py, each made so that a reader departing from one rule is off
# (a skeleton without joints, the topology's nearest listed ancestor, interpolation in the stored
# precision with quaternions slerped and used unnormalised, a matrix op interpolated element by
# element, Euler and scale ops interpolated as values, stacks that shear), compared with
# UsdSkel.BakeSkinning at every time code within 1e-5 of each mesh's diagonal (tests/cli/usd/usd_compare.py
# says why that tolerance). A second, independent evaluation (tests/cli/usd/usd_skel_numpy.py: numpy
# with float16/float32 arithmetic) checks the oracle itself on the half-precision scene. Then the
# bad inputs: a joint listed twice, a sheared transform where glTF output is asked.
. "$(dirname "$0")/../common.bash"

USDPY=${RIGSCOPE_USD_PYTHON:-build/usd-venv/bin/python}
"$USDPY" -c 'import pxr.UsdSkel' 2>/dev/null || skip "no usd-core at $USDPY (scripts/setup.sh makes build/usd-venv)"

SCENES=$WORK/scenes
"$USDPY" scripts/usd/make_skel_eval_scenes.py "$SCENES" || { echo "FAIL: make_skel_eval_scenes.py"; exit 1; }

compare() {  # compare NAME FILE: rigscope's deform of FILE against BakeSkinning's
    local name=$1 file=$2
    expect 0 "$name: usd-core bakes it" -- "$USDPY" scripts/usd/bake_oracle.py "$file" "$WORK/$name.oracle.json"
    expect 0 "$name: deform" -- "$RIGSCOPE" deform "$file" -o "$WORK/$name.csv"
    expect 0 "$name: within 1e-5 of the diagonal at every time code" -- python3 tests/cli/usd/usd_compare.py "$WORK/$name.csv" "$WORK/$name.oracle.json"
    [ "$(cat "$WORK/err")" = "" ] || sed 's/^/  /' "$WORK/out" | head -5
}

# Each scene as a text layer and as a binary crate layer (usd-core's Export of the same stage).
for scene in no_joints ancestor_parent half_scales matrix_op euler_ops shear_stack; do
    compare "$scene" "$SCENES/$scene.usda"
    compare "$scene.crate" "$SCENES/$scene.usdc"
done

# The oracle checked by a second computation: numpy evaluates the half-precision scene from its
# stored samples alone and must land within 1e-5 of BakeSkinning, while a double-precision,
# normalising evaluation of the same samples must not (so the scene does test the rule).
expect 0 "half_scales: the stored samples" -- "$USDPY" tests/cli/usd/usd_skel_numpy.py dump "$SCENES/half_scales.usda" "$WORK/half.samples.json"
expect 0 "half_scales: numpy's evaluation equals BakeSkinning's" -- python3 tests/cli/usd/usd_skel_numpy.py check "$WORK/half.samples.json" "$WORK/half_scales.oracle.json"
[ "$(cat "$WORK/err")" = "" ] || sed 's/^/  /' "$WORK/out" "$WORK/err" | head -5

# info names no error on a jointless skeleton and counts its shapes.
expect 0 "no_joints: info" -- "$RIGSCOPE" info "$SCENES/no_joints.usda"

# Bad input: a skeleton that lists a joint twice, one line naming the file and the prim, exit 3,
# nothing written.
"$USDPY" - "$SCENES/half_scales.usda" "$WORK/twice.usda" <<'PY' || echo "FAIL: writing twice.usda"
import sys
from pxr import Usd, UsdSkel
stage = Usd.Stage.Open(sys.argv[1])
skel = UsdSkel.Skeleton(stage.GetPrimAtPath("/Rig/Skel"))
skel.GetJointsAttr().Set(["a", "a/b", "a"])
stage.GetRootLayer().Export(sys.argv[2])
PY
expect 3 "a joint listed twice is refused" -- "$RIGSCOPE" deform "$WORK/twice.usda" -o "$WORK/twice.csv"
check "one line naming the file, the skeleton and the joint" -- grep -qx ".*twice.usda.*Skeleton /Rig/Skel.*'a' twice.*" "$WORK/err"
check "one line" -- test "$(wc -l <"$WORK/err")" = 1
check "nothing written" -- test ! -e "$WORK/twice.csv"

# Bad input: glTF output of a node whose transform shears (rivet's glTF writes the scene's nodes
# and clip): exit 5 naming the file and the prim, nothing written. JSON output of the same run
# is fine.
expect 5 "a sheared stack refused as glTF" -- "$RIGSCOPE" rivet "$SCENES/shear_stack.usda" --vertices 0 -o "$WORK/shear.glb"
check "names the file and the prim" -- grep -q "shear_stack.usda: glTF cannot hold .*/Squash" "$WORK/err"
check "one line" -- test "$(wc -l <"$WORK/err")" = 1
check "nothing written" -- test ! -e "$WORK/shear.glb"
expect 0 "the same rivet as JSON" -- "$RIGSCOPE" rivet "$SCENES/shear_stack.usda" --vertices 0 -o "$WORK/shear.json"

finish
