# The second oracle of issue 58 ("Oracles, checked twice"): Blender 4.5's own Alembic exporter
# (wm.alembic_export, bpy in build/bpy-venv) bakes bend_cylinder.glb's animation, imported by its
# glTF importer and deformed by its armature; rigscope reads that archive (Blender's layout: an
# Xform per object, faces rewritten at every sample in clockwise winding, facevarying N, Pref on
# the default sampling, a bone-shape Icosphere beside the mesh) and gets rigscope's own reading of
# the glb: the points at every frame within 1e-5 m (Blender skins in float as rigscope does, in
# another order) and T, compress and stretch within 1e-4. Skinning, reading and frames share no
# code between the two sides.
. "$(dirname "$0")/../common.bash"

BPY=build/bpy-venv/bin/python
"$BPY" -c 'import bpy' 2>/dev/null || skip "bpy is not installed in build/bpy-venv (scripts/setup.sh installs it)"
HERE=tests/cli/alembic
GLB=data/bend_cylinder.glb

expect 0 "Blender exports the glb's animation as Alembic" -- "$BPY" "$HERE/abc_blender_export.py" -- "$GLB" "$WORK/blender.abc" 24 1 91
expect 0 "deform of the glb" -- "$RIGSCOPE" -q deform "$GLB" --format csv -o "$WORK/g.csv"
expect 0 "deform of Blender's archive" -- "$RIGSCOPE" -q deform "$WORK/blender.abc" --mesh Cylinder --format csv -o "$WORK/b.csv"
check "Blender's archive read by rigscope: the glb's points at every frame, within 1e-5" -- python3 "$HERE/csv_close.py" "$WORK/g.csv" "$WORK/b.csv" 1e-5
cat "$WORK/out"
expect 0 "tension of the glb" -- "$RIGSCOPE" -q tension "$GLB" --format csv -o "$WORK/gt.csv"
expect 0 "tension of Blender's archive" -- "$RIGSCOPE" -q tension "$WORK/blender.abc" --mesh Cylinder --format csv -o "$WORK/bt.csv"
check "Blender's archive: the glb's T, compress and stretch, within 1e-4" -- python3 "$HERE/csv_close.py" "$WORK/gt.csv" "$WORK/bt.csv" 1e-4
expect 0 "info of Blender's archive" -- "$RIGSCOPE" -q info "$WORK/blender.abc"
check "the frame rate is the P sampling's" -- grep -q "frame rate: 24.000 fps (the time sampling of /Armature/Cylinder/Cylinder's P" "$WORK/out"
check "Blender's facevarying N and its Pref are listed" -- bash -c "grep -q 'Cylinder: N (float32 x3 normal, facevarying' '$WORK/out' && grep -q 'arbGeomParam Pref' '$WORK/out'"

finish
