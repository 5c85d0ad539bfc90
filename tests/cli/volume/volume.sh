#!/usr/bin/env bash
# rigscope volume (issue 59) on a made candy-wrapper rig (make_twist_cylinder.py: a capped
# cylinder skinned to two joints, its tip twisted 180 degrees), against volume_oracle.py (the
# same skinning and the divergence theorem, in numpy) and against the analytic shape:
# - the bind volume is the 32-gon prism's, 16 sin(pi/16) x 2;
# - under linear blend skinning the 180-degree twist scales each ring by |1 - 2w| (w the tip's
#   weight, linear in height over the middle half), so the mesh keeps exactly 2/3 of its volume;
#   with dual quaternions each ring only turns, and nearly all is kept;
# - split caps and a UV seam are closed once welded (and open with --weld off), an open mesh
#   has its regions and no '*' row; no faces and NaN positions are one-line errors.
source "$(dirname "$0")/../common.bash"
HERE=$(dirname "$0")
python3 -c 'import numpy' 2>/dev/null || skip "numpy is missing (scripts/setup.sh installs python3-numpy)"
MAKE="$HERE/make_twist_cylinder.py"
ORACLE="$HERE/volume_oracle.py"
python3 "$MAKE" "$WORK/twist.glb"

# field FILE FRAME REGION COLUMN: one value of a volume CSV.
field() { awk -F, -v f="$2" -v r="$3" -v c="$4" '$1 == f && $3 == r { print $c }' "$1"; }

# The numpy oracle, both skinnings, every third frame.
for m in linear dq; do
    expect 0 "volume --skinning $m" -- "$RIGSCOPE" -q volume "$WORK/twist.glb" --frames 0..24:3 --skinning $m -o "$WORK/$m.csv"
    check "the numpy oracle agrees ($m)" -- python3 "$ORACLE" "$WORK/twist.glb" "$WORK/$m.csv" $m 0..24:3
done
# The analytic shape.
bind=$(field "$WORK/linear.csv" 0 '*' 4)
check "bind volume is the 32-gon prism's ($bind)" -- python3 -c "import math,sys; sys.exit(abs($bind - 32*math.sin(math.pi/16)) > 1e-6)"
lbs=$(field "$WORK/linear.csv" 24 '*' 5)
check "linear blend keeps 2/3 at 180 degrees ($lbs)" -- python3 -c "import sys; sys.exit(abs($lbs - 2/3) > 1e-6)"
dq=$(field "$WORK/dq.csv" 24 '*' 5)
check "dual quaternions keep nearly all at 180 degrees ($dq)" -- python3 -c "import sys; sys.exit(not 0.97 < $dq <= 1.0)"
tip_lbs=$(field "$WORK/linear.csv" 24 Tip 5)
tip_dq=$(field "$WORK/dq.csv" 24 Tip 5)
check "the twisting region loses under linear blend, not with dq ($tip_lbs, $tip_dq)" -- python3 -c "import sys; sys.exit(not ($tip_lbs < 0.75 and $tip_dq > 0.97))"

# The same bits for any thread count, on a mesh of several triangle blocks per region.
python3 "$MAKE" "$WORK/dense.glb" --segments 512 --rings 80
expect 0 "dense, 1 thread" -- "$RIGSCOPE" -q volume "$WORK/dense.glb" --frames 0..24:8 --threads 1 -o "$WORK/t1.csv"
expect 0 "dense, 2 threads" -- "$RIGSCOPE" -q volume "$WORK/dense.glb" --frames 0..24:8 --threads 2 -o "$WORK/t2.csv"
expect 0 "dense, 3 threads" -- "$RIGSCOPE" -q volume "$WORK/dense.glb" --frames 0..24:8 --threads 3 -o "$WORK/t3.csv"
check "1, 2 and 3 threads write the same bytes" -- bash -c "cmp -s '$WORK/t1.csv' '$WORK/t2.csv' && cmp -s '$WORK/t1.csv' '$WORK/t3.csv'"
check "dense: the numpy oracle agrees" -- python3 "$ORACLE" "$WORK/dense.glb" "$WORK/t1.csv" linear 0..24:8

# A UV seam and split caps are closed once welded; --weld off leaves them open.
python3 "$MAKE" "$WORK/seam.glb" --seam
expect 0 "seamed cylinder" -- "$RIGSCOPE" -q volume "$WORK/seam.glb" --frames 0..24:12 -o "$WORK/seam.csv"
check "seamed cylinder: closed, the numpy oracle agrees" -- python3 "$ORACLE" "$WORK/seam.glb" "$WORK/seam.csv" linear 0..24:12
check "seamed cylinder has '*' rows" -- test "$(awk -F, '$3 == "*"' "$WORK/seam.csv" | wc -l)" -eq 3
expect 0 "seamed cylinder, --weld off" -- "$RIGSCOPE" volume "$WORK/seam.glb" --frames 0 --weld off -o "$WORK/seam_off.csv"
check "--weld off: open (no '*' row), a note on stderr" -- bash -c "! grep -q ',\*,' '$WORK/seam_off.csv' && grep -q 'is open after welding' '$WORK/err'"

# An open mesh: its regions and no '*' row, with a note in the output and on stderr.
python3 "$MAKE" "$WORK/open.glb" --open
expect 0 "open cylinder" -- "$RIGSCOPE" volume "$WORK/open.glb" --frames 0..24:12 -o "$WORK/open.csv"
check "open cylinder: the note names the 32 boundary edges" -- grep -q "mesh 'Cylinder' is open after welding (32 boundary edges): its joint regions only" "$WORK/err"
check "open cylinder: the numpy oracle agrees (regions only)" -- python3 "$ORACLE" "$WORK/open.glb" "$WORK/open.csv" linear 0..24:12
expect 0 "open cylinder, JSON" -- "$RIGSCOPE" -q volume "$WORK/open.glb" --frames 0..24:12 -o "$WORK/open.json"
check "open cylinder, JSON: closed false, bind_volume null, the note" -- python3 -c "
import json, sys
d = json.load(open('$WORK/open.json'))
m = d['meshes'][0]
sys.exit(not (m['closed'] is False and m['bind_volume'] is None and m['boundary_edges'] == 32 and len(d['notes']) == 1
              and all(v['region'] != '*' for f in d['frames'] for v in f['volumes'])))"

# JSON against docs/schema/volume.schema.json (and the schema refuses mutated documents).
expect 0 "closed cylinder, JSON" -- "$RIGSCOPE" -q volume "$WORK/twist.glb" --frames bind,0..24:6 --format json -o "$WORK/twist.json"
if python3 -c 'import jsonschema' 2>/dev/null; then
    check "JSON validates against volume.schema.json; a mutated one does not" -- python3 -c "
import json, pathlib, sys, jsonschema
d = pathlib.Path('docs/schema').resolve()
store = {f.as_uri(): json.loads(f.read_text()) for f in d.glob('*.schema.json')}
uri = (d / 'volume.schema.json').as_uri()
v = jsonschema.Draft202012Validator(store[uri], resolver=jsonschema.RefResolver(base_uri=uri, referrer=store[uri], store=store))
docs = [json.load(open(p)) for p in ('$WORK/twist.json', '$WORK/open.json')]
bad = json.loads(json.dumps(docs[0]))
bad['frames'][0]['volumes'][0]['ratio'] = 'one'
sys.exit(not (all(v.is_valid(x) for x in docs) and not v.is_valid(bad)))"
else
    skip_later "python3-jsonschema is missing"
fi
check "JSON rows are the CSV's" -- python3 -c "
import csv, json, sys
d = json.load(open('$WORK/twist.json'))
rows = [(str(f['frame']), v['region'], v['volume']) for f in d['frames'] for v in f['volumes'] if f['frame'] in (0, 6, 12, 18, 24)]
c = [(r[0], r[2], float(r[3])) for r in list(csv.reader(open('$WORK/linear.csv')))[1:] if int(r[0]) % 6 == 0]
sys.exit(rows != c)"

# --clip all: an output per clip, each what --clip NAME writes.
expect 0 "--clip all" -- "$RIGSCOPE" -q volume "$WORK/twist.glb" --clip all --frames 0..24:3 --skinning linear -o "$WORK/clip_{clip}.csv"
check "--clip all wrote Twist's rows as --clip Twist does" -- cmp -s "$WORK/clip_Twist.csv" "$WORK/linear.csv"

# Bad input: one line naming the file, exit 3, no output.
python3 "$MAKE" "$WORK/points.glb" --no-faces
expect 3 "a mesh without faces" -- "$RIGSCOPE" volume "$WORK/points.glb" -o "$WORK/points.csv"
check "no faces: one line naming the file" -- one_line_naming "points.glb: no selected mesh"
check "no faces: no output" -- test ! -e "$WORK/points.csv"
python3 "$MAKE" "$WORK/nan.glb" --nan
expect 3 "a NaN position" -- "$RIGSCOPE" volume "$WORK/nan.glb" -o "$WORK/nan.csv"
check "NaN: one line naming the file" -- one_line_naming "nan.glb"
check "NaN: no output" -- test ! -e "$WORK/nan.csv"
# Finite numbers whose skinning overflows a float (two rest scales of 1e30): the frame is named.
python3 "$HERE/overflow_glb.py" "$WORK/twist.glb" "$WORK/overflow.glb"
expect 3 "skinned positions past a float" -- "$RIGSCOPE" volume "$WORK/overflow.glb" --frames 3 -o "$WORK/overflow.csv"
check "overflow: one line naming the file, the mesh and the frame" -- one_line_naming "overflow.glb: mesh 'Cylinder' at frame 3: a deformed position is not finite"
check "overflow: no output" -- test ! -e "$WORK/overflow.csv"

# A batch: a folder of three, each file's -o by placeholder, what a single run writes; the file
# without faces fails alone (the batch's exit code is the worst file's).
mkdir -p "$WORK/batch"
cp "$WORK/twist.glb" "$WORK/open.glb" "$WORK/points.glb" "$WORK/batch/"
expect 0 "single run of open.glb" -- "$RIGSCOPE" -q volume "$WORK/open.glb" -o "$WORK/open_all.csv"
expect 0 "single run of twist.glb" -- "$RIGSCOPE" -q volume "$WORK/twist.glb" -o "$WORK/twist_all.csv"
expect 3 "batch over a folder" -- "$RIGSCOPE" volume "$WORK/batch" -o "$WORK/batch_out/{stem}.csv"
check "batch: each file's output is its single run's" -- bash -c "cmp -s '$WORK/batch_out/twist.csv' '$WORK/twist_all.csv' && cmp -s '$WORK/batch_out/open.csv' '$WORK/open_all.csv'"
check "batch: no output for the file without faces, its error said" -- bash -c "test ! -e '$WORK/batch_out/points.csv' && grep -q 'points.glb' '$WORK/err'"

# Usage: exit 2 before any work.
# Farm chunks: two halves of the frames, merged, are the single run's output (CSV and JSON).
for fmt in csv json; do
    expect 0 "single run ($fmt)" -- "$RIGSCOPE" -q volume "$WORK/twist.glb" --frames 0..24:2 -o "$WORK/whole.$fmt"
    for i in 0 1; do
        expect 0 "chunk $i/2 ($fmt)" -- "$RIGSCOPE" -q volume "$WORK/twist.glb" --frames 0..24:2 --chunk $i/2 -o "$WORK/part$i.$fmt"
    done
    expect 0 "merge ($fmt)" -- "$RIGSCOPE" -q merge "$WORK/merged.$fmt" "$WORK/part0.$fmt" "$WORK/part1.$fmt"
    check "merged chunks are the single run ($fmt)" -- cmp -s "$WORK/merged.$fmt" "$WORK/whole.$fmt"
done
check "a chunk holds its part of the frames" -- test "$(wc -l <"$WORK/part1.csv")" -lt "$(wc -l <"$WORK/whole.csv")"
expect 2 "--format xml" -- "$RIGSCOPE" volume "$WORK/twist.glb" --format xml -o "$WORK/x.xml"
cp "$WORK/twist.glb" "$WORK/keep.glb"
expect 2 "-o over the input" -- "$RIGSCOPE" volume "$WORK/twist.glb" --format csv -o "$WORK/twist.glb"
check "-o over the input: the input is untouched" -- cmp -s "$WORK/twist.glb" "$WORK/keep.glb"

finish
