#!/usr/bin/env bash
# check --html with --max-intersections and --max-volume-loss (issue 59): the page marks, per
# frame, the faces that cross and each joint region's volume ratio and faces. Compared with what
# `rigscope intersect` and `rigscope volume` write for the same file (not with ids written here),
# the regions' faces with the candy-wrapper rig's own weights (make_twist_cylinder.py), and in
# headless Chromium (report/browser_check.mjs --marks): the worst-frame button, the crossing faces
# drawn red and a region past the limit orange, each toggled off and on as a user would.
source "$(dirname "$0")/../common.bash"
BEND=$CORPUS/bend_cylinder/bend_cylinder.glb
[ -f "$BEND" ] || skip "no corpus at $CORPUS"
python3 -c 'import numpy' 2>/dev/null || skip "numpy is missing (scripts/setup.sh installs python3-numpy)"
python3 tests/cli/volume/make_twist_cylinder.py "$WORK/twist.glb"
TWIST=$WORK/twist.glb
browser() { node report/browser_check.mjs "$@"; }

# The page's embedded data (the one clip's), as JSON on stdout.
page_json() {
    python3 - "$1" <<'PY'
import json, re, sys
text = open(sys.argv[1], encoding="utf-8").read()
d = json.loads(re.search(r'<script type="application/json" id="rigscope-data">(.*?)</script>', text, re.S).group(1))
print(json.dumps(d))
PY
}

# -- Faces that cross: bend_cylinder folds through itself from about 63 degrees.
expect 1 "check --html --max-intersections 0 on bend_cylinder" -- "$RIGSCOPE" check "$BEND" --max-intersections 0 --html "$WORK/bend.html"
page_json "$WORK/bend.html" >"$WORK/bend.json"
expect 0 "rigscope intersect of the same file" -- "$RIGSCOPE" intersect "$BEND" -o "$WORK/bend.csv"
check "the page names, per frame, exactly the faces rigscope intersect reports" -- python3 - "$WORK/bend.json" "$WORK/bend.csv" <<'PY'
import collections, csv, json, sys
d = json.load(open(sys.argv[1]))
x = d["intersections"]
pairs = collections.Counter()
faces = collections.defaultdict(set)  # (frame, mesh name) -> faces
for r in csv.DictReader(open(sys.argv[2])):
    pairs[r["frame"]] += 1
    faces[(r["frame"], r["mesh_a"])].add(int(r["face_a"]))
    faces[(r["frame"], r["mesh_b"])].add(int(r["face_b"]))
name = lambda fi: "bind" if d["frames"][fi]["bind"] else str(d["frames"][fi]["number"])
assert x["limit"] == 0 and x["failed"] is True, x["limit"]
assert len(x["pairs"]) == len(d["frames"]) == 91
assert {name(i): n for i, n in enumerate(x["pairs"]) if n} == dict(pairs), "pair counts per frame"
assert [f["frame"] for f in x["frames"]] == [i for i, n in enumerate(x["pairs"]) if n], "the frames with pairs, in order"
page = {}
for f in x["frames"]:
    assert f["pairs"] == x["pairs"][f["frame"]]
    for m, ids in enumerate(f["faces"]):
        assert ids == sorted(set(ids)), "ascending, each once"
        if ids:
            page[(name(f["frame"]), d["meshes"][m]["name"])] = set(ids)
assert page == dict(faces), sorted(set(page) ^ set(faces))[:5]
assert sum(pairs.values()) > 100
PY
check "no volume marks without --max-volume-loss" -- python3 -c "import json,sys; sys.exit('volume' in json.load(open('$WORK/bend.json')))"
check "bend page in Chromium: the crossing faces red at the worst frame, toggled" -- browser "$WORK/bend.html" --marks faces

# -- Polygons: the FBX of the same rig keeps quads and n-gon caps; the page marks file faces (as
# intersect names them) and maps each to its fan's triangles.
FBX=$CORPUS/bend_cylinder/bend_cylinder.fbx
expect 1 "check --html --max-intersections 0 on bend_cylinder.fbx" -- "$RIGSCOPE" check "$FBX" --max-intersections 0 --html "$WORK/fbx.html"
page_json "$WORK/fbx.html" >"$WORK/fbx.json"
expect 0 "rigscope intersect of the FBX" -- "$RIGSCOPE" intersect "$FBX" -o "$WORK/fbx.csv"
check "the FBX page names intersect's faces; each face maps to its triangles" -- python3 - "$WORK/fbx.json" "$WORK/fbx.csv" <<'PY'
import base64, collections, csv, json, struct, sys
d = json.load(open(sys.argv[1]))
faces = collections.defaultdict(set)
for r in csv.DictReader(open(sys.argv[2])):
    faces[(r["frame"], r["mesh_a"])].add(int(r["face_a"]))
    faces[(r["frame"], r["mesh_b"])].add(int(r["face_b"]))
name = lambda fi: "bind" if d["frames"][fi]["bind"] else str(d["frames"][fi]["number"])
page = {(name(f["frame"]), d["meshes"][m]["name"]): set(ids) for f in d["intersections"]["frames"] for m, ids in enumerate(f["faces"]) if ids}
assert page == dict(faces) and page, sorted(set(page) ^ set(faces))[:5]
for m in d["meshes"]:
    raw = base64.b64decode(m["face_first_triangle"])
    first = struct.unpack("<%dI" % (len(raw) // 4), raw)
    tris = len(base64.b64decode(m["triangles"])) // (2 if m["index_bits"] == 16 else 4) // 3
    # Ascending from 0 to the mesh's triangle count, and some face of more than one triangle.
    assert first[0] == 0 and first[-1] == tris and all(a <= b for a, b in zip(first, first[1:]))
    assert any(b - a > 1 for a, b in zip(first, first[1:]))
PY
check "FBX page in Chromium: polygons that cross drawn red" -- browser "$WORK/fbx.html" --marks faces

# -- Volume: the candy-wrapper twist under linear blend skinning loses a third at frame 24.
expect 1 "check --html --max-volume-loss 0.2 on the twist" -- \
    "$RIGSCOPE" check "$TWIST" --skinning linear --max-volume-loss 0.2 --html "$WORK/twist.html"
page_json "$WORK/twist.html" >"$WORK/twist.json"
expect 0 "rigscope volume of the same file" -- "$RIGSCOPE" volume "$TWIST" --skinning linear -o "$WORK/twist.csv"
expect 0 "rigscope volume json" -- "$RIGSCOPE" volume "$TWIST" --skinning linear -o "$WORK/twist_volume.json"
check "the page's ratios are rigscope volume's CSV, every frame and region" -- python3 - "$WORK/twist.json" "$WORK/twist.csv" <<'PY'
import csv, json, sys
d = json.load(open(sys.argv[1]))
v = d["volume"]
name = lambda fi: "bind" if d["frames"][fi]["bind"] else str(d["frames"][fi]["number"])
want = {(r["frame"], r["mesh"], r["region"]): (float(r["ratio"]) if r["ratio"] else None) for r in csv.DictReader(open(sys.argv[1 + 1]))}
got = {}
for r in v["regions"]:
    assert len(r["ratios"]) == len(d["frames"])
    for fi, q in enumerate(r["ratios"]):
        got[(name(fi), d["meshes"][r["mesh"]]["name"], r["region"])] = q
assert got == want, sorted(set(got.items()) ^ set(want.items()))[:5]
assert v["limit"] == 0.2 and v["failed"] is True
assert {r["region"] for r in v["regions"]} == {"*", "Root", "Tip"}
PY
check "each region's faces: the faces most of whose corners lean on its joint (the rig's own weights)" -- \
    python3 - "$WORK/twist.json" "$WORK/twist_volume.json" tests/cli/volume <<'PY'
import json, sys
import numpy as np
sys.path.insert(0, sys.argv[3])
from make_twist_cylinder import build
d = json.load(open(sys.argv[1]))
_pos, tris, joints, weights = build(32, 17, False, False)  # the script's defaults, as made above
skin = ["Root", "Tip"]
# Per vertex its heaviest joint (a tie: the lower); per face the joint most corners lean on (a tie: the lower).
heavy = []
for j, w in zip(joints, weights):
    best = None
    for k in range(4):
        if w[k] > 0 and (best is None or w[k] > w[best] or (w[k] == w[best] and j[k] < j[best])):
            best = k
    heavy.append(int(j[best]))
want = {"Root": [], "Tip": []}
for f, t in enumerate(tris.reshape(-1, 3)):
    votes = [heavy[c] for c in t]
    joint = max(sorted(set(votes)), key=votes.count)  # max keeps the first (lower) of equal counts
    want[skin[joint]].append(f)
got = {r["region"]: r["faces"] for r in d["volume"]["regions"] if r["region"] != "*"}
assert got == want, {k: (len(got.get(k, [])), len(v)) for k, v in want.items()}
assert all("faces" not in r for r in d["volume"]["regions"] if r["region"] == "*")
# And the counts rigscope volume's JSON states.
counts = {r["region"]: r["faces"] for m in json.load(open(sys.argv[2]))["meshes"] for r in m["regions"]}
assert counts == {k: len(v) for k, v in want.items()}, counts
PY
check "twist page in Chromium: the region past the limit orange at the worst frame, toggled" -- browser "$WORK/twist.html" --marks regions

# -- Both on one page, with a T limit: each verdict said, each mark there.
expect 1 "check --html with T, volume and intersection limits" -- \
    "$RIGSCOPE" check "$BEND" --max-compress 3 --max-volume-loss 0.05 --max-intersections 10 --html "$WORK/both.html"
page_json "$WORK/both.html" >"$WORK/both.json"
check "the page holds both marks and the T verdict" -- python3 -c "
import json, sys
d = json.load(open('$WORK/both.json'))
sys.exit(not (d['check']['max_compress'] == 3 and d['intersections']['limit'] == 10 and d['volume']['limit'] == 0.05))"

# -- A file of two clips (tests/cli/add_clip.py: BigBend bends twice as far): each clip's page
# data marks that clip's frames, as `intersect --clip NAME` finds them.
/usr/bin/python3 tests/cli/add_clip.py "$BEND" "$WORK/two.glb" BigBend 2 || { echo "FAIL: add_clip.py"; exit 1; }
expect 1 "check --html --max-intersections 5 of two clips" -- "$RIGSCOPE" check "$WORK/two.glb" --max-intersections 5 --html "$WORK/two.html"
for clip in ArmatureAction BigBend; do
    "$RIGSCOPE" intersect "$WORK/two.glb" --clip "$clip" -o "$WORK/two_$clip.csv"
done
check "each clip's marks are intersect --clip's pair counts" -- python3 - "$WORK/two.html" "$WORK" <<'PY'
import collections, csv, json, re, sys
text = open(sys.argv[1], encoding="utf-8").read()
page = json.loads(re.search(r'<script type="application/json" id="rigscope-data">(.*?)</script>', text, re.S).group(1))
assert [c["name"] for c in page["clips"]] == ["ArmatureAction", "BigBend"]
for c in page["clips"]:
    d = c["data"]
    want = collections.Counter(r["frame"] for r in csv.DictReader(open(f"{sys.argv[2]}/two_{c['name']}.csv")))
    got = {str(d["frames"][i]["number"]): n for i, n in enumerate(d["intersections"]["pairs"]) if n}
    assert got == dict(want) and got, c["name"]
PY

# -- Without those limits the page holds no marks (the page check --html wrote before them).
expect 1 "check --html with a T limit only" -- "$RIGSCOPE" check "$BEND" --max-compress 1.2 --html "$WORK/t.html"
page_json "$WORK/t.html" >"$WORK/t.json"
check "no marks without the options" -- python3 -c "
import json, sys
d = json.load(open('$WORK/t.json'))
sys.exit(not ('check' in d and 'intersections' not in d and 'volume' not in d and all('face_first_triangle' not in m for m in d['meshes'])))"
finish
