#!/usr/bin/env bash
# diff --match position across files that list their vertices in different orders (issue 57,
# Tests): each compared vertex is reported under OLD's file vertex id (`vertex`) and NEW's under
# its own (`new_vertex`), never one file's id for the other's vertex. The case: bend_cylinder
# with its vertices shuffled (tests/cli/diff/permute_glb.py), and once more with one vertex's weights
# changed so that it alone moves. The oracle is the permutation the script made and the rest
# positions read from both files with numpy.
. "$(dirname "$0")/../common.bash"

OLD=$CORPUS/bend_cylinder/bend_cylinder.glb
# The vertex to change: the first whose rest position no other vertex shares (no seam copy, so it
# is its own welded vertex and its own id is the one reported) and whose two weights are both
# above 0.2 (moving all of it to one joint moves it visibly).
k=$(python3 - "$OLD" <<'PY'
import sys
import numpy as np
sys.path.insert(0, "tests/cli")
from gltf_edit import Gltf
g = Gltf(sys.argv[1])
p, w = g.attr("POSITION"), g.attr("WEIGHTS_0")
_, inverse, counts = np.unique(p, axis=0, return_inverse=True, return_counts=True)
inverse = inverse.reshape(-1)
print(next(v for v in range(len(p)) if counts[inverse[v]] == 1 and min(w[v, 0], w[v, 1]) > 0.2))
PY
) || exit 1
python3 tests/cli/diff/permute_glb.py "$OLD" "$WORK/shuffled.glb" >"$WORK/perm.json" || exit 1
python3 tests/cli/diff/permute_glb.py "$OLD" "$WORK/changed.glb" "$k" >"$WORK/perm_changed.json" || exit 1
check "the two copies share one permutation" -- cmp -s "$WORK/perm.json" "$WORK/perm_changed.json"

# --- the same rig in another vertex order: no change at all, every id its own file's ----------
# Displacement exactly 0: each vertex is skinned from the same floats. T within 1e-6: a vertex's
# mean edge length sums its edges in the order of NEW's faces, in float (T near 1, a few edges:
# a few ulps of 1.2e-7).
expect 0 "shuffled vertices, --match position: no displacement, T within rounding" -- "$RIGSCOPE" -q diff "$OLD" "$WORK/shuffled.glb" \
    --match position --max-displacement 0 --max-t-change 1e-6 --frames 1..91:30 -o "$WORK/shuffled.csv"
# Per row: OLD's vertex and NEW's at one rest position (exactly: the copy holds the same floats);
# the OLD id is the first file vertex at that position (the welded vertex's first, as documented),
# and NEW's id is the permutation's image of one of OLD's vertices there.
check "shuffled: each row's vertex is OLD's id, new_vertex NEW's, both at one rest position" -- python3 - "$OLD" "$WORK" <<'PY'
import csv, json, sys
import numpy as np
sys.path.insert(0, "tests/cli")
from gltf_edit import Gltf
old, work = sys.argv[1:3]
po = Gltf(old).attr("POSITION")
pn = Gltf(work + "/shuffled.glb").attr("POSITION")
new_of_old = json.load(open(work + "/perm.json"))["new_of_old"]
first = {}
for v in range(len(po)):
    first.setdefault(tuple(po[v]), v)
rows = list(csv.DictReader(open(work + "/shuffled.csv")))
assert rows, "no rows"
ids = set()
for r in rows:
    v, u = int(r["vertex"]), int(r["new_vertex"])
    assert tuple(po[v]) == tuple(pn[u]), (v, u, po[v], pn[u])
    assert first[tuple(po[v])] == v, (v, first[tuple(po[v])])
    assert u in {new_of_old[w] for w in range(len(po)) if tuple(po[w]) == tuple(po[v])}, (v, u)
    ids.add(v)
# Every welded vertex once per frame, and the ids do differ between the files (the case tests
# something): most rows' new_vertex is not their vertex.
assert len(ids) == len(first), (len(ids), len(first))
assert sum(int(r["vertex"]) != int(r["new_vertex"]) for r in rows) > len(rows) // 2
PY

# --- one vertex changed in the shuffled copy: named under OLD's id, with NEW's beside it --------
expect 1 "one vertex's weights changed: --max-displacement fails" -- "$RIGSCOPE" diff "$OLD" "$WORK/changed.glb" --match position \
    --max-displacement 0.001 -o "$WORK/changed.json"
check "the text names OLD's vertex $k" -- grep -q "vertex $k[^0-9]" "$WORK/out"
check "changed: the largest displacement is OLD vertex $k, NEW's id from the permutation, and no other vertex moved" -- \
    python3 - "$WORK" "$k" <<'PY'
import csv, json, sys
work, k = sys.argv[1], int(sys.argv[2])
new_of_old = json.load(open(work + "/perm.json"))["new_of_old"]
d = json.load(open(work + "/changed.json"))
s = d["summary"]["max_displacement"]
assert s["vertex"] == k and s["displacement"] > 0.001, (s, k)
if "new_vertex" in s:
    assert s["new_vertex"] == new_of_old[k], (s, new_of_old[k])
moved = {w["vertex"] for w in d["summary"]["worst_vertices"] if w["displacement"] > 1e-6}
assert moved == {k}, (moved, k)
PY

finish
