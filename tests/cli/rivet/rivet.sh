#!/usr/bin/env bash
# rigscope rivet end to end: exit codes, outputs that parse, glTF that validates.
#   bash tests/cli/rivet/rivet.sh path/to/rigscope      (from the project's root)
set -u
bin=${1:?usage: rivet.sh RIGSCOPE_BINARY}
corpus=${RIGSCOPE_CORPUS:-../shared/corpus}
glb=$corpus/bend_cylinder/bend_cylinder.glb
cesium=$corpus/khronos/cesium_man.gltf
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# expect CODE DESCRIPTION -- ARGS...: runs rigscope, checks the exit code, keeps stderr in $tmp/err.
expect() {
    local want=$1 what=$2
    shift 3
    "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    [ "$got" -eq "$want" ] || fail "$what: exit $got, expected $want ($(head -c 300 "$tmp/err"))"
}

# Fit, JSON: parses, every two-influence vertex is reproduced, names and metadata present.
expect 0 "fit json" -- rivet "$glb" --vertices 0,100,300..310 -o "$tmp/fit.json"
$py - "$tmp/fit.json" <<'PY' || fail "fit json content"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["mode"] == "fit" and d["clip"] == "ArmatureAction" and len(d["frames"]) == 91, d.keys()
r = d["rivets"]
assert [x["vertex"] for x in r] == [0, 100] + list(range(300, 311)), [x["vertex"] for x in r]
for x in r:
    assert x["joint"] == "Bone.001" and x["parent"] == "Bone", x
    assert len(x["influences"]) == 2 and x["analytic_pivot"] is not None, x
    assert x["rank"] == 5 and x["max_error_relative"] < 1e-9, x
    for k in ("pivot_world", "pivot_parent", "offset"):
        assert len(x[k]) == 3, k
PY

# Fit, CSV: the documented header, one row per vertex.
expect 0 "fit csv" -- rivet "$glb" --vertices 5..7 --format csv
head -1 "$tmp/out" | grep -qx 'vertex,joint,parent,influences,analytic_x,analytic_y,analytic_z,pivot_world_x,pivot_world_y,pivot_world_z,pivot_parent_x,pivot_parent_y,pivot_parent_z,offset_x,offset_y,offset_z,rank,rms_error,max_error,max_error_relative' \
    || fail "fit csv header: $(head -1 "$tmp/out")"
[ "$(wc -l <"$tmp/out")" -eq 4 ] || fail "fit csv: $(wc -l <"$tmp/out") lines, expected 4"

# A 3+-influence character: rank 6, a real drift, no closed form.
expect 0 "cesium fit" -- rivet "$cesium" --vertices 0..40 -o "$tmp/cesium.json"
$py -c '
import json, sys
r = json.load(open(sys.argv[1]))["rivets"]
assert all(x["rank"] == 6 for x in r)
assert any(len(x["influences"]) >= 3 and x["analytic_pivot"] is None and x["max_error"] > 0 for x in r)' "$tmp/cesium.json" \
    || fail "cesium fit content"

# Bake: rows per frame and vertex, unit quaternions.
expect 0 "bake json" -- rivet "$glb" --vertices 100,400 --bake --frames 1..91:10 -o "$tmp/bake.json"
$py -c '
import json, sys, math
rows = json.load(open(sys.argv[1]))["bake"]
assert len(rows) == 10 * 2, len(rows)
assert [r["frame"] for r in rows[:4]] == [1, 1, 11, 11]
for r in rows:
    assert abs(math.sqrt(r["qx"]**2 + r["qy"]**2 + r["qz"]**2 + r["qw"]**2) - 1) < 1e-9' "$tmp/bake.json" || fail "bake json content"
expect 0 "bake csv" -- rivet "$glb" --vertices 100 --bake --frames 1,bind --format csv
head -1 "$tmp/out" | grep -qx 'frame,time,vertex,x,y,z,qx,qy,qz,qw' || fail "bake csv header"
sed -n 3p "$tmp/out" | grep -q '^bind,0,100,' || fail "bake csv bind row: $(sed -n 3p "$tmp/out")"

# glTF: fit and bake, from glTF and FBX, valid by the Khronos validator when node is there.
expect 0 "fit glb" -- rivet "$glb" --vertices 100,400 -o "$tmp/fit.glb"
expect 0 "bake glb" -- rivet "$glb" --vertices 100,400 --bake -o "$tmp/bake.glb"
expect 0 "fbx fit glb" -- rivet "$corpus/bend_cylinder/bend_cylinder.fbx" --vertices 3,30 -o "$tmp/fbx.glb"
skipped=0
if command -v node >/dev/null; then
    scripts/validate_gltf.sh "$tmp/fit.glb" "$tmp/bake.glb" "$tmp/fbx.glb" >"$tmp/validator" 2>&1 \
        || fail "validator: $(cat "$tmp/validator")"
else
    echo "SKIP: node is not installed, the glTF files are not validated (scripts/packages-node.txt)"
    skipped=1
fi

# The fold warning (docs/rivet.md): a vertex whose baked orientation turns by more than 30
# degrees between consecutive frames is named with the frames, once. The expectation comes from
# the baked quaternions of the JSON output (angle 2 acos |q1.q2|), not from the warning code.
# Vertices 452, 467, 497 fold on the inside of the bend; 100 and 400 do not.
expect 0 "bake of folding and calm vertices" -- rivet "$glb" --vertices 452,467,497,100,400 --bake -o "$tmp/fold.json"
$py - "$tmp/fold.json" "$tmp/err" <<'PY' || fail "fold warnings"
import json, math, re, sys
d = json.load(open(sys.argv[1]))
rows = {}
for r in d["bake"]:
    rows.setdefault(r["vertex"], []).append(r)
want = {}
for v, rs in rows.items():
    worst, at = 0.0, None
    for a, b in zip(rs, rs[1:]):
        dot = abs(sum(a[k] * b[k] for k in ("qx", "qy", "qz", "qw")))
        turn = math.degrees(2 * math.acos(min(1.0, dot)))
        if turn > worst:
            worst, at = turn, (a["frame"], b["frame"])
    if worst > 30:
        want[v] = (round(worst), at)
assert set(want) >= {452, 467, 497} and not {100, 400} & set(want), want
got = {}
for line in open(sys.argv[2]):
    m = re.match(r"rigscope: warning: vertex (\d+): the baked orientation turns (\d+) degrees between frames (\d+) and (\d+): the faces around the vertex fold", line)
    assert m, line
    v = int(m[1])
    assert v not in got, "vertex %d warned twice" % v
    got[v] = (int(m[2]), (int(m[3]), int(m[4])))
assert set(got) == set(want), (got, want)
for v in want:
    assert got[v][1] == want[v][1] and abs(got[v][0] - want[v][0]) <= 1, (v, got[v], want[v])
PY

# One vertex whose joint does not turn (issue 57): vertex 10 of a copy weighted wholly to the
# root 'Bone', which the clip never turns, among vertices on the bending 'Bone.001'. That vertex
# is reported and left out; the others are fitted and written. Alone, it is still refused.
$py - "$glb" "$tmp/root10.glb" <<'PY' || fail "could not write root10.glb"
import sys
sys.path.insert(0, "tests/cli")
from gltf_edit import Gltf
g = Gltf(sys.argv[1])
j, w = g.attr("JOINTS_0"), g.attr("WEIGHTS_0")
root = [k for k in range(len(g.j["skins"][0]["joints"])) if g.joint_name(k) == "Bone"][0]
j[10, :] = [root, 0, 0, 0]
w[10, :] = [1, 0, 0, 0]
g.save(sys.argv[2])
PY
expect 0 "one undetermined vertex among fitted ones" -- rivet "$tmp/root10.glb" --vertices 10,100,300 -o "$tmp/some.json"
grep -q "warning: rivet fit of vertex 10 is undetermined: joint 'Bone' does not turn over the 91 frames evaluated.*left out, the other rivets are fitted" "$tmp/err" \
    || fail "the undetermined vertex is named with its joint: $(cat "$tmp/err")"
$py -c '
import json, sys
r = json.load(open(sys.argv[1]))["rivets"]
assert [x["vertex"] for x in r] == [100, 300] and all(x["rank"] >= 4 for x in r), r' "$tmp/some.json" || fail "the others are fitted and written"
expect 1 "with --max-fit-error the undetermined vertex fails the verdict" -- \
    rivet "$tmp/root10.glb" --vertices 10,100,300 --max-fit-error 0.01 -o "$tmp/some2.json" --junit "$tmp/some.xml"
grep -q "^not fitted (undetermined, not written): 1 of 3 rivets$" "$tmp/out" && grep -q "^FAIL$" "$tmp/out" || fail "the verdict lists it: $(cat "$tmp/out")"
cmp -s "$tmp/some.json" "$tmp/some2.json" || fail "the fitted rivets are written as without the limit"
grep -q 'name="vertex 10 fit error &lt;= 0.01"' "$tmp/some.xml" && grep -q 'type="rigscope.rivet.undetermined"' "$tmp/some.xml" \
    && [ "$(grep -c '<failure' "$tmp/some.xml")" -eq 1 ] || fail "JUnit: one failed case, vertex 10's: $(cat "$tmp/some.xml")"
expect 2 "every vertex undetermined: refused" -- rivet "$tmp/root10.glb" --vertices 10 -o "$tmp/no.json"
grep -q "rivet fit of vertex 10 is undetermined" "$tmp/err" || fail "refusal message: $(cat "$tmp/err")"

# Refusals, each before any output file exists.
expect 5 "unknown --joint" -- rivet "$glb" --vertices 100 --joint NoSuchBone -o "$tmp/no.json"
grep -q "NoSuchBone" "$tmp/err" || fail "unknown --joint message: $(cat "$tmp/err")"
expect 5 "--joint that does not influence the vertex" -- rivet "$glb" --vertices 100 --joint Armature -o "$tmp/no.json"
grep -q "vertex 100" "$tmp/err" && grep -q "Armature" "$tmp/err" || fail "--joint message names vertex and joint: $(cat "$tmp/err")"
expect 2 "vertex out of range" -- rivet "$glb" --vertices 625 -o "$tmp/no.json"
grep -q "625" "$tmp/err" || fail "out-of-range message: $(cat "$tmp/err")"
expect 2 "malformed --vertices" -- rivet "$glb" --vertices 3..x -o "$tmp/no.json"
expect 2 "missing --vertices" -- rivet "$glb" -o "$tmp/no.json"
expect 2 "--bake with --joint" -- rivet "$glb" --vertices 1 --bake --joint Bone -o "$tmp/no.json"
expect 2 "--chunk on a fit" -- rivet "$glb" --vertices 1 --chunk 0/2 -o "$tmp/no.json"
expect 2 "glTF to stdout" -- rivet "$glb" --vertices 1 --format gltf
expect 2 "glTF named .gltf" -- rivet "$glb" --vertices 1 -o "$tmp/no.gltf"
expect 2 "unknown format" -- rivet "$glb" --vertices 1 -o "$tmp/no.txt"
[ ! -e "$tmp/no.json" ] && [ ! -e "$tmp/no.gltf" ] || fail "a refused run left an output file"

[ "$failures" -eq 0 ] || { echo "rivet.sh: $failures failed" >&2; exit 1; }
echo "rivet.sh: all passed"
[ "$skipped" -eq 0 ] || exit 77  # a ctest skip (SKIP_RETURN_CODE), which fails CI
