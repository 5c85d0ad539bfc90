#!/usr/bin/env bash
# rigscope lint end to end: the corpus and planted defects (lint_corpus.py), exit codes, the text
# and JSON outputs agreeing, --strict, and a JUnit report (one test case per check) that validates
# against both schemas.
source "$(dirname "$0")/../common.bash"
PY=/usr/bin/python3
BEND=$CORPUS/bend_cylinder/bend_cylinder.glb
CESIUM=$CORPUS/khronos/cesium_man.gltf
SCHEMAS=(tests/schemas/junit-10.xsd tests/schemas/ant-junit.xsd)
[ -f "$CESIUM" ] || skip "no corpus at $CORPUS (RIGSCOPE_CORPUS)"
$PY -c 'import numpy' 2>/dev/null || skip "numpy is missing for $PY (scripts/setup.sh installs python3-numpy)"

# The corpus: every check on every file; cesium_man's sums; a symmetric rig; planted defects.
"$PY" tests/cli/lint_corpus.py "$RIGSCOPE" "$CORPUS" "$WORK" tests/collada/*.dae | sed 's/^/  /'
check "lint_corpus.py" -- test "${PIPESTATUS[0]}" -eq 0

# Exit codes: cesium_man's sums are errors (1); bend_cylinder has no error, but warnings with
# --strict only when it has a warning (its unused joints are info).
expect 1 "cesium_man fails" -- "$RIGSCOPE" lint "$CESIUM"
check "text ends in FAIL" -- bash -c "tail -1 '$WORK/out' | grep -qx FAIL"
check "text lists weights_sum errors" -- grep -q "^error weights_sum 'Cesium_Man' vertex 0: weights sum to 0.68" "$WORK/out"
check "text: at most 20 per check, then the rest counted" -- grep -q "^  \.\.\. 190 more findings of weights_sum" "$WORK/out"
expect 1 "cesium_man, all listed" -- "$RIGSCOPE" lint "$CESIUM" --list 0
check "--list 0: all 210" -- test "$(grep -c '^error weights_sum' "$WORK/out")" -eq 210
expect 0 "bend_cylinder passes" -- "$RIGSCOPE" lint "$BEND" --mirror x
check "text ends in PASS" -- bash -c "tail -1 '$WORK/out' | grep -qx PASS"
"$RIGSCOPE" lint "$BEND" --format json -o "$WORK/bend.json" 2>/dev/null
warnings=$($PY -c 'import json,sys; print(json.load(open(sys.argv[1]))["counts"]["warning"])' "$WORK/bend.json")
expect $([ "$warnings" -gt 0 ] && echo 1 || echo 0) "--strict fails exactly when there is a warning" -- "$RIGSCOPE" lint "$BEND" --strict

# A warning planted (one small weight): passes, and fails with --strict.
$PY - "$BEND" "$WORK/small.glb" <<'PY'
import sys
sys.path.insert(0, "tests/cli")
from gltf_edit import Gltf
import numpy as np
g = Gltf(sys.argv[1])
P = g.attr("POSITION")
v = next(v for v in range(len(P)) if np.all(P == P[v], axis=1).sum() == 1)  # not on a seam
g.attr("JOINTS_0")[v] = [0, 1, 0, 0]
g.attr("WEIGHTS_0")[v] = [0.9995, 0.0005, 0, 0]
g.save(sys.argv[2])
open(sys.argv[2] + ".vertex", "w").write(str(v))
PY
expect 0 "a small weight is a warning" -- "$RIGSCOPE" lint "$WORK/small.glb"
expect 1 "--strict counts it" -- "$RIGSCOPE" lint "$WORK/small.glb" --strict
check "and names it" -- grep -q "^warning small_weight 'Cylinder' vertex $(cat "$WORK/small.glb.vertex"): weight 0.0005" "$WORK/out"

# JSON and text list the same findings; -o NAME.json picks JSON.
expect 1 "json by extension" -- "$RIGSCOPE" lint "$CESIUM" --list 0 -o "$WORK/c.json"
"$RIGSCOPE" lint "$CESIUM" --list 0 -o "$WORK/c.txt" 2>/dev/null
check "text and JSON agree" -- $PY - "$WORK/c.json" "$WORK/c.txt" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
lines = [l for l in open(sys.argv[2]).read().splitlines() if l.split(" ")[0] in ("error", "warning", "info")]
assert len(lines) == len(d["findings"]), (len(lines), len(d["findings"]))
for l, f in zip(lines, d["findings"]):
    assert l.startswith(f["severity"] + " " + f["check"] + " '" + f["mesh"] + "'"), (l, f)
    assert l.endswith(": " + f["message"]), (l, f)
assert d["command"] == "lint" and d["failed"] and d["counts"]["error"] == 210
PY

# JUnit: one test case per check run, failing ones failed; valid against both schemas.
expect 1 "junit" -- "$RIGSCOPE" lint "$CESIUM" --mirror x --junit "$WORK/lint.xml" -o "$WORK/lint.txt"
if command -v xmllint >/dev/null; then
    for s in "${SCHEMAS[@]}"; do
        check "JUnit validates against $(basename "$s")" -- xmllint --noout --schema "$s" "$WORK/lint.xml"
    done
else
    skip_later "xmllint is missing (scripts/packages-xml.txt): the JUnit report is not validated"
fi
check "JUnit: 11 cases, the failed ones the checks with errors" -- $PY - "$WORK/lint.xml" "$CESIUM" <<'PY'
import sys, json, subprocess, xml.etree.ElementTree as ET
suite = ET.parse(sys.argv[1]).getroot().find("testsuite")
cases = suite.findall("testcase")
assert [c.get("name") for c in cases] == ["weights_sum", "influences", "small_weight", "unweighted", "seam_weights", "unused_joint",
                                          "mirror", "mirror_unpaired", "degenerate_face", "bind_pose", "joint_scale", "legacy_binding"], [c.get("name") for c in cases]
# The class name carries the file's name, encoded as check's are (junit_key_part: '.' is ~2E).
assert all(c.get("classname") == "rigscope.lint.cesium_man~2Egltf" for c in cases), {c.get("classname") for c in cases}
failed = {c.get("name") for c in cases if c.find("failure") is not None}
assert suite.get("failures") == str(len(failed)) and "weights_sum" in failed, failed
assert suite.get("package") == "rigscope.lint"
PY

# A file without a skinned mesh: the skin checks have nothing to read. They are named as not
# checked and the lint fails (exit 1), never passes: text, and JUnit failures of their own type.
STATIC=$CORPUS/khronos/interpolation_test.gltf
expect 1 "no skinned mesh fails" -- "$RIGSCOPE" lint "$STATIC" --junit "$WORK/static.xml"
check "text: not checked, with the reason, then FAIL" -- bash -c "grep -q '^not checked: weights_sum, .*joint_scale, legacy_binding (none of the .* selected meshes has a skin)' '$WORK/out' && tail -1 '$WORK/out' | grep -qx FAIL"
if command -v xmllint >/dev/null; then
    for s in "${SCHEMAS[@]}"; do
        check "JUnit (not checked) validates against $(basename "$s")" -- xmllint --noout --schema "$s" "$WORK/static.xml"
    done
fi
check "JUnit: degenerate_face ran and passed, every other check failed as not checked" -- $PY - "$WORK/static.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
suite = ET.parse(sys.argv[1]).getroot().find("testsuite")
cases = {c.get("name"): c.find("failure") for c in suite.findall("testcase")}
assert cases.pop("degenerate_face") is None, "degenerate_face failed"
assert sorted(cases) == sorted(["weights_sum", "influences", "small_weight", "unweighted", "seam_weights", "unused_joint", "bind_pose", "joint_scale", "legacy_binding"]), sorted(cases)
assert all(f is not None and f.get("type") == "rigscope.lint.not_checked" for f in cases.values()), cases
assert suite.get("failures") == "9"
PY

# Usage errors (exit 2) before the file is read, bad input (3), an output over the input (2).
expect 2 "--mirror-tolerance without --mirror" -- "$RIGSCOPE" lint "$BEND" --mirror-tolerance 1e-3
check "says it needs --mirror" -- one_line_naming "needs --mirror"
expect 2 "--mirror w" -- "$RIGSCOPE" lint "$BEND" --mirror w
check "names the option" -- one_line_naming "--mirror"
expect 2 "--mirror-names without --mirror" -- "$RIGSCOPE" lint "$BEND" --mirror-names Lf=Rt
check "says it needs --mirror" -- one_line_naming "needs --mirror"
expect 2 "--mirror-names not A=B" -- "$RIGSCOPE" lint "$BEND" --mirror x --mirror-names Lf
check "names the option" -- one_line_naming "--mirror-names"
expect 2 "--weight-tolerance -1" -- "$RIGSCOPE" lint "$BEND" --weight-tolerance -1
expect 2 "--max-influences 0" -- "$RIGSCOPE" lint "$BEND" --max-influences 0
expect 2 "--format csv" -- "$RIGSCOPE" lint "$BEND" --format csv
expect 3 "missing file" -- "$RIGSCOPE" lint "$WORK/none.glb"
check "one line naming the file" -- one_line_naming "none.glb"
expect 2 "output over the input" -- "$RIGSCOPE" lint "$WORK/small.glb" -o "$WORK/small.glb"
check "the input is intact" -- test "$(head -c 4 "$WORK/small.glb")" = glTF
expect 4 "output folder missing" -- "$RIGSCOPE" lint "$BEND" -o "$WORK/no/such/out.json"

# check --lint: one run, both verdicts. cesium_man's tension passes a loose limit, but its weights
# do not all sum to 1 (lint's weights_sum errors): with --lint the check fails, and its JUnit and
# JSON carry the lint's checks; without --lint the same check passes.
CES=$CORPUS/khronos/cesium_man.gltf
expect 0 "check without --lint passes" -- "$RIGSCOPE" -q check "$CES" --max-compress 100 --frames 1..10
expect 1 "check --lint fails on the weight sums" -- "$RIGSCOPE" -q check "$CES" --max-compress 100 --frames 1..10 --lint \
    --junit "$WORK/cl.xml" --json "$WORK/cl.json"
check "the text names weights_sum and ends with one FAIL" -- bash -c "grep -q weights_sum '$WORK/out' && tail -1 '$WORK/out' | grep -qx FAIL && [ \$(grep -cx FAIL '$WORK/out') -eq 1 ]"
check "JUnit: lint cases in the check's suite, weights_sum failed" -- /usr/bin/python3 - "$WORK/cl.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
cases = ET.parse(sys.argv[1]).getroot().iter("testcase")
lint = {c.get("name"): c.find("failure") is not None for c in cases if c.get("classname", "").startswith("rigscope.lint.")}
assert lint.get("weights_sum") is True, lint
assert lint.get("unweighted") is False, lint
PY
check "JSON: passed false, lint findings as rigscope lint writes them" -- /usr/bin/python3 -c "
import json, subprocess
j = json.load(open('$WORK/cl.json'))
assert j['passed'] is False and j['lint']['failed'] is True
alone = json.loads(subprocess.run(['$RIGSCOPE', 'lint', '$CES', '--format', 'json'], capture_output=True, text=True).stdout)
assert j['lint']['findings'] == alone['findings']
"
expect 2 "check --lint with --chunk" -- "$RIGSCOPE" -q check "$CES" --max-compress 100 --lint --chunk 0/2 --junit "$WORK/c0.xml"

# A batch's JUnit: two rig.glb in two folders get distinct class names (the path relative to the
# batch root), so no (classname, name) pair repeats: the key Jenkins and GitLab trace a case by.
mkdir -p "$WORK/twins/a" "$WORK/twins/b"
cp data/bend_cylinder.glb "$WORK/twins/a/rig.glb"
cp data/bend_cylinder.glb "$WORK/twins/b/rig.glb"
"$RIGSCOPE" -q lint "$WORK/twins" --junit "$WORK/twins.xml" >/dev/null 2>&1
check "batch JUnit: the same file name in two folders never shares a (classname, name) key" -- $PY - "$WORK/twins.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
keys = [(c.get("classname"), c.get("name")) for c in ET.parse(sys.argv[1]).getroot().iter("testcase")]
assert len(keys) == 20 and len(set(keys)) == len(keys), keys
assert {k[0] for k in keys} == {"rigscope.lint.a.rig~2Eglb", "rigscope.lint.b.rig~2Eglb"}, {k[0] for k in keys}
PY

finish
