#!/bin/bash
# bake (issue 60): tension maps baked into UV space, checked against a rasteriser written in the
# test (bake_oracle.py, numpy) over rigscope's own per-vertex values (`tension -o x.csv`), the
# images read back by Pillow (PNG) and OpenEXR's Python module (EXR); then the refusals.
source "$(dirname "$0")/../common.bash"
HERE=$(dirname "$0")
PY=build/usd-venv/bin/python
"$PY" -c 'import PIL, OpenEXR, numpy' 2>/dev/null || skip "Pillow, OpenEXR or numpy missing in build/usd-venv (scripts/setup.sh installs them)"
CYL="$CORPUS/bend_cylinder/bend_cylinder.glb"
[ -f "$CYL" ] || skip "no corpus at $CORPUS"

# glTF: row 0 is v = 0. T through --range 0,2 (never 0 on this rig, so coverage shows in the image).
"$PY" "$HERE/bake_oracle.py" gltf_mesh "$CYL" "$WORK/cyl.json"
expect 0 "tension CSV of the frames" -- "$RIGSCOPE" tension "$CYL" --frames 31,61 -o "$WORK/cyl.csv"
expect 0 "bake T of two frames, PNG" -- "$RIGSCOPE" bake "$CYL" --frames 31,61 --map tension --range 0,2 --size 96 --padding 3 \
    -o "$WORK/maps/{mesh}.{frame}.png"
check "one PNG per frame, {frame} zero-padded" -- test -f "$WORK/maps/Cylinder.0031.png" -a -f "$WORK/maps/Cylinder.0061.png"
for f in 31 61; do
    expect 0 "PNG frame $f matches the oracle (T)" -- "$PY" "$HERE/bake_oracle.py" check "$WORK/cyl.json" "$WORK/cyl.csv" t $f \
        "$WORK/maps/Cylinder.00$f.png" 96 3 0 2
    cat "$WORK/out"
done
# The node group's compress map (0..1, no --range), padding 0, an odd size.
expect 0 "bake compress, PNG" -- "$RIGSCOPE" bake "$CYL" --frames 61 --map compress --size 77 --padding 0 -o "$WORK/c.png"
# compress is 0 where the cylinder does not bend: coverage cannot be seen from the values there,
# so this compares the values only where the image is not 0 (the T run above checks coverage).
expect 0 "PNG compress frame 61 matches the oracle" -- "$PY" "$HERE/bake_oracle.py" check "$WORK/cyl.json" "$WORK/cyl.csv" compress 61 \
    "$WORK/c.png" 77 0 0 1 values-only
cat "$WORK/out"
expect 0 "EXR T frame 61 matches the oracle" -- "$RIGSCOPE" bake "$CYL" --frames 61 --map tension --size 64 --padding 2 -o "$WORK/t.exr"
expect 0 "EXR frame 61 matches the oracle (T, half)" -- "$PY" "$HERE/bake_oracle.py" check "$WORK/cyl.json" "$WORK/cyl.csv" t 61 \
    "$WORK/t.exr" 64 2 0 1
cat "$WORK/out"

# The colour map (--map color): three channels, each the per-vertex colour `tension --color`
# writes, baked as its own channel; EXR R, G, B and 16-bit RGB PNG (decoded by the oracle itself:
# Pillow reads 16-bit colour as 8 bits). maps: R compress, G stretch (0 where nothing bends, so
# values only, padding 0 as for compress above); t: the ramp of T, computed by the oracle from T.
expect 0 "bake --map color, EXR" -- "$RIGSCOPE" bake "$CYL" --frames 61 --map color --size 64 --padding 0 -o "$WORK/rgb.exr"
for c in R:compress G:stretch; do
    expect 0 "EXR channel ${c%%:*} is ${c#*:}" -- "$PY" "$HERE/bake_oracle.py" check "$WORK/cyl.json" "$WORK/cyl.csv" "${c#*:}" 61 \
        "$WORK/rgb.exr#${c%%:*}" 64 0 0 1 values-only
    cat "$WORK/out"
done
expect 0 "bake --map color --color t, PNG" -- "$RIGSCOPE" bake "$CYL" --frames 61 --map color --color t --size 80 --padding 1 -o "$WORK/rgb.png"
for c in R:ramp_r G:ramp_g B:ramp_b; do
    expect 0 "PNG channel ${c%%:*} is the T ramp's" -- "$PY" "$HERE/bake_oracle.py" check "$WORK/cyl.json" "$WORK/cyl.csv" "${c#*:}" 61 \
        "$WORK/rgb.png#${c%%:*}" 80 1 0 1
    cat "$WORK/out"
done
expect 2 "--map color with --range" -- "$RIGSCOPE" bake "$CYL" --frames 61 --map color --range 0,2 --size 8 -o "$WORK/rr.png"
check "  ... says why" -- one_line_naming "--map color is in 0..1"
expect 2 "--color t without --map color" -- "$RIGSCOPE" bake "$CYL" --frames 61 --color t --size 8 -o "$WORK/rr.png"
check "  ... no file" -- test ! -e "$WORK/rr.png"

# FBX: row 0 is v = 1, UVs per polygon corner (ByPolygonVertex, IndexToDirect). No reader of FBX
# UVs independent of rigscope's is at hand, so the FBX that Blender wrote beside the glTF (the same
# UV layout; glTF's v stored flipped) is baked at the same size: each image lands on the mesh in its
# file's convention, so the two must cover the same texels (the glTF's coverage is the oracle's
# above). The values differ by the topology's T (quads against triangles: 0.787..1.533 against
# 0.794..1.480 at frame 61, corpus README), so they are compared loosely.
FBX="$CORPUS/bend_cylinder/bend_cylinder.fbx"
expect 0 "bake the FBX twin" -- "$RIGSCOPE" bake "$FBX" --frames 61 --map tension --range 0,2 --size 96 --padding 0 -o "$WORK/fbx.png"
expect 0 "bake the glTF at the same size" -- "$RIGSCOPE" bake "$CYL" --frames 61 --map tension --range 0,2 --size 96 --padding 0 -o "$WORK/glb.png"
expect 0 "the FBX's image covers the glTF's texels" -- "$PY" - "$WORK/fbx.png" "$WORK/glb.png" <<'PYEOF'
import sys
import numpy as np
from PIL import Image
a, b = (np.array(Image.open(p), dtype=np.float64) / 65535 for p in sys.argv[1:3])
ca, cb = a > 0, b > 0
differ = int((ca != cb).sum())
both = ca & cb
mean = float(np.abs(a - b)[both].mean())
print(f"FBX {int(ca.sum())} texels, glTF {int(cb.sum())}, {differ} differ; mean |T/2 difference| {mean:.4f}")
sys.exit(0 if cb.sum() > 1000 and differ <= 0.002 * cb.sum() and mean < 0.05 else 1)
PYEOF
cat "$WORK/out"

# Collada (Blender's export, read through Assimp): row 0 is v = 1, UVs per corner. The oracle
# reads the XML itself (bake_oracle.py collada_mesh).
DAE=tests/collada/bend_cylinder.dae
"$PY" "$HERE/bake_oracle.py" collada_mesh "$DAE" "$WORK/dae.json"
expect 0 "tension CSV of the Collada twin" -- "$RIGSCOPE" tension "$DAE" --frames 61 -o "$WORK/dae.csv"
expect 0 "bake the Collada twin" -- "$RIGSCOPE" bake "$DAE" --frames 61 --map tension --range 0,2 --size 96 --padding 2 -o "$WORK/dae.png"
expect 0 "Collada PNG matches the oracle (v up)" -- "$PY" "$HERE/bake_oracle.py" check "$WORK/dae.json" "$WORK/dae.csv" t 61 \
    "$WORK/dae.png" 96 2 0 2
cat "$WORK/out"

# OBJ (v/vt faces) animated by a PC2 cache: the bind neutral of data/bend_cylinder.glb given the
# glb's UVs as vt (v up); the oracle reads the OBJ's faces and UVs itself.
"$PY" "$HERE/bake_oracle.py" obj_with_uvs tests/cache/bend_cylinder_bind.obj data/bend_cylinder.glb "$WORK/uv.obj"
"$PY" "$HERE/bake_oracle.py" obj_mesh "$WORK/uv.obj" "$WORK/obj.json"
expect 0 "tension CSV of the OBJ with its cache" -- "$RIGSCOPE" tension "$WORK/uv.obj" --cache tests/cache/bend_40_49.pc2 -o "$WORK/obj.csv"
expect 0 "bake the OBJ with its cache" -- "$RIGSCOPE" bake "$WORK/uv.obj" --cache tests/cache/bend_40_49.pc2 --frames 45 --map tension \
    --range 0,2 --size 80 --padding 1 -o "$WORK/obj.png"
expect 0 "OBJ PNG matches the oracle (v up)" -- "$PY" "$HERE/bake_oracle.py" check "$WORK/obj.json" "$WORK/obj.csv" t 45 \
    "$WORK/obj.png" 80 1 0 2
cat "$WORK/out"
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nf 1/1 2/2 3/3\n' >"$WORK/bad_vt.obj"
expect 0 "an OBJ face naming a vt it lacks: the geometry is read" -- "$RIGSCOPE" info "$WORK/bad_vt.obj"
check "  ... its UVs are dropped with a warning naming the texture vertex" -- grep -q "texture vertex 2 of 1: its UVs are not read" "$WORK/out"
expect 3 "  ... and bake refuses it for want of UVs" -- "$RIGSCOPE" bake "$WORK/bad_vt.obj" --frames bind --size 8 -o "$WORK/bad_vt.png"

# USD: row 0 is v = 1. lbs.usda has no UVs; the test adds a faceVarying st with usd-core (a
# planar projection of the rest points, a seam-free copy per corner), which is also the oracle's.
LBS="$CORPUS/usd/lbs.usda"
if [ -f "$LBS" ]; then
    expect 3 "a mesh without UVs is refused, naming it" -- "$RIGSCOPE" -q bake "$LBS" --mesh Mesh --size 16 -o "$WORK/lbs.{frame}.png"
    check "  ... in one line naming the mesh" -- one_line_naming "mesh 'Mesh' has no UVs"
    check "  ... and no file" -- test -z "$(ls "$WORK" | grep '^lbs\.')"
    "$PY" - "$LBS" "$WORK/lbs_st.usda" <<'PYEOF'
import sys
from pxr import Usd, UsdGeom, Sdf, Vt, Gf
stage = Usd.Stage.Open(sys.argv[1])
mesh = UsdGeom.Mesh(stage.GetPrimAtPath("/Root/Mesh"))
pts = mesh.GetPointsAttr().Get()
idx = mesh.GetFaceVertexIndicesAttr().Get()
xs = [p[0] for p in pts]; zs = [p[2] if max(q[2] for q in pts) > min(q[2] for q in pts) else p[1] for p in pts]
def norm(a, lo, hi): return 0.05 + 0.9 * (a - lo) / (hi - lo)
uv = [Gf.Vec2f(norm(xs[i], min(xs), max(xs)), norm(zs[i], min(zs), max(zs))) for i in idx]
pv = UsdGeom.PrimvarsAPI(mesh).CreatePrimvar("st", Sdf.ValueTypeNames.TexCoord2fArray, UsdGeom.Tokens.faceVarying)
pv.Set(Vt.Vec2fArray(uv))
stage.GetRootLayer().Export(sys.argv[2])
PYEOF
    "$PY" "$HERE/bake_oracle.py" usd_mesh "$WORK/lbs_st.usda" /Root/Mesh "$WORK/lbs.json"
    expect 0 "tension CSV of the USD mesh" -- "$RIGSCOPE" tension "$WORK/lbs_st.usda" --mesh Mesh -o "$WORK/lbs.csv"
    frame=$(awk -F, 'NR == 2 { print $1 }' "$WORK/lbs.csv")
    last=$(awk -F, 'NR > 1 { f = $1 } END { print f }' "$WORK/lbs.csv")
    expect 0 "bake the USD mesh" -- "$RIGSCOPE" bake "$WORK/lbs_st.usda" --mesh Mesh --frames "$last" --map tension --range 0,2 \
        --size 48 --padding 1 -o "$WORK/lbs_bake.png"
    expect 0 "USD PNG matches the oracle (v up)" -- "$PY" "$HERE/bake_oracle.py" check "$WORK/lbs.json" "$WORK/lbs.csv" t "$last" \
        "$WORK/lbs_bake.png" 48 1 0 2
    cat "$WORK/out"
    # UDIM: the same UVs moved one tile right (tile 1002) and one corner's into no tile (u < 0).
    "$PY" - "$WORK/lbs_st.usda" "$WORK/lbs_udim.usda" <<'PYEOF'
import sys
from pxr import Usd, UsdGeom, Vt, Gf
stage = Usd.Stage.Open(sys.argv[1])
pv = UsdGeom.PrimvarsAPI(stage.GetPrimAtPath("/Root/Mesh")).GetPrimvar("st")
uv = [Gf.Vec2f(p[0] + 1, p[1]) for p in pv.Get()]
pv.Set(Vt.Vec2fArray(uv))
stage.GetRootLayer().Export(sys.argv[2])
PYEOF
    expect 0 "bake UDIM tiles" -- "$RIGSCOPE" bake "$WORK/lbs_udim.usda" --mesh Mesh --frames "$last" --map tension --range 0,2 \
        --size 48 --padding 1 --udim -o "$WORK/udim/lbs.{udim}.png"
    check "  ... one image, tile 1002" -- test "$(ls "$WORK/udim")" = "lbs.1002.png"
    # The oracle over the tile's UVs shifted back (in double, as the file's floats minus 1).
    "$PY" "$HERE/bake_oracle.py" usd_mesh "$WORK/lbs_udim.usda" /Root/Mesh "$WORK/udim.json"
    "$PY" -c 'import json, sys; m = json.load(open(sys.argv[1])); m["uv"] = [[u - 1, v] for u, v in m["uv"]]; json.dump(m, open(sys.argv[1], "w"))' \
        "$WORK/udim.json"
    expect 0 "tile 1002 matches the oracle" -- "$PY" "$HERE/bake_oracle.py" check "$WORK/udim.json" "$WORK/lbs.csv" t "$last" \
        "$WORK/udim/lbs.1002.png" 48 1 0 2
    cat "$WORK/out"
    expect 2 "--udim without {udim}" -- "$RIGSCOPE" bake "$WORK/lbs_udim.usda" --mesh Mesh --udim --size 8 -o "$WORK/udim/x.png"
    "$PY" - "$WORK/lbs_st.usda" "$WORK/lbs_out.usda" <<'PYEOF'
import sys
from pxr import Usd, UsdGeom, Vt, Gf
stage = Usd.Stage.Open(sys.argv[1])
pv = UsdGeom.PrimvarsAPI(stage.GetPrimAtPath("/Root/Mesh")).GetPrimvar("st")
uv = list(pv.Get())
uv[0] = Gf.Vec2f(-0.5, uv[0][1])
pv.Set(Vt.Vec2fArray(uv))
stage.GetRootLayer().Export(sys.argv[2])
PYEOF
    expect 0 "a UV in no tile" -- "$RIGSCOPE" bake "$WORK/lbs_out.usda" --mesh Mesh --frames "$last" --size 8 --udim -o "$WORK/udim/o.{udim}.png"
    check "  ... is warned about" -- grep -q "1 UVs of set st lie in no UDIM tile" "$WORK/err"
else
    skip_later "no usd/lbs.usda in the corpus"
fi

# Refusals: a clear one-line error, no file.
mkdir -p "$WORK/r"
expect 2 "--size 0" -- "$RIGSCOPE" bake "$CYL" --frames 61 --size 0 -o "$WORK/r/a.png"
check "  ... names the option" -- one_line_naming "size 0"
expect 2 "--size past the maximum" -- "$RIGSCOPE" bake "$CYL" --frames 61 --size 16385 -o "$WORK/r/a.png"
expect 2 "several frames, no {frame}" -- "$RIGSCOPE" bake "$CYL" --frames 1..3 --size 8 -o "$WORK/r/a.png"
check "  ... says so" -- one_line_naming "no {frame}"
expect 2 "--chunk (no chunk record yet)" -- "$RIGSCOPE" bake "$CYL" --chunk 0/2 --size 8 -o "$WORK/r/c.{frame}.png"
check "  ... no file" -- test -z "$(ls "$WORK/r")"
expect 2 "--clip all (one clip a run)" -- "$RIGSCOPE" bake "$CYL" --clip all --size 8 -o "$WORK/r/c.{frame}.png"
expect 2 "T into a PNG without --range" -- "$RIGSCOPE" bake "$CYL" --frames 61 --map tension --size 8 -o "$WORK/r/a.png"
expect 2 "an unknown UV set" -- "$RIGSCOPE" bake "$CYL" --frames 61 --uv UVMap2 --size 8 -o "$WORK/r/a.png"
check "  ... lists the sets" -- one_line_naming "TEXCOORD_0"
cp "$CYL" "$WORK/r/cyl.glb"
ln -s cyl.glb "$WORK/r/in.png"
expect 2 "an output over the input" -- "$RIGSCOPE" bake "$WORK/r/cyl.glb" --frames 61 --size 8 -o "$WORK/r/in.png"
check "  ... the input intact" -- cmp -s "$CYL" "$WORK/r/cyl.glb"
# A frame's file that cannot be written (a folder in its place): no file of any frame is left.
mkdir -p "$WORK/r/m/Cylinder.0003.png"
expect 4 "a frame that cannot be written" -- "$RIGSCOPE" bake "$CYL" --frames 1..3 --size 8 -o "$WORK/r/m/{mesh}.{frame}.png"
check "  ... no partial files" -- test "$(ls "$WORK/r/m")" = "Cylinder.0003.png"
finish
