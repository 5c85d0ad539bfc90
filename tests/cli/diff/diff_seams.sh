#!/usr/bin/env bash
# diff by file vertex (issue 41): in index mode diff names the file vertices that moved, each with
# its own displacement, and a seam OLD welds that NEW tears apart is its own finding ("seam torn":
# both ids, the frame, the gap) in text, CSV, JSON and JUnit. The case: bend_cylinder with the two
# weights of every 37th vertex swapped, so that some of them part from their seam twins.
. "$(dirname "$0")/../common.bash"

OLD=data/bend_cylinder.glb
NEW="$WORK/swapped.glb"
python3 tests/cli/swap_weights.py "$OLD" "$NEW" 37 || exit 1

# The oracle: every file vertex's position per frame, from deform (which skins file vertices and
# knows no weld), for both files.
"$RIGSCOPE" -q deform "$OLD" -o "$WORK/old.csv" || exit 1
"$RIGSCOPE" -q deform "$NEW" -o "$WORK/new.csv" || exit 1

expect 1 "diff with --max-displacement fails on the swapped weights" -- "$RIGSCOPE" diff "$OLD" "$NEW" --max-displacement 0.001 \
    -o "$WORK/d.csv" --junit "$WORK/d.xml"
cp "$WORK/out" "$WORK/d.txt"
"$RIGSCOPE" -q diff "$OLD" "$NEW" -o "$WORK/d.json"

# What moved and which seams tore, from the two deform tables and OLD's weld (numpy): file vertices
# OLD welds are those at one position (within the weld's 1e-6 of the diagonal, here far below any
# edge) with the same joints and weights; a torn seam is such a group whose members NEW skins
# apart. Displacements compare within 1e-6 m: both sides are float positions printed shortest
# (exact), the diff's norm is taken in float (relative 6e-8 of metre-scale coordinates).
check "exactly the vertices that moved, each with its own displacement; exactly the torn seams" -- python3 - "$OLD" "$NEW" "$WORK" <<'PY'
import csv, json, sys, collections
import numpy as np
sys.path.insert(0, "tests/cli")
from gltf_edit import Gltf
old_path, new_path, work = sys.argv[1:4]

def table(path):
    rows = collections.defaultdict(dict)
    for r in csv.DictReader(open(path)):
        rows[int(r["frame"])][int(r["vertex"])] = np.array([float(r[c]) for c in "xyz"])
    frames = sorted(rows)
    n = len(rows[frames[0]])
    return frames, np.array([[rows[f][v] for v in range(n)] for f in frames])

frames, po = table(work + "/old.csv")
frames_n, pn = table(work + "/new.csv")
assert frames == frames_n
disp = np.linalg.norm(pn - po, axis=2)          # frames x vertices
moved = {int(v) for v in np.nonzero(disp.max(axis=0) > 1e-6)[0]}
assert moved and all(v % 37 == 0 for v in moved), sorted(moved)

# OLD's weld and NEW's influences, from the files.
go, gn = Gltf(old_path), Gltf(new_path)
pos = go.attr("POSITION").astype(np.float64)
diag = np.linalg.norm(pos.max(axis=0) - pos.min(axis=0))
def influences(g, v):
    j, w = g.attr("JOINTS_0")[v], g.attr("WEIGHTS_0")[v]
    return tuple(sorted((int(a), float(b)) for a, b in zip(j, w) if b != 0))
groups = collections.defaultdict(list)
for v in range(len(pos)):
    key = (tuple(np.round(pos[v] / (1e-6 * diag)).astype(np.int64)), influences(go, v))
    groups[key].append(v)
want_seams = {}
for ids in groups.values():
    ids.sort()
    for v in ids[1:]:
        if influences(gn, v) != influences(gn, ids[0]):
            gap = np.linalg.norm(pn[:, ids[0]] - pn[:, v], axis=1)
            want_seams[(ids[0], v)] = (float(gap.max()), frames[int(gap.argmax())])
            break
assert want_seams, "the swap tore no seam: the test case lost its point"

# CSV: one row per frame and file vertex, its own displacement; seam columns on the torn vertex.
got = collections.defaultdict(float)
seam_rows = collections.defaultdict(float)
for r in csv.DictReader(open(work + "/d.csv")):
    v = int(r["vertex"]); f = int(r["frame"])
    d = float(r["displacement"])
    assert abs(d - disp[frames.index(f), v]) <= 1e-6, (f, v, d, disp[frames.index(f), v])
    got[v] = max(got[v], d)
    if r["seam_vertex"]:
        key = (int(r["seam_vertex"]), v)
        seam_rows[key] = max(seam_rows[key], float(r["seam_gap"]))
assert len(got) == len(pos), len(got)
assert {v for v, d in got.items() if d > 1e-6} == moved, sorted(v for v, d in got.items() if d > 1e-6)
assert set(seam_rows) == set(want_seams), (sorted(seam_rows), sorted(want_seams))
for k, (gap, f) in want_seams.items():
    assert abs(seam_rows[k] - gap) <= 1e-6, (k, seam_rows[k], gap)

# JSON: the summary's worst vertices are moved file vertices; seams_torn lists both ids, the gap
# and its frame.
s = json.load(open(work + "/d.json"))["summary"]
assert all(w["vertex"] in moved for w in s["worst_vertices"] if w["displacement"] > 1e-6), s["worst_vertices"]
seams = {(t["vertex"], t["other"]): t for t in s["seams_torn"]}
assert set(seams) == set(want_seams), (sorted(seams), sorted(want_seams))
for k, (gap, f) in want_seams.items():
    assert abs(seams[k]["gap"] - gap) <= 1e-6 and seams[k]["frame"] == f, (k, seams[k], gap, f)

# Text: every moved vertex past the limit counted, the seams listed with both ids.
text = open(work + "/d.txt").read()
assert "limit displacement > 0.001: %d vertices past the limit" % sum(1 for v in moved if got[v] > 0.001) in text, text
assert "seams torn: %d" % len(want_seams) in text, text
for (a, b) in want_seams:
    assert "vertices %d and %d: seam torn" % (a, b) in text, (a, b)

# JUnit: a "seam torn" case, failed, naming each pair.
import xml.etree.ElementTree as ET
suite = ET.parse(work + "/d.xml").getroot().find("testsuite")
case = {c.get("name"): c for c in suite.findall("testcase")}["seam torn"]
failure = case.find("failure")
assert failure is not None and failure.get("type") == "rigscope.diff.seam_torn", ET.tostring(case)
assert failure.get("message") == "%d seams torn by more than the displacement limit" % len(want_seams), failure.get("message")
for (a, b) in want_seams:
    assert "vertices %d and %d: seam torn" % (a, b) in failure.text, (a, b)
PY

# With --weld off every file vertex stands alone in OLD too: nothing to tear, and no seam case (a
# pass would claim a check that was not made).
expect 1 "diff --weld off" -- "$RIGSCOPE" diff "$OLD" "$NEW" --weld off --max-displacement 0.001 --junit "$WORK/off.xml"
check "--weld off: no seam finding, no seam case" -- python3 -c '
import sys, xml.etree.ElementTree as ET
names = [c.get("name") for c in ET.parse(sys.argv[1]).getroot().find("testsuite").findall("testcase")]
assert "seam torn" not in names, names
assert "seams torn" not in open(sys.argv[2]).read()' "$WORK/off.xml" "$WORK/out"

# A file against itself: no seam torn, the seam case passes.
expect 0 "diff of a file with itself passes" -- "$RIGSCOPE" diff "$OLD" "$OLD" --max-displacement 0.001 --junit "$WORK/same.xml"
check "same file: the seam case passes" -- python3 -c '
import sys, xml.etree.ElementTree as ET
cases = {c.get("name"): c for c in ET.parse(sys.argv[1]).getroot().find("testsuite").findall("testcase")}
assert "seam torn" in cases and cases["seam torn"].find("failure") is None, cases' "$WORK/same.xml"

finish
