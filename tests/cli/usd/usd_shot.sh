# Composed shots (issue 56): stages whose rig comes through a sublayer, a reference, a usdz
# package or an instance, as a studio hands them over (scripts/usd/make_shot_scenes.py says what
# each scene is for). Checked against OpenUSD itself (build/usd-venv):
# - every file the stage composes is an input: an output over one (or over a link to one) is
#   refused before any work, exit 2, naming the file and how the stage reached it, nothing written;
# - the deformation equals UsdSkel.BakeSkinning of the composed stage within 1e-5 of the diagonal;
# - the .usda layers rigscope writes resolve in usd-core to exactly the values of the CSV of the
#   same run (tests/cli/usd/usd_output_check.py: ComputeFlattened, so an index array left under the
#   written values fails), below an instance too, and baked points are never skinned again
#   (no baked mesh under a SkelRoot, wherever the SkelRoot is defined);
# - lint and info compare rest and bind in one space under a moved parent.
. "$(dirname "$0")/../common.bash"

USDPY=${RIGSCOPE_USD_PYTHON:-build/usd-venv/bin/python}
"$USDPY" -c 'import pxr.UsdSkel' 2>/dev/null || skip "no usd-core at $USDPY (scripts/setup.sh makes build/usd-venv)"

S=$WORK/shots
"$USDPY" scripts/usd/make_shot_scenes.py "$S" >/dev/null || { echo "FAIL: make_shot_scenes.py"; exit 1; }
OUT=$WORK/out.d
mkdir -p "$OUT"

# Each scene deforms as OpenUSD composes and skins it.
for scene in sublayer/shot reference/shot indexed/rig instanced/shot instanced/tagged moved/rig; do
    name=${scene//\//_}
    expect 0 "$scene: deform" -- "$RIGSCOPE" -q deform "$S/$scene.usda" -o "$OUT/$name.d.csv"
    expect 0 "$scene: BakeSkinning" -- "$USDPY" scripts/usd/bake_oracle.py "$S/$scene.usda" "$OUT/$name.oracle.json"
    expect 0 "$scene: deform equals BakeSkinning" -- python3 tests/cli/usd/usd_compare.py "$OUT/$name.d.csv" "$OUT/$name.oracle.json"
done

# Every file the stage composes is an input. sum_of FILES...: their checksums, to show nothing
# was written over them.
sum_of() { cat "$@" | cksum; }
protected() {  # protected WHAT FILE HOW_FRAGMENT command... (-o FILE among the arguments)
    local what=$1 file=$2 how=$3
    shift 3
    local before
    before=$(sum_of "$file")
    expect 2 "$what: refused" -- "$@"
    check "$what: one line naming the file and how the stage reached it" -- \
        bash -c "test \$(wc -l <'$WORK/err') = 1 && grep -qF -- '$(basename "$file")' '$WORK/err' && grep -qF -- '$how' '$WORK/err'"
    check "$what: the file is as it was" -- test "$(sum_of "$file")" = "$before"
    check "$what: no temporary left beside it" -- \
        bash -c "! ls -a '$(dirname "$file")' | grep -q '\.tmp'"
}
protected "tension -o the sublayer" "$S/sublayer/layout.usda" "subLayers names @./layout.usda@" \
    "$RIGSCOPE" tension "$S/sublayer/shot.usda" -o "$S/sublayer/layout.usda"
protected "deform -o the sublayer" "$S/sublayer/layout.usda" "subLayers names @./layout.usda@" \
    "$RIGSCOPE" deform "$S/sublayer/shot.usda" -o "$S/sublayer/layout.usda"
protected "tension -o the referenced character" "$S/reference/assets/character.usda" "references @./assets/character.usda@" \
    "$RIGSCOPE" tension "$S/reference/shot.usda" -o "$S/reference/assets/character.usda"
protected "deform -o the referenced usdz package" "$S/reference/assets/prop.usdz" "references @./assets/prop.usdz@" \
    "$RIGSCOPE" deform "$S/reference/shot.usda" --format json -o "$S/reference/assets/prop.usdz"
# Through any link, whatever its name says: a symlink, a hard link.
ln -s assets/character.usda "$S/reference/link.usda"
protected "tension -o a symlink to the referenced character" "$S/reference/assets/character.usda" "references @./assets/character.usda@" \
    "$RIGSCOPE" tension "$S/reference/shot.usda" -o "$S/reference/link.usda"
ln "$S/sublayer/layout.usda" "$S/sublayer/hardlink.csv"
protected "deform -o a hard link to the sublayer" "$S/sublayer/layout.usda" "subLayers names @./layout.usda@ in $S/sublayer/shot.usda" \
    "$RIGSCOPE" deform "$S/sublayer/shot.usda" -o "$S/sublayer/hardlink.csv"
ln -s layout.usda "$S/sublayer/report.json"
protected "check --json over the sublayer" "$S/sublayer/layout.usda" "subLayers names" \
    "$RIGSCOPE" check "$S/sublayer/shot.usda" --max-stretch 0.5 --json "$S/sublayer/report.json"
protected "info -o the sublayer" "$S/sublayer/layout.usda" "subLayers names" \
    "$RIGSCOPE" info "$S/sublayer/shot.usda" --json -o "$S/sublayer/report.json"
ln -s assets/character.usda "$S/reference/lint.json"
protected "lint -o the referenced character" "$S/reference/assets/character.usda" "references" \
    "$RIGSCOPE" lint "$S/reference/shot.usda" --format json -o "$S/reference/lint.json"

# A glTF's external buffer is an input too (a corpus file that keeps its buffer beside it).
GLTF_DIR=$WORK/gltf
cp -r "$CORPUS/assimp/glTF2/AnimatedMorphCube/glTF" "$GLTF_DIR"
protected "deform -o a glTF's buffer file" "$GLTF_DIR/AnimatedMorphCube.bin" "buffers[0] of" \
    "$RIGSCOPE" deform "$GLTF_DIR/AnimatedMorphCube.gltf" --format csv -o "$GLTF_DIR/AnimatedMorphCube.bin"
protected "tension -o a glTF's buffer file" "$GLTF_DIR/AnimatedMorphCube.bin" "buffers[0] of" \
    "$RIGSCOPE" tension "$GLTF_DIR/AnimatedMorphCube.gltf" --format json -o "$GLTF_DIR/AnimatedMorphCube.bin"

# Outputs that USD reads as meant. primvars NAME INPUT: the layer's primvars are the CSV's, as
# usd-core resolves them.
primvars() {
    local name=$1 input=$2
    shift 2
    expect 0 "$name: tension -o .usda" -- "$RIGSCOPE" -q tension "$input" "$@" -o "$OUT/$name.usda"
    expect 0 "$name: tension --format csv" -- "$RIGSCOPE" -q tension "$input" "$@" --format csv -o "$OUT/$name.csv"
    expect 0 "$name: the primvars USD resolves equal the CSV" -- \
        "$USDPY" tests/cli/usd/usd_output_check.py "$OUT/$name.usda" "$input" "$OUT/$name.csv" --color maps
    [ "$(cat "$WORK/out")" = "" ] || sed 's/^/  /' "$WORK/out" | grep FAIL | head -3
}
primvars sublayer "$S/sublayer/shot.usda"
primvars reference "$S/reference/shot.usda"
primvars indexed "$S/indexed/rig.usda"
check "indexed: the input's index array is blocked" -- grep -q 'int\[\] primvars:displayColor:indices = None' "$OUT/indexed.usda"
primvars instanced "$S/instanced/shot.usda"
check "instanced: the instance is made an ordinary prim" -- grep -q 'instanceable = false' "$OUT/instanced.usda"
expect 0 "instanced: tension -o .usda without -q" -- "$RIGSCOPE" tension "$S/instanced/shot.usda" -o "$OUT/instanced_warned.usda"
check "instanced: a warning names the instance it makes ordinary" -- grep -q '/Crowd/Hero is an instance' "$WORK/err"
# ... unless its own layer holds opinions below it, which USD ignores while it is an instance and
# would apply once it is not: refused, naming the instance, nothing written.
expect 2 "instanced with local opinions below: refused" -- "$RIGSCOPE" tension "$S/instanced/local.usda" -o "$OUT/local.usda"
check "instanced with local opinions below: one line naming the instance" -- one_line_naming "below the instance /Crowd/Hero"
check "instanced with local opinions below: nothing written" -- test ! -e "$OUT/local.usda"

# Baked points (deform -o .usda, tension --bake-points): never skinned again, wherever the
# SkelRoot is defined. baked NAME INPUT COMMAND...: the layer's points, read back by usd-core,
# are deform's and BakeSkinning's of the input.
baked() {
    local name=$1 input=$2
    shift 2
    expect 0 "$name: $*" -- "$RIGSCOPE" -q "$@" "$input" -o "$OUT/$name.usda"
    expect 0 "$name: no baked mesh under a SkelRoot, validation as BakeSkinning's" -- \
        "$USDPY" tests/cli/usd/usd_output_check.py "$OUT/$name.usda" "$input" --points-only --baked
    expect 0 "$name: the layer's points as USD evaluates them" -- "$USDPY" scripts/usd/bake_oracle.py "$OUT/$name.usda" "$OUT/$name.pts.json" --baked
    expect 0 "$name: equal BakeSkinning of the input" -- python3 tests/cli/usd/usd_compare.py "$OUT/${name%_*}.d.csv" "$OUT/$name.pts.json"
}
baked sublayer_shot_deform "$S/sublayer/shot.usda" deform
check "sublayer: the SkelRoot the sublayer defines is retyped" -- grep -q 'over Xform "Rig"' "$OUT/sublayer_shot_deform.usda"
baked sublayer_shot_points "$S/sublayer/shot.usda" tension --bake-points
baked reference_shot_deform "$S/reference/shot.usda" deform
check "reference: the referenced SkelRoot is retyped" -- grep -q 'over Xform "Char"' "$OUT/reference_shot_deform.usda"
baked instanced_shot_deform "$S/instanced/shot.usda" deform

# lint and info under a moved parent: the rig's rest pose is its bind pose. (lint's exit is 0:
# the rig's 1e-6 weights are small_weight warnings, which fail only --strict.)
expect 0 "moved: lint" -- "$RIGSCOPE" lint "$S/moved/rig.usda" --format json
check "moved: lint finds no bind_pose, and did run the check" -- python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if "bind_pose" in d["checks"] and not [f for f in d["findings"] if f["check"] == "bind_pose"] else 1)' "$WORK/out"
expect 0 "moved: info --json" -- "$RIGSCOPE" info "$S/moved/rig.usda" --json
check "moved: info says the rest pose is the bind pose" -- \
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); s=[m for m in d["meshes"] if m.get("skin")]; sys.exit(0 if s and all(m["bind_check"]["max_distance"] < 1e-6 * m["bind_check"]["diagonal"] for m in s) else 1)' "$WORK/out"

finish
