# Alembic output (issue 58 item 3): `deform IN -o out.abc` and `tension IN -o out.abc` write an
# Ogawa archive, read back by two programs that share no code with rigscope's writer:
# - Alembic's own library (alembic3d, build/usd-venv; abc_written_check.py): every P sample at
#   frame / fps equals rigscope's `deform --format csv` (float32, exactly), the faces (reversed
#   from Alembic's clockwise winding) are the glb's as write_neutral.py reads them, the uv per
#   corner is the glb's TEXCOORD_0 read by the script (v flipped, as Blender shows it), and tension,
#   compress, stretch and Cd (C3f, vertex scope, mayaColorSet=1) equal the tension CSV's columns;
# - Blender 4.5's importer (bpy, build/bpy-venv; abc_blender_check.py): the vertices at every
#   frame (in Blender's Z-up), the UV map and the colour attribute it makes of Cd;
# - N (the glb's NORMAL carried per frame): alembic3d + numpy (abc_normals_check.py), Blender's Alembic
#   import and Blender's own glTF import played by its armature (abc_blender_normals.py);
# and by rigscope's own reader (the round trip gives the CSVs byte for byte). Refusals: stdout,
# the input as the output, --vertices; a failed write leaves no file.
. "$(dirname "$0")/../common.bash"

PY=build/usd-venv/bin/python
BPY=build/bpy-venv/bin/python
HERE=tests/cli/alembic
"$PY" -c 'import alembic3d' 2>/dev/null || skip "alembic3d is not installed in build/usd-venv (scripts/setup.sh installs it)"
GLB=data/bend_cylinder.glb
# Blender keeps a custom normal's tilt from the fan's normal as a fraction of the fan's mean edge
# angle, rigscope turns it with a frame (docs/alembic_notes.md, "N"): measured 3.11 degrees at most
# (frame 91, the bend's sharpest; mean 0.03) on this glb.
NORMAL_DEGREES=4
python3 tests/cli/write_neutral.py "$GLB" "$WORK/n" >/dev/null || { echo "FAIL: write_neutral.py"; exit 1; }

expect 0 "deform -o d.abc" -- "$RIGSCOPE" -q deform "$GLB" -o "$WORK/d.abc"
expect 0 "deform --format csv" -- "$RIGSCOPE" -q deform "$GLB" --format csv -o "$WORK/d.csv"
expect 0 "tension -o t.abc" -- "$RIGSCOPE" -q tension "$GLB" -o "$WORK/t.abc"
expect 0 "tension --format csv" -- "$RIGSCOPE" -q tension "$GLB" --format csv -o "$WORK/t.csv"
expect 0 "alembic3d reads d.abc" -- "$PY" "$HERE/abc_written_check.py" "$WORK/d.abc" 24 "$WORK/d.csv" "$WORK/n/ref.obj" --uv="$GLB"
check "alembic3d: d.abc's points at every frame, faces, the glb's UVs, no maps" -- test ! -s "$WORK/out"
cat "$WORK/out"
expect 0 "alembic3d reads t.abc" -- "$PY" "$HERE/abc_written_check.py" "$WORK/t.abc" 24 "$WORK/d.csv" "$WORK/n/ref.obj" "$WORK/t.csv" --uv="$GLB"
check "alembic3d: t.abc's points, faces, tension, compress, stretch and Cd at every frame" -- test ! -s "$WORK/out"
cat "$WORK/out"

# N: the glb's NORMAL carried through the deformation (docs/alembic_notes.md, "N"), read by
# alembic3d and recomputed by numpy from the written P and faces; the bind pose alone gives the
# glb's NORMAL itself.
expect 0 "deform --frames bind -o b.abc" -- "$RIGSCOPE" -q deform "$GLB" --frames bind -o "$WORK/b.abc"
expect 0 "alembic3d: b.abc's N" -- "$PY" "$HERE/abc_normals_check.py" "$WORK/b.abc" "$GLB" --rest
check "alembic3d: N of the bind pose is the glb's NORMAL" -- test ! -s "$WORK/out"
cat "$WORK/out"
expect 0 "alembic3d: d.abc's N" -- "$PY" "$HERE/abc_normals_check.py" "$WORK/d.abc" "$GLB" --dump="$WORK/n.npz"
check "alembic3d: N at every frame, the glb's NORMAL carried as numpy carries it" -- test ! -s "$WORK/out"
cat "$WORK/out"
expect 0 "alembic3d: t.abc's N" -- "$PY" "$HERE/abc_normals_check.py" "$WORK/t.abc" "$GLB"
check "alembic3d: tension's archive carries the same N" -- test ! -s "$WORK/out"

# rigscope's own reader: the archives give back the glb's CSVs.
expect 0 "deform of t.abc" -- "$RIGSCOPE" -q deform "$WORK/t.abc" --format csv -o "$WORK/d2.csv"
check "round trip: deform of the archive is the glb's deform, byte for byte" -- cmp -s "$WORK/d.csv" "$WORK/d2.csv"
expect 0 "tension of d.abc" -- "$RIGSCOPE" -q tension "$WORK/d.abc" --format csv -o "$WORK/t2.csv"
check "round trip: tension of the archive is the glb's tension, byte for byte" -- cmp -s "$WORK/t.csv" "$WORK/t2.csv"
expect 0 "info of t.abc" -- "$RIGSCOPE" -q info "$WORK/t.abc"
check "the frame rate is the run's, from P's uniform sampling" -- grep -q "frame rate: 24.000 fps (the time sampling of /Cylinder's P (uniform, 0.0416666667 s a sample from 0.0416666667 s))" "$WORK/out"
check "the maps are listed" -- grep -q "arbGeomParam Cd (float32 x3 rgb, vertex, 625 values, 91 samples)" "$WORK/out"

# Every 5th frame: the times stay frame / fps (a list: a 5/24 s step would read as 4.8 fps).
expect 0 "deform --frames 1..91:5 -o" -- "$RIGSCOPE" -q deform "$GLB" --frames 1..91:5 -o "$WORK/s.abc"
expect 0 "deform --frames 1..91:5 csv" -- "$RIGSCOPE" -q deform "$GLB" --frames 1..91:5 --format csv -o "$WORK/s.csv"
expect 0 "alembic3d reads s.abc" -- "$PY" "$HERE/abc_written_check.py" "$WORK/s.abc" 24 "$WORK/s.csv" "$WORK/n/ref.obj" --uv="$GLB"
check "alembic3d: every 5th frame at its time" -- test ! -s "$WORK/out"
expect 0 "deform of s.abc --fps 24 at its frames" -- "$RIGSCOPE" -q deform "$WORK/s.abc" --fps 24 --frames 1..91:5 --format csv -o "$WORK/s2.csv"
check "round trip of every 5th frame" -- cmp -s "$WORK/s.csv" "$WORK/s2.csv"

# Repeated samples (a held pose, a cycle): a PC2 whose samples are frames 1 1 40 40 40 91 1 91 of
# the glb's deformation, on its OBJ. Stored once per change, as Alembic does; every sample reads back.
python3 "$HERE/repeat_pc2.py" "$WORK/d.csv" "$WORK/rep.pc2" 1,1,40,40,40,91,1,91 || { echo "FAIL: repeat_pc2.py"; exit 1; }
expect 0 "deform of a cache with repeats -o" -- "$RIGSCOPE" -q deform "$WORK/n/ref.obj" --cache "$WORK/rep.pc2" -o "$WORK/rep.abc"
expect 0 "deform of a cache with repeats csv" -- "$RIGSCOPE" -q deform "$WORK/n/ref.obj" --cache "$WORK/rep.pc2" --format csv -o "$WORK/rep.csv"
expect 0 "alembic3d reads rep.abc" -- "$PY" "$HERE/abc_written_check.py" "$WORK/rep.abc" 24 "$WORK/rep.csv" "$WORK/n/ref.obj"
check "alembic3d: every repeated sample at its frame" -- test ! -s "$WORK/out"
cat "$WORK/out"
expect 0 "deform of rep.abc" -- "$RIGSCOPE" -q deform "$WORK/rep.abc" --format csv -o "$WORK/rep2.csv"
check "round trip of the repeated samples" -- cmp -s "$WORK/rep.csv" "$WORK/rep2.csv"
expect 0 "alembic3d: rep.abc has no N" -- "$PY" "$HERE/abc_normals_check.py" "$WORK/rep.abc" --none
check "an input without normals (an OBJ) gives no N" -- test ! -s "$WORK/out"
check "a repeated sample is stored once: smaller than distinct ones" -- \
    test "$(stat -c %s "$WORK/rep.abc")" -lt "$(( $(stat -c %s "$WORK/d.abc") * 6 / 91 ))"

# A Z-up file (3ds Max's FBX): Alembic is Y-up, as Blender's exporter writes.
FBX=$CORPUS/ufbx_dcc/max_transformed_skin_6100_binary.fbx
if [ -f "$FBX" ]; then
    expect 0 "deform of a Z-up FBX -o" -- "$RIGSCOPE" -q deform "$FBX" -o "$WORK/z.abc"
    expect 0 "deform --axes y-up csv" -- "$RIGSCOPE" -q deform "$FBX" --axes y-up --format csv -o "$WORK/z.csv"
    expect 0 "alembic3d reads z.abc" -- "$PY" "$HERE/abc_written_check.py" "$WORK/z.abc" 30 "$WORK/z.csv" - --uv=any
    check "alembic3d: a Z-up file's points turned onto Y-up" -- test ! -s "$WORK/out"
else
    skip_later "the corpus's $FBX is missing"
fi

# Two meshes of one name (Houdini's /a/mesh and /b/mesh, read as those paths): each an object.
"$PY" tests/cli/alembic/alembic_write.py "$WORK/a" >/dev/null || { echo "FAIL: alembic_write.py"; exit 1; }
expect 0 "deform houdini.abc -o" -- "$RIGSCOPE" -q deform "$WORK/a/houdini.abc" --fps 24 -o "$WORK/h.abc"
expect 0 "deform houdini.abc csv" -- "$RIGSCOPE" -q deform "$WORK/a/houdini.abc" --fps 24 --format csv -o "$WORK/h.csv"
expect 0 "alembic3d reads h.abc" -- "$PY" "$HERE/abc_written_check.py" "$WORK/h.abc" 24 "$WORK/h.csv" -
check "alembic3d: two meshes, named _a_mesh and _b_mesh" -- test ! -s "$WORK/out"

# Blender 4.5's importer, the second oracle.
if "$BPY" -c 'import bpy' 2>/dev/null; then
    expect 0 "Blender imports d.abc" -- "$BPY" "$HERE/abc_blender_check.py" -- "$WORK/d.abc" 24 "$WORK/d.csv" --uv="$GLB"
    check "Blender: d.abc's vertices at every frame and its UV map" -- bash -c "! grep -v '^Alembic import' '$WORK/out' | grep -q ."
    grep -v '^Alembic import' "$WORK/out"
    expect 0 "Blender imports t.abc" -- "$BPY" "$HERE/abc_blender_check.py" -- "$WORK/t.abc" 24 "$WORK/d.csv" "$WORK/t.csv"
    check "Blender: t.abc's vertices and colour attribute Cd at every frame" -- bash -c "! grep -v '^Alembic import' '$WORK/out' | grep -q ."
    grep -v '^Alembic import' "$WORK/out"
    # N as Blender reads it (custom normals), and against Blender itself: its glTF import of the
    # glb, deformed by its armature, carries its custom normals within NORMAL_DEGREES of N.
    expect 0 "Blender: d.abc's N and the glb's own carried normals" -- "$BPY" "$HERE/abc_blender_normals.py" -- "$WORK/d.abc" 24 "$WORK/n.npz" "$GLB" "$NORMAL_DEGREES"
    check "Blender: N read as custom normals, and within $NORMAL_DEGREES degrees of Blender's own" -- grep -q "^largest difference" "$WORK/out"
    cat "$WORK/out"
else
    skip_later "bpy is not installed in build/bpy-venv (scripts/setup.sh installs it)"
fi

# Refusals: usage errors before any work, nothing written.
expect 2 "deform --format abc to stdout" -- "$RIGSCOPE" -q deform "$GLB" --format abc -o -
check "stdout: one line saying why" -- one_line_naming "give -o FILE.abc (an archive's header is finished last"
expect 2 "tension --format abc without -o" -- "$RIGSCOPE" -q tension "$GLB" --format abc
expect 2 "tension --vertices -o out.abc" -- "$RIGSCOPE" -q tension "$GLB" --vertices 0 -o "$WORK/v.abc"
check "--vertices: nothing written" -- test ! -e "$WORK/v.abc"
expect 2 "--chunk with an archive" -- "$RIGSCOPE" -q tension "$GLB" --chunk 0/2 -o "$WORK/ch.abc"
check "--chunk: one line saying why, nothing written" -- bash -c "grep -q 'merge joins CSV and JSON chunks, not archives' '$WORK/err' && test ! -e '$WORK/ch.abc'"
cp "$WORK/d.abc" "$WORK/in.abc"
expect 2 "an archive written over its input" -- "$RIGSCOPE" -q tension "$WORK/in.abc" -o "$WORK/in.abc"
check "the input is untouched" -- cmp -s "$WORK/d.abc" "$WORK/in.abc"
mkdir "$WORK/ro" && chmod 555 "$WORK/ro"
if [ "$(id -u)" -ne 0 ]; then
    expect 4 "an unwritable folder" -- "$RIGSCOPE" -q tension "$GLB" -o "$WORK/ro/t.abc"
    check "no partial archive" -- test ! -e "$WORK/ro/t.abc"
fi
expect 4 "--max-output smaller than one sample" -- "$RIGSCOPE" -q tension "$GLB" --max-output 0.001 -o "$WORK/big.abc"
check "--max-output: nothing written" -- test ! -e "$WORK/big.abc"

finish
