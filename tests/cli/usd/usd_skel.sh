# The USD reader end to end against OpenUSD (usd-core in build/usd-venv, which scripts/setup.sh
# makes): the crafted scenes of scripts/usd/make_scenes.py and the corpus's lbs.usda, each skinned
# by UsdSkel.BakeSkinning (scripts/usd/bake_oracle.py), must equal rigscope's `deform` within 1e-5
# of each mesh's diagonal at every time code (tests/cli/usd/usd_compare.py says why that tolerance).
# The scenes are written here from the venv, not committed: usd-core's API is their source.
. "$(dirname "$0")/../common.bash"

USDPY=${RIGSCOPE_USD_PYTHON:-build/usd-venv/bin/python}
"$USDPY" -c 'import pxr.UsdSkel' 2>/dev/null || skip "no usd-core at $USDPY (scripts/setup.sh makes build/usd-venv)"

SCENES=$WORK/scenes
"$USDPY" scripts/usd/make_scenes.py "$SCENES" --usdc || { echo "FAIL: make_scenes.py"; exit 1; }

compare() {  # compare NAME FILE: rigscope's deform of FILE against BakeSkinning's
    local name=$1 file=$2
    expect 0 "$name: usd-core bakes it" -- "$USDPY" scripts/usd/bake_oracle.py "$file" "$WORK/$name.oracle.json"
    expect 0 "$name: deform" -- "$RIGSCOPE" deform "$file" -o "$WORK/$name.csv"
    expect 0 "$name: within 1e-5 of the diagonal at every time code" -- python3 tests/cli/usd/usd_compare.py "$WORK/$name.csv" "$WORK/$name.oracle.json"
    [ "$(cat "$WORK/err")" = "" ] || sed 's/^/  /' "$WORK/out" | head -5
}

# Each scene as a text layer and as a binary crate layer (usd-core's Export of the same stage).
for scene in linear rigid_remap sparse xformops zup_cm metres_weights blend_shapes dual_quaternion; do
    compare "$scene" "$SCENES/$scene.usda"
    compare "$scene.crate" "$SCENES/$scene.usdc"
done
# Time-sampled points (a point cache in the stage): UsdGeom's Get(t) of the points is the oracle
# (BakeSkinning leaves an unskinned mesh alone), at every whole time code and, at twice the rate
# (--fps 48 on the 24 time-code stage: frame n is code n / 2), at the codes halfway between.
for f in points_cache.usda points_cache.usdc; do
    compare "$f" "$SCENES/$f"
    expect 0 "$f: usd-core's points at every half time code" -- "$USDPY" scripts/usd/bake_oracle.py "$SCENES/$f" "$WORK/$f.half.json" --baked --step 0.5
    expect 0 "$f: deform at 48 fps" -- "$RIGSCOPE" deform "$SCENES/$f" --fps 48 -o "$WORK/$f.half.csv"
    expect 0 "$f: the cloth within 1e-5 of the diagonal at every half time code" -- \
        python3 tests/cli/usd/usd_compare.py "$WORK/$f.half.csv" "$WORK/$f.half.json" --mesh Cloth --codes-per-frame 0.5
done
compare lbs "$CORPUS/usd/lbs.usda"
# Pixar's baseline lbs.baked.usda is the same rig baked: its meshes are point caches (the Root is
# no SkelRoot any more). Read as such it stands where BakeSkinning puts lbs.usda, and tension of
# it equals tension of the skinned original (the same positions, through float storage).
expect 0 "lbs.baked: deform" -- "$RIGSCOPE" deform "$CORPUS/usd/lbs.baked.usda" -o "$WORK/lbs.baked.csv"
expect 0 "lbs.baked: within 1e-5 of BakeSkinning's lbs.usda" -- python3 tests/cli/usd/usd_compare.py "$WORK/lbs.baked.csv" "$WORK/lbs.oracle.json"
expect 0 "lbs: tension" -- "$RIGSCOPE" -q tension "$CORPUS/usd/lbs.usda" --format csv -o "$WORK/lbs.t.csv"
expect 0 "lbs.baked: tension" -- "$RIGSCOPE" -q tension "$CORPUS/usd/lbs.baked.usda" --format csv -o "$WORK/lbs.baked.t.csv"
check "lbs.baked: tension of the skinned file at every vertex and frame" -- python3 - "$WORK/lbs.t.csv" "$WORK/lbs.baked.t.csv" <<'PY'
import csv, sys
a, b = (list(csv.reader(open(p))) for p in sys.argv[1:3])
assert len(a) == len(b) > 1, (len(a), len(b))
for ra, rb in zip(a[1:], b[1:]):
    assert ra[:3] == rb[:3], (ra, rb)
    assert all(abs(float(x) - float(y)) <= 1e-4 for x, y in zip(ra[3:], rb[3:])), (ra, rb)
PY
expect 1 "lbs: check finds stretch past T < 0.97" -- "$RIGSCOPE" -q check "$CORPUS/usd/lbs.usda" --max-stretch 0.97
sed 's/T = [0-9.]*$//' "$WORK/out" >"$WORK/lbs.check.txt"
expect 1 "lbs.baked: check of the cache finds it too" -- "$RIGSCOPE" -q check "$CORPUS/usd/lbs.baked.usda" --max-stretch 0.97
check "lbs.baked: the same vertices and frames as the skinned file" -- cmp -s "$WORK/lbs.check.txt" <(sed 's/T = [0-9.]*$//' "$WORK/out")
# A converter's usdz (a crate 0.8.0 layer in a stored zip). Against usd-core, not its glTF twin:
# its converter wrote the root's animated translation as 0, so usd-core itself puts it about 4 m
# from khronos/rigged_simple.gltf (docs/usd_notes.md).
compare rigged_simple "$CORPUS/usd/RiggedSimple.usdz"

# info says what the reader took from the stage.
expect 0 "info on a Z-up centimetre stage" -- "$RIGSCOPE" info "$SCENES/zup_cm.usda"
check "names the units" -- grep -q "metersPerUnit 0.01" "$WORK/out"
check "names the up axis" -- grep -qi "up.*Z" "$WORK/out"
check "names timeCodesPerSecond" -- grep -q "timeCodesPerSecond" "$WORK/out"
expect 0 "info on the dual-quaternion stage" -- "$RIGSCOPE" info "$SCENES/dual_quaternion.usda"
check "names OpenUSD's dual-quaternion method" -- grep -q "UsdDualQuaternion" "$WORK/out"
expect 0 "info --json on the dual-quaternion stage" -- "$RIGSCOPE" -q info "$SCENES/dual_quaternion.usdc" -o "$WORK/dq.info.json"
check "its JSON matches docs/schema/info.schema.json" -- /usr/bin/python3 -c '
import json, pathlib, sys, jsonschema
d = pathlib.Path("docs/schema").resolve()
schema = json.load(open(d / "info.schema.json"))
v = jsonschema.validators.validator_for(schema)(schema, resolver=jsonschema.RefResolver(d.as_uri() + "/", schema))
errors = [f"{list(e.path)}: {e.message}" for e in v.iter_errors(json.load(open(sys.argv[1])))]
assert not errors, errors' "$WORK/dq.info.json"
check "its JSON names the method" -- /usr/bin/python3 -c '
import json, sys
assert {s["method"] for s in json.load(open(sys.argv[1]))["skins"]} == {"UsdDualQuaternion"}' "$WORK/dq.info.json"
expect 0 "info on framesPerSecond alone" -- "$RIGSCOPE" info "$SCENES/metres_weights.usda"
check "names framesPerSecond" -- grep -q "framesPerSecond" "$WORK/out"
check "says the weights are used as stored" -- grep -q "do not sum to 1" "$WORK/out"

finish
