#!/usr/bin/env bash
# tension --color t|maps: what COLOR_0 holds in the glTF outputs, checked against the file's own
# float attributes and, for --bake-max, against the CSV of every frame; and the Khronos validator.
source "$(dirname "$0")/../common.bash"
in=data/bend_cylinder.glb
PY=python3
READ="import sys; sys.path.insert(0, 'tests/cli'); from read_glb import attributes"

expect 0 "default colour" -- "$RIGSCOPE" -q tension "$in" --frames 91 -o "$WORK/default.glb"
expect 0 "--color maps" -- "$RIGSCOPE" -q tension "$in" --frames 91 --color maps -o "$WORK/maps.glb"
expect 0 "--color t" -- "$RIGSCOPE" -q tension "$in" --frames 91 --color t -o "$WORK/t.glb"
check "default is maps" -- cmp -s "$WORK/default.glb" "$WORK/maps.glb"

# maps: R = _COMPRESS, G = _STRETCH, B = 0, exactly (the same float32 values).
check "maps: R = compress, G = stretch, B = 0" -- $PY -c "
$READ
a = attributes('$WORK/maps.glb')['Cylinder']
assert len(a['COLOR_0']) == len(a['_TENSION']) == 625
for c, k, s in zip(a['COLOR_0'], a['_COMPRESS'], a['_STRETCH']):
    assert c == (k, s, 0.0), (c, k, s)
assert any(c[0] > 0.5 for c in a['COLOR_0']) and any(c[1] > 0.5 for c in a['COLOR_0'])
"

# t: x = clamp(log2 T, -1, 1); (1 + min(x, 0), 1 - |x|, 1 - max(x, 0)). Tolerance 1e-6: the
# colour is computed in double and stored as float32 (half an ulp near 1 is 6e-8), and T itself
# is the float32 the file holds.
check "t: the stated heat map of _TENSION" -- $PY -c "
$READ
import math
a = attributes('$WORK/t.glb')['Cylinder']
seen = {'blue': 0, 'red': 0}
for c, t in zip(a['COLOR_0'], a['_TENSION']):
    x = max(-1.0, min(1.0, math.log2(t)))
    want = (1 + min(x, 0), 1 - abs(x), 1 - max(x, 0))
    assert all(abs(g - w) <= 1e-6 for g, w in zip(c, want)), (t, c, want)
    if t < 0.8: seen['blue'] += c[2] == 1.0 and c[0] < 0.7
    if t > 1.8: seen['red'] += c[0] == 1.0 and c[2] < 0.2
assert seen['blue'] > 0 and seen['red'] > 0, seen
"
check "t: same geometry and float attributes as maps" -- $PY -c "
$READ
a = attributes('$WORK/t.glb')['Cylinder']; b = attributes('$WORK/maps.glb')['Cylinder']
for k in ('POSITION', '_TENSION', '_COMPRESS', '_STRETCH'):
    assert a[k] == b[k], k
"

# --bake-max: _TENSION is, per vertex, the T farthest from 1 (|log T|) over the frames, and the
# t colour is that T's; the oracle is the CSV of every frame (its numbers round-trip float32).
expect 0 "bake max, --color t" -- "$RIGSCOPE" -q tension "$in" --bake-max --color t -o "$WORK/bake_t.glb"
expect 0 "CSV of every frame" -- "$RIGSCOPE" -q tension "$in" -o "$WORK/all.csv"
check "bake max: _TENSION is the T farthest from 1, COLOR_0 its heat colour" -- $PY -c "
$READ
import csv, math, struct
f32 = lambda x: struct.unpack('<f', struct.pack('<f', float(x)))[0]
far = {}
for r in csv.DictReader(open('$WORK/all.csv')):
    v, t = int(r['vertex']), f32(r['t'])
    if v not in far or abs(math.log(t)) > abs(math.log(far[v])): far[v] = t
a = attributes('$WORK/bake_t.glb')['Cylinder']
assert len(far) == len(a['_TENSION'])
for v, (t, c) in enumerate(zip(a['_TENSION'], a['COLOR_0'])):
    assert t == far[v], (v, t, far[v])
    x = max(-1.0, min(1.0, math.log2(t)))
    assert abs(c[0] - (1 + min(x, 0))) <= 1e-6 and abs(c[2] - (1 - max(x, 0))) <= 1e-6, (v, t, c)
"

expect 2 "--color on CSV output is refused" -- "$RIGSCOPE" tension "$in" --color t -o "$WORK/x.csv"
check "says why" -- one_line_naming "--color sets glTF's COLOR_0"
check "no CSV written" -- test ! -e "$WORK/x.csv"
expect 2 "unknown --color" -- "$RIGSCOPE" tension "$in" --color heat -o "$WORK/x.glb"

if ! command -v node >/dev/null; then
    echo "FAIL: node is missing: the Khronos glTF validator cannot run (scripts/setup.sh installs it)"
    failures=$((failures + 1))
else
    expect 0 "validator passes the --color t files" -- bash scripts/validate_gltf.sh "$WORK/t.glb" "$WORK/bake_t.glb"
fi
finish
