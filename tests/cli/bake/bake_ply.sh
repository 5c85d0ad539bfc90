#!/bin/bash
# bake of PLY neutrals (issue 60): UVs per vertex (s, t, as Blender's PLY exporter writes them)
# and per face corner (MeshLab's texcoord list), in ASCII and binary of both byte orders, written
# by the test (bake_oracle.py ply_with_uvs: the bind neutral of data/bend_cylinder.glb with the
# glb's UVs, v up) and animated by a PC2 cache; each image checked against the numpy oracle over
# rigscope's own per-vertex T. Then a texcoord list of the wrong length: a warning, no UVs.
source "$(dirname "$0")/../common.bash"
HERE=$(dirname "$0")
PY=build/usd-venv/bin/python
"$PY" -c 'import PIL, numpy' 2>/dev/null || skip "Pillow or numpy missing in build/usd-venv (scripts/setup.sh installs them)"

for kind in vertex:little texcoord:ascii vertex:big texcoord:little; do
    where=${kind%%:*} fmt=${kind#*:}
    ply="$WORK/cyl_${where}_$fmt.ply"
    "$PY" "$HERE/bake_oracle.py" ply_with_uvs tests/cache/bend_cylinder_bind.obj data/bend_cylinder.glb "$ply" "$where" "$fmt" "$WORK/$where.json"
    expect 0 "tension CSV of the PLY ($where UVs, $fmt) with its cache" -- "$RIGSCOPE" tension "$ply" --cache tests/cache/bend_40_49.pc2 \
        -o "$WORK/ply.csv"
    expect 0 "bake the PLY ($where UVs, $fmt)" -- "$RIGSCOPE" bake "$ply" --cache tests/cache/bend_40_49.pc2 --frames 45 --map tension \
        --range 0,2 --size 80 --padding 1 -o "$WORK/ply_${where}_$fmt.png"
    expect 0 "PLY PNG ($where UVs, $fmt) matches the oracle (v up)" -- "$PY" "$HERE/bake_oracle.py" check "$WORK/$where.json" "$WORK/ply.csv" \
        t 45 "$WORK/ply_${where}_$fmt.png" 80 1 0 2
    cat "$WORK/out"
done
expect 0 "--uv texcoord names the corner UVs" -- "$RIGSCOPE" bake "$WORK/cyl_texcoord_ascii.ply" --frames bind --uv texcoord --size 8 -o "$WORK/named.png"

# A face whose texcoord list is not two numbers a corner: the file's geometry is read, its
# texcoord UVs are not (a warning naming the face), and bake refuses the mesh for want of UVs.
printf 'ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nproperty list uchar float texcoord\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2 4 0 0 1 0\n' >"$WORK/short.ply"
expect 0 "a texcoord list of the wrong length: the geometry is read" -- "$RIGSCOPE" info "$WORK/short.ply"
check "  ... with a warning naming the face" -- grep -q "face 0 has 3 corners but a texcoord list of 4 numbers" "$WORK/out"
expect 3 "  ... and bake refuses it for want of UVs" -- "$RIGSCOPE" bake "$WORK/short.ply" --frames bind --size 8 -o "$WORK/short.png"
check "  ... no image" -- test ! -e "$WORK/short.png"
# A UV that is not a finite number: refused naming the vertex.
printf 'ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nproperty float s\nproperty float t\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0 0 0\n1 0 0 1 nan\n0 1 0 0 1\n3 0 1 2\n' >"$WORK/nan.ply"
expect 3 "a NaN UV is refused" -- "$RIGSCOPE" bake "$WORK/nan.ply" --frames bind --size 8 -o "$WORK/nan.png"
check "  ... naming the vertex" -- one_line_naming "vertex 1: its UV is not a finite number"
finish
