#!/usr/bin/env bash
# The Rig CI recipe of docs/rig_ci.md (once the README's), run as written (the ```sh block whose skip marker names this test): with an
# unchanged rig it passes and accepts it; with a moved joint the diff fails with exit 1, the
# JUnit report says so, and the accepted version stays.
. "$(dirname "$0")/../common.bash"

awk '/<!-- readme-test: skip: .*rigci_readme.sh/ {on = 1; next} on && /^```sh/ {inside = 1; next} inside && /^```/ {exit} inside' docs/rig_ci.md >"$WORK/recipe.sh"
check "docs/rig_ci.md has the recipe" -- grep -q "rigscope diff" "$WORK/recipe.sh"
mkdir -p "$WORK/bin" "$WORK/ci/accepted"
ln -s "$(cd "$(dirname "$RIGSCOPE")" && pwd)/$(basename "$RIGSCOPE")" "$WORK/bin/rigscope"
cp data/bend_cylinder.glb "$WORK/ci/rig.glb"
cp data/bend_cylinder.glb "$WORK/ci/accepted/rig.glb"

run_recipe() { (cd "$WORK/ci" && PATH="$WORK/bin:$PATH" bash "$WORK/recipe.sh"); }

expect 0 "recipe on an unchanged rig passes" -- run_recipe
check "recipe wrote both JUnit reports, no failures" -- python3 -c '
import sys, xml.etree.ElementTree as ET
for f in sys.argv[1:]:
    s = ET.parse(f).getroot().find("testsuite")
    assert int(s.get("failures")) == 0 and int(s.get("tests")) >= 1, f' "$WORK/ci/reports/rom.xml" "$WORK/ci/reports/diff.xml"
check "recipe wrote the diff glTF" -- test -s "$WORK/ci/reports/diff.glb"

python3 "$(dirname "$0")/../rigci_glb.py" move data/bend_cylinder.glb "$WORK/ci/rig.glb" Bone.001 0 0.01 0
expect 1 "recipe on a rig with a moved joint fails" -- run_recipe
check "diff JUnit reports the failure" -- python3 -c '
import sys, xml.etree.ElementTree as ET
s = ET.parse(sys.argv[1]).getroot().find("testsuite")
assert s.get("failures") == "1" and "Bone.001" in s.find("testcase/failure").text' "$WORK/ci/reports/diff.xml"
check "the accepted version stays" -- cmp -s data/bend_cylinder.glb "$WORK/ci/accepted/rig.glb"

finish
