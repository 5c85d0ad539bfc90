# Files a DCC wrote: Blender 4.5's own USD export (scripts/usd/blender_usd_export.py, run with
# PyPI's bpy; the files are committed in tests/usd_blender, 340 kB) of four corpus rigs. Each is
# checked two independent ways:
# - against usd-core: rigscope's deform within 1e-5 of each mesh's diagonal of
#   UsdSkel.BakeSkinning at every time code (tests/cli/usd/usd_compare.py says why that tolerance);
# - against the glTF Blender imported: `rigscope diff SOURCE.gltf EXPORT.usd --match position`
#   through the other reader, every frame (Blender's frame f is the glTF's time f / 24 s, which
#   is its time code f) within 1e-5 of the mesh's diagonal: Blender re-derives the bind and rest
#   matrices in single precision, which moves a vertex ~1e-6 of the diagonal (cesium_man: 4.4e-6
#   at most), so 1e-5 holds it with a margin and still fails a pose off by a frame (5e-3 and up).
# joystick_face has no glTF twin to compare with: its shape keys are keyed by the export script
# (the corpus file's drivers do not survive glTF), and Blender writes them as a SkelAnimation of
# blend-shape weights alone, with no joints, which UsdSkel poses at rest.
. "$(dirname "$0")/../common.bash"

USDPY=${RIGSCOPE_USD_PYTHON:-build/usd-venv/bin/python}
"$USDPY" -c 'import pxr.UsdSkel' 2>/dev/null || skip "no usd-core at $USDPY (scripts/setup.sh makes build/usd-venv)"
DATA=tests/usd_blender

for f in bend_cylinder.usdc cesium_man.usdc rigged_simple.usda joystick_face.usdc; do
    expect 0 "$f: usd-core bakes it" -- "$USDPY" scripts/usd/bake_oracle.py "$DATA/$f" "$WORK/$f.oracle.json"
    expect 0 "$f: deform" -- "$RIGSCOPE" -q deform "$DATA/$f" -o "$WORK/$f.csv"
    expect 0 "$f: within 1e-5 of the diagonal of BakeSkinning at every time code" -- \
        python3 tests/cli/usd/usd_compare.py "$WORK/$f.csv" "$WORK/$f.oracle.json"
done

# The blend shapes move the face: the shapes are not silently dropped (the oracle agrees above).
check "joystick_face.usdc: the keyed shapes move the face" -- python3 - "$WORK/joystick_face.usdc.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head, rows = rows[0], rows[1:]
f, x = head.index("frame"), head.index("x")
by = {}
for r in rows:
    by.setdefault(r[f], []).append(tuple(float(v) for v in r[x:x + 3]))
rest, posed = by["1"], by["17"]  # frame 17: smile_L at full weight
moved = max(max(abs(a - b) for a, b in zip(p, q)) for p, q in zip(rest, posed))
print(f"largest move at frame 17: {moved:.4f}")
sys.exit(0 if moved > 0.01 else 1)
PY

diagonal() {  # the first mesh's diagonal as info prints it
    "$RIGSCOPE" info "$1" | sed -n 's/.*(mesh diagonal \([0-9.e+-]*\)).*/\1/p' | head -1
}
for pair in bend_cylinder.usdc:bend_cylinder/bend_cylinder.glb cesium_man.usdc:khronos/cesium_man.gltf \
            rigged_simple.usda:khronos/rigged_simple.gltf; do
    f=${pair%%:*} src=$CORPUS/${pair#*:}
    limit=$(python3 -c "print(1e-5 * float('$(diagonal "$DATA/$f")'))")
    expect 0 "$f: the glTF Blender read, through the glTF reader, within 1e-5 of the diagonal ($limit m) at every frame" -- \
        "$RIGSCOPE" -q diff "$src" "$DATA/$f" --match position --max-displacement "$limit"
    # The check can fail: one frame off is far past it.
    expect 1 "$f: a frame off is refused" -- "$RIGSCOPE" -q diff "$src" "$DATA/$f" --match position --max-displacement "$limit" --frames 10..40 --frame-offset 1
done

# The other verbs on a file Blender wrote (Python's load, lint and check: tests/python/test_usd.py).
B=$DATA/bend_cylinder.usdc
expect 0 "bend_cylinder.usdc: rivets fit (two rigid bones: the pivot is exact)" -- \
    "$RIGSCOPE" -q rivet "$B" --vertices 100,200 --max-fit-error 1e-6 -o "$WORK/rivets.json"
expect 1 "bend_cylinder.usdc: check finds the bend's inner side past T < 0.9" -- "$RIGSCOPE" -q check "$B" --max-stretch 0.9
expect 0 "bend_cylinder.usdc: check --rom within T < 0.5" -- "$RIGSCOPE" -q check "$B" --rom --max-stretch 0.5
expect 0 "bend_cylinder.usdc: report" -- "$RIGSCOPE" -q report "$B" -o "$WORK/report.html"
check "the report is a page" -- grep -q "<html" "$WORK/report.html"
# An older export: the same file without SkelBindingAPI applied. rigscope binds it as USD before
# 23.08 did (the same positions as the file with the schema) and lint's legacy_binding says that
# USD 23.08 and later ignore the binding; usd-core (26.11) indeed leaves the mesh unskinned.
sed 's/prepend apiSchemas = \["SkelBindingAPI"\]//' "$DATA/rigged_simple.usda" > "$WORK/no_api.usda"
check "the schema is gone from the copy" -- sh -c "! grep -q SkelBindingAPI '$WORK/no_api.usda'"
expect 0 "no_api.usda: deform" -- "$RIGSCOPE" -q deform "$WORK/no_api.usda" -o "$WORK/no_api.csv"
check "no_api.usda: rigscope skins it as the file with the schema" -- cmp -s "$WORK/no_api.csv" "$WORK/rigged_simple.usda.csv"
expect 0 "no_api.usda: lint warns (not a failure without --strict)" -- "$RIGSCOPE" lint "$WORK/no_api.usda"
check "lint names legacy_binding and USD 23.08" -- grep -q "legacy_binding.*USD 23.08 and later ignore" "$WORK/out"
expect 1 "no_api.usda: lint --strict fails on it" -- "$RIGSCOPE" -q lint "$WORK/no_api.usda" --strict
expect 0 "rigged_simple.usda: lint of the file with the schema" -- "$RIGSCOPE" lint "$DATA/rigged_simple.usda"
check "has no legacy_binding finding" -- sh -c "! grep -q '^warning legacy_binding' '$WORK/out'"
expect 0 "no_api.usda: usd-core bakes it" -- "$USDPY" scripts/usd/bake_oracle.py "$WORK/no_api.usda" "$WORK/no_api.oracle.json"
check "usd-core leaves it unskinned: rigscope's skinned positions are not its" -- sh -c \
    "! python3 tests/cli/usd/usd_compare.py '$WORK/no_api.csv' '$WORK/no_api.oracle.json' >/dev/null"
finish
