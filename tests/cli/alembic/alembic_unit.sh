# --abc-unit (issue 58: Maya's centimetres): Alembic stores no unit and rigscope takes an archive's
# numbers as metres, as Blender writes them; Maya writes centimetres. cache_cm.abc is bend_cylinder's
# deformation (rigscope's skinning of the glb, as deform's CSV gives it) x 100 under an Xform
# translated by (10, -20, 30) cm, written by Alembic's own library (alembic_write.py). With
# --abc-unit cm every verb reads it as the glb's metres (points and the translation scaled), as
# the input, as --cache and as --reference; without it the sizes are 100x and --reference says so.
. "$(dirname "$0")/../common.bash"

PY=build/usd-venv/bin/python
HERE=tests/cli/alembic
"$PY" -c 'import alembic3d' 2>/dev/null || skip "alembic3d is not installed in build/usd-venv (scripts/setup.sh installs it)"
GLB=data/bend_cylinder.glb
python3 tests/cli/write_neutral.py "$GLB" "$WORK/n" >/dev/null || { echo "FAIL: write_neutral.py"; exit 1; }
expect 0 "deform of the glb" -- "$RIGSCOPE" -q deform "$GLB" --format csv -o "$WORK/d.csv"
expect 0 "tension of the glb" -- "$RIGSCOPE" -q tension "$GLB" --format csv -o "$WORK/t.csv"
"$PY" "$HERE/alembic_write.py" "$WORK/c" "$WORK/d.csv" "$WORK/n/ref.obj" >/dev/null || { echo "FAIL: alembic_write.py"; exit 1; }
CM=$WORK/c/cache_cm.abc

# The input file: positions (the float32 cm numbers scaled back) within 1e-5 m of the glb's.
expect 0 "deform cache_cm.abc --abc-unit cm" -- "$RIGSCOPE" -q deform "$CM" --abc-unit cm --format csv -o "$WORK/d_cm.csv"
check "--abc-unit cm: the points and the Xform's translation in metres, the glb's" -- python3 "$HERE/csv_close.py" "$WORK/d.csv" "$WORK/d_cm.csv" 1e-5
expect 0 "deform cache_cm.abc, no option" -- "$RIGSCOPE" -q deform "$CM" --format csv -o "$WORK/d_raw.csv"
check "without --abc-unit the numbers stay centimetres (the check above can fail)" -- bash -c "! python3 '$HERE/csv_close.py' '$WORK/d.csv' '$WORK/d_raw.csv' 1e-5 >/dev/null"
expect 0 "tension cache_cm.abc --abc-unit cm" -- "$RIGSCOPE" -q tension "$CM" --abc-unit cm --format csv -o "$WORK/t_cm.csv"
check "--abc-unit cm: T, compress and stretch within 1e-4 of the glb's" -- python3 "$HERE/csv_close.py" "$WORK/t.csv" "$WORK/t_cm.csv" 1e-4
expect 0 "info --abc-unit cm --json" -- "$RIGSCOPE" -q info "$CM" --abc-unit cm --json
check "info: the scale to metres is 0.01, and says where it came from" -- \
    /usr/bin/python3 -c "import json,sys; u=json.load(open(sys.argv[1]))['units']; sys.exit(not (u['scale_to_metres'] == 0.01 and '--abc-unit' in u['note']))" "$WORK/out"
expect 0 "info, no option" -- "$RIGSCOPE" -q info "$CM" --json
check "info: metres by default, naming --abc-unit cm for Maya" -- \
    /usr/bin/python3 -c "import json,sys; u=json.load(open(sys.argv[1]))['units']; sys.exit(not (u['scale_to_metres'] == 1 and '--abc-unit cm' in u['note']))" "$WORK/out"

# As --cache of the glb's OBJ (metres): the cache's samples scaled too.
expect 0 "tension ref.obj --cache cache_cm.abc --abc-unit cm" -- "$RIGSCOPE" -q tension "$WORK/n/ref.obj" --cache "$CM" --abc-unit cm --format csv -o "$WORK/tc.csv"
check "--cache in cm: the glb's T within 1e-4" -- python3 "$HERE/csv_close.py" "$WORK/t.csv" "$WORK/tc.csv" 1e-4

# --reference's unit check, with an archive on either side: the sizes disagree by 100 without
# the option (exit 5, naming the slip and --reference-scale), agree with it.
expect 5 "tension cache_cm.abc --reference ref.obj (metres), no option" -- "$RIGSCOPE" -q tension "$CM" --reference "$WORK/n/ref.obj" --format csv -o "$WORK/r.csv"
check "the unit check names the slip" -- one_line_naming "metres against centimetres? use --reference-scale 100"
check "nothing written" -- test ! -e "$WORK/r.csv"
expect 0 "tension cache_cm.abc --reference ref.obj --abc-unit cm" -- "$RIGSCOPE" -q tension "$CM" --reference "$WORK/n/ref.obj" --abc-unit cm --format csv -o "$WORK/r.csv"
expect 5 "tension glb --reference cache_cm.abc, no option" -- "$RIGSCOPE" -q tension "$GLB" --reference "$CM" --format csv -o "$WORK/r2.csv"
check "the unit check names the slip" -- one_line_naming "centimetres against metres? use --reference-scale 0.01"
expect 0 "tension glb --reference cache_cm.abc --abc-unit cm" -- "$RIGSCOPE" -q tension "$GLB" --reference "$CM" --abc-unit cm --format csv -o "$WORK/r2.csv"
# The same archive in metres (cache.abc) as the reference: its rest, the first sample.
expect 0 "tension glb --reference cache.abc" -- "$RIGSCOPE" -q tension "$GLB" --reference "$WORK/c/cache.abc" --format csv -o "$WORK/r3.csv"
check "--reference cache_cm.abc in cm: T as with the archive in metres, within 1e-4" -- python3 "$HERE/csv_close.py" "$WORK/r3.csv" "$WORK/r2.csv" 1e-4

# The other verbs take it too (check, report, diff, lint, info above).
expect 1 "check cache_cm.abc --abc-unit cm: the bend compresses past T < 0.9" -- "$RIGSCOPE" -q check "$CM" --abc-unit cm --max-stretch 0.9
expect 0 "report --abc-unit cm" -- "$RIGSCOPE" -q report "$CM" --abc-unit cm -o "$WORK/r.html"
expect 1 "lint --abc-unit cm" -- "$RIGSCOPE" -q lint "$CM" --abc-unit cm
check "lint ran on the archive" -- grep -q "cache_cm.abc: 0 errors" "$WORK/out"

expect 2 "--abc-unit km" -- "$RIGSCOPE" -q deform "$CM" --abc-unit km --format csv -o "$WORK/km.csv"
check "nothing written" -- test ! -e "$WORK/km.csv"

finish
