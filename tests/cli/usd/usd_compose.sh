# USD composition end to end against OpenUSD (usd-core in build/usd-venv): the multi-file stages of
# scripts/usd/make_compose_scenes.py (internal references and instanceable prims; sublayers with
# layer offsets, references and payloads to files beside the layer, a 48 time-code layer in a 24
# one; variant selections under LIVRPS; a .usdz whose root entry references another entry),
# composed by Usd and skinned by UsdSkel.BakeSkinning (scripts/usd/bake_oracle.py), must equal
# rigscope's `deform` within 1e-5 of each mesh's diagonal at every time code: the tolerance of
# tests/cli/usd/usd_skel.sh (float points through two float skinning paths differ by about 1e-7 of
# the size; a lost offset, a wrong rate or a variant's opinion in the wrong place moves them by
# 0.3 of the diagonal or more: each was tried). The stages again as crate layers. Then the
# refusals: a path outside the input's folder (read with --allow-outside-uris), a missing file, a
# usdz entry that is not there or a path out of the package.
. "$(dirname "$0")/../common.bash"

USDPY=${RIGSCOPE_USD_PYTHON:-build/usd-venv/bin/python}
"$USDPY" -c 'import pxr.UsdSkel' 2>/dev/null || skip "no usd-core at $USDPY (scripts/setup.sh makes build/usd-venv)"

S=$WORK/scenes
"$USDPY" scripts/usd/make_compose_scenes.py "$S" --usdc || { echo "FAIL: make_compose_scenes.py"; exit 1; }

compare() {  # compare NAME FILE [rigscope options...]: rigscope's deform of FILE against usd-core's
    local name=$1 file=$2
    shift 2
    # info names what was composed (sublayers with offsets, references, payloads, variant
    # selections, instances) as usd-core's own composition query finds it.
    expect 0 "$name: info --json" -- "$RIGSCOPE" info "$file" "$@" --json
    cp "$WORK/out" "$WORK/$name.info.json"
    expect 0 "$name: info's composed is usd-core's composition" -- "$USDPY" tests/cli/usd/usd_composed_check.py "$file" "$WORK/$name.info.json"
    expect 0 "$name: usd-core composes and bakes it" -- "$USDPY" scripts/usd/bake_oracle.py "$file" "$WORK/$name.oracle.json"
    expect 0 "$name: deform" -- "$RIGSCOPE" deform "$file" "$@" -o "$WORK/$name.csv"
    expect 0 "$name: within 1e-5 of the diagonal at every time code" -- python3 tests/cli/usd/usd_compare.py "$WORK/$name.csv" "$WORK/$name.oracle.json"
    [ "$(cat "$WORK/err")" = "" ] || sed 's/^/  /' "$WORK/out" | head -5
}

compare internal "$S/internal/internal.usda"
compare files "$S/files/root.usda"
compare variants "$S/variants/variants.usda"
compare usdz "$S/packaged.usdz"
# The same stages as binary crate layers (list ops of references and payloads, variant specs,
# variant selection maps and sublayer offsets as the crate stores them).
compare internal.crate "$S/crate/internal/internal.usdc"
compare files.crate "$S/crate/files/root.usdc"
compare variants.crate "$S/crate/variants/variants.usdc"

# The oracle sees every mesh the stage composes (a mesh rigscope left out would go unnoticed).
check "internal: the instance's prototype meshes are there" -- python3 -c '
import json, sys
assert set(json.load(open(sys.argv[1]))["meshes"]) == {"Tube", "Prop", "Deep"}' "$WORK/internal.oracle.json"
check "files: every layer's meshes are there" -- python3 -c '
import json, sys
assert set(json.load(open(sys.argv[1]))["meshes"]) == {"Tube", "ArmTube", "ShelfBox", "BoxMesh", "CrateMesh"}' "$WORK/files.oracle.json"

# A root layer in a folder of its own that references ../rig.usda: outside the input's folder,
# refused unless --allow-outside-uris, and then composed as usd-core composes it.
mkdir -p "$S/outside/shot"
cp "$S/files/rig.usda" "$S/outside/rig.usda"
cat >"$S/outside/shot/shot.usda" <<'USDA'
#usda 1.0
(
    startTimeCode = 1
    endTimeCode = 12
)

def SkelRoot "Char" (
    prepend references = @../rig.usda@
)
{
}
USDA
expect 3 "outside: a reference out of the input's folder is refused" -- "$RIGSCOPE" deform "$S/outside/shot/shot.usda" -o "$WORK/o.csv"
check "outside: one line naming the layer, the asset and the option" -- grep -q "shot.usda: prim /Char references @../rig.usda@.*outside the input's folder.*--allow-outside-uris" "$WORK/err"
check "outside: one line" -- [ "$(wc -l <"$WORK/err")" -eq 1 ]
check "outside: no output" -- [ ! -e "$WORK/o.csv" ]
compare outside "$S/outside/shot/shot.usda" --allow-outside-uris

# A missing file: named, with the layer that names it.
sed 's/rig.usda/gone.usda/' "$S/files/root.usda" >"$S/files/missing.usda"
expect 3 "missing: a reference to a file that is not there" -- "$RIGSCOPE" info "$S/files/missing.usda"
check "missing: names the layer and the file" -- grep -q "missing.usda: prim /Char references @./gone.usda@.*files/gone.usda does not exist" "$WORK/err"

# A usdz whose root entry names what the package does not hold, or a path out of it.
"$USDPY" - "$S" <<'PY'
import os, sys
from pxr import Sdf
out = sys.argv[1]
for name, asset in (("noentry", "parts/gone.usda"), ("escape", "../files/rig.usda")):
    src = os.path.join(out, name + ".usda")
    with open(src, "w") as f:
        f.write('#usda 1.0\n\ndef Xform "Char" (\n    prepend references = @%s@\n)\n{\n}\n' % asset)
    w = Sdf.ZipFileWriter.CreateNew(os.path.join(out, name + ".usdz"))
    w.AddFile(src, "root.usda")
    w.Save()
PY
expect 3 "usdz: an entry the package does not hold" -- "$RIGSCOPE" info "$S/noentry.usdz"
check "usdz: names the package and the entry" -- grep -q "noentry.usdz: prim /Char references @parts/gone.usda@, and the package .*noentry.usdz has no entry parts/gone.usda" "$WORK/err"
expect 3 "usdz: a path out of the package" -- "$RIGSCOPE" info "$S/escape.usdz" --allow-outside-uris
check "usdz: refused as leading outside the package" -- grep -q "escape.usdz: prim /Char references @../files/rig.usda@, which leads outside the package" "$WORK/err"

finish
