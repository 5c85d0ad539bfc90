#!/usr/bin/env bash
# check's and diff's JUnit reports (passing, failing, several meshes, check --rom, merges of check
# and diff chunks) validate against the Jenkins xunit plugin's junit-10.xsd and the Apache Ant
# JUnit schema (tests/schemas), and carry the class and test case names docs/rig_ci.md documents.
source "$(dirname "$0")/../common.bash"
BEND=data/bend_cylinder.glb
CESIUM=$CORPUS/khronos/cesium_man.gltf
SCHEMAS=(tests/schemas/junit-10.xsd tests/schemas/ant-junit.xsd)

if ! command -v xmllint >/dev/null; then
    echo "FAIL: xmllint is missing (scripts/setup.sh installs it from scripts/packages-xml.txt)"
    exit 1
fi

valid() {  # valid FILE: against every schema
    local s
    for s in "${SCHEMAS[@]}"; do
        xmllint --noout --schema "$s" "$1" 2>"$WORK/xmllint" || { sed 's/^/  /' "$WORK/xmllint" | head -5; return 1; }
    done
}

# The schemas are not lenient: the report rigscope wrote before (no errors, package, id,
# timestamp, hostname, time, properties) fails both, so a pass below means something.
cat >"$WORK/old.xml" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
<testsuite name="rigscope.check" tests="1" failures="0">
  <testcase classname="data/bend_cylinder.glb" name="stretch"></testcase>
</testsuite>
</testsuites>
XML
for s in "${SCHEMAS[@]}"; do
    check "the old report fails $(basename "$s")" -- bash -c "! xmllint --noout --schema '$s' '$WORK/old.xml' 2>/dev/null"
done

expect 0 "passing check" -- "$RIGSCOPE" -q check "$BEND" --max-stretch 0.5 --max-compress 9 --junit "$WORK/pass.xml"
check "passing report validates" -- valid "$WORK/pass.xml"
check "passing report: 2 tests, 0 failures, 0 errors" -- grep -q 'tests="2" failures="0" errors="0" skipped="0"' "$WORK/pass.xml"
check "passing report: no failure element" -- bash -c "! grep -q '<failure' '$WORK/pass.xml'"

expect 1 "failing check" -- "$RIGSCOPE" -q check "$BEND" --max-stretch 0.8 --max-compress 1.8 --junit "$WORK/fail.xml"
check "failing report validates" -- valid "$WORK/fail.xml"
check "failing report: 2 failures" -- grep -q 'tests="2" failures="2" errors="0"' "$WORK/fail.xml"
check "class name rigscope.check.<file>.<clip>.<mesh>" -- grep -q 'classname="rigscope.check.bend_cylinder~2Eglb.ArmatureAction.Cylinder"' "$WORK/fail.xml"
check "test case names say the limit" -- grep -q 'name="stretch T &lt; 0.8"' "$WORK/fail.xml"
check "compress case names its limit" -- grep -q 'name="compress T &gt; 1.8"' "$WORK/fail.xml"
check "timestamp in UTC without zone" -- grep -Eq 'timestamp="[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}"' "$WORK/fail.xml"
check "failure counts welded and file vertices" -- grep -q 'message="2 welded vertices (5 file vertices) past the limit"' "$WORK/fail.xml"
check "offender lists its file ids" -- grep -q "file vertices 0, 1, 2 (one welded vertex) frame 91" "$WORK/fail.xml"

# Dots and spaces in the file name are ~2E and ~20 (CI servers split class names on dots; the
# code is injective, so no two names meet: docs/rig_ci.md "check").
mkdir -p "$WORK/in"
cp "$BEND" "$WORK/in/my rig.v2.glb"
expect 1 "check of a dotted, spaced file name" -- "$RIGSCOPE" -q check "$WORK/in/my rig.v2.glb" --max-stretch 0.8 --junit "$WORK/dots.xml"
check "dotted name validates" -- valid "$WORK/dots.xml"
check "file name coded in the class name" -- grep -q 'classname="rigscope.check.my~20rig~2Ev2~2Eglb.ArmatureAction.Cylinder"' "$WORK/dots.xml"

# Several meshes (spider.fbx has 19, and no animation: its bind pose, asked for): a test case per
# mesh and limit; and a skinned corpus file.
SPIDER=$CORPUS/assimp/FBX/spider.fbx
expect 0 "spider check" -- "$RIGSCOPE" -q check "$SPIDER" --frames bind --max-stretch 0.5 --max-compress 2 --junit "$WORK/spider.xml"
check "spider report validates" -- valid "$WORK/spider.xml"
check "spider: 19 meshes x 2 limits test cases" -- test "$(grep -c '<testcase ' "$WORK/spider.xml")" -eq 38
check "spider: suite counts them" -- grep -q 'tests="38" failures="0"' "$WORK/spider.xml"
check "spider: mesh in the class name (no clip: its bind pose)" -- grep -q 'classname="rigscope.check.spider~2Efbx.bind.klZahn"' "$WORK/spider.xml"
expect 1 "cesium_man check" -- "$RIGSCOPE" -q check "$CESIUM" --max-stretch 0.95 --max-compress 1.05 --junit "$WORK/cesium.xml"
check "cesium_man report validates" -- valid "$WORK/cesium.xml"

# A mesh name with dots, spaces, markup, a control character and non-ASCII text: the report stays
# well-formed and valid, the class name keeps one dot per level (every byte of the name that is
# not a letter, digit, '_' or '-' is ~HH; non-ASCII UTF-8 stays).
python3 - "$CESIUM" "$WORK/in/odd.gltf" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["meshes"][0]["name"] = "arm.L <\"left\"> & \u0001 \u00e9p\u00e9e"
json.dump(d, open(sys.argv[2], "w"))
PY
expect 1 "check of a mesh with an odd name" -- "$RIGSCOPE" -q check "$WORK/in/odd.gltf" --max-stretch 0.95 --junit "$WORK/odd.xml"
check "odd mesh name: report validates" -- valid "$WORK/odd.xml"
check "odd mesh name: class name coded" -- \
    grep -qF '.arm~2EL~20~3C~22left~22~3E~20~26~20~01~20épée" name="stretch T &lt; 0.95"' "$WORK/odd.xml"

# A merge of check chunks writes a report that validates too, with the chunks' summed time.
for i in 0 1 2; do
    expect 0 "check chunk $i" -- "$RIGSCOPE" -q check "$BEND" --max-stretch 0.8 --chunk "$i/3" --junit "$WORK/c_$i.xml"
done
expect 1 "merge of check chunks (fails like the run)" -- "$RIGSCOPE" -q merge "$WORK/merged.xml" "$WORK"/c_{0,1,2}.xml
check "merged failing report validates" -- valid "$WORK/merged.xml"
rm -f "$WORK"/c_*
for i in 0 1; do
    expect 0 "passing check chunk $i" -- "$RIGSCOPE" -q check "$BEND" --max-stretch 0.5 --chunk "$i/2" --junit "$WORK/c_$i.xml"
done
expect 0 "merge of passing check chunks" -- "$RIGSCOPE" -q merge "$WORK/merged_pass.xml" "$WORK"/c_{0,1}.xml
check "merged passing report validates" -- valid "$WORK/merged_pass.xml"

# check --rom: the failures name ROM joints, axes and angles, and the ROM lines are in system-out.
expect 1 "failing check --rom" -- "$RIGSCOPE" -q check "$BEND" --rom --max-compress 1.3 --junit "$WORK/rom.xml"
check "check --rom report validates" -- valid "$WORK/rom.xml"

# diff writes its JUnit through the same writer: the schemas' attributes, a test case per limit.
# NEW: bend_cylinder with Bone.001's keys moved 0.1 m (tests/cli/rigci_glb.py, no rigscope).
python3 "$(dirname "$0")/../rigci_glb.py" move "$BEND" "$WORK/in/moved.glb" Bone.001 0.1 0 0
expect 0 "passing diff" -- "$RIGSCOPE" -q diff "$BEND" "$BEND" --max-displacement 0 --max-t-change 0 --junit "$WORK/diff_pass.xml"
check "passing diff report validates" -- valid "$WORK/diff_pass.xml"
# 3 cases: one per limit, and the seams bend_cylinder welds (issue 41 item 3: a torn seam is a finding).
check "passing diff: 3 tests, 0 failures" -- grep -q 'tests="3" failures="0" errors="0" skipped="0"' "$WORK/diff_pass.xml"
check "passing diff: a seam torn case" -- grep -q '<testcase classname="rigscope.diff.bend_cylinder~2Eglb.ArmatureAction" name="seam torn" time="0"/>' "$WORK/diff_pass.xml"
check "passing diff: no failure element" -- bash -c "! grep -q '<failure' '$WORK/diff_pass.xml'"
check "diff suite: NEW's stem in package rigscope.diff" -- grep -q '<testsuite name="bend_cylinder" package="rigscope.diff" id="0"' "$WORK/diff_pass.xml"
expect 1 "failing diff" -- "$RIGSCOPE" -q diff "$BEND" "$WORK/in/moved.glb" --max-displacement 0.01 --max-t-change 1000 --junit "$WORK/diff_fail.xml"
check "failing diff report validates" -- valid "$WORK/diff_fail.xml"
# Moving Bone.001's keys moves both copies of each seam vertex alike: no seam is torn.
check "failing diff: 3 tests, 1 failure (the displacement)" -- grep -q 'tests="3" failures="1" errors="0"' "$WORK/diff_fail.xml"
check "failing diff: the seam torn case passes" -- grep -q '<testcase classname="rigscope.diff.moved~2Eglb.ArmatureAction" name="seam torn" time="0"/>' "$WORK/diff_fail.xml"
check "failing diff: class and case name" -- grep -q '<testcase classname="rigscope.diff.moved~2Eglb.ArmatureAction" name="displacement &gt; 0.01" time="0">' "$WORK/diff_fail.xml"
check "failing diff: typed failure" -- grep -q '<failure type="rigscope.diff.displacement" message="[0-9]* vertices past the limit">' "$WORK/diff_fail.xml"
check "failing diff: timestamp in UTC without zone" -- grep -Eq 'timestamp="[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}"' "$WORK/diff_fail.xml"
check "failing diff: both inputs as properties" -- grep -q '<property name="new" value="'"$WORK"'/in/moved.glb"/>' "$WORK/diff_fail.xml"
rm -f "$WORK"/c_*
for i in 0 1 2; do
    expect 0 "diff chunk $i" -- "$RIGSCOPE" -q diff "$BEND" "$WORK/in/moved.glb" --max-displacement 0.01 --chunk "$i/3" -o "$WORK/c_$i.csv"
done
expect 1 "merge of diff chunks (fails like the run)" -- "$RIGSCOPE" -q merge "$WORK/merged.csv" "$WORK"/c_{0,1,2}.csv --junit "$WORK/diff_merged.xml"
check "merged diff report validates" -- valid "$WORK/diff_merged.xml"

finish
