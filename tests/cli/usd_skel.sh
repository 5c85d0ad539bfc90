# The USD reader end to end against OpenUSD (usd-core in build/usd-venv, which scripts/setup.sh
# makes): the crafted scenes of scripts/usd/make_scenes.py and the corpus's lbs.usda, each skinned
# by UsdSkel.BakeSkinning (scripts/usd/bake_oracle.py), must equal rigscope's `deform` within 1e-5
# of each mesh's diagonal at every time code (tests/cli/usd_compare.py says why that tolerance).
# The scenes are written here from the venv, not committed: usd-core's API is their source.
. "$(dirname "$0")/common.bash"

USDPY=${RIGSCOPE_USD_PYTHON:-build/usd-venv/bin/python}
"$USDPY" -c 'import pxr.UsdSkel' 2>/dev/null || skip "no usd-core at $USDPY (scripts/setup.sh makes build/usd-venv)"

SCENES=$WORK/scenes
"$USDPY" scripts/usd/make_scenes.py "$SCENES" --usdc || { echo "FAIL: make_scenes.py"; exit 1; }

compare() {  # compare NAME FILE: rigscope's deform of FILE against BakeSkinning's
    local name=$1 file=$2
    expect 0 "$name: usd-core bakes it" -- "$USDPY" scripts/usd/bake_oracle.py "$file" "$WORK/$name.oracle.json"
    expect 0 "$name: deform" -- "$RIGSCOPE" deform "$file" -o "$WORK/$name.csv"
    expect 0 "$name: within 1e-5 of the diagonal at every time code" -- python3 tests/cli/usd_compare.py "$WORK/$name.csv" "$WORK/$name.oracle.json"
    [ "$(cat "$WORK/err")" = "" ] || sed 's/^/  /' "$WORK/out" | head -5
}

# Each scene as a text layer and as a binary crate layer (usd-core's Export of the same stage).
for scene in linear rigid_remap sparse xformops zup_cm metres_weights; do
    compare "$scene" "$SCENES/$scene.usda"
    compare "$scene.crate" "$SCENES/$scene.usdc"
done
compare lbs "$CORPUS/usd/lbs.usda"
# A converter's usdz (a crate 0.8.0 layer in a stored zip). Against usd-core, not its glTF twin:
# its converter wrote the root's animated translation as 0, so usd-core itself puts it about 4 m
# from khronos/rigged_simple.gltf (docs/usd_notes.md).
compare rigged_simple "$CORPUS/usd/RiggedSimple.usdz"

# info says what the reader took from the stage.
expect 0 "info on a Z-up centimetre stage" -- "$RIGSCOPE" info "$SCENES/zup_cm.usda"
check "names the units" -- grep -q "metersPerUnit 0.01" "$WORK/out"
check "names the up axis" -- grep -qi "up.*Z" "$WORK/out"
check "names timeCodesPerSecond" -- grep -q "timeCodesPerSecond" "$WORK/out"
expect 0 "info on framesPerSecond alone" -- "$RIGSCOPE" info "$SCENES/metres_weights.usda"
check "names framesPerSecond" -- grep -q "framesPerSecond" "$WORK/out"
check "says the weights are used as stored" -- grep -q "do not sum to 1" "$WORK/out"

finish
