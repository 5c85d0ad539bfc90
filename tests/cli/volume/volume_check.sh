#!/usr/bin/env bash
# check --max-volume-loss (issue 59) on the candy-wrapper rig (make_twist_cylinder.py): under
# linear blend skinning the 180-degree twist keeps exactly 2/3 of the mesh's volume (each ring
# scaled by |1 - 2w|, volume.sh), so a limit just above a loss of 1/3 passes and one just below
# fails, naming the frame, the mesh and what lost it in its own JUnit case; with dual
# quaternions a 5% limit passes. The verdict is the job's: text, JUnit and JSON agree; farm
# chunks merged give the run's verdict.
source "$(dirname "$0")/../common.bash"
HERE=$(dirname "$0")
python3 -c 'import numpy' 2>/dev/null || skip "numpy is missing (scripts/setup.sh installs python3-numpy)"
python3 "$HERE/make_twist_cylinder.py" "$WORK/twist.glb"
G="$WORK/twist.glb"

expect 0 "linear, loss limit just above 1/3" -- "$RIGSCOPE" check "$G" --skinning linear --max-volume-loss 0.3334
check "passes: the text says how many were judged" -- grep -q "0 of 3 volumes (closed meshes and joint regions) over 25 frames fail" "$WORK/out"
expect 1 "linear, loss limit just below 1/3" -- "$RIGSCOPE" check "$G" --skinning linear --max-volume-loss 0.3332 \
    --junit "$WORK/v.xml" --json "$WORK/v.json"
check "fails: the whole mesh at frame 24" -- grep -q "mesh 'Cylinder' (whole mesh) at frame 24: ratio 0.66666" "$WORK/out"
check "fails: one of 3 volumes" -- grep -q "1 of 3 volumes" "$WORK/out"
check "JUnit: a case named for the volume, failed, naming frame and mesh" -- python3 -c "
import sys, xml.etree.ElementTree as ET
cases = [c for c in ET.parse('$WORK/v.xml').iter('testcase') if 'volume' in c.get('name')]
f = cases[0].find('failure') if len(cases) == 1 else None
sys.exit(not (f is not None and 'frame 24' in f.get('message') and \"mesh 'Cylinder'\" in f.get('message')))"
check "JSON: the same failure" -- python3 -c "
import json, sys
v = json.load(open('$WORK/v.json'))['volume']
sys.exit(not (v['passed'] is False and v['judged'] == 3 and [(f['region'], f['frame']) for f in v['failures']] == [('*', 24)]))"
expect 1 "linear, 0.2: the twisting joint's region fails too" -- "$RIGSCOPE" check "$G" --skinning linear --max-volume-loss 0.2 --junit "$WORK/j.xml"
check "the joint region is named in the JUnit failure" -- grep -q "joint 'Tip' at frame 24" "$WORK/j.xml"
if xmllint --version >/dev/null 2>&1; then
    check "the JUnit validates (Jenkins xunit schema)" -- xmllint --noout --schema tests/schemas/junit-10.xsd "$WORK/j.xml"
else
    skip_later "xmllint is missing"
fi
expect 0 "dual quaternions keep 95%" -- "$RIGSCOPE" check "$G" --skinning dq --max-volume-loss 0.05
# With a T limit too: both judged, either fails the run.
expect 1 "dq, volume passes and T fails" -- "$RIGSCOPE" check "$G" --skinning dq --max-volume-loss 0.05 --max-stretch 0.5
check "both verdicts in the text" -- bash -c "grep -q 'stretch limit T < 0.5' '$WORK/out' && grep -q '0 of 3 volumes' '$WORK/out'"
if python3 -c 'import jsonschema' 2>/dev/null; then
    check "check --json with volume validates against check.schema.json" -- python3 -c "
import json, pathlib, sys, jsonschema
d = pathlib.Path('docs/schema').resolve()
store = {f.as_uri(): json.loads(f.read_text()) for f in d.glob('*.schema.json')}
uri = (d / 'check.schema.json').as_uri()
v = jsonschema.Draft202012Validator(store[uri], resolver=jsonschema.RefResolver(base_uri=uri, referrer=store[uri], store=store))
doc = json.load(open('$WORK/v.json'))
bad = json.loads(json.dumps(doc)); bad['volume']['judged'] = -1
sys.exit(not (v.is_valid(doc) and not v.is_valid(bad)))"
else
    skip_later "python3-jsonschema is missing"
fi
# Farm chunks: each chunk records its frames' ratios, and merge judges them all as one run does
# (the same exit code, text and JUnit report but for timing), failing or passing, with T limits
# or without. The worst loss is at the last frame (the full twist), in the second chunk.
for limits in "0.3332" "0.3334" "0.2 --max-stretch 0.5"; do
    set -- --max-volume-loss $limits
    "$RIGSCOPE" -q check "$G" --skinning linear "$@" --junit "$WORK/one.xml" >"$WORK/one.txt"
    want=$?
    for i in 0 1; do
        expect 0 "--max-volume-loss $limits --chunk $i/2" -- "$RIGSCOPE" -q check "$G" --skinning linear "$@" --chunk $i/2 --junit "$WORK/c_$i.xml"
    done
    expect $want "merge of the chunks ($limits): the run's exit code" -- "$RIGSCOPE" merge "$WORK/merged.xml" "$WORK/c_0.xml" "$WORK/c_1.xml"
    check "merge ($limits): the run's text" -- cmp -s "$WORK/out" "$WORK/one.txt"
    for f in one merged; do sed -E 's/ time="[0-9.]+" timestamp="[0-9T:-]+"//' "$WORK/$f.xml" >"$WORK/$f.norm.xml"; done
    check "merge ($limits): the run's JUnit but for timing" -- cmp -s "$WORK/one.norm.xml" "$WORK/merged.norm.xml"
done
check "the failing limit's merged report names the last frame" -- grep -q "at frame 24" "$WORK/one.txt"
expect 5 "merge of chunks with and without --max-volume-loss: chunks of different runs" -- bash -c \
    "'$RIGSCOPE' -q check '$G' --max-stretch 0.5 --chunk 1/2 --junit '$WORK/d_1.xml'; '$RIGSCOPE' merge '$WORK/m2.xml' '$WORK/c_0.xml' '$WORK/d_1.xml'"

# Usage: exit 2 before any work.
expect 2 "--max-volume-loss 0" -- "$RIGSCOPE" check "$G" --max-volume-loss 0

finish
