#!/usr/bin/env bash
# The tension command as a user runs it: every format, the options, check's exit codes.
. "$(dirname "$0")/../common.bash"
PY=/usr/bin/python3
in=data/bend_cylinder.glb

expect 0 "csv to stdout" -- "$RIGSCOPE" tension "$in" --frames 61
check "csv header" -- test "$(head -1 "$WORK/out")" = "frame,time,mesh,vertex,t,compress,stretch"
check "csv rows: one per file vertex" -- test "$(($(wc -l < "$WORK/out") - 1))" -eq 625

expect 0 "csv selected vertices" -- "$RIGSCOPE" tension "$in" --vertices 0,272 -o "$WORK/sel.csv"
check "selected rows: 2 per frame x 91" -- test "$(($(wc -l < "$WORK/sel.csv") - 1))" -eq 182

expect 0 "json summary" -- "$RIGSCOPE" tension "$in" --format json -o "$WORK/s.json"
check "json: 91 frames, min below 1, max above 1" -- $PY -c "
import json,sys; j=json.load(open('$WORK/s.json'))
f=j['frames']; assert len(f)==91, len(f)
m=f[60]['meshes'][0]; assert m['min_t']<1<m['max_t'], m
assert j['vertices']==[] and j['range']['t_s']==0.75
"
expect 0 "json series" -- "$RIGSCOPE" tension "$in" --format json --vertices 272 -o "$WORK/v.json"
check "json series has 91 values" -- $PY -c "
import json; j=json.load(open('$WORK/v.json')); v=j['vertices'][0]
assert v['vertex']==272 and len(v['t'])==91 and len(v['stretch'])==91
assert min(v['t']) == j['summary'][0]['min_t']
"

expect 0 "auto range" -- "$RIGSCOPE" tension "$in" --format json --auto-range -o "$WORK/a.json"
check "auto range: t_s is the lowest T of all frames, t_c the highest" -- $PY -c "
import json; j=json.load(open('$WORK/a.json')); r=j['range']
s=j['summary'][0]; assert abs(r['t_s']-s['min_t'])<1e-6 and abs(r['t_c']-s['max_t'])<1e-6, (r,s)
assert r['auto']['percentile']==100
"
expect 0 "auto range CSV" -- "$RIGSCOPE" tension "$in" --auto-range -o "$WORK/a.csv"
check "auto range: both maps reach 1 (at the extreme vertices) and never pass it" -- $PY -c "
import csv; rows=list(csv.DictReader(open('$WORK/a.csv')))
s=max(float(r['stretch']) for r in rows); c=max(float(r['compress']) for r in rows)
assert s==1.0 and c==1.0, (s,c)
"
expect 0 "auto range percentile" -- "$RIGSCOPE" tension "$in" --format json --auto-range 90 -o "$WORK/p.json"
check "percentile range is inside the extremes" -- $PY -c "
import json; a=json.load(open('$WORK/a.json'))['range']; p=json.load(open('$WORK/p.json'))['range']
assert a['t_s'] < p['t_s'] < 1 < p['t_c'] < a['t_c'], (a,p)
"

expect 0 "parameters change the maps" -- "$RIGSCOPE" tension "$in" --frames 61 --vertices 272 --stretch-area 0.9 --smooth-k 0 -o "$WORK/k.csv"
check "--stretch-area 0.9 --smooth-k 0: vertex 272's T below 0.9 gives full stretch (1)" -- $PY -c "
import csv; r=list(csv.DictReader(open('$WORK/k.csv')))[0]
assert float(r['t']) < 0.9 and float(r['stretch']) == 1.0, r
"

expect 0 "gltf one file per frame" -- "$RIGSCOPE" tension "$in" --frames 1..91:45 -o "$WORK/f_####.glb"
check "three files" -- test -s "$WORK/f_0001.glb" -a -s "$WORK/f_0046.glb" -a -s "$WORK/f_0091.glb"
expect 0 "bake max" -- "$RIGSCOPE" tension "$in" --bake-max -o "$WORK/bake.glb"
if command -v node >/dev/null; then
    expect 0 "validator passes the tension files" -- bash scripts/validate_gltf.sh "$WORK/f_0001.glb" "$WORK/f_0091.glb" "$WORK/bake.glb"
else
    skip_later "glTF validator: node is not installed (scripts/packages-node.txt)"
fi

# check: exit 1 past a limit, 0 within; JUnit XML.
expect 1 "check fails past the stretch limit" -- "$RIGSCOPE" check "$in" --max-stretch 0.8 --junit "$WORK/j.xml"
check "check lists vertex 272" -- grep -q "vertex 272" "$WORK/out"
check "junit has a failure" -- grep -q "<failure" "$WORK/j.xml"
expect 0 "check passes within limits" -- "$RIGSCOPE" check "$in" --max-stretch 0.7 --max-compress 2.5 --junit "$WORK/ok.xml"
check "junit without failure" -- bash -c "! grep -q '<failure' '$WORK/ok.xml'"
expect 2 "check without limits" -- "$RIGSCOPE" check "$in"

# Reference from a frame, and from another file with the same vertex count.
expect 0 "reference frame" -- "$RIGSCOPE" tension "$in" --reference-frame 1 --frames 1 --vertices 272
check "T is 1 at the reference frame" -- $PY -c "
import csv,sys; r=list(csv.DictReader(open('$WORK/out')))[0]; assert float(r['t'])==1.0, r"
expect 0 "reference file" -- "$RIGSCOPE" tension "$in" --reference "$in" --frames 61 --vertices 272 -o "$WORK/ref.csv"
"$RIGSCOPE" tension "$in" --frames 61 --vertices 272 -o "$WORK/noref.csv"
check "reference = own file gives the same T as the bind pose" -- cmp -s "$WORK/ref.csv" "$WORK/noref.csv"

# A dot in a folder name is not the output's extension: no extension means CSV.
mkdir -p "$WORK/v1.2"
expect 0 "dotted folder, no extension" -- "$RIGSCOPE" tension "$in" --frames 61 -o "$WORK/v1.2/out"
check "dotted folder: CSV written" -- grep -q "^frame," "$WORK/v1.2/out"

# --threads N: the same bytes for any thread count (the per-frame loop's promise, on the CLI).
# cesium_man's 3273 vertices split into several blocks only with a small block, so bend_cylinder
# and cesium_man are both run, in every format that carries numbers.
cesium="$CORPUS/khronos/cesium_man.gltf"
for args in "$in --vertices 0..624" "$in --format json --vertices 0,272,600" "$in --auto-range" "$cesium --frames 1..30" \
            "$cesium --format json --vertices 0..40"; do
    "$RIGSCOPE" -q tension $args --threads 1 -o "$WORK/th1" || echo "  tension $args --threads 1 failed"
    for n in 2 3 8; do
        expect 0 "tension $args --threads $n" -- "$RIGSCOPE" -q tension $args --threads "$n" -o "$WORK/th$n"
        check "tension $args: --threads $n gives --threads 1's bytes" -- cmp -s "$WORK/th1" "$WORK/th$n"
    done
done
# A frame's CSV rows are formatted in blocks of 16384 on the run's threads (issue 44): the bench
# tube (2 x 262144 rows a frame, 32 blocks) gives --threads 1's bytes, every row once and in order.
TUBE=${RIGSCOPE_BENCH_DIR:-$(pwd)/../shared/bench}/tube_262k.glb
"$RIGSCOPE" -q tension "$TUBE" --frames 1,12 --threads 1 -o "$WORK/tube1.csv"
expect 0 "tension of the bench tube as CSV, --threads 2" -- "$RIGSCOPE" -q tension "$TUBE" --frames 1,12 --threads 2 -o "$WORK/tube2.csv"
check "bench tube CSV: --threads 2 gives --threads 1's bytes" -- cmp -s "$WORK/tube1.csv" "$WORK/tube2.csv"
check "bench tube CSV: each frame and mesh has its vertices 0..262143 in order" -- python3 - "$WORK/tube2.csv" <<'PY'
import csv, sys
groups = {}
for r in csv.DictReader(open(sys.argv[1])):
    groups.setdefault((r["frame"], r["mesh"]), []).append(int(r["vertex"]))
assert len(groups) == 4 and all(v == list(range(262144)) for v in groups.values()), {k: len(v) for k, v in groups.items()}
PY
# deform's CSV rows go the same way (row_blocks.h), on every core: the rows in order, each once.
expect 0 "deform of the bench tube as CSV" -- "$RIGSCOPE" -q deform "$TUBE" --frames 12 -o "$WORK/tube_deform.csv"
check "bench tube deform CSV: each mesh has its vertices 0..262143 in order" -- python3 - "$WORK/tube_deform.csv" <<'PY'
import csv, sys
groups = {}
for r in csv.DictReader(open(sys.argv[1])):
    groups.setdefault(r["mesh"], []).append(int(r["vertex"]))
assert len(groups) == 2 and all(v == list(range(262144)) for v in groups.values()), {k: len(v) for k, v in groups.items()}
PY
"$RIGSCOPE" -q tension "$TUBE" --frames 12 --vertices 100..40099 --threads 1 -o "$WORK/tubev1.csv"
"$RIGSCOPE" -q tension "$TUBE" --frames 12 --vertices 100..40099 --threads 2 -o "$WORK/tubev2.csv"
check "bench tube CSV, --vertices over three blocks: --threads 2 gives --threads 1's bytes" -- \
    bash -c "cmp -s '$WORK/tubev1.csv' '$WORK/tubev2.csv' && test \$(wc -l <'$WORK/tubev2.csv') = 80001"

# Several meshes are set up at once, one a thread (issue 44): the same bytes, and each mesh's
# set-up warnings in mesh order, for any thread count (spider.fbx: 19 meshes, four with
# collapsed faces; interpolation_test.gltf: 10 animated meshes).
spider="$CORPUS/assimp/FBX/spider.fbx"
for f in "$spider" "$CORPUS/khronos/interpolation_test.gltf"; do
    "$RIGSCOPE" tension "$f" --format json --threads 1 -o "$WORK/mm1.json" 2>"$WORK/mm1.err"
    [ "$f" = "$spider" ] && cp "$WORK/mm1.err" "$WORK/spider.err"
    for n in 2; do
        expect 0 "tension $(basename "$f") --threads $n" -- "$RIGSCOPE" tension "$f" --format json --threads "$n" -o "$WORK/mm$n.json"
        check "$(basename "$f"), several meshes: --threads $n gives --threads 1's bytes and warnings" -- \
            bash -c "cmp -s '$WORK/mm1.json' '$WORK/mm$n.json' && cmp -s '$WORK/mm1.err' '$WORK/err'"
    done
done
check "spider.fbx: the set-up warnings in mesh order" -- test "$(grep -o "mesh '[^']*'" "$WORK/spider.err" | tr '\n' ' ')" = \
    "mesh 'klZahn' mesh 'Zahn' mesh 'klZahn2' mesh 'Zahn2' "

# Every file copy of a welded vertex carries the welded vertex's value: bend_cylinder's 625 file
# vertices weld to 544 (81 seam copies, all of the same weights). Coincident vertices of the
# deformed mesh (deform's own output, a second path) must have equal T, stretch and compress.
expect 0 "deform frame 61" -- "$RIGSCOPE" deform "$in" --frames 61 -o "$WORK/pos61.csv"
expect 0 "tension frame 61" -- "$RIGSCOPE" tension "$in" --frames 61 -o "$WORK/t61.csv"
check "welded copies: 81 coincident file vertices, each with its representative's T, stretch and compress" -- $PY -c "
import csv
pos = {int(r['vertex']): (r['x'], r['y'], r['z']) for r in csv.DictReader(open('$WORK/pos61.csv'))}
t = {int(r['vertex']): (r['t'], r['compress'], r['stretch']) for r in csv.DictReader(open('$WORK/t61.csv'))}
assert len(pos) == len(t) == 625, (len(pos), len(t))
first, copies = {}, 0
for v in sorted(pos):
    if pos[v] in first:
        copies += 1
        assert t[v] == t[first[pos[v]]], (v, first[pos[v]], t[v], t[first[pos[v]]])
    else:
        first[pos[v]] = v
assert copies == 81, copies
# Not all equal: the check compares values that differ between vertices.
assert len(set(t.values())) > 100
"

# Quiet and piped: nothing on stderr.
expect 0 "quiet" -- "$RIGSCOPE" -q tension "$in" -o "$WORK/q.csv"
check "quiet: stderr empty" -- test ! -s "$WORK/err"
# -q after the command, on a file that warns (the fault in animation_with_skeleton.fbx).
expect 0 "quiet after the command" -- "$RIGSCOPE" tension "$CORPUS/assimp/FBX/animation_with_skeleton.fbx" --frames 1 -o "$WORK/q2.csv" -q
check "quiet after the command: stderr empty" -- test ! -s "$WORK/err"

finish
