#!/usr/bin/env bash
# rigscope intersect end to end on made and real rigs, against a numpy brute force of every face
# pair (intersect_rigs.py, which shares nothing with rigscope's code):
# - bend_cylinder folds through itself from about 63 degrees of its bend;
# - an arm swinging through a torso: pairs between two meshes, named by the arm's joint;
# - UV seams (bend_cylinder's split vertices) are never a pair, as the weld makes them neighbours;
# - CSV and JSON agree; the same bytes on 1, 2 and 3 threads; exit codes.
#   bash tests/cli/intersect/intersect.sh path/to/rigscope      (from the project's root)
source "$(dirname "$0")/../common.bash"
here=$(cd "$(dirname "$0")" && pwd)
rigs="python3 $here/intersect_rigs.py"
bend=$CORPUS/bend_cylinder/bend_cylinder.glb
[ -f "$bend" ] || skip "no corpus at $CORPUS"
python3 -c 'import numpy' 2>/dev/null || skip "numpy (the oracle) is not installed: scripts/setup.sh"

# -- The bend: the first frame with a pair is the first past about 63 degrees of Bone.001.
expect 0 "bend csv" -- "$RIGSCOPE" intersect "$bend" -o "$WORK/bend.csv"
first=$(awk -F, 'NR > 1 { print $1; exit }' "$WORK/bend.csv")
$rigs angle "$bend" Bone.001 "$((first - 1)),$first" >"$WORK/angles"
check "bend folds through itself from about 63 degrees (first frame $first: $(tr '\n' ' ' <"$WORK/angles"))" -- \
    awk 'NR == 1 && $2 >= 63 { exit 1 } NR == 2 && ($2 < 62.5 || $2 > 64.5) { exit 1 }' "$WORK/angles"
# Every pair of the frames around it and of the last frame, against the brute force.
expect 0 "bend frames" -- "$RIGSCOPE" intersect "$bend" --frames "$((first - 2))..$((first + 2)),91" -o "$WORK/bend_some.csv"
$rigs oracle "$bend" "$((first - 2)),$((first - 1)),$first,$((first + 1)),$((first + 2)),91" "$WORK/bend_oracle.csv"
check "bend pairs as the brute force finds them" -- $rigs compare "$WORK/bend_oracle.csv" "$WORK/bend_some.csv"

# -- Seams: bend_cylinder's UV seams split vertices; no reported pair shares a position at rest,
# while without the weld the faces across the seams at the fold are pairs.
read -r shared total < <($rigs seams "$bend" "$WORK/bend.csv")
check "no seam pair with the weld ($shared of $total pairs share a position)" -- [ "$shared" -eq 0 -a "$total" -gt 100 ]
expect 0 "bend --weld off" -- "$RIGSCOPE" intersect "$bend" --weld off -o "$WORK/bend_off.csv"
read -r shared_off total_off < <($rigs seams "$bend" "$WORK/bend_off.csv")
check "--weld off: the seam pairs are all the difference ($shared_off of $total_off)" -- \
    [ "$shared_off" -gt 0 -a "$((total_off - shared_off))" -eq "$total" ]

# -- An arm through a torso: two meshes, every frame against the brute force.
$rigs arm "$WORK/arm.glb"
expect 0 "arm csv" -- "$RIGSCOPE" intersect "$WORK/arm.glb" -o "$WORK/arm.csv"
$rigs oracle "$WORK/arm.glb" "$(seq -s, 0 24)" "$WORK/arm_oracle.csv"
check "arm through torso as the brute force finds it" -- $rigs compare "$WORK/arm_oracle.csv" "$WORK/arm.csv"
check "arm pairs are Torso-Arm, joint Shoulder, and there are some" -- \
    awk -F, 'NR > 1 { n++; if ($2 != "Torso" || $4 != "Arm" || $6 != "Shoulder") exit 1 } END { exit n < 10 }' "$WORK/arm.csv"
# --mesh Arm alone: the arm does not cross itself.
expect 0 "arm --mesh Arm" -- "$RIGSCOPE" intersect "$WORK/arm.glb" --mesh Arm -o "$WORK/arm_only.csv"
check "the arm alone has no pair" -- [ "$(wc -l <"$WORK/arm_only.csv")" -eq 1 ]

# -- JSON: every frame, the CSV's counts per frame and per joint, a length where there are pairs.
expect 0 "bend json" -- "$RIGSCOPE" intersect "$bend" -o "$WORK/bend.json"
check "json agrees with csv" -- python3 - "$WORK/bend.json" "$WORK/bend.csv" <<'PY'
import collections, csv, json, sys
d = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
assert d["command"] == "intersect" and d["meshes"] == ["Cylinder"] and d["weld"] is True and len(d["frames"]) == 91, d.keys()
per = collections.Counter(int(r["frame"]) for r in rows)
joints = collections.defaultdict(collections.Counter)
for r in rows:
    joints[int(r["frame"])][r["joint"]] += 1
for f in d["frames"]:
    assert f["pairs"] == per[f["frame"]], f
    assert f["by_joint"] == dict(joints[f["frame"]]), f
    assert (f["length"] > 0) == (f["pairs"] > 0), f
PY

# -- The same bytes on 1, 2 and 3 threads: the bend, and the arm (moved by one joint alone, so its
# pairs are tested once on the stored positions, that pass spread over the threads too).
for rig in bend arm; do
    file=$bend
    [ $rig = arm ] && file=$WORK/arm.glb
    for t in 1 2 3; do
        expect 0 "$rig threads $t" -- "$RIGSCOPE" intersect "$file" --threads $t -o "$WORK/${rig}_t$t.json"
    done
    check "$rig: 1, 2 and 3 threads write the same bytes" -- \
        bash -c "cmp -s '$WORK/${rig}_t1.json' '$WORK/${rig}_t2.json' && cmp -s '$WORK/${rig}_t1.json' '$WORK/${rig}_t3.json'"
done

# -- check --max-intersections: its own JUnit case naming the worst frame, meshes and joint, as
# the intersect CSV counts them; N pairs in the worst frame pass a limit of N and fail N - 1.
worst=$(awk -F, 'NR > 1 { n[$1]++ } END { for (f in n) if (n[f] > m || (n[f] == m && f + 0 < w)) { m = n[f]; w = f + 0 } print w, m }' "$WORK/bend.csv")
read -r wframe wpairs <<<"$worst"
wjoint=$(awk -F, -v f="$wframe" 'NR > 1 && $1 == f { n[$6]++ } END { for (j in n) if (n[j] > m) { m = n[j]; b = j } print b }' "$WORK/bend.csv")
expect 1 "check --max-intersections $((wpairs - 1))" -- "$RIGSCOPE" check "$bend" --max-intersections "$((wpairs - 1))" --junit "$WORK/check.xml"
check "the JUnit case says intersections, frame $wframe, Cylinder with itself, joint $wjoint" -- python3 - "$WORK/check.xml" "$wframe" "$wpairs" "$wjoint" <<'PY'
import sys, xml.etree.ElementTree as ET
cases = [c for c in ET.parse(sys.argv[1]).iter("testcase") if "intersection" in c.get("name")]
assert len(cases) == 1, cases
f = cases[0].find("failure")
m = f.get("message")
assert f"frame {sys.argv[2]} " in m and f"{sys.argv[3]} face pairs" in m and "Cylinder with itself" in m and f"joint {sys.argv[4]} " in m, m
PY
if command -v xmllint >/dev/null; then
    for xsd in tests/schemas/junit-10.xsd tests/schemas/ant-junit.xsd; do
        check "the report with the intersection case validates against $xsd" -- bash -c "xmllint --noout --schema $xsd $WORK/check.xml 2>/dev/null"
    done
else
    skip_later "xmllint is not installed: the JUnit report is not validated"
fi
expect 0 "check --max-intersections $wpairs" -- "$RIGSCOPE" check "$bend" --max-intersections "$wpairs" --junit "$WORK/check_pass.xml"
check "a passing intersection case" -- grep -q 'name="intersections: at most '"$wpairs"' face pairs in any frame" time="0"/>' "$WORK/check_pass.xml"
# Farm chunks: each records its frames' count and worst, merge adds them up as one run's frames
# go by; the merged verdict is the run's (exit code, text, JUnit but for timing), failing and
# passing. Frames 60..91 in 4 chunks: the fold (from about 63 degrees) has pairs in every chunk
# but the first's start, and the worst frame (found above from the CSV) in one of them.
for limit in "$((wpairs - 1))" "$wpairs"; do
    "$RIGSCOPE" -q check "$bend" --frames 60..91 --max-intersections "$limit" --junit "$WORK/one.xml" >"$WORK/one.txt"
    want=$?
    for i in 0 1 2 3; do
        expect 0 "check --max-intersections $limit --chunk $i/4" -- \
            "$RIGSCOPE" -q check "$bend" --frames 60..91 --max-intersections "$limit" --chunk $i/4 --junit "$WORK/ci_$i.xml"
    done
    expect $want "merge of the chunks (limit $limit): the run's exit code" -- \
        "$RIGSCOPE" merge "$WORK/ci.xml" "$WORK/ci_0.xml" "$WORK/ci_1.xml" "$WORK/ci_2.xml" "$WORK/ci_3.xml"
    check "merge (limit $limit): the run's text" -- cmp -s "$WORK/out" "$WORK/one.txt"
    for f in one ci; do sed -E 's/ time="[0-9.]+" timestamp="[0-9T:-]+"//' "$WORK/$f.xml" >"$WORK/$f.norm.xml"; done
    check "merge (limit $limit): the run's JUnit but for timing" -- cmp -s "$WORK/one.norm.xml" "$WORK/ci.norm.xml"
done
check "the merged text names the worst frame $wframe" -- grep -q "frame $wframe " "$WORK/out"

# -- Exit codes: options (2), the output over the input (2), an unreadable file (3).
expect 2 "format" -- "$RIGSCOPE" intersect "$bend" --format usda -o "$WORK/x.usda"
expect 2 "extension" -- "$RIGSCOPE" intersect "$bend" -o "$WORK/x.glb"
cp "$bend" "$WORK/in.glb"
expect 2 "output over input" -- "$RIGSCOPE" intersect "$WORK/in.glb" --format csv -o "$WORK/in.glb"
check "input untouched" -- cmp -s "$bend" "$WORK/in.glb"
printf 'glTF\002\000\000\000' >"$WORK/broken.glb"
expect 3 "broken file" -- "$RIGSCOPE" intersect "$WORK/broken.glb" -o "$WORK/x.csv"
check "broken: one line naming the file" -- one_line_naming "broken.glb"
check "no output after a failure" -- [ ! -e "$WORK/x.csv" ]

finish
