# --skinning and the FBX Skin's SkinningType end to end: `info` names each skin's method, every
# per-frame command skins by the file's method unless --skinning overrides it, and a bad method
# is refused. The positions themselves are checked against Blender and numpy in
# tests/core/test_skin_dq.cpp; here that each command goes the shared way.
. "$(dirname "$0")/../common.bash"

DIR=tests/fbx_dq
TWIST=$DIR/dq_twist.fbx
py=python3

expect 0 "info on a dual-quaternion skin" -- "$RIGSCOPE" info "$TWIST"
check "names its method" -- grep -q "skin 'Body': 3 joints, DualQuaternion skinning" "$WORK/out"
expect 0 "info --json on a blended skin" -- "$RIGSCOPE" info "$DIR/dq_blend.fbx" --json
check "method Blend" -- $py -c 'import json,sys; assert json.load(open(sys.argv[1]))["skins"][0]["method"] == "Blend"' "$WORK/out"
expect 0 "info on a glTF skin" -- "$RIGSCOPE" info data/bend_cylinder.glb
check "is linear" -- grep -q "2 joints, Linear skinning" "$WORK/out"

# deform: file (default) against the committed oracle, linear far from it, dq = file here.
for m in file linear dq; do
    expect 0 "deform --skinning $m" -- "$RIGSCOPE" deform "$TWIST" --frames 24 --skinning $m -o "$WORK/deform_$m.json"
done
expect 0 "deform default" -- "$RIGSCOPE" deform "$TWIST" --frames 24 -o "$WORK/deform_default.json"
cat > "$WORK/near.py" <<'PY'
import json, math, sys
got = json.load(open(sys.argv[1]))
oracle = json.load(open(sys.argv[2]))
want = next(f for f in oracle["oracles"]["numpy"]["frames"] if f["frame"] == 24)["positions"]
diag = oracle["checked_by"]["diagonal_m"]
frame = got["frames"][0]
mesh = frame["meshes"][0] if "meshes" in frame else frame
pos = mesh["positions"]
worst = max(math.dist(p, q) for p, q in zip(pos, want))
near = sys.argv[3] == "near"
print("worst", worst, "diagonal", diag)
sys.exit(0 if (worst < 1e-5 * diag) == near else 1)
PY
check "default deform matches the oracle" -- $py "$WORK/near.py" "$WORK/deform_default.json" "$DIR/dq_twist.oracle.json" near
check "--skinning file is the default" -- cmp -s "$WORK/deform_file.json" "$WORK/deform_default.json"
check "--skinning dq is the file's method here" -- cmp -s "$WORK/deform_dq.json" "$WORK/deform_file.json"
check "--skinning linear is not" -- $py "$WORK/near.py" "$WORK/deform_linear.json" "$DIR/dq_twist.oracle.json" far

# tension, check, rivet and the report go the same way: the candy wrapper of linear skinning
# compresses the twisted middle (T up to 1.35 at frame 24), dual-quaternion skinning does not
# (T within 0.88..1.0).
for m in file linear; do
    expect 0 "tension --skinning $m" -- "$RIGSCOPE" tension "$TWIST" --frames 24 --skinning $m -o "$WORK/tension_$m.csv"
    expect 0 "rivet --skinning $m" -- "$RIGSCOPE" rivet "$TWIST" --vertices 44 --skinning $m -o "$WORK/rivet_$m.json"
done
differ() { ! cmp -s "$1" "$2"; }
check "tension differs" -- differ "$WORK/tension_file.csv" "$WORK/tension_linear.csv"
check "rivet differs" -- differ "$WORK/rivet_file.json" "$WORK/rivet_linear.json"
expect 0 "check passes the dual-quaternion rig" -- "$RIGSCOPE" check "$TWIST" --max-compress 1.2 --max-stretch 0.8
expect 1 "check fails it skinned linearly (candy wrapper)" -- "$RIGSCOPE" check "$TWIST" --max-compress 1.2 --max-stretch 0.8 --skinning linear
# diff: the same rig with SkinningType Linear against the file: the switch of method alone moves
# the twisted middle by 0.22 m; both skinned linearly, nothing moves.
$py - "$WORK/twist_linear.fbx" <<'PY'
import sys
sys.path.insert(0, "scripts/fbx")
import make_dq_cases
from fbx_write import write_scene
d = make_dq_cases.dq_twist()
d["mesh"]["skinning_type"] = "Linear"
write_scene(d, sys.argv[1])
PY
expect 0 "diff linear -> dual quaternion" -- "$RIGSCOPE" diff "$WORK/twist_linear.fbx" "$TWIST" --frames 24
check "reports the method's displacement" -- grep -q "displacement: max 0.22" "$WORK/out"
expect 0 "diff, both linear" -- "$RIGSCOPE" diff "$WORK/twist_linear.fbx" "$TWIST" --frames 24 --skinning linear
check "reports nothing moved" -- grep -q "no vertex moved" "$WORK/out"

# Refusals: a bad --skinning is a usage error; a file with an unknown SkinningType bad input.
expect 2 "--skinning bogus" -- "$RIGSCOPE" deform "$TWIST" --skinning bogus
$py - "$WORK/bad.fbx" <<'PY'
import sys
sys.path.insert(0, "scripts/fbx")
import make_dq_cases
from fbx_write import write_scene
d = make_dq_cases.dq_bend()
d["mesh"]["skinning_type"] = "Spherical"
write_scene(d, sys.argv[1])
PY
expect 3 "unknown SkinningType" -- "$RIGSCOPE" info "$WORK/bad.fbx"
check "named" -- one_line_naming "SkinningType 'Spherical' is not Linear, DualQuaternion, Blend or Rigid"

finish
