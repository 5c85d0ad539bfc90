#!/bin/bash
# bake reads Alembic's UVs (issue 60): archives written by Alembic's own library (alembic3d) with
# uv per corner (indexed, as Blender and Maya write it) and per point (plain); the oracle reads
# the faces and UVs back with alembic3d (abc_uv.py) and rasterises rigscope's own per-vertex T
# with its numpy rasteriser (bake_oracle.py): rigscope's Alembic reader is on neither side.
source "$(dirname "$0")/../common.bash"
HERE=$(dirname "$0")
PY=build/usd-venv/bin/python
"$PY" -c 'import alembic3d, PIL, numpy' 2>/dev/null || skip "alembic3d, Pillow or numpy missing in build/usd-venv (scripts/setup.sh installs them)"

for kind in corner point; do
    "$PY" "$HERE/abc_uv.py" write "$WORK/$kind.abc" $kind
    "$PY" "$HERE/abc_uv.py" mesh "$WORK/$kind.abc" "$WORK/$kind.json"
    expect 0 "info lists the $kind uv" -- "$RIGSCOPE" info "$WORK/$kind.abc"
    check "  ... as ${kind/corner/facevarying}" -- grep -q ": uv (float32 x2.*${kind/point/vertex}" "$WORK/out"
    expect 0 "tension CSV of the $kind archive" -- "$RIGSCOPE" tension "$WORK/$kind.abc" -o "$WORK/$kind.csv"
    expect 0 "bake T of frame 8 ($kind uv)" -- "$RIGSCOPE" bake "$WORK/$kind.abc" --frames 8 --map tension --range 0,2 --size 64 \
        --padding 2 -o "$WORK/$kind.png"
    expect 0 "the $kind image matches the oracle (row 0 is v = 1)" -- "$PY" "$HERE/bake_oracle.py" check "$WORK/$kind.json" \
        "$WORK/$kind.csv" t 8 "$WORK/$kind.png" 64 2 0 2
    cat "$WORK/out"
done
# The facevarying sheet's UVs span v 0.1..0.9 bent by a power: an image upside down (row 0 as
# v = 0) or with the corners in the file's clockwise order taken against the reversed faces
# would miss the oracle's texels, which the check above counts.

# A uv whose count fits neither the corners nor the points: refused naming the file and the mesh.
"$PY" "$HERE/abc_uv.py" write "$WORK/short.abc" short
expect 3 "a uv of the wrong count" -- "$RIGSCOPE" bake "$WORK/short.abc" --frames 8 --size 8 -o "$WORK/short.png"
check "  ... in one line naming the mesh and the counts" -- one_line_naming "Sheet's uv has 80 entries"
check "  ... no file" -- test ! -e "$WORK/short.png"
finish
