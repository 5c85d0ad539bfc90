# Alembic archives (issue 58): archives written by Alembic's own library (alembic3d, in setup's
# build/usd-venv) for each schema feature (tests/cli/alembic/alembic_write.py), read by rigscope and by
# alembic3d (tests/cli/alembic/alembic_oracle.py: world-space points by Alembic's transform code, counts,
# frame rate, the listed attributes). A second, independent check: bend_cylinder.glb's
# deformation by rigscope's skinning, written by alembic3d as a cache (Maya's layout: frames from
# 1/24 s, faces clockwise), gives the glb's tension byte for byte, as the input file and as
# --cache. Bad archives are refused with one line naming the file (and the object), exit 3, no
# output.
. "$(dirname "$0")/../common.bash"

PY=build/usd-venv/bin/python
"$PY" -c 'import alembic3d' 2>/dev/null || skip "alembic3d is not installed in build/usd-venv (scripts/setup.sh installs it)"
A=$WORK/a
"$PY" tests/cli/alembic/alembic_write.py "$A" >/dev/null || { echo "FAIL: alembic_write.py"; exit 1; }

# Each feature: info against Alembic's reading, then every P sample's world-space points.
# FPS: the rate the frames are numbered at (anim.abc's own 1/30 s float step; the others' times
# fall on frames of these rates).
for spec in "anim.abc 30" "subd.abc 40" "acyclic.abc 20" "houdini.abc 24" "static.abc 24"; do
    set -- $spec
    f=$1 fps=$2
    fps_opt=(--fps "$fps")
    [ "$f" = anim.abc ] && fps_opt=()  # its own sampling's rate, which info must report as 30
    expect 0 "$f: info --json" -- "$RIGSCOPE" -q info "$A/$f" --json
    cp "$WORK/out" "$WORK/info.json"
    check "$f: meshes, counts, frame rate and attributes as alembic3d reads them" -- "$PY" tests/cli/alembic/alembic_oracle.py info "$A/$f" "$WORK/info.json"
    expect 0 "$f: deform" -- "$RIGSCOPE" -q deform "$A/$f" "${fps_opt[@]}" --format csv -o "$WORK/d.csv"
    check "$f: every P sample's world-space points as alembic3d places them" -- "$PY" tests/cli/alembic/alembic_oracle.py positions "$A/$f" "$WORK/d.csv" "$fps"
done
# The info document of an archive with attributes against docs/schema/info.schema.json.
expect 0 "info of anim.abc -o info.json" -- "$RIGSCOPE" -q info "$A/anim.abc" -o "$WORK/anim_info.json"
printf 'info\t%s\n' "$WORK/anim_info.json" >"$WORK/manifest"
# (The checker also reports every schema's range cases no document of this one run exercised:
# only this document's own line is looked at.)
/usr/bin/python3 tests/cli/json_schema_check.py docs/schema "$WORK/manifest" >"$WORK/schema.out" 2>&1
check "the checker ran" -- grep -q "^json schemas: " "$WORK/schema.out"
check "info of an archive matches info.schema.json" -- bash -c "! grep -q 'anim_info.json' '$WORK/schema.out'"
expect 0 "info of anim.abc (text)" -- "$RIGSCOPE" -q info "$A/anim.abc"
check "names carry spaces and brackets" -- grep -q "mesh 'Body \[main\] shape'" "$WORK/out"
check "the frame rate is the P sampling's, rounded (1/30 s as a float)" -- grep -q "frame rate: 30.000 fps (the time sampling of /rig/Body \[main\] shape's P" "$WORK/out"
check "the arbGeomParams are listed" -- grep -q "arbGeomParam pressure (float32, vertex" "$WORK/out"
check "the indexed uv is listed" -- grep -q ": uv (float32 x2.*facevarying (per corner), 4 values, indexed by 36, 8 samples)" "$WORK/out"
check "visibility is listed, not applied" -- grep -q "visible (8 samples; rigscope evaluates hidden meshes too)" "$WORK/out"
expect 0 "info of houdini.abc" -- "$RIGSCOPE" -q info "$A/houdini.abc"
check "two meshes of one name are told apart by their paths" -- grep -q "mesh '/a/mesh'" "$WORK/out"
expect 0 "--mesh selects by the path" -- "$RIGSCOPE" -q deform "$A/houdini.abc" --mesh /b/mesh --format csv -o "$WORK/d.csv"
check "only /b/mesh in the output" -- test "$(tail -n +2 "$WORK/d.csv" | cut -d, -f3 | sort -u)" = /b/mesh

# The independent check: rigscope's skinning of the glb, stored by Alembic, read back.
GLB=data/bend_cylinder.glb
python3 tests/cli/write_neutral.py "$GLB" "$WORK/n" >/dev/null || { echo "FAIL: write_neutral.py"; exit 1; }
expect 0 "deform of the glb" -- "$RIGSCOPE" -q deform "$GLB" --format csv -o "$WORK/deform.csv"
"$PY" tests/cli/alembic/alembic_write.py "$WORK/c" "$WORK/deform.csv" "$WORK/n/ref.obj" >/dev/null || { echo "FAIL: alembic_write.py cache"; exit 1; }
expect 0 "tension of the skinned glb" -- "$RIGSCOPE" -q tension "$GLB" --format csv -o "$WORK/base.csv"
expect 0 "tension of the OBJ with --cache cache.abc" -- "$RIGSCOPE" -q tension "$WORK/n/ref.obj" --cache "$WORK/c/cache.abc" --format csv -o "$WORK/t.csv"
check "--cache cache.abc: the tension of the skinned glb, byte for byte" -- cmp -s "$WORK/base.csv" "$WORK/t.csv"
expect 0 "tension of cache.abc as the input" -- "$RIGSCOPE" -q tension "$WORK/c/cache.abc" --format csv -o "$WORK/t2.csv"
check "cache.abc as input: frames, times, T, compress and stretch of the glb's (mesh named CylinderShape)" -- \
    cmp -s <(sed 's/,Cylinder,/,CylinderShape,/' "$WORK/base.csv") "$WORK/t2.csv"
expect 0 "deform of cache.abc" -- "$RIGSCOPE" -q deform "$WORK/c/cache.abc" --format csv -o "$WORK/d2.csv"
check "deform gives the stored positions: the glb's deform" -- cmp -s <(sed 's/,Cylinder,/,CylinderShape,/' "$WORK/deform.csv") "$WORK/d2.csv"
expect 1 "check of cache.abc: the bend compresses past T < 0.9" -- "$RIGSCOPE" -q check "$WORK/c/cache.abc" --max-stretch 0.9
expect 0 "report of cache.abc" -- "$RIGSCOPE" -q report "$WORK/c/cache.abc" -o "$WORK/r.html"
check "the report names the mesh" -- grep -q "CylinderShape" "$WORK/r.html"
expect 0 "diff of the OBJ and cache.abc with --cache" -- "$RIGSCOPE" -q diff "$WORK/n/ref.obj" "$WORK/c/cache.abc" --cache "$WORK/c/cache.abc"
expect 1 "lint of cache.abc: as of any mesh without a skin (checks it could not run)" -- "$RIGSCOPE" -q lint "$WORK/c/cache.abc"
check "lint ran its mesh check on the archive" -- grep -q "cache.abc: 0 errors, 0 warnings, 0 info (checks: degenerate_face)" "$WORK/out"
expect 3 "--cache of an archive of several meshes" -- "$RIGSCOPE" -q tension "$WORK/n/ref.obj" --cache "$A/houdini.abc" --format csv -o "$WORK/o.csv"
check "several meshes: one line naming them" -- one_line_naming "houdini.abc: a point cache animates one mesh, and the archive holds 2 (/a/mesh, /b/mesh)"

# Bad archives: one line naming the file (and the object), exit 3, nothing written.
python3 tests/cli/alembic/alembic_corrupt.py "$A" "$WORK/bad" || { echo "FAIL: alembic_corrupt.py"; exit 1; }
while IFS='|' read -r file text; do
    rm -f "$WORK/o.csv"
    expect 3 "$file is refused" -- "$RIGSCOPE" -q tension "$file" --format csv -o "$WORK/o.csv"
    check "$file: one line naming it: $text" -- one_line_naming "$(basename "$file"): .*$text"
    check "$file: no output" -- test ! -e "$WORK/o.csv"
done <<EOF
$A/bad_topology.abc|PolyMesh /cloth's .faceIndices at sample 3 .* differ from sample 0: a topology that changes over time
$A/bad_count.abc|PolyMesh /cloth's P at sample 2 .* holds 10 points, not 9: a topology that changes
$A/no_faces.abc|PolyMesh /points_only has no faces
$A/empty.abc|the archive holds no PolyMesh or SubD
$WORK/bad/truncated.abc|past the end of the
$WORK/bad/root_past_end.abc|root group offset .* is past the end
$WORK/bad/cycle.abc|reached twice (a cycle of groups)
$WORK/bad/array_past_end.abc|PolyMesh /cloth's P at sample 1: a data block of 1099511627776 bytes .* runs past the end
$WORK/bad/zero_step.abc|time sampling 1 has a step of 0 s
$WORK/bad/negative_step.abc|time sampling 1 has a step of -0.0416666667 s
$WORK/bad/hdf5.abc|an HDF5 Alembic archive, which rigscope does not read: convert it to Ogawa with Alembic's abcconvert
$WORK/bad/not_frozen.abc|not closed by its writer
EOF

finish
